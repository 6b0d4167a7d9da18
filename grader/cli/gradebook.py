"""`vitgrade gradebook`: a class's result files, graded elsewhere, as one gradebook and class report."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grader.cli.common import fail, report_console
from grader.cli.grading import write
from grader.results import SubmissionResult


def gradebook(
    sources: Annotated[list[Path], typer.Argument(
        metavar="RESULT", help="Result files (`vitgrade grade --format json`), or folders of them.",
        show_default=False)],
    csv: Annotated[Path | None, typer.Option(metavar="PATH", help="Write the CSV gradebook here.")] = None,
    report: Annotated[Path | None, typer.Option(
        metavar="PATH", help="Write the HTML class report here.")] = None,
) -> None:
    """Merge result files graded elsewhere into one CSV gradebook and one class report.

    The last step of grading a class one CI job per student (templates/instructor-grade.yml);
    nothing is graded again. Without --csv or --report, prints the class as a table.
    Exit status: 0 written, 2 a file missing or not a vitgrade result.
    """
    from grader.reports import render_summary, to_csv
    from grader.reports.class_report import to_class_report

    results = _read(sources)
    if csv is not None:
        write(to_csv(results), csv)
    if report is not None:
        write(to_class_report(results), report)
    if csv is None and report is None:
        render_summary(results, report_console)


def _read(sources: list[Path]) -> list[SubmissionResult]:
    """Every result in the files named, folders read file by file in name order."""
    from grader.reports.contract import from_json

    files = [f for s in sources for f in (sorted(s.glob("*.json")) if s.is_dir() else [s])]
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
