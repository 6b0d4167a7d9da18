"""Submissions, and grading them one after another with one grader: what `check`, `list`,
`validate` and a class graded on one machine share. A library: it shows nothing itself (progress
goes where the caller says) and ends no command (errors are raised)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from grader.results import SubmissionResult
from grader.steps import STEP_IDS

if TYPE_CHECKING:
    from grader.judge.grading import GradeOptions
    from grader.launch.runners import EarlyRunner

#: Called with (index among the submissions, result) as soon as a submission is graded.
Keep = Callable[[int, SubmissionResult], None]
#: `advance(n=1, description=None)`: n more units of work done.
Advance = Callable[..., None]
#: Shows the progress of `total` units of work described so: a context yielding its `advance`.
Progress = Callable[[str, "int | None"], AbstractContextManager[Advance]]


@contextmanager
def unseen(description: str, total: int | None) -> Iterator[Advance]:
    """Progress nobody sees: the default where the caller shows none."""
    yield lambda n=1, description=None: None


def is_submission(folder: Path) -> bool:
    """Whether `folder` holds at least one step file."""
    return any((folder / f"{s}.py").exists() for s in STEP_IDS)


def grade_in_turn(todo: list[tuple[int, Path]], options: GradeOptions, keep: Keep,
                  progress: Progress = unseen, early: EarlyRunner | None = None) -> None:
    """Grade `todo` (index, folder) in this process, handing each result to `keep` as it comes; the
    grader takes the runner the command started `early`, if it did.

    Raises:
        FixtureError: the fixtures are missing or do not match their manifest.
    """
    from grader.judge.grading import Grader

    if not todo:  # every folder kept from an earlier run, or ungradable: no grader to start
        return
    with progress("grading", len(todo) * len(options.steps)) as advance:
        options.on_step = lambda step_id: advance(1, f"grading {step_id}")
        grader = Grader(options, early)
        try:
            for index, folder in todo:
                keep(index, grader.grade(folder))
        finally:
            grader.close()
            options.on_step = None
