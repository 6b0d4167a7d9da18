"""`vitgrade list`: the eight steps with their pages, points and your status."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grader.cli.grading import resolve_folder, run_grader


def list_steps(
    submission: Annotated[Path | None, typer.Option(
        metavar="DIR", help="Folder holding your step files. Default: exercises/.")] = None,
) -> None:
    """Show every step, its lecture pages and points, and how far your files get (visible tests)."""
    from rich.table import Table

    from grader.cli.common import out
    from grader.steps import DEFAULT_TIMEOUT, STEP_IDS, STEPS

    folder = resolve_folder(submission, solutions=False)
    result = run_grader([folder], STEP_IDS, hidden=False, timeout=DEFAULT_TIMEOUT)[0]
    by_id = {s.id: s for s in result.steps}
    table = Table(title=f"vitgrade: {result.submission}", show_lines=False)
    for column in ("step", "title", "pages", "points", "status"):
        table.add_column(column, justify="right" if column == "points" else "left")
    for step in STEPS:
        graded = by_id[step.id]
        status = graded.status.replace("_", " ")
        table.add_row(step.id, step.title, step.pages, f"{graded.score:g}/{step.points}", status)
    out.print(table)
    out.print(f"total {result.score:g}/{result.max_score:g}"
              + ("  (fixtures from the seeded stand-in, not the lecture's checkpoint)"
                 if result.checkpoint["kind"] == "stand-in" else ""), markup=False)
