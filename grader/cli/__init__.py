"""The `vitgrade` command line (`main`): it starts what the command will wait for, then runs the
command through the typer app (`grader.cli.app`), where each command lives in its own module.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.launch.runners import EarlyRunner

# The judge's numpy works beside the workers (comparisons, the diagnosis's search over edits): the
# threads of OpenBLAS would only fight them for the cores; a search of vit_forward took 4.7 CPU-s
# with them on two busy cores and 0.64 s on one thread. Before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _jobs(argv: list[str]) -> str:
    """The value of --jobs as written on the command line ("1" when absent)."""
    for i, arg in enumerate(argv):
        if arg == "--jobs":
            return argv[i + 1] if i + 1 < len(argv) else ""
        if arg.startswith("--jobs="):
            return arg.partition("=")[2]
    return "1"


def early_runner(argv: list[str]) -> EarlyRunner | None:
    """The runner that `check` and `grade` will wait for above all (its torch import), started
    before typer, rich and every command are imported (about 0.2 s), rather than when the command
    runs; None for any other command, for `--help`, and where --jobs is no number (typer says so).
    A pool of portable runners starts none here: each of its judges starts its own."""
    if len(argv) < 2 or argv[1] not in ("check", "grade") or {"--help", "-h"} & set(argv):
        return None
    jobs = _jobs(argv)
    if not jobs.isdigit():
        return None
    from grader.launch.runners import EarlyRunner

    return EarlyRunner.for_jobs(int(jobs))


def _encodable_output() -> None:
    """Windows writes pipes and files in its ANSI code page (cp1252), which has no ✓ or ✗: they
    print as `?` instead of ending the report with a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def main() -> None:
    """`vitgrade` (and `python -m grader.cli`): the command's runner is started first, handed to the
    command (typer's context object), and ended with the command if the command never took it (a
    usage error, say)."""
    _encodable_output()
    early = early_runner(sys.argv)
    try:
        from grader.cli.app import app

        app(obj=early)
    finally:
        if early is not None:
            early.close()
