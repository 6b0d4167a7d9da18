"""A step run ahead (grader/judge/ahead.py), with stand-in workers that need no torch: each call
is made once, by the thread (from the last) or by the session's own worker (from the first), and
the session reads every answer in its own order, a lost worker at the call that lost it."""
from __future__ import annotations

import threading
import time

import pytest

from grader.judge.ahead import AheadWorker
from grader.launch.step_worker import WorkerGone
from grader.suites.returned import Returned

FUNCTIONS = ["cover", "quadrant_probabilities", "occlusion_map"]
CALLS = [(FUNCTIONS[i % 3], [i], {}, {}) for i in range(8)]  # the argument says which call it is


class FakeStep:
    """A step's worker: answers each call with its argument after `seconds`, or loses itself."""

    def __init__(self, name: str, made: list, seconds: float = 0.0, lost_at: int | None = None,
                 starts: bool = True) -> None:
        self.name, self.made, self.seconds, self.lost_at, self.starts = name, made, seconds, lost_at, starts
        self.functions: list[str] = []
        self.exit_info = None
        self.closed = self.killed = False

    def start(self, deadline: float) -> dict:
        if not self.starts:
            raise WorkerGone("error", "the worker process ended unexpectedly")
        self.functions = list(FUNCTIONS)
        return {"type": "ready"}

    def call(self, fn, args, kwargs, arrays, deadline) -> Returned:
        self.made.append((self.name, args[0]))
        time.sleep(self.seconds)
        if args[0] == self.lost_at:
            self.exit_info = {"code": 5, "output_bytes": 0, "output_head": ""}
            raise WorkerGone("error", "your code ended the worker (exit status 5)")
        return Returned(ok=True, value=args[0])

    def close(self, deadline: float) -> dict:
        self.closed = True
        return {"code": 0, "output_bytes": 0, "output_head": ""}

    def kill(self) -> None:
        self.killed = True


class FakeSubmission:
    def __init__(self, step: FakeStep) -> None:
        self._step, self.closed = step, False

    def step(self, init: dict) -> FakeStep:
        return self._step

    def close(self) -> None:
        self.closed = True


def ahead(thread_step: FakeStep, own_step: FakeStep | None) -> AheadWorker:
    own = None if own_step is None else (lambda: own_step)
    return AheadWorker(FakeSubmission(thread_step), {}, lambda functions: list(CALLS),  # type: ignore[arg-type]
                       time.monotonic() + 60, own_worker=own)  # type: ignore[arg-type]


def read_all(worker: AheadWorker) -> list:
    worker.start(time.monotonic() + 60)
    return [worker.call(fn, args, kwargs, arrays, time.monotonic() + 60).value for fn, args, kwargs, arrays in CALLS]


def test_each_call_is_made_once_and_answered_in_the_sessions_order():
    made: list = []
    thread_step, own_step = FakeStep("thread", made, seconds=0.05), FakeStep("own", made)
    worker = ahead(thread_step, own_step)
    waited = time.monotonic() + 10
    while not made and time.monotonic() < waited:  # the session gets there once the thread has begun
        time.sleep(0.01)
    assert read_all(worker) == list(range(len(CALLS)))
    worker.close(time.monotonic() + 5)
    assert sorted(index for _, index in made) == list(range(len(CALLS)))
    thread_calls = [index for who, index in made if who == "thread"]
    own_calls = [index for who, index in made if who == "own"]
    assert thread_calls == sorted(thread_calls, reverse=True) and thread_calls[0] == len(CALLS) - 1
    assert own_calls == sorted(own_calls) and own_calls[0] == 0  # they met in the middle
    assert max(own_calls) < min(thread_calls)
    assert thread_step.closed and own_step.closed


def test_a_worker_lost_by_the_thread_is_reported_at_its_call_and_the_calls_before_it_are_answered():
    made: list = []
    last = len(CALLS) - 1
    worker = ahead(FakeStep("thread", made, seconds=0.05, lost_at=last), FakeStep("own", made))
    worker.start(time.monotonic() + 60)
    answers = [worker.call(fn, args, kwargs, arrays, time.monotonic() + 60).value
               for fn, args, kwargs, arrays in CALLS[:last]]
    assert answers == list(range(last))
    with pytest.raises(WorkerGone, match="exit status 5"):
        worker.call(*CALLS[last], time.monotonic() + 60)
    assert worker.exit_info == {"code": 5, "output_bytes": 0, "output_head": ""}
    worker.kill()
    assert sorted(index for _, index in made) == list(range(len(CALLS)))


def test_a_loss_in_the_sessions_own_worker_stops_the_thread():
    made: list = []
    thread_step = FakeStep("thread", made, seconds=0.2)
    worker = ahead(thread_step, FakeStep("own", made, lost_at=0))
    worker.start(time.monotonic() + 60)
    with pytest.raises(WorkerGone, match="exit status 5"):
        worker.call(*CALLS[0], time.monotonic() + 60)
    worker.kill()
    assert len(made) < len(CALLS)  # the thread took no call after the loss
    assert thread_step.killed


def test_without_its_own_worker_the_thread_makes_every_call():
    made: list = []
    assert read_all(ahead(FakeStep("thread", made), FakeStep("own", made, starts=False))) == list(range(len(CALLS)))
    assert {who for who, _ in made} == {"thread"} and len(made) == len(CALLS)
    made.clear()
    assert read_all(ahead(FakeStep("thread", made), None)) == list(range(len(CALLS)))
    assert [index for _, index in made] == list(reversed(range(len(CALLS))))


def test_no_thread_is_left_running():
    before = set(threading.enumerate())  # the session's early runs (tests/together.py) may end meanwhile
    worker = ahead(FakeStep("thread", [], seconds=0.01), FakeStep("own", []))
    read_all(worker)
    worker.close(time.monotonic() + 5)
    assert set(threading.enumerate()) <= before
