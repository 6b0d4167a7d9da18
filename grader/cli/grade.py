"""`vitgrade grade`: everything, hidden tests included, for CI and gradebooks."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from grader import paths
from grader.cli.common import fail, report_console
from grader.cli.grading import exit_code, expand_submissions, run_grader, write
from grader.steps import DEFAULT_TIMEOUT


def grade(
    submissions: Annotated[list[Path] | None, typer.Argument(
        metavar="[SUBMISSION]...", help="Folders of step files, or folders of such folders.")] = None,
    solutions: Annotated[bool, typer.Option("--solutions", help="Grade the reference solutions.")] = False,
    format: Annotated[Literal["rich", "json", "junit", "gradescope"], typer.Option(
        help="rich, json (the result contract), junit (CI test reports) or gradescope (results.json).")] = "rich",
    output: Annotated[Path | None, typer.Option(metavar="PATH", help="Write the report here.")] = None,
    csv: Annotated[Path | None, typer.Option(metavar="PATH", help="Also write a CSV gradebook here.")] = None,
    report: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "Also write the class report here: one HTML file with each step's score distribution, "
        "the most common mistakes and every student's feedback."))] = None,
    jobs: Annotated[int, typer.Option(metavar="N", min=1, help="Submissions graded at once.")] = 1,
    timeout: Annotated[float, typer.Option(
        metavar="S", min=1.0, help="Time limit per step, seconds.")] = DEFAULT_TIMEOUT,
    no_hidden: Annotated[bool, typer.Option("--no-hidden", help="Only the visible tests.")] = False,
    show_output: Annotated[bool, typer.Option(
        "--show-output", help="Show what your code printed under passing tests too (it is always "
        "shown under failing ones; never in --format json).")] = False,
) -> None:
    """Grade one submission or many (a CSV gradebook with --csv): visible and hidden tests,
    each step in a sandboxed worker with a time and memory limit.

    Exit status: 0 everything passes, 1 something fails, 2 usage or fixture error.
    """
    from grader.reports import render, render_summary, to_csv, to_gradescope, to_json, to_junit
    from grader.steps import STEP_IDS

    folders = ([paths.SOLUTIONS] if solutions else []) + list(submissions or [])
    if not folders:
        fail("name a SUBMISSION folder, or --solutions")
    found = expand_submissions(folders)
    if format == "gradescope" and len(found) != 1:
        fail("--format gradescope writes one submission's results.json; grade them one at a time")
    results = run_grader(found, STEP_IDS, hidden=not no_hidden, timeout=timeout, jobs=jobs)
    if csv is not None:
        write(to_csv(results), csv)
    if report is not None:
        from grader.reports.class_report import to_class_report

        write(to_class_report(results), report)
    if format == "json":
        write(to_json(results), output)
    elif format == "junit":
        write(to_junit(results), output)
    elif format == "gradescope":
        write(to_gradescope(results[0]), output)
    elif len(results) == 1:
        render(results[0], report_console, show_output=show_output)
    else:
        render_summary(results, report_console)
    raise typer.Exit(exit_code(results))
