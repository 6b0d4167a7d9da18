"""Subprocesses started at once and waited for together.

A run of the kit is a judge that mostly waits on its workers, or a single-threaded Python: alone it
keeps about one of this machine's two cores busy. Tests that need several independent runs start
them together, so the second core works too; each test still asserts on its own run's output. The
longest runs start with the session, in two chains of runs one after another (`early`), while the
session's other tests keep a core busy; the tests that read them run last.
"""
from __future__ import annotations

import collections
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

KIT = Path(__file__).resolve().parents[1]


@dataclass
class Finished:
    """One run's end: as subprocess.CompletedProcess, with how long it took."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float


class Together:
    """Runs started at once (or in chains, one after another), each waited for when its test needs it
    (`finished(name)`); `close()` kills what is still running. Use as a context manager, or
    through run_together."""

    def __init__(self, runs: dict[str, dict | BaseException], folder: Path, timeout: float = 600.0,
                 chains: int | None = None, nice: int = 0) -> None:
        """`runs` maps a name to subprocess.Popen's keyword arguments (`args`, `env`, `cwd`, ...).
        Each run is killed `timeout` seconds after its own start. Output goes to files in `folder`,
        not pipes: a run never stalls on a full pipe while another is waited for. Each run gets
        one OpenMP thread, as the judges of a `--jobs` pool do: with several runs on two cores,
        more threads would only spin waiting on each other. `chains`: that many runs at a time, each
        chain starting the next run not yet started, in the order given, as its own run ends (runs
        that would each keep a core busy); by default every run starts at once. `nice`: each run's
        niceness, added to this process's. A run given no `env` or `cwd` gets this process's as
        they are now, not as they are when its chain starts it: by then a test may have set a
        variable with monkeypatch (VITGRADE_SANDBOX=partial made an early container run grade with
        a partial sandbox) or changed folder."""
        folder.mkdir(parents=True, exist_ok=True)
        self._environ, self._cwd = dict(os.environ), os.getcwd()
        self._files = contextlib.ExitStack()
        self._runs = {name: _Run(popen, index) for index, (name, popen) in enumerate(runs.items())}
        self._timeout = timeout
        self._nice = nice
        self._closed = False
        self._starting = threading.Lock()
        for run in self._runs.values():
            run.out = self._files.enter_context(open(folder / f"run{run.index}.out", "w+", encoding="utf-8"))
            run.err = self._files.enter_context(open(folder / f"run{run.index}.err", "w+", encoding="utf-8"))
        self._files.callback(self._kill_all)
        self._waiting = collections.deque(self._runs.values())  # not yet started, in the order given
        for _ in range(chains or len(self._waiting)):
            threading.Thread(target=self._run_chain, daemon=True).start()

    def _run_chain(self) -> None:
        while True:
            with self._starting:
                if not self._waiting:
                    return
                run = self._waiting.popleft()
            try:
                self._start(run)
                if run.process is not None:
                    self._wait(run)
            except BaseException as error:  # noqa: B036 - given to the test that waits for this run
                run.error = error
            run.ended.set()

    def _start(self, run: _Run) -> None:
        """Started unless the runs were closed meanwhile (under the lock, so that none is started
        after close() has killed the others). A run whose arguments could not be made (`popen` is
        the exception) fails its own tests alone."""
        if isinstance(run.popen, BaseException):
            raise run.popen
        options = dict(run.popen)
        env = {**options.pop("env", self._environ), "OMP_NUM_THREADS": "1"}
        options.setdefault("cwd", self._cwd)
        if self._nice and os.name == "posix":  # Windows has no niceness to add (and no preexec_fn)
            options["preexec_fn"] = lambda: os.nice(self._nice)
        with self._starting:
            if not self._closed:
                run.began = time.monotonic()
                run.process = subprocess.Popen(stdin=subprocess.DEVNULL, stdout=run.out, stderr=run.err,
                                               text=True, env=env, **options)

    def _wait(self, run: _Run) -> None:
        try:
            run.process.wait(self._timeout)
        except subprocess.TimeoutExpired:
            run.timed_out = True
            _kill_if_running(run.process)
        run.seconds = time.monotonic() - run.began

    def finished(self, name: str) -> Finished:
        """The run `name` once it has ended; its `seconds` are from its start to its end, however
        late this is asked. TimeoutExpired if it was killed at its time limit."""
        run = self._runs[name]
        run.ended.wait()
        if run.error is not None:
            raise run.error
        if run.process is None:
            raise RuntimeError(f"{name!r} never started: the runs were closed before its turn")
        if run.timed_out:
            raise subprocess.TimeoutExpired(run.process.args, self._timeout)
        run.out.seek(0), run.err.seek(0)
        return Finished(run.process.args, run.process.returncode, run.out.read(), run.err.read(), run.seconds)

    @contextlib.contextmanager
    def holding_starts(self) -> Iterator[set[int]]:
        """No run starts inside the block; yields the pids of the runs started before it (for a
        test that kills processes of its own it finds below the session: not these)."""
        with self._starting:
            yield {run.process.pid for run in self._runs.values() if run.process is not None}

    def _kill_all(self) -> None:
        with self._starting:
            self._closed = True
        for run in self._runs.values():
            if run.process is not None:
                _kill_if_running(run.process)

    def close(self) -> None:
        self._files.close()

    def __enter__(self) -> Together:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()


@dataclass(eq=False)
class _Run:
    """One run's arguments and, once started, its process and end."""

    popen: dict | BaseException
    index: int
    out: IO[str] | None = None
    err: IO[str] | None = None
    process: subprocess.Popen | None = None
    began: float = 0.0
    seconds: float = 0.0
    timed_out: bool = False
    error: BaseException | None = None
    ended: threading.Event = field(default_factory=threading.Event)


