"""Subprocesses started at once and waited for together.

A run of the kit is a judge that mostly waits on its workers, or a single-threaded Python: alone it
keeps about one of this machine's two cores busy. Tests that need several independent runs start
them together, so the second core works too; each test still asserts on its own run's output.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO


@dataclass
class Finished:
    """One run's end: as subprocess.CompletedProcess, with how long it took."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float


class Together:
    """Runs started at once, each waited for when its test needs it (`finished(name)`); `close()`
    kills what is still running. Use as a context manager, or through run_together."""

    def __init__(self, runs: dict[str, dict], folder: Path) -> None:
        """`runs` maps a name to subprocess.Popen's keyword arguments (`args`, `env`, `cwd`, ...).
        Output goes to files in `folder`, not pipes: a run never stalls on a full pipe while another
        is waited for. Each run gets one OpenMP thread, as the judges of a `--jobs` pool do: with
        several runs on two cores, more threads would only spin waiting on each other."""
        folder.mkdir(parents=True, exist_ok=True)
        self._files = contextlib.ExitStack()
        self._started: dict[str, tuple[subprocess.Popen, IO[str], IO[str], float, threading.Thread]] = {}
        self._ended: dict[str, float] = {}  # when each run ended, noted by a thread that waits for it
        for index, (name, popen) in enumerate(runs.items()):
            out = self._files.enter_context(open(folder / f"run{index}.out", "w+", encoding="utf-8"))
            err = self._files.enter_context(open(folder / f"run{index}.err", "w+", encoding="utf-8"))
            options = dict(popen)
            env = {**options.pop("env", os.environ), "OMP_NUM_THREADS": "1"}
            process = subprocess.Popen(stdin=subprocess.DEVNULL, stdout=out, stderr=err, text=True, env=env,
                                       **options)
            self._files.callback(_kill_if_running, process)
            waiter = threading.Thread(target=self._note_end, args=(name, process), daemon=True)
            waiter.start()
            self._started[name] = (process, out, err, time.monotonic(), waiter)

    def _note_end(self, name: str, process: subprocess.Popen) -> None:
        process.wait()
        self._ended[name] = time.monotonic()

    def finished(self, name: str, timeout: float = 600.0) -> Finished:
        """The run `name` once it has ended (killed, with the others, after `timeout` seconds from
        its start); its `seconds` are from its start to its end, however late this is asked."""
        process, out, err, began, waiter = self._started[name]
        waiter.join(max(began + timeout - time.monotonic(), 0.0))
        if waiter.is_alive():
            self.close()
            raise subprocess.TimeoutExpired(process.args, timeout)
        out.seek(0), err.seek(0)
        return Finished(process.args, process.returncode, out.read(), err.read(), self._ended[name] - began)

    def close(self) -> None:
        self._files.close()

    def __enter__(self) -> Together:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()


def run_together(runs: dict[str, dict], folder: Path, timeout: float = 600.0) -> dict[str, Finished]:
    """Start every run (see Together), then wait for all: {name: Finished}."""
    with Together(runs, folder) as together:
        return {name: together.finished(name, timeout) for name in runs}


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


#: Filled as the test modules are imported (collection), started by tests/conftest.py's `early_runs`.
EARLY: dict[str, Early] = {}


def early(name: str, *tests: str) -> Callable[[Callable[[Path], dict]], Callable[[Path], dict]]:
    """Register `make(folder) -> Popen arguments` as the run `name`, read by `tests` through the
    `early_runs` fixture (`early_runs.finished(name)`). For a run that mostly waits (time limits
    running out) or keeps one core, whose test would otherwise leave the second core idle."""
    def register(make: Callable[[Path], dict]) -> Callable[[Path], dict]:
        EARLY[name] = Early(tests, make)
        return make
    return register
