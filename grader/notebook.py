"""`check` for notebooks (Jupyter, Colab): `from grader import check`, then `check("05_attention")`.

It grades exactly as `vitgrade check` does, through the same sandboxed workers, and keeps them warm
in the kernel: the first call starts the grader, whose workers' zygote (or the portable runner's
worker started ahead) imports torch once; later calls reuse it, so a re-check after an edit takes a
fraction of a second. Every call reads and grades
the files anew; nothing is remembered between calls but the running workers.

This module imports nothing heavy at import time: the kernel (the judge) never imports torch.
"""
from __future__ import annotations

import atexit
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING

from grader import paths
from grader.graded_files import GradedFiles
from grader.steps import STEP_IDS, get_step

if TYPE_CHECKING:
    from grader.results import StepResult, SubmissionResult
    from grader.judge.grading import Grader

_REPORT_WIDTH = 100  # columns of the plain-text report, as `vitgrade check --output` writes it


@dataclass
class CheckReport:
    """One check's result, shown as HTML in a notebook and as the terminal's report in plain text."""

    result: SubmissionResult
    """What grading produced, as every report format is written from it."""
    graded: GradedFiles
    """The files graded, and where the student stood."""
    show_output: bool = False
    """Show what the code printed under passing tests too (always shown under failing ones)."""

    @property
    def score(self) -> float:
        return self.result.score

    @property
    def max_score(self) -> float:
        return self.result.max_score

    @property
    def passed(self) -> bool:
        """Whether every step checked passed."""
        return self.result.passed

    @property
    def steps(self) -> list[StepResult]:
        return self.result.steps

    def __str__(self) -> str:
        from rich.console import Console

        from grader.reports.terminal import render

        # Not force_jupyter: in a kernel rich would display the report itself instead of returning it.
        console = Console(file=StringIO(), width=_REPORT_WIDTH, force_terminal=False, force_jupyter=False,
                          no_color=True, highlight=False)
        render(self.result, console, show_output=self.show_output, graded=self.graded)
        # rich pads indented blocks to the full width; a notebook's text output shows every blank
        return "\n".join(line.rstrip() for line in console.file.getvalue().splitlines()) + "\n"

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        """What Jupyter and Colab show for a cell that ends in a check."""
        from grader.reports.html import to_html

        return to_html(self.result, graded=self.graded, show_output=self.show_output)


_kept: dict[float | None, Grader] = {}
"""The kernel's grader (at most one), by the time limit it was started with."""


def check(*steps: str, all: bool = False, solutions: bool = False, submission: str | Path | None = None,
          timeout: float | None = None, show_output: bool = False) -> CheckReport:
    """Grade steps as `vitgrade check` does: the visible tests, in sandboxed workers kept warm.

    Args:
        *steps: Step ids such as `"05_attention"` (or `5`, or `"attention"`). None: every step.
        all: Check every step.
        solutions: Check the reference solutions (absent from the student release).
        submission: The folder holding the step files. Default: the kit's `exercises/`.
        timeout: Time limit per step in seconds. Default: the command line's.
        show_output: Show what the code printed under passing tests too.

    Returns:
        The report: HTML in a notebook, the terminal's text under `print`; `.result` holds the data.

    Raises:
        ValueError: An unknown step, or both `solutions` and `submission`, or no such folder.
        grader.expected.store.FixtureError: Missing or modified fixture files.
    """
    from grader.launch.protocol import ProtocolError

    chosen = STEP_IDS if all or not steps else _resolve_steps(steps)
    folder = _resolve_folder(submission, solutions)
    graded = GradedFiles.of(folder, chosen)
    try:
        result = _grader(timeout).grade(folder, chosen)
    except (OSError, EOFError, ProtocolError):  # the kept runner is gone (ended, killed): start anew, once
        _close()
        result = _grader(timeout).grade(folder, chosen)
    return CheckReport(result, graded, show_output)


def _resolve_steps(steps: tuple[str, ...]) -> tuple[str, ...]:
    """Each step checked against the registry, in lecture order."""
    chosen = {get_step(str(step)).id for step in steps}
    return tuple(step_id for step_id in STEP_IDS if step_id in chosen)


def _resolve_folder(submission: str | Path | None, solutions: bool) -> Path:
    if solutions and submission is not None:
        raise ValueError("give either submission= or solutions=True, not both")
    folder = paths.SOLUTIONS if solutions else Path(submission or paths.EXERCISES)
    if not folder.is_dir():
        missing = " (the student release has no solutions)" if solutions else ""
        raise ValueError(f"no such folder: {folder}{missing}")
    return folder.resolve()


def _grader(timeout: float | None) -> Grader:
    """The kernel's grader for this time limit, started on first use and kept until the kernel ends."""
    from grader.judge.grading import Grader, GradeOptions

    if timeout not in _kept:
        _close()
        options = GradeOptions(hidden=False) if timeout is None else GradeOptions(hidden=False, timeout=timeout)
        _kept[timeout] = Grader(options)
    return _kept[timeout]


@atexit.register
def _close() -> None:
    """End the kept grader's workers (also when the kernel shuts down)."""
    while _kept:
        _kept.popitem()[1].close()
