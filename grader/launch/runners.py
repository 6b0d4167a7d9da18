"""The runner: what starts the sandboxed workers, chosen here and nowhere else.

Two runners implement one interface (`Runner`): the zygote (`zygote_runner.ZygoteRunner`, Linux: imports
torch once and forks each worker into the surveyed sandbox) and the portable runner
(`portable.PortableRunner`, macOS and Windows, or `VITGRADE_RUNNER=portable`: a fresh Python per
worker, always one started ahead). The judge grades through the interface alone. The zygote alone
can also be copied (`clone`): a pool of judges (`grade --jobs N`) shares one torch import that way.

A command starts its runner before it needs it (`EarlyRunner`, made by `grader.cli.main` from the
command line and handed to the command), so that the workers' torch import overlaps the command's
own start.
"""
from __future__ import annotations

import os
import socket
import sys
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
        """The confinement its workers get (waits for the runner to have surveyed it)."""

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


def new_runner() -> Runner:
    """A runner started now: the zygote where it can run, else the portable runner; either starts
    importing torch at once."""
    because = portable_because()
    if because is not None:
        from grader.launch.portable import PortableRunner

        return PortableRunner(because)
    from grader.launch.zygote_runner import ZygoteRunner

    return ZygoteRunner()


def copy_of_zygote(line: socket.socket) -> Runner:
    """A judge of a pool's runner: the copy of the pool's zygote at the other end of `line`
    (`EarlyRunner.share`)."""
    from grader.launch.zygote_runner import ZygoteRunner

    return ZygoteRunner(line)


class EarlyRunner:
    """A command's runner, started before the command needs it: a check waits above all for its
    worker's torch import, which then overlaps whatever comes first (importing the command line and
    the judge, reading folders). The command's grader takes it (`take`), or a pool's judges share
    it (`share`); one still here when the command ends (nobody took it, or a pool shared it) is
    ended then (`close`, or the end of a `with` block).

    The command line makes one before it imports typer and the commands (`grader.cli.main`), and
    hands it to the command it runs; a command run without it (typer's test runner) makes its own.
    """

    def __init__(self, runner: Runner | None = None) -> None:
        self._runner = runner

    @classmethod
    def for_jobs(cls, jobs: int) -> EarlyRunner:
        """Started now where it pays for a command grading `jobs` submissions at once: always for
        one, and for a pool whose judges can share it (the zygote, copied for each of them);
        portable runners are not shared, so each judge of a pool starts its own."""
        return cls(new_runner() if jobs == 1 or (jobs > 1 and portable_because() is None) else None)

    @classmethod
    def given(cls, early: EarlyRunner | None, jobs: int = 1) -> EarlyRunner:
        """`early`, the one the command line started; else one started now (`for_jobs`)."""
        return early if early is not None else cls.for_jobs(jobs)

    def take(self) -> Runner:
        """The runner started early, else a new one; whoever takes it ends it."""
        runner, self._runner = self._runner, None
        return runner if runner is not None else new_runner()

    def share(self, judges: int) -> list[socket.socket] | None:
        """One line per judge of a pool to a copy of the zygote started early, which keeps running
        until this ends: torch is imported once for the whole pool, and each judge's workers are
        forked from its copy. None where the runner started early cannot be shared (the portable
        runner, or none was started), which is then ended: each judge starts its own."""
        if not hasattr(self._runner, "clone"):  # the zygote alone can be copied
            self.close()
            return None
        return [self._runner.clone() for _ in range(judges)]

    def close(self) -> None:
        """End the runner if nobody took it."""
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.close()

    def __enter__(self) -> EarlyRunner:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()
