"""`vitgrade check`: the visible tests of some steps, as a student runs them after each edit."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from grader import paths
from grader.cli.grading import exit_code, resolve_folder, resolve_steps, run_grader, write


def check(
    steps: Annotated[list[str] | None, typer.Argument(
        metavar="[STEP]...", help="Step ids such as 05_attention (or 5, or attention). Default: all.")] = None,
    all_steps: Annotated[bool, typer.Option("--all", help="Check every step.")] = False,
    submission: Annotated[Path | None, typer.Option(
        metavar="DIR", help="Folder holding your step files. Default: exercises/.")] = None,
    solutions: Annotated[bool, typer.Option(
        "--solutions", help="Check the reference solutions.",
        hidden=not paths.SOLUTIONS.is_dir())] = False,  # the student release has none
    format: Annotated[Literal["rich", "json", "junit"], typer.Option(
        help="rich: readable report; json: the result contract; junit: for CI test views.")] = "rich",
    output: Annotated[Path | None, typer.Option(metavar="PATH", help="Write the report here.")] = None,
    timeout: Annotated[float, typer.Option(metavar="S", help="Time limit per step, seconds.")] = 90.0,
    show_output: Annotated[bool, typer.Option(
        "--show-output", help="Show what your code printed under passing tests too (it is always "
        "shown under failing ones; never in --format json).")] = False,
) -> None:
    """Run the visible tests of STEP (default: all) on your files and say exactly what is wrong.

    Exit status: 0 all checked steps pass, 1 something fails, 2 usage or fixture error.
    """
    from grader.cli.common import report_console
    from grader.reports import render, to_json, to_junit

    chosen = resolve_steps(steps, all_steps)
    folder = resolve_folder(submission, solutions)
    results = run_grader([folder], chosen, hidden=False, timeout=timeout)
    if format == "json":
        write(to_json(results), output)
    elif format == "junit":
        write(to_junit(results), output)
    elif output is not None:
        from rich.console import Console

        with open(output, "w", encoding="utf-8") as handle:
            render(results[0], Console(file=handle, force_terminal=False, width=100), show_output=show_output)
    else:
        render(results[0], report_console, show_output=show_output)
    raise typer.Exit(exit_code(results))
