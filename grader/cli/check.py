"""`vitgrade check`: the visible tests of some steps, as a student runs them after each edit, or
again on every save (`--watch`)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from grader import paths
from grader.cli.common import fail
from grader.cli.grading import exit_code, resolve_folder, resolve_steps, run_grader, write
from grader.graded_files import GradedFiles
from grader.results import SubmissionResult
from grader.signals import STOPPED_EXIT
from grader.steps import DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from grader.launch.runners import EarlyRunner



def check(
    context: typer.Context,
    steps: Annotated[list[str] | None, typer.Argument(
        metavar="STEP", help="Step ids such as 05_attention (or 5, or attention). Default: all.")] = None,
    all_steps: Annotated[bool, typer.Option("--all", help="Check every step.")] = False,
    submission: Annotated[Path | None, typer.Option(
        metavar="DIR", help="Folder holding your step files. Default: exercises/.")] = None,
    solutions: Annotated[bool, typer.Option(
        "--solutions", help="Check the reference solutions.",
        hidden=not paths.SOLUTIONS.is_dir())] = False,  # the student release has none
    format: Annotated[Literal["rich", "json", "junit"], typer.Option(
        help="rich: readable report; json: the result contract; junit: for CI test views.")] = "rich",
    output: Annotated[Path | None, typer.Option(metavar="PATH", help="Write the report here.")] = None,
    timeout: Annotated[float, typer.Option(metavar="S", help="Time limit per step, seconds.")] = DEFAULT_TIMEOUT,
    show_output: Annotated[bool, typer.Option(
        "--show-output", help="Show what your code printed under passing tests too (it is always "
        "shown under failing ones; never in --format json).")] = False,
    watch: Annotated[bool, typer.Option(
        "--watch", help="After the report, keep watching: each time you save the step's file (or an "
        "earlier step's file), check again at once. Ctrl-C stops.")] = False,
) -> None:
    """Run the visible tests of STEP (default: all) on your files and say exactly what is wrong.

    Exit status: 0 all checked steps pass, 1 something fails, 2 usage or fixture error.
    """
    from grader.launch.runners import EarlyRunner

    chosen = resolve_steps(steps, all_steps)
    folder = resolve_folder(submission, solutions)
    if watch and (format != "rich" or output is not None):
        fail("--watch prints the readable report to the terminal: leave out --format and --output")
    with EarlyRunner.given(context.obj) as early:  # the one the command line started, else one now
        code = _watch_and_check(folder, chosen, timeout, show_output, early) if watch else \
            _check(folder, chosen, format, output, timeout, show_output, early)
    raise typer.Exit(code)


def _check(folder: Path, chosen: tuple[str, ...], format: str, output: Path | None, timeout: float,
           show_output: bool, early: EarlyRunner) -> int:
    """Check once and write the report; returns the exit status."""
    from grader.cli.common import report_console
    from grader.reports import render, to_json, to_junit

    graded = GradedFiles.of(folder, chosen)
    results = run_grader([folder], chosen, hidden=False, timeout=timeout, early=early)
    if results and results[0].stale_fingerprints:
        from grader.cli.common import err

        err.print(f"warning: {results[0].stale_fingerprints}", markup=False)
    if format == "json":
        write(to_json(results), output)
    elif format == "junit":
        write(to_junit(results), output)
    elif output is not None:
        from rich.console import Console

        with open(output, "w", encoding="utf-8") as handle:
            render(results[0], Console(file=handle, force_terminal=False, width=100), show_output=show_output,
                   graded=graded)
    else:
        render(results[0], report_console, show_output=show_output, graded=graded)
    return exit_code(results)


def _watch_and_check(folder: Path, chosen: tuple[str, ...], timeout: float, show_output: bool,
                     early: EarlyRunner) -> int:
    last = _watch(folder, chosen, timeout, show_output, early)
    return exit_code([last]) if last is not None else STOPPED_EXIT["SIGINT"]  # Ctrl-C before the first result


def _watch(folder: Path, chosen: tuple[str, ...], timeout: float, show_output: bool,
           early: EarlyRunner) -> SubmissionResult | None:
    """Check on every save with one grader kept warm; its workers end with it, also on Ctrl-C."""
    from grader.cli.common import report_console
    from grader.expected.store import FixtureError
    from grader.recheck import recheck_on_save
    from grader.judge.grading import GradeOptions

    options = GradeOptions(hidden=False, timeout=timeout, steps=chosen)
    try:
        return recheck_on_save(options, folder, chosen, report_console, show_output=show_output, early=early)
    except FixtureError as error:
        fail(str(error))
