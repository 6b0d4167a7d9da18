"""Hostile: a correct add_position that leaves processes and threads behind.

Every process it starts carries MARKER in its command line or name, so a test can look for
survivors in /proc once grading is over.
"""
import ctypes
import os
import subprocess
import sys
import threading
import time

import torch

MARKER = "vgh-7f3a91"  # short enough for a process name (15 bytes)
SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)", MARKER]


def _name_myself() -> None:
    ctypes.CDLL(None).prctl(15, MARKER.encode(), 0, 0, 0)  # PR_SET_NAME


def _daemon() -> None:
    """The classic double fork: the grandchild is orphaned in its own session."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, SLEEPER)
        os._exit(0)


def _fork_bomb(count: int = 50) -> None:
    for _ in range(count):
        if os.fork() == 0:
            _name_myself()
            time.sleep(600)
            os._exit(0)


def _spin() -> None:
    while True:
        pass


_calls = 0


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    global _calls
    _calls += 1
    if _calls == 1:
        subprocess.Popen(SLEEPER, start_new_session=True)
        _daemon()
        _fork_bomb()
    threading.Thread(target=time.sleep, args=(600,)).start()
    threading.Thread(target=_spin, daemon=True).start()
    return tokens + pos_table
