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


@dataclass
class Finished:
    """One run's end: as subprocess.CompletedProcess, with how long it took."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def run_together(runs: dict[str, dict], folder: Path, timeout: float = 600.0) -> dict[str, Finished]:
    """Start every run, then wait for all: {name: Finished}.

    `runs` maps a name to subprocess.Popen's keyword arguments (`args`, `env`, `cwd`, ...). Output goes
    to files in `folder`, not pipes: a run never stalls on a full pipe while another is waited for.
    Each run gets one OpenMP thread, as the judges of a `--jobs` pool do: with several runs on two
    cores, more threads would only spin waiting on each other. A run still going after `timeout`
    seconds is killed, and so are the others."""
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        started = {}
        for index, (name, popen) in enumerate(runs.items()):
            out = stack.enter_context(open(folder / f"run{index}.out", "w+", encoding="utf-8"))
            err = stack.enter_context(open(folder / f"run{index}.err", "w+", encoding="utf-8"))
            options = dict(popen)
            env = {**options.pop("env", os.environ), "OMP_NUM_THREADS": "1"}
            process = subprocess.Popen(stdin=subprocess.DEVNULL, stdout=out, stderr=err, text=True, env=env,
                                       **options)
            stack.callback(_kill_if_running, process)
            started[name] = (process, out, err, time.monotonic())
        finished: dict[str, Finished] = {}
        while len(finished) < len(started):
            for name, (process, out, err, began) in started.items():
                if name not in finished and process.poll() is not None:
                    out.seek(0), err.seek(0)
                    finished[name] = Finished(process.args, process.returncode, out.read(), err.read(),
                                              time.monotonic() - began)
            if time.monotonic() - min(began for *_, began in started.values()) > timeout:
                raise subprocess.TimeoutExpired([name for name in started if name not in finished], timeout)
            time.sleep(0.02)
        return {name: finished[name] for name in runs}


def _kill_if_running(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()
