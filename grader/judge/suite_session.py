"""One submission's pytest session: the hidden suite runs here, in the judge, over a plan of step
runs in order; each run's student functions run in its own worker process, reached through the
`student` fixture. Pytest's own output is swallowed; every outcome is recorded as a TestResult.
"""
from __future__ import annotations

import io
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pytest

from grader.expected.store import Case
from grader.launch.step_worker import WorkerGone
from grader.results import Finding, StepResult, TestResult
from grader.steps import Step
from grader.suites.feedback import Feedback
from grader.suites.returned import Returned
from grader.suites.support import wire_arguments

SUITE = Path(__file__).resolve().parent.parent / "suites" / "test_steps.py"



class StepProcess(Protocol):
    """What the session asks of the process serving a step: the runner's `StepWorker`, or a step
    run ahead (`grader.judge.ahead.AheadWorker`), which answers as that worker would."""

    @property
    def functions(self) -> list[str]:
        """The step's functions the student's file defines, once started."""

    @property
    def exit_info(self) -> dict[str, Any] | None:
        """How the process ended, once it has (with what it printed)."""

    def start(self, deadline: float) -> dict[str, Any]:
        """Wait until the student's file is loaded: its `ready` or `load_error` header."""

    def call(self, fn: str, args: list, kwargs: dict, arrays: dict, deadline: float) -> Returned:
        """One call of a student function, by the deadline."""

    def close(self, deadline: float) -> dict[str, Any] | None:
        """Stop, and say how it ended."""

    def kill(self) -> None:
        """End it and everything it started."""


def _nothing_known() -> dict[str, str]:
    return {}


def _always() -> bool:
    return True


@dataclass
class StepRun:
    """One step graded in the session: its cases, its worker, and what it found."""

    step: Step
    cases: list[Case]
    limit_seconds: float  # the step's time limit
    label: str = "main"  # what the run is for, in its test ids when not the step's own result
    spawn: Callable[[], StepProcess] | None = None  # starts this run's worker process
    earlier_statuses: Callable[[], dict[str, str]] = _nothing_known  # read as the run starts
    wanted: Callable[[], bool] = _always  # read as the run starts: False runs nothing
    on_start: Callable[[], None] | None = None
    finished: Callable[[StepResult], None] | None = None
    deadline: float = 0.0  # monotonic time by which the step must be done, set as it starts
    step_statuses: dict[str, str] = field(default_factory=dict)  # earlier steps', for "blocked by"
    result: StepResult | None = None
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    output_notes: list[str] = field(default_factory=list)  # see StepResult.output_notes
    worker: StepProcess | None = None
    load_failure: Feedback | None = None
    timed_out: bool = False
    printed: int = 0
    call_output: tuple[str, int] = ("", 0)  # what the current test's call printed: (start, bytes)
    attributed: int = 0  # bytes the current worker printed that are shown already (under tests, at import)
    printed_at_import: bool = False
    failing_functions: set[str] = field(default_factory=set)  # of this step, for "blocked by"
    started: float = 0.0

    def start_clock(self) -> None:
        """The step's time limit starts now."""
        self.started = time.monotonic()
        self.deadline = self.started + self.limit_seconds

    def test_id(self, case: Case) -> str:
        own = "" if self.label == "main" else f" ({self.label})"
        return f"{self.step.id}{own} · {case.name}"


class Student:
    """The `student` fixture: calls go to the worker; crashes get a fresh worker, a timeout ends the step."""

    def __init__(self, run: StepRun) -> None:
        self.run = run

    def _worker(self) -> StepProcess:
        run = self.run
        if run.timed_out:
            raise Feedback("not run: the step's time limit was used up by an earlier call", status="timeout")
        if run.load_failure is not None:  # a fresh exception each time: re-raising one grows its traceback
            failure = run.load_failure
            raise Feedback(failure.message, status=failure.status, maps=failure.maps, finding=failure.finding)
        if run.worker is None:
            assert run.spawn is not None, "a planned run has a way to start its worker"
            run.worker, run.attributed = run.spawn(), 0
            try:
                header = run.worker.start(run.deadline)
            except WorkerGone as gone:
                if gone.status != "error" or run.worker.exit_info is None:
                    raise
                # The worker ended while the student's file was imported: so it would every time.
                self._collect_exit()
                run.load_failure = Feedback(f"while your file was imported, {gone.message}", status="error",
                                            finding=Finding("import.ended_worker",
                                                            "the file ended its worker as it was imported"))
                raise run.load_failure from None
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
            ended = Finding.ended_worker(case.function) \
                if gone.by_code else None  # a worker lost or garbled is no proof against the code
            raise Feedback(f"{case.function}: {gone.message}", status="error", finding=ended) from None

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
    run.output_notes.append(f"your file printed {printed['bytes']:,} bytes while it was imported; "
                            f"the first lines:\n{head}")


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
        run.output_notes.append(f"your code printed {printed:,} bytes outside any test; the first lines:\n"
                                f"{head[:400].rstrip()}")


