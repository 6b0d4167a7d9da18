"""The portable worker's parent: `python keeper.py [--fd N] -m grader.worker.portable_worker ...`.

Without a PID namespace (macOS, Windows, the portable runner anywhere) student code can signal
its parent process. Were that parent the judge, one `os.kill(os.getppid(), SIGKILL)` in a step
file would end the grading of the whole submission with no report at all. The judge therefore
starts this small process, which starts the worker and waits for it: the worker's parent is this
keeper, never the judge. It ignores the signals that ask a process to stop (the judge ends the
whole process group itself); killed anyway (SIGKILL), it is the step's loss alone, which the
judge learns from this process's end: the step goes on (the worker still answers), and the next
step gets a fresh worker.

It ends as the worker ended (the same exit status, or the same signal), so that the judge learns
how the worker ended as if it were its own child. Run as a script by its path, it imports the
standard library alone (no torch: it costs a few milliseconds per worker). The worker watches the
judge itself (`grader/worker/portable_worker.py`): a judge that dies ends it, and with it this keeper.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys

#: What asks a process to stop, ignored here: the worker's code would send them to its parent.
IGNORED = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1",
                                                    "SIGUSR2", "SIGBREAK") if hasattr(signal, name))


def main(argv: list[str]) -> None:
    fds: tuple[int, ...] = ()
    if argv[:1] == ["--fd"]:
        fds, argv = (int(argv[1]),), argv[2:]
    worker = subprocess.Popen([sys.executable, *argv], pass_fds=fds)
    for sig in IGNORED:  # only now, so that the worker keeps the defaults (it runs no student code yet)
        signal.signal(sig, signal.SIG_IGN)
    for fd in fds:  # the worker's now: the judge sees it close when the worker ends
        os.close(fd)
    _end_as(worker.wait())


def _end_as(code: int) -> None:
    """End with the worker's exit status, or by the signal that ended it."""
    if code >= 0 or os.name != "posix":
        os._exit(code if code >= 0 else 1)
    try:
        import resource  # absent where simulated away, and never on Windows

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the worker's crash, not a core of ours
    except (ImportError, ValueError, OSError):
        pass
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
    os._exit(128 - code)  # a signal that does not end a process by default


if __name__ == "__main__":
    main(sys.argv[1:])
