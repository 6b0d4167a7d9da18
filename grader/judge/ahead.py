"""A step run ahead: its worker started, and its calls made, in a thread of the judge while the
session still serves earlier steps, so that the heaviest step's model forwards use the second core
while the light steps take their turns on the first.

Only a step that needs nothing of the steps before it runs ahead (the reference solutions stand in
for them), in a submission worker of its own: its own namespaces and view, so its code can neither
see nor signal the other step's process. The session reads the results in its usual order through
`AheadWorker`, which answers as the step's worker would have; a call that ended a worker (a crash,
the time limit) ends the running ahead, and what follows is served the usual way, by a fresh worker.

The thread makes the calls from the last to the first: the step's heaviest calls (the hidden ones,
with the checkpoint's ViT) come last in the session's order. Once the session gets to the step, the
first core is free again, so the session makes the calls the thread has not started yet, from the
first on, in a worker of the step's own in the session's submission worker; the two meet in the
middle. Each call is made once, by one of them, and answered in the session's order.
"""
from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from grader.launch.step_worker import Deadline, StepWorker, SubmissionWorker, WorkerGone
from grader.suites.returned import Returned

if TYPE_CHECKING:
    from grader.judge.suite_session import StepProcess, StepRun
    from grader.launch.runners import Runner

#: (function, args, kwargs, arrays) of one call, in the order the session will make them.
Call = tuple[str, list, dict, dict[str, np.ndarray]]



class RunAhead:
    """One session's step run ahead: its submission worker started now, its calls made in a thread
    (`AheadWorker`), so that the session finds the first worker it asks for the step already
    serving; any later one (after a call ended a worker) is the session's own, as for any step.
    The grader picks the step and ends the running ahead with its session (`end`)."""

    def __init__(self, runner: Runner, submission_init: dict[str, Any], run: StepRun, init: dict[str, Any],
                 calls: Callable[[list[str]], list[Call]]) -> None:
        """Start `run`'s step (`init`: what its worker is told) in a submission worker of its own
        (`submission_init`), whose calls are `calls(functions)`. Its time limit starts when the
        session gets to it, as any step's: the earlier steps' time (a loop that used up its limit, a
        busy machine) is not the step's, and a call made ahead that is still running then gets the
        step's whole limit. Raises what the runner raises when it cannot start a worker."""
        run.start_clock()
        run.deadline = math.inf  # the step's limit starts when the session gets to it
        self._runner = runner
        self._submission = runner.spawn(submission_init)
        own = run.spawn
        assert own is not None, "a planned run has a way to start its worker"
        ahead = AheadWorker(self._submission, init, calls, lambda: run.deadline, own_worker=own)
        served: list[bool] = []

        def spawn() -> StepProcess:  # the first worker asked for is the one started ahead
            if served:
                return own()
            served.append(True)
            return ahead
        run.spawn = spawn

    def end(self) -> None:
        """End the step's submission worker and whatever it left behind."""
        self._submission.close()
        self._runner.reap()


@dataclass
class _Answer:
    """What one call made ahead came to: the reply, or how the worker was lost."""

    function: str
    returned: Returned | None = None
    gone: WorkerGone | None = None
    worker: StepWorker | None = None  # which one made the call


