"""`vitgrade grade`: everything, hidden tests included, for CI and gradebooks."""
from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from grader import paths
from grader.cli.common import EXIT_FAILED, err, fail, progress, report_console
from grader.cli.grading import exit_code, write
from grader.graded_files import GradedFiles
from grader.results import SubmissionResult
from grader.signals import STOPPED_EXIT, answered_by
from grader.steps import DEFAULT_MEMORY, DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from grader.platforms.classes import ClassRun

#: GiB below which no worker gets far: at 0.5 every step of the solutions ends in a memory error,
#: at 1 only the occlusion step's ViT maps do.
MINIMUM_MEMORY = 1.0

def grade(
    context: typer.Context,
    submissions: Annotated[list[Path] | None, typer.Argument(
        metavar="SUBMISSION", help="Folders of step files, or folders of such folders (a class: every "
        "folder in it gets a row, one without step files 0 and the reason).")] = None,
    solutions: Annotated[bool, typer.Option("--solutions", help="Grade the reference solutions.")] = False,
    steps: Annotated[list[str] | None, typer.Option(
        "--steps", metavar="STEP", help="Grade only these steps (repeat it, or separate ids by commas); "
        "default: all. Step ids as in `vitgrade list`, e.g. 05_attention or 5.")] = None,
    format: Annotated[Literal["rich", "json", "junit", "gradescope"], typer.Option(
        help="rich, json (the result contract), junit (CI test reports) or gradescope (results.json).")] = "rich",
    output: Annotated[Path | None, typer.Option(metavar="PATH", help="Write the report here.")] = None,
    csv: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "Also write a CSV gradebook here; each submission's result is kept as soon as it is graded "
        "in the results folder beside it (PATH without .csv, plus .results), unless --results says where."))] = None,
    results: Annotated[Path | None, typer.Option(metavar="DIR", help=(
        "Keep each submission's result here as soon as it is graded (`vitgrade gradebook DIR` merges them)."))] = None,
    resume: Annotated[bool, typer.Option("--resume", help=(
        "Grade only the submissions whose kept result is missing, or was graded from other step files "
        "or options; read the others back."))] = False,
    report: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "Also write the class report here: one HTML file with each step's score distribution, "
        "the most common mistakes and every student's feedback."))] = None,
    jobs: Annotated[int, typer.Option(metavar="N", help="Submissions graded at once.")] = 1,
    timeout: Annotated[float, typer.Option(metavar="S", help="Time limit per step, seconds.")] = DEFAULT_TIMEOUT,
    memory: Annotated[float, typer.Option(metavar="GIB", help=(
        "Memory limit per step's worker, GiB: a step that takes more ends in a memory error. The "
        "solutions need about 1.5; lower it where the machine has less to give each job."))] = DEFAULT_MEMORY / 2**30,
    no_hidden: Annotated[bool, typer.Option("--no-hidden", help="Only the visible tests.")] = False,
    show_output: Annotated[bool, typer.Option(
        "--show-output", help="Show what your code printed under passing tests too (it is always "
        "shown under failing ones; never in --format json).")] = False,
) -> None:
    """Grade one submission or many (a CSV gradebook with --csv): visible and hidden tests,
    each step in a sandboxed worker with a time and memory limit.

    Ctrl-C or SIGTERM stop grading; what was graded is kept and its gradebook written, and
    --resume grades the rest. Exit status: 0 everything passes, 1 something fails, 2 usage or
    fixture error, 130 or 143 stopped by Ctrl-C or SIGTERM.
    """
    from grader.cli.grading import resolve_steps
    from grader.expected.store import FixtureError
    from grader.platforms.classes import ClassError, expand_submissions, grade_class
    from grader.launch.runners import EarlyRunner

    _check_numbers(jobs, timeout, memory)
    chosen = resolve_steps([step for given in steps or [] for step in given.split(",") if step.strip()])
    folders = ([paths.SOLUTIONS] if solutions else []) + list(submissions or [])
    if not folders:
        fail("name a SUBMISSION folder, or --solutions")
    try:
        found = expand_submissions(folders)
    except ClassError as error:
        fail(str(error))
    if format == "gradescope" and len(found) != 1:
        fail("--format gradescope writes one submission's results.json; grade them one at a time")
    kept = results or (csv.with_name(f"{csv.stem}.results") if csv is not None else None)
    if resume and kept is None:
        fail("--resume reads the kept results: give the --csv or --results of the run to resume")
    with ExitStack() as after_grading:
        with EarlyRunner.given(context.obj, jobs) as early:  # the one the command line started, else one now
            try:
                run = grade_class(found, chosen, hidden=not no_hidden, timeout=timeout, memory=int(memory * 2**30),
                                  jobs=jobs, kept=kept,
                                  resume=resume, progress=progress, early=early)
            except (ClassError, FixtureError) as error:
                fail(str(error))
            late = after_grading.enter_context(_reports_finished_first())  # before the runner's end
        graded = GradedFiles.of(found[0].folder, tuple(s.id for s in run.results[0].steps)) \
            if len(found) == 1 and run.results else None
        _write_reports(run.results, format=format, output=output, csv=csv, report=report,
                       show_output=show_output, graded=graded)
    if run.stopped_by:
        _say_stopped(run, kept)
        raise typer.Exit(STOPPED_EXIT.get(run.stopped_by, EXIT_FAILED))
    if late:
        err.print(f"vitgrade: stopped by {late[0]} once grading had ended: every result and report "
                  "was written", markup=False)
        raise typer.Exit(STOPPED_EXIT[late[0]])
    raise typer.Exit(exit_code(run.results))


@contextmanager
def _reports_finished_first() -> Iterator[list[str]]:
    """Ctrl-C or SIGTERM once grading has ended waits for the reports of what was graded (a moment,
    and the runner's end): stopped there, the command would leave a gradebook of an earlier run in
    place. Yields the names of the signals that came meanwhile; the command then ends as stopped
    by the first."""
    import signal

    came: list[str] = []

    def remember(number: int, frame: object) -> None:
        came.append(signal.Signals(number).name)

    with answered_by(remember):
        yield came


def _check_numbers(jobs: int, timeout: float, memory: float) -> None:
    """One line and exit 2 for numbers no grading can use."""
    if jobs < 1:
        fail(f"--jobs {jobs}: grade at least 1 submission at a time")
    if not math.isfinite(timeout) or timeout < 1:
        fail(f"--timeout {timeout:g}: a step needs at least 1 second")
    if not math.isfinite(memory) or memory < MINIMUM_MEMORY:
        fail(f"--memory {memory:g}: a worker needs at least {MINIMUM_MEMORY:g} GiB (torch and the checkpoint)")


def _write_reports(results: list[SubmissionResult], *, format: str, output: Path | None, csv: Path | None,
                   report: Path | None, show_output: bool, graded: GradedFiles | None) -> None:
    """The gradebook, class report and chosen report of what was graded."""
    from grader.reports import render, render_summary, to_csv, to_gradescope, to_json, to_junit

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
        if results:
            write(to_gradescope(results[0]), output)
    elif len(results) == 1:
        render(results[0], report_console, show_output=show_output, graded=graded)
    elif results:
        render_summary(results, report_console)


def _say_stopped(run: ClassRun, kept: Path | None) -> None:
    """One line: what was kept, how many were not graded, and how to finish."""
    finish = f"`--resume` grades them ({kept} keeps the {len(run.results)} done)" if kept is not None else \
        "give --csv or --results to keep results, so a rerun with --resume grades only the rest"
    err.print(f"vitgrade: stopped by {run.stopped_by}: {run.left} submission(s) not graded; {finish}",
              markup=False)
