"""Grading one step: its hidden pytest suite runs here, in the judge; the student's functions run
in one sandboxed worker per step, reached through the `student` fixture."""
from __future__ import annotations

import io
import os
import time
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

import pytest

from grader.expected.store import Case
from grader.results import StepResult, TestResult
from grader.runner.session import Returned, Worker, WorkerGone
from grader.steps import Step
from grader.suites.feedback import Feedback
from grader.suites.support import wire_arguments

SUITES = Path(__file__).resolve().parent.parent / "suites"


@dataclass
class StepRun:
    """Everything one step's grading needs, and what it found."""

    step: Step
    cases: list[Case]
    spawn: Callable[[], Worker]  # starts a fresh worker for this step
    deadline: float  # monotonic time by which the step must be done
    limit_seconds: float  # the step's time limit, for messages
    step_statuses: dict[str, str]  # earlier steps' statuses, for "blocked by" messages
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    worker: Worker | None = None
    load_failure: Feedback | None = None
    timed_out: bool = False
    printed: int = 0
    call_output: tuple[str, int] = ("", 0)  # what the current test's call printed: (start, bytes)
    attributed: int = 0  # bytes the current worker printed that are shown already (under tests, at import)
    printed_at_import: bool = False
    failing_functions: set[str] = field(default_factory=set)  # of this step, for "blocked by"


class Student:
    """The `student` fixture: calls go to the worker; crashes get a fresh worker, a timeout ends the step."""

    def __init__(self, run: StepRun) -> None:
        self.run = run

    def _worker(self) -> Worker:
        run = self.run
        if run.timed_out:
            raise Feedback("not run: the step's time limit was used up by an earlier call", status="timeout")
        if run.load_failure is not None:  # a fresh exception each time: re-raising one grows its traceback
            failure = run.load_failure
            raise Feedback(failure.message, status=failure.status, maps=failure.maps, finding=failure.finding)
        if run.worker is None:
            run.worker, run.attributed = run.spawn(), 0
            header = run.worker.start(run.deadline)
            _note_import_output(run, header.get("printed"))
            if header.get("type") == "load_error":
                run.load_failure = _load_failure(header)
                raise run.load_failure
        return run.worker

    def call(self, case: Case) -> Returned:
        try:
            worker = self._worker()
            if case.function not in worker.functions:
                raise Feedback(f"{case.function} is missing from {self.run.step.id}.py", status="not_attempted")
            args, kwargs, arrays = wire_arguments(case)
            returned = worker.call(case.function, args, kwargs, arrays, self.run.deadline)
            self.run.call_output = (returned.printed, returned.printed_bytes)
            self.run.attributed += returned.printed_bytes
            return returned
        except WorkerGone as gone:
            self._collect_exit()
            if gone.status == "timeout":
                self.run.timed_out = True
                raise Feedback(f"{case.function} did not finish within the step's time limit "
                               f"({self.run.limit_seconds:g} s): an endless loop, or much too slow?",
                               status="timeout") from None
            raise Feedback(f"{case.function}: {gone.message}", status="error") from None

    def _collect_exit(self) -> None:
        worker, self.run.worker = self.run.worker, None
        if worker is not None:
            worker.kill()  # what the fatal call printed is shown under its test
            self.run.call_output = _unattributed(self.run, worker.exit_info)

    def close(self) -> None:
        worker, self.run.worker = self.run.worker, None
        if worker is not None:
            _note_output(self.run, worker.close(time.monotonic() + 10))


def _note_import_output(run: StepRun, printed: Any) -> None:
    """What the student's file printed while it was imported: a note of the step, shown once."""
    if not isinstance(printed, dict) or not isinstance(printed.get("bytes"), int) or printed["bytes"] <= 0:
        return
    run.attributed += printed["bytes"]
    if run.printed_at_import:
        return  # a fresh worker after a crash imports the file again: said once is enough
    run.printed_at_import = True
    head = str(printed.get("head", ""))[:400].rstrip()
    run.notes.append(f"your file printed {printed['bytes']:,} bytes while it was imported; the first lines:\n{head}")


def _unattributed(run: StepRun, exit_info: dict[str, Any] | None) -> tuple[str, int]:
    """What the ended worker printed beyond what is shown already (at import, under replied calls):
    a call that crashed the worker, C-level writes. It follows the rest in the captured stream."""
    printed = int((exit_info or {}).get("output_bytes") or 0) - run.attributed
    if printed <= 0:
        return "", 0
    rest = str(exit_info.get("output_head", "")).encode("utf-8", "replace")[run.attributed:]  # type: ignore[union-attr]
    return rest.decode("utf-8", "replace"), printed