class AheadWorker:
    """Stands in for a StepWorker whose start and calls were made ahead, in a thread; the session
    calls it as it would the worker, and waits only where the thread has not got that far yet."""

    def __init__(self, submission: SubmissionWorker, init: dict[str, Any],
                 calls: Callable[[list[str]], list[Call]], deadline: Callable[[], float],
                 own_worker: Callable[[], StepWorker] | None = None) -> None:
        """`submission`: a worker of the step's own; `calls` gives the step's calls once the worker
        has said which functions the file has; `deadline` says the step's deadline, which moves
        once, when the session gets to the step (until then the calls made ahead wait for nobody);
        `own_worker` starts the step in the session's submission worker, for the calls the thread
        has not started when the session gets to them (None: the thread makes every call)."""
        self._submission, self._init = submission, init
        self._calls, self._deadline = calls, deadline
        self._own_worker = own_worker
        self._worker: StepWorker | None = None
        self._helper: StepWorker | None = None  # the session's own, started on its first call
        self._helper_failed = own_worker is None
        self._header: dict[str, Any] | None = None
        self._start_failure: WorkerGone | None = None
        self._made: list[Call] | None = None
        self._pending: deque[int] = deque()  # calls nobody has started, in the session's order
        self._answers: dict[int, _Answer] = {}
        self._gone_from: StepWorker | None = None  # the worker whose loss the session was told of
        self._next = 0
        self._stop = False
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
            with self._changed:
                self._header = header
                if header.get("type") == "ready":
                    self._made = self._calls(list(self._worker.functions))
                    self._pending.extend(range(len(self._made)))
                self._changed.notify_all()
            while True:
                with self._changed:
                    if self._stop or not self._pending:
                        self._done = True  # said under the lock that saw nothing left to call
                        return
                    index = self._pending.pop()  # the last call nobody has started
                answer = self._make(self._worker, index, self._deadline)
                with self._changed:
                    self._answers[index] = answer
                    self._changed.notify_all()
                if answer.gone is not None:
                    return
        finally:
            with self._changed:
                self._done = True
                self._changed.notify_all()

    def _make(self, worker: StepWorker, index: int, deadline: Deadline) -> _Answer:
        assert self._made is not None, "calls are made only once the worker said which it has"
        function, args, kwargs, arrays = self._made[index]
        answer = _Answer(function, worker=worker)
        try:
            answer.returned = worker.call(function, args, kwargs, arrays, deadline)
        except WorkerGone as gone:
            answer.gone = gone
        return answer

    def _wait(self, ready: Callable[[], bool]) -> None:
        with self._changed:
            self._changed.wait_for(lambda: ready() or self._done)

    # ------------------------------------------------------------ the StepWorker the session sees

    @property
    def functions(self) -> list[str]:
        return self._worker.functions if self._worker is not None else []

    @property
    def exit_info(self) -> dict[str, Any] | None:
        """How the worker that was lost ended (the one started ahead, or the session's own)."""
        worker = self._gone_from or self._worker
        return worker.exit_info if worker is not None else None

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
        with self._changed:
            ours = self._take(index)
        answer = self._made_here(index, deadline) if ours else None
        if answer is None:
            self._wait(lambda: index in self._answers)
            answer = self._answers.get(index)
        if answer is None:  # the thread stopped at a lost worker: that call reports the loss
            raise WorkerGone("error", "the step's calls made ahead ended early")
        if answer.function != fn:
            raise WorkerGone("error", f"the calls made ahead do not match: {answer.function}, not {fn}")
        if answer.gone is not None:
            with self._changed:
                self._stop = True  # nothing more ahead: the session goes on with a fresh worker
            self._gone_from = answer.worker
            raise answer.gone
        assert answer.returned is not None, "an answer holds a reply or a loss"
        return answer.returned

    def _take(self, index: int) -> bool:
        """Whether the session makes call `index` itself: nobody has started it, and the session's
        own worker can (called with the lock held)."""
        if self._helper_failed or not self._pending or self._pending[0] != index:
            return False
        self._pending.popleft()
        return True

    def _made_here(self, index: int, deadline: float) -> _Answer | None:
        """Call `index` made by the session's own worker; None when that worker cannot start (the
        call goes back to the thread)."""
        if self._helper is None:
            try:
                helper = self._own_worker()  # type: ignore[misc] - not None unless _helper_failed
                ready = helper.start(deadline).get("type") == "ready"
            except WorkerGone:
                helper, ready = None, False
            if not ready or helper is None or helper.functions != self.functions:
                if helper is not None:
                    helper.kill()
                with self._changed:
                    self._helper_failed = True
                    if not self._done:  # the thread makes it, after the ones it has
                        self._pending.appendleft(index)
                        self._changed.notify_all()
                        return None
                function = self._made[index][0]  # type: ignore[index] - known once started
                return _Answer(function, gone=WorkerGone("error", "the worker for the step's last calls did not start"))
            self._helper = helper
        answer = self._make(self._helper, index, deadline)
        with self._changed:
            self._answers[index] = answer
            self._changed.notify_all()
        return answer

    def close(self, deadline: float) -> dict[str, Any] | None:
        with self._changed:
            self._stop = True
        self._thread.join(max(0.0, deadline - time.monotonic()))
        if self._thread.is_alive():  # still calling: ending the worker ends the thread's call too
            self.kill()
        ends = [w.close(deadline) for w in (self._helper, self._worker) if w is not None]
        return _joined([e for e in ends if e is not None])

    def kill(self) -> None:
        """End the step's processes and the submission worker started for it (which ends a start
        still under way)."""
        if self._helper is not None:
            self._helper.kill()
        if self._worker is not None:
            self._worker.kill()
        self._submission.close()
        self._thread.join()


def _joined(ends: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The two workers' ends as one: what both printed (the session counts its bytes as one)."""
    if len(ends) < 2:
        return ends[0] if ends else None
    return {**ends[-1], "output_bytes": sum(e.get("output_bytes") or 0 for e in ends),
            "output_head": "".join(str(e.get("output_head", "")) for e in ends)}
