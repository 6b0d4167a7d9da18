"""A step run ahead: its worker started, and its calls made, in a thread of the judge while the
session still serves earlier steps, so that the heaviest step's model forwards use the second core
while the light steps take their turns on the first.

Only a step that needs nothing of the steps before it runs ahead (the reference solutions stand in
for them), in a submission worker of its own: its own namespaces and view, so its code can neither
see nor signal the other step's process. The session reads the results in its usual order through
`AheadWorker`, which answers exactly as the step's worker would have, one call after the other; a
call that ended the worker (a crash, the time limit) ends the running ahead, and what follows is
served the usual way, by a fresh worker.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from grader.runner.remote import StepWorker, SubmissionWorker, WorkerGone
from grader.suites.returned import Returned

#: (function, args, kwargs, arrays) of one call, in the order the session will make them.
Call = tuple[str, list, dict, dict[str, np.ndarray]]


@dataclass
class _Answer:
    """What one call made ahead came to: the reply, or how the worker was lost."""

    function: str
    returned: Returned | None = None
    gone: WorkerGone | None = None


class AheadWorker:
    """Stands in for a StepWorker whose start and calls were made ahead, in a thread; the session
    calls it as it would the worker, and waits only where the thread has not got that far yet."""

    def __init__(self, submission: SubmissionWorker, init: dict[str, Any],
                 calls: Callable[[list[str]], list[Call]], deadline: float) -> None:
        """`submission`: a worker of the step's own; `calls` gives the step's calls once the worker
        has said which functions the file has; `deadline`: the step's, as it starts now."""
        self._submission, self._init = submission, init
        self._calls, self._deadline = calls, deadline
        self._worker: StepWorker | None = None
        self._header: dict[str, Any] | None = None
        self._start_failure: WorkerGone | None = None
        self._answers: list[_Answer] = []
        self._next = 0
        self._changed = threading.Condition()
        self._done = False
        self._thread = threading.Thread(target=self._run, name="vitgrade-ahead", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ the thread

    def _run(self) -> None:
        try:
            try:
                self._worker = self._submission.step(self._init)
                header = self._worker.start(self._deadline)
            except WorkerGone as gone:
                self._start_failure = gone
                return
            self._header = header
            if header.get("type") != "ready":
                return
            for function, args, kwargs, arrays in self._calls(list(self._worker.functions)):
                answer = _Answer(function)
                try:
                    answer.returned = self._worker.call(function, args, kwargs, arrays, self._deadline)
                except WorkerGone as gone:
                    answer.gone = gone
                with self._changed:
                    self._answers.append(answer)
                    self._changed.notify_all()
                if answer.gone is not None:
                    return
        finally:
            with self._changed:
                self._done = True
                self._changed.notify_all()

    def _wait(self, ready: Callable[[], bool]) -> None:
        with self._changed:
            self._changed.wait_for(lambda: ready() or self._done)

    # ------------------------------------------------------------ the StepWorker the session sees

    @property
    def functions(self) -> list[str]:
        return self._worker.functions if self._worker is not None else []

    @property
    def exit_info(self) -> dict[str, Any] | None:
        return self._worker.exit_info if self._worker is not None else None

    def start(self, deadline: float) -> dict[str, Any]:
        self._wait(lambda: self._header is not None or self._start_failure is not None)
        if self._start_failure is not None:
            raise self._start_failure
        assert self._header is not None, "the thread ends only after the worker's start"
        return self._header

    def call(self, fn: str, args: list, kwargs: dict, arrays: dict[str, np.ndarray],
             deadline: float) -> Returned:
        index = self._next
        self._next += 1
        self._wait(lambda: len(self._answers) > index)
        if index >= len(self._answers):  # cannot be: every call the session makes was made ahead
            raise WorkerGone("error", "the step's calls made ahead ended early")
        answer = self._answers[index]
        if answer.function != fn:
            raise WorkerGone("error", f"the calls made ahead do not match: {answer.function}, not {fn}")
        if answer.gone is not None:
            raise answer.gone
        assert answer.returned is not None, "an answer holds a reply or a loss"
        return answer.returned

    def close(self, deadline: float) -> dict[str, Any] | None:
        self._thread.join(max(0.0, deadline - time.monotonic()))
        if self._thread.is_alive():  # still calling: ending the worker ends the thread's call too
            self.kill()
        return self._worker.close(deadline) if self._worker is not None else None

    def kill(self) -> None:
        """End the step's process and its submission worker (which ends a start still under way)."""
        if self._worker is not None:
            self._worker.kill()
        self._submission.close()
        self._thread.join()