def _load_failure(header: dict[str, Any]) -> Feedback:
    kind = header.get("kind")
    if kind == "missing":
        # by its name alone: the path is the grader's copy of the submission, and the status says the rest
        return Feedback(f"{Path(str(header.get('file') or 'the step file')).name} is missing", status="not_attempted")
    if kind == "SyntaxError":
        line, text = header.get("line"), header.get("text", "")
        return Feedback(f"syntax error in {header.get('file', 'your file')}, line {line}: "
                        f"{header.get('message')}\n    {text}", status="error",
                        finding=Finding("import.syntax_error", "a syntax error: the file does not import"))
    error = header.get("error") or {}
    raised = str(error.get("type") or "an error")
    return Feedback(f"importing your file failed: {raised}: {error.get('message')}\n"
                    f"{error.get('traceback', '').rstrip()}", status="error",
                    finding=Finding(f"import.raised.{raised}", f"importing the file raised {raised}"))


@dataclass
class _Item:
    """One test of the session: a case of one run (the `case` parameter, resolved by fixtures)."""

    run_index: int
    case: Case


class SessionPlugin:
    """A pytest plugin object: parametrizes the suite with every run's cases in the plan's order,
    starts and finishes each run as the session reaches it, and records each outcome."""

    def __init__(self, runs: list[StepRun]) -> None:
        self.runs = runs
        self._students = [Student(run) for run in runs]
        self._current = -1  # the run being served; runs before it are finished

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "case" in metafunc.fixturenames:
            items = [_Item(i, case) for i, run in enumerate(self.runs) for case in run.cases]
            ids = [self.runs[item.run_index].test_id(item.case) for item in items]
            metafunc.parametrize("case", items, ids=ids, indirect=True)

    @pytest.fixture
    def case(self, request: pytest.FixtureRequest) -> Case:
        return request.param.case

    @pytest.fixture
    def student(self, request: pytest.FixtureRequest) -> Student:
        return self._students[request.node.callspec.params["case"].run_index]

    @pytest.fixture
    def step_statuses(self, request: pytest.FixtureRequest) -> dict[str, str]:
        """Earlier steps' statuses, and this step's functions that failed so far (by name)."""
        run = self.runs[request.node.callspec.params["case"].run_index]
        return {**run.step_statuses, **{f: "failed" for f in run.failing_functions}}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self.advance(item.callspec.params["case"].run_index)  # type: ignore[attr-defined]

    def advance(self, index: int) -> None:
        """Finish every run before `index` (those without cases too) and start the run at `index`."""
        while self._current < index:
            if self._current >= 0:
                self._finish(self._current)
            self._current += 1
            if self._current < len(self.runs):
                _start(self.runs[self._current])

    def _finish(self, index: int) -> None:
        run = self.runs[index]
        self._students[index].close()
        run.result = _step_result(run, time.monotonic() - run.started)
        if run.finished is not None:
            run.finished(run.result)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        outcome = yield
        report = outcome.get_result()
        if report.when != "call" and not report.failed:
            return
        planned: _Item = item.callspec.params["case"]  # type: ignore[attr-defined]
        run, case = self.runs[planned.run_index], planned.case
        weight = run.step.weights.get(case.function, 1)
        status, message, maps, finding = "passed", "", None, None
        if call.excinfo is not None:
            error = call.excinfo.value
            if isinstance(error, Feedback):
                status, message, maps, finding = error.status, error.message, error.maps, error.finding
            elif isinstance(error, AssertionError):
                status, message = "failed", str(error)
            else:  # a fault of the grader itself: say so, never show its traceback
                status, message = "error", f"internal grader error ({type(error).__name__}: {error})"
        if status != "passed":
            run.failing_functions.add(case.function)
        (output, output_bytes), run.call_output = run.call_output, ("", 0)
        run.tests.append(TestResult(
            name=case.name, visibility=case.visibility, status=status, score=float(weight),
            max_score=float(weight), message=message, seconds=report.duration, maps=maps,
            output=output, output_bytes=output_bytes, finding=finding))


def _start(run: StepRun) -> None:
    """The run becomes current: its time limit starts, and what it knows of earlier steps is read."""
    if run.on_start is not None:
        run.on_start()
    run.start_clock()  # a run started ahead too: its calls made so far waited for nobody
    run.step_statuses = run.earlier_statuses()
    if not run.wanted():
        run.load_failure = Feedback("not run: the step is not attempted", status="not_attempted")


@contextmanager
def _no_plugin_autoload() -> Iterator[None]:
    """The suite needs no third-party pytest plugins; loading every installed one costs ~0.5 s
    per session and lets a plugin change how the hidden suite runs."""
    saved = os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"]
        else:
            os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = saved


def run_session(runs: list[StepRun]) -> None:
    """Run the suite over `runs` in this process, in order; each run's `result` is set after."""
    plugin = SessionPlugin(runs)
    sink = io.StringIO()
    try:
        with redirect_stdout(sink), redirect_stderr(sink), _no_plugin_autoload():
            pytest.main([str(SUITE), "-c", str(SUITE.parent / "suite.ini"), "-q", "-p", "no:cacheprovider",
                         "-p", "no:unraisableexception",  # its five full gc.collect() at every session's end
                         "--rootdir", str(SUITE.parent), "-W", "ignore",
                         "--tb=native"], plugins=[plugin])  # its reports are never read: the cheapest kind
    finally:
        plugin.advance(len(runs))  # the runs after the last test (or all, if pytest stopped early)


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
                      status=status, tests=tests, notes=run.notes, output_notes=run.output_notes,
                      seconds=seconds)
