"""`vitgrade validate`: the instructor's check that the kit is consistent."""
from __future__ import annotations

import typer

from grader import paths
from grader.cli.common import EXIT_FAILED, EXIT_OK, fail, out
from grader.cli.grading import run_grader


def validate() -> None:
    """Solutions must score full marks, hidden tests included; the unedited exercises must score
    zero with every step not attempted (and nothing crashing)."""
    from grader.steps import STEP_IDS

    if not paths.SOLUTIONS.is_dir():
        fail("no solutions/ folder: validate runs in the instructor's kit, not in the release")
    solutions, exercises = run_grader([paths.SOLUTIONS, paths.EXERCISES], STEP_IDS, hidden=True, timeout=120.0)
    problems = [f"solutions {s.id}: {s.status}, {s.score:g}/{s.max_score:g}"
                for s in solutions.steps if s.status != "passed" or s.score != s.max_score]
    problems += [f"exercises {s.id}: {s.status}, {s.score:g}/{s.max_score:g} (expected not_attempted, 0)"
                 for s in exercises.steps if s.status != "not_attempted" or s.score != 0]
    for line in problems:
        out.print(f"✗ {line}", markup=False)
    if problems:
        raise typer.Exit(EXIT_FAILED)
    out.print(f"✓ solutions {solutions.score:g}/{solutions.max_score:g} in every step; "
              f"exercises 0/{exercises.max_score:g}, every step not attempted", markup=False)
    raise typer.Exit(EXIT_OK)
