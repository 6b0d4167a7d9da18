"""The signals that stop a command (Ctrl-C; SIGTERM from a CI timeout or `kill`): one way to answer
them for a while, and the exit status of a command they stopped."""
from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

#: The signals that stop a command.
STOPPING = (signal.SIGINT, signal.SIGTERM)
#: A command stopped by one ends as a shell reports a process it killed: 128 + its number (130, 143).
STOPPED_EXIT = {number.name: 128 + number.value for number in STOPPING}


@contextmanager
def answered_by(handler: Callable[[int, FrameType | None], object],
                signals: tuple[signal.Signals, ...] = STOPPING) -> Iterator[bool]:
    """`handler` answers `signals` inside the block; the handlers before it come back after.

    Yields whether it answers them: only the main thread gets signals, so in another thread nothing
    changes (and the block runs all the same).
    """
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous = {number: signal.signal(number, handler) for number in signals}
    try:
        yield True
    finally:
        for number, earlier in previous.items():
            signal.signal(number, earlier)
