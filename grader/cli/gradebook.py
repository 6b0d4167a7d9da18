"""`vitgrade gradebook`: a class's result files, graded elsewhere, as one gradebook and class report."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grader.cli.common import err, fail, report_console
from grader.cli.grading import write
from grader.results import SubmissionResult


def gradebook(
    sources: Annotated[list[Path], typer.Argument(
        metavar="RESULT", help="Result files (`vitgrade grade --format json`), or folders of them.",
        show_default=False)],
    csv: Annotated[Path | None, typer.Option(metavar="PATH", help="Write the CSV gradebook here.")] = None,
    report: Annotated[Path | None, typer.Option(
        metavar="PATH", help="Write the HTML class report here.")] = None,
    roster: Annotated[Path | None, typer.Option(metavar="ROSTER", help=(
        "The roster `vitgrade fetch` read: every line gets a row, in its order (0 and why where its "
        "result is missing), and a result counts only for the repository it was graded from."))] = None,
    base_url: Annotated[str, typer.Option(
        metavar="URL", help="Where the roster's owner/name lines live.")] = "https://github.com",
) -> None:
    """Merge result files graded elsewhere into one CSV gradebook and one class report.

    The last step of grading a class one CI job per student (templates/instructor-grade.yml);
    nothing is graded again. Without --csv or --report, prints the class as a table.
    Exit status: 0 written, 2 a file missing or not a vitgrade result, or a roster line that names
    no repository.
    """
    from grader.reports import render_summary, to_csv
    from grader.reports.class_report import to_class_report

    results = _read(sources)
    if roster is not None:
        results = _by_roster(results, roster, base_url)
    if csv is not None:
        write(to_csv(results), csv)
    if report is not None:
        write(to_class_report(results), report)
    if csv is None and report is None:
        render_summary(results, report_console)


def _by_roster(results: list[SubmissionResult], roster: Path, base_url: str) -> list[SubmissionResult]:
    from grader.cli.fetch import roster_of
    from grader.expected.store import FixtureError
    from grader.platforms.classes import by_roster

    try:
        rows, strangers = by_roster(results, roster_of(roster, base_url))
    except FixtureError as error:  # a missing result's row names the fixtures' checkpoint
        fail(str(error))
    if strangers:
        err.print(f"vitgrade: {strangers} result(s) belong to no repository of {roster}: left out", markup=False)
    return rows


def _read(sources: list[Path]) -> list[SubmissionResult]:
    """Every result in the files named, folders read file by file (subfolders too, as artifacts
    download) in path order."""
    from grader.reports.contract import from_json

    files = [f for s in sources for f in (sorted(s.rglob("*.json")) if s.is_dir() else [s])]
    if not files:
        fail(f"no result files (*.json) in {', '.join(map(str, sources))}")
    results: list[SubmissionResult] = []
    for path in files:
        try:
            results += from_json(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            fail(f"cannot read {path}: {getattr(error, 'strerror', None) or error}")
        except ValueError as error:
            fail(f"{path}: {error}")
    return results