def run_together(runs: dict[str, dict], folder: Path, timeout: float = 600.0) -> dict[str, Finished]:
    """Start every run (see Together), then wait for all: {name: Finished}."""
    with Together(runs, folder, timeout) as together:
        return {name: together.finished(name) for name in runs}


def _kill_if_running(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


# ---------------------------------------------------------------- runs started with the session

@dataclass
class Early:
    """A run a test module starts with the session rather than with itself."""

    tests: tuple[str, ...]  # the test functions that read it: it starts only where one is selected
    make: Callable[[Path], dict]  # a folder of its own -> subprocess.Popen's keyword arguments


#: Filled as the test modules are imported (collection), started by tests/conftest.py's `early_runs`
#: in this order, dealt to its chains; the tests that read them run last, in the same order.
EARLY: dict[str, Early] = {}


def early(name: str, *tests: str) -> Callable[[Callable[[Path], dict]], Callable[[Path], dict]]:
    """Register `make(folder) -> Popen arguments` as the run `name`, read by `tests` through the
    `early_runs` fixture (`early_runs.finished(name)`). For a long run in a process of its own
    (a class graded by the command line, a course of commands): the session's own tests keep one
    core busy, the early runs the other."""
    def register(make: Callable[[Path], dict]) -> Callable[[Path], dict]:
        EARLY[name] = Early(tests, make)
        return make
    return register


def made(make: Callable[[Path], dict], folder: Path) -> dict | BaseException:
    """`make(folder)`, or the exception it raised: given to the tests of that run alone, not to
    the whole session."""
    try:
        return make(folder)
    except Exception as error:  # noqa: BLE001 - raised again in the tests that read the run
        return error


# ------------------------------------------------------- a test file run as a script, from the start

#: The file an early script writes its outcome to, in the folder it was given.
OUTCOME = "outcome.json"


def early_script(name: str, script: str, *tests: str) -> None:
    """Register the test file `script` (its `__file__`), run as `python script FOLDER` with the
    kit on PYTHONPATH, as the early run `name` read by `tests`. The script computes in its
    `__main__` what those tests compare and hands it to `write_outcome`; they read it with
    `script_outcome`."""
    def started(folder: Path) -> dict:
        return {"args": [sys.executable, script, str(folder)], "cwd": folder,
                "env": {**os.environ, "PYTHONPATH": str(KIT)}}
    early(name, *tests)(started)


def write_outcome(outcome: Any) -> None:
    """In an early script: `outcome` as JSON (floats round-trip exactly), to its folder's OUTCOME."""
    (Path(sys.argv[1]) / OUTCOME).write_text(json.dumps(outcome), encoding="utf-8")


def script_outcome(early_runs: Together, name: str) -> Any:
    """What the early script `name` wrote; its exit status and output where it wrote nothing."""
    run = early_runs.finished(name)
    written = Path(run.args[-1]) / OUTCOME
    assert run.returncode == 0 and written.exists(), \
        f"{name}: exit status {run.returncode}\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}"
    return json.loads(written.read_text(encoding="utf-8"))
