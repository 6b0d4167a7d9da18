"""What `check`, `grade`, `list` and `validate` share: resolving steps and folders, running
the grader with a progress display, and writing results in the chosen format."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from grader import paths
from grader.cli.common import EXIT_FAILED, EXIT_OK, fail, interactive, out, progress
from grader.results import SubmissionResult
from grader.steps import STEP_IDS, UnknownStep, get_step
from grader.submissions import grade_in_turn

if TYPE_CHECKING:
    from grader.launch.runners import EarlyRunner


def resolve_steps(step_ids: Iterable[str] | None, all_steps: bool = False) -> tuple[str, ...]:
    """Step ids from the command line, each checked; none given (or --all) means every step."""
    if all_steps or not step_ids:
        return STEP_IDS
    try:
        chosen = {get_step(s).id for s in step_ids}
    except UnknownStep as error:
        fail(str(error))
    return tuple(s for s in STEP_IDS if s in chosen)


def resolve_folder(submission: Path | None, solutions: bool, default: Path = paths.EXERCISES) -> Path:
    if solutions and submission is not None:
        fail("give either --submission or --solutions, not both")
    folder = paths.SOLUTIONS if solutions else (submission or default)
    if not folder.is_dir():
        fail(f"no such folder: {folder}" + (" (the student release has no solutions)" if solutions else ""))
    return folder.resolve()


def run_grader(submissions: list[Path], steps: tuple[str, ...], *, hidden: bool, timeout: float,
               references: bool = True, early: EarlyRunner | None = None) -> list[SubmissionResult]:
    """Grade each submission, one after the other, with one grader (on the runner the command
    started `early`, if it did)."""
    from grader.expected.store import FixtureError
    from grader.judge.grading import GradeOptions

    options = GradeOptions(hidden=hidden, references=references, timeout=timeout, steps=steps)
    try:
        results: list[SubmissionResult] = []
        grade_in_turn(list(enumerate(submissions)), options, lambda _, result: results.append(result), progress,
                      early)
        return results
    except FixtureError as error:
        fail(str(error))


def exit_code(results: list[SubmissionResult]) -> int:
    return EXIT_OK if all(r.passed for r in results) else EXIT_FAILED


def write(text: str, output: Path | None) -> None:
    """To the file if given (UTF-8), else to stdout as it is."""
    if output is None:
        out.file.write(text)
        out.file.flush()
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        paths.write_whole(output, text)
    except OSError as error:
        fail(f"cannot write {output}: {error.strerror}")
    if interactive():
        from grader.cli.common import err

        err.print(f"wrote {output}", markup=False)
