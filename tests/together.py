"""Subprocesses started at once and waited for together.

A run of the kit is a judge that mostly waits on its workers, or a single-threaded Python: alone it
keeps about one of this machine's two cores busy. Tests that need several independent runs start
them together, so the second core works too; each test still asserts on its own run's output.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import time
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
        self._started: dict[str, tuple[subprocess.Popen, IO[str], IO[str], float]] = {}
        self._finished: dict[str, Finished] = {}
        for index, (name, popen) in enumerate(runs.items()):
            out = self._files.enter_context(open(folder / f"run{index}.out", "w+", encoding="utf-8"))
            err = self._files.enter_context(open(folder / f"run{index}.err", "w+", encoding="utf-8"))
            options = dict(popen)
            env = {**options.pop("env", os.environ), "OMP_NUM_THREADS": "1"}
            process = subprocess.Popen(stdin=subprocess.DEVNULL, stdout=out, stderr=err, text=True, env=env,
                                       **options)
            self._files.callback(_kill_if_running, process)
            self._started[name] = (process, out, err, time.monotonic())

    def finished(self, name: str, timeout: float = 600.0) -> Finished:
        """The run `name` once it has ended (killed, with the others, after `timeout` seconds)."""
        process, *_, began = self._started[name]
        while name not in self._finished:
            self._collect()  # every run that ended, with its time: not only the one asked for
            if name in self._finished:
                break
            if time.monotonic() - began > timeout:
                self.close()
                raise subprocess.TimeoutExpired(process.args, timeout)
            time.sleep(0.02)
        return self._finished[name]

    def _collect(self) -> None:
        for name, (process, out, err, began) in self._started.items():
            if name not in self._finished and process.poll() is not None:
                ended = time.monotonic()
                out.seek(0), err.seek(0)
                self._finished[name] = Finished(process.args, process.returncode, out.read(), err.read(),
                                                ended - began)

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
