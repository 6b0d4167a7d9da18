"""`vitgrade check STEP --watch`: check, then check again each time a step file is saved.

The speed comes from one grader kept for the whole session (torch is imported once, by the workers'
zygote, or by the portable runner's next worker started ahead), never from remembering verdicts:
every save grades the files anew, in a fresh worker.
A save that leaves the result as it was prints one short line instead of the whole report.
"""
from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import Console
from rich.text import Text

from grader.graded_files import GradedFiles
from grader.judge.grading import Grader, GradeOptions
from grader.launch.runners import EarlyRunner
from grader.reports.shared import look, points
from grader.reports.terminal import render
from grader.results import SubmissionResult
from grader.signals import answered_by
from grader.steps import STEP_IDS

#: Printed (dim) after every report and short line; `vitgrade bench` waits for it after a save.
WAITING = "watching"
# A save is graded once its file events have been quiet this long (an editor's save is several
# events within a few milliseconds) ...
_QUIET_MS = 25
# ... and the watcher wakes this often when nothing happens (its first wake-up ends the start).
_IDLE_MS = 100


def watched_names(step_ids: tuple[str, ...]) -> set[str]:
    """The file names a save of which can change the result: the steps' own and every earlier one's.

    Later steps call the earlier ones (`earlier_step`), as the lecture builds them up, and an
    earlier step that fails blocks them.
    """
    last = max(STEP_IDS.index(step_id) for step_id in step_ids)
    return {f"{step_id}.py" for step_id in STEP_IDS[: last + 1]}


def recheck_on_save(options: GradeOptions, folder: Path, step_ids: tuple[str, ...], console: Console, *,
                    show_output: bool = False, early: EarlyRunner | None = None) -> SubmissionResult | None:
    """Grade and report, then wait for saves and grade again after each, until Ctrl-C.

    Args:
        options: How to grade (the command line's); one grader is started with them and kept.
        folder: The submission folder (absolute).
        step_ids: The steps to check, in lecture order.
        console: Where the reports go.
        show_output: Show what the code printed under passing tests too.
        early: The runner the command started early, which the grader takes (None: a new one).

    Returns:
        The last complete result when Ctrl-C ends the watch; None if none was complete yet.

    Raises:
        grader.expected.store.FixtureError: Missing or modified fixture files.
    """
    last = None
    with _ctrl_c_remembered() as pressed:
        grader = None
        try:
            # Between steps too: a check of several steps ends at the next one, not after all of them.
            grader = Grader(replace(options, on_step=lambda _step_id: _stop_if(pressed())), early)
            for checked in _checks(grader, folder, step_ids, console, show_output, pressed):
                last = checked
        except KeyboardInterrupt:
            console.print(Text("stopped watching", style="dim"))
        finally:
            if grader is not None:
                grader.close()
    return last


@contextmanager
def _ctrl_c_remembered() -> Iterator[Callable[[], bool]]:
    """Yields whether Ctrl-C was pressed since: pytest, which runs the suites in this process, ends
    its session on Ctrl-C and returns as if done, so the press would otherwise be lost in a grade."""
    pressed = threading.Event()

    def on_ctrl_c(number: int, frame: FrameType | None) -> None:
        pressed.set()
        signal.default_int_handler(number, frame)

    with answered_by(on_ctrl_c, (signal.SIGINT,)):
        yield pressed.is_set


def _stop_if(pressed: bool) -> None:
    if pressed:
        raise KeyboardInterrupt


def _checks(grader: Grader, folder: Path, step_ids: tuple[str, ...], console: Console, show_output: bool,
            pressed: Callable[[], bool]) -> Iterator[SubmissionResult]:
    """Each result as soon as it is reported: the first one, then one per save (endless).

    A grade during which Ctrl-C was pressed is not reported: its step was cut short.
    """
    import watchfiles

    graded = GradedFiles.of(folder, step_ids)
    names = watched_names(step_ids)
    saves = watchfiles.watch(folder, recursive=False, watch_filter=lambda _change, path: Path(path).name in names,
                             step=_QUIET_MS, rust_timeout=_IDLE_MS, yield_on_timeout=True)
    next(saves)  # the watch starts before the first grade reads the files, so no save goes unseen
    result = grader.grade(folder, step_ids)
    _stop_if(pressed())
    render(result, console, show_output=show_output, graded=graded)
    _waiting(console, graded, names)
    yield result
    for changes in saves:
        if not changes:  # an idle interval ended (it lets the first call return at once)
            continue
        saved = sorted({Path(path).name for _, path in changes})
        previous, result = result, grader.grade(folder, step_ids)
        _stop_if(pressed())
        if _same(previous, result):
            console.print(_unchanged_line(result, graded, saved))
        else:
            render(result, console, show_output=show_output, graded=graded)
        _waiting(console, graded, names)
        yield result


def _waiting(console: Console, graded: GradedFiles, names: set[str]) -> None:
    """`watching exercises/01_flatten.py · save to check again · Ctrl-C to stop`."""
    shown = ", ".join(graded.shown(name.removesuffix(".py")) for name in sorted(names))
    console.print(Text(f"{WAITING} {shown} · save to check again · Ctrl-C to stop", style="dim"))


def _same(before: SubmissionResult, after: SubmissionResult) -> bool:
    """The same verdicts, messages, maps, printed output and notes (timings aside)."""
    return _comparable(before) == _comparable(after)


def _comparable(result: SubmissionResult) -> Any:
    tests = [(t.output, t.output_bytes, t.maps) for step in result.steps for t in step.tests]
    return result.to_contract(), tests, [step.notes for step in result.steps], result.tampering


def _unchanged_line(result: SubmissionResult, graded: GradedFiles, saved: list[str]) -> Text:
    """`16:20:01 exercises/01_flatten.py saved, same result: ✓ 01_flatten 10/10`."""
    line = Text(time.strftime("%H:%M:%S "), style="dim")
    files = ", ".join(graded.shown(name.removesuffix(".py")) for name in saved)
    line.append(f"{files} saved, same result:")
    for step in result.steps:
        symbol, style, words = look(step.status)
        line.append("  ")
        line.append(f"{symbol} {step.id} {points(step.score)}/{points(step.max_score)} {words}", style=style)
    return line