def _note_output(run: StepRun, exit_info: dict[str, Any] | None) -> None:
    head, printed = _unattributed(run, exit_info)
    if printed:
        run.printed += printed
        run.notes.append(f"your code printed {printed:,} bytes; the first lines:\n{head[:400].rstrip()}")


def _load_failure(header: dict[str, Any]) -> Feedback:
    kind = header.get("kind")
    if kind == "missing":
        return Feedback("the file is missing: not attempted", status="not_attempted")
    if kind == "SyntaxError":
        line, text = header.get("line"), header.get("text", "")
        return Feedback(f"syntax error in {header.get('file', 'your file')}, line {line}: "
                        f"{header.get('message')}\n    {text}", status="error")
    error = header.get("error") or {}
    return Feedback(f"importing your file failed: {error.get('type')}: {error.get('message')}\n"
                    f"{error.get('traceback', '').rstrip()}", status="error")


class StepPlugin:
    """A pytest plugin object: parametrizes the suite with the cases and records each outcome."""

    def __init__(self, run: StepRun) -> None:
        self.run, self._student = run, Student(run)

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "case" in metafunc.fixturenames:
            metafunc.parametrize("case", self.run.cases, ids=[c.name for c in self.run.cases])

    @pytest.fixture
    def student(self) -> Student:
        return self._student

    def close(self) -> None:
        self._student.close()

    @pytest.fixture
    def step_statuses(self) -> dict[str, str]:
        """Earlier steps' statuses, and this step's functions that failed so far (by name)."""
        return {**self.run.step_statuses, **{f: "failed" for f in self.run.failing_functions}}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        outcome = yield
        report = outcome.get_result()
        if report.when != "call" and not report.failed:
            return
        case: Case | None = getattr(item, "callspec", None) and item.callspec.params.get("case")
        weight = getattr(item.module, "POINTS", {}).get(case.function if case else item.name, 1)
        status, message, maps, finding = "passed", "", None, None
        if call.excinfo is not None:
            error = call.excinfo.value
            if isinstance(error, Feedback):
                status, message, maps, finding = error.status, error.message, error.maps, error.finding
            elif isinstance(error, AssertionError):
                status, message = "failed", str(error)
            else:  # a fault of the grader itself: say so, never show its traceback
                status, message = "error", f"internal grader error ({type(error).__name__}: {error})"
        if case and status != "passed":
            self.run.failing_functions.add(case.function)
        (output, output_bytes), self.run.call_output = self.run.call_output, ("", 0)
        self.run.tests.append(TestResult(
            name=case.name if case else item.name, visibility=case.visibility if case else "visible",
            status=status, score=float(weight), max_score=float(weight), message=message,
            seconds=report.duration, maps=maps, output=output, output_bytes=output_bytes, finding=finding))


@contextmanager
def _no_plugin_autoload() -> Iterator[None]:
    """The suites need no third-party pytest plugins; loading every installed one costs ~0.5 s
    per step and lets a plugin change how the hidden suites run."""
    saved = os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"]
        else:
            os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = saved


def run_suite(run: StepRun) -> StepResult:
    """Run the step's suite in this process; pytest's own output is swallowed."""
    plugin = StepPlugin(run)
    suite = SUITES / f"test_{run.step.id}.py"
    started = time.monotonic()
    sink = io.StringIO()
    try:
        with redirect_stdout(sink), redirect_stderr(sink), _no_plugin_autoload():
            pytest.main([str(suite), "-c", str(SUITES / "suite.ini"), "-q", "-p", "no:cacheprovider",
                         "--rootdir", str(SUITES), "-W", "ignore",
                         "--tb=native"], plugins=[plugin])  # its reports are never read: the cheapest kind
    finally:
        plugin.close()
    return _step_result(run, time.monotonic() - started)


def _step_result(run: StepRun, seconds: float) -> StepResult:
    step, tests = run.step, run.tests
    total = sum(t.max_score for t in tests) or 1.0
    for t in tests:  # weights -> points, so each step is worth its registry points
        t.max_score = round(step.points * t.max_score / total, 4)
        t.score = t.max_score if t.status == "passed" else 0.0
    statuses = {t.status for t in tests}
    if statuses <= {"passed"} and tests:
        status = "passed"
    elif statuses <= {"not_attempted"}:
        status = "not_attempted"
    elif "timeout" in statuses:
        status = "timeout"
    elif "error" in statuses and run.load_failure is not None:
        status = "error"
    elif statuses & {"error"} and not statuses & {"passed", "failed", "blocked"}:
        status = "error"
    else:
        status = "failed"
    return StepResult(id=step.id, title=step.title, pages=step.pages,
                      score=round(sum(t.score for t in tests), 2), max_score=float(step.points),
                      status=status, tests=tests, notes=run.notes, seconds=seconds)
