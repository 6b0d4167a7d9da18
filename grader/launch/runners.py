"""The runner: what starts the sandboxed workers, chosen here and nowhere else.

Two runners implement one interface (`Runner`): the zygote (`zygote_runner.ZygoteRunner`, Linux: imports
torch once and forks each worker into the probed sandbox) and the portable runner
(`portable.PortableRunner`, macOS and Windows, or `VITGRADE_RUNNER=portable`: a fresh Python per
worker, always one started ahead). The judge grades through the interface alone. The zygote alone
can also be copied (`clone`): a pool of judges (`grade --jobs N`) shares one torch import that way.
"""
from __future__ import annotations

import atexit
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from grader.launch import sandbox
from grader.launch.step_worker import SubmissionWorker
from grader.results import SandboxReport


class Runner(Protocol):
    """Starts workers, ends what they leave behind, and says which sandbox they get."""

    def spawn(self, init: dict[str, Any]) -> SubmissionWorker:
        """A worker for one submission (`init`: its folder, references, checkpoint and limits)."""

    def reap(self) -> int:
        """End whatever finished workers left behind; returns how many processes that was."""

    def confines_files(self) -> bool:
        """Whether workers see only the read-only view (the fixtures out of their reach)."""

    def report(self, memory: int) -> SandboxReport:
        """The confinement its workers get (waits for the runner to have probed it)."""

    def runs_ahead(self) -> bool:
        """Whether a step may run in a second worker of the same submission beside the first."""

    def close(self) -> None:
        """End the runner and every worker it started."""


def missing_tools() -> list[str]:
    """What the zygote needs and this Python lacks: empty on Linux, where the zygote runs."""
    missing = [name for name, present in (
        ("os.fork", hasattr(os, "fork")), ("socket.send_fds", hasattr(socket, "send_fds")),
        ("os.killpg", hasattr(os, "killpg"))) if not present]
    try:
        import resource  # noqa: F401 - Unix only
    except ImportError:
        missing.append("resource")
    if not sys.platform.startswith("linux"):
        return missing + [f"Linux's namespaces (this is {sys.platform})"]
    return missing + [f"libc {name}" for name in ("prctl", "unshare", "mount") if not sandbox.in_libc(name)]


def portable_because() -> str | None:
    """Why the workers come from the portable runner ("no os.fork, ..." where the zygote cannot
    run, or "VITGRADE_RUNNER=portable" where it is forced); None where the zygote serves them."""
    missing = missing_tools()
    if missing:
        return f"no {', '.join(missing)}"
    return "VITGRADE_RUNNER=portable" if os.environ.get("VITGRADE_RUNNER") == "portable" else None


_AHEAD: list[Runner] = []  # started by `start_ahead`, taken by the next `start_runner`


def start_ahead(line: socket.socket | None = None) -> None:
    """Start the runner now, for the grader that `start_runner` creates later: its torch import,
    the longest wait of a check, overlaps whatever comes first (importing the command line and the
    judge, reading folders). One that no grader takes is ended as the process exits. With `line`
    (a judge of a pool): the copy of the pool's zygote at its other end (see `share_ahead`)."""
    if not _AHEAD:
        _AHEAD.append(_new_runner() if line is None else _copy_of_zygote(line))


def worth_starting_ahead(jobs: int) -> bool:
    """Whether a command grading `jobs` submissions at once starts a runner ahead: always for one,
    and for a pool where its judges can share it (the zygote, copied for each of them). Portable
    runners are not shared: each judge of a pool starts its own."""
    return jobs == 1 or (jobs > 1 and portable_because() is None)


def share_ahead(judges: int) -> list[socket.socket] | None:
    """One line per judge of a pool to a copy of the zygote started ahead, which keeps running
    until the block of `started_ahead` ends: torch is imported once for the whole pool, and each
    judge's workers are forked from its copy. None where the runner started ahead cannot be shared
    (the portable runner), which is then ended: each judge starts its own."""
    if not (_AHEAD and hasattr(_AHEAD[0], "clone")):  # the zygote alone can be copied
        _end_ahead()
        return None
    return [_AHEAD[0].clone() for _ in range(judges)]


@atexit.register
def _end_ahead() -> None:
    while _AHEAD:
        _AHEAD.pop().close()


@contextmanager
def started_ahead(start: bool = True) -> Iterator[None]:
    """A runner started ahead (now, unless the command line started one already) for the block's
    grader, or a pool's judges (`share_ahead`); one still here at the block's end (no grader took
    it, or a pool shared it) is ended there. Without `start` (a pool of judges that each start
    their own) none is kept."""
    if start:
        start_ahead()
    else:
        _end_ahead()
    try:
        yield
    finally:
        _end_ahead()


def start_runner() -> Runner:
    """The runner started ahead if there is one, else a new one: the zygote where it can run, else
    the portable runner; either starts importing torch now."""
    return _AHEAD.pop() if _AHEAD else _new_runner()


def _copy_of_zygote(line: socket.socket) -> Runner:
    from grader.launch.zygote_runner import ZygoteRunner

    return ZygoteRunner(line)


def _new_runner() -> Runner:
    because = portable_because()
    if because is not None:
        from grader.launch.portable import PortableRunner

        return PortableRunner(because)
    from grader.launch.zygote_runner import ZygoteRunner

    return ZygoteRunner()
