"""The judge's line to a step's worker process, which both runners hand out: calls with a
deadline, stopping, and learning how the process ended; and the interface of a runner's submission
worker, which starts a process per step (the zygote's C2) or serves the steps in turn (the portable
runner).

Nothing here imports torch: values arrive as numpy arrays and plain JSON.
"""
from __future__ import annotations

import secrets
import select
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from grader.launch import protocol
from grader.suites.returned import Described, Returned

if TYPE_CHECKING:  # the zygote starts before numpy is imported: a command's first wait starts 30 ms sooner
    import numpy as np

PRINTED_KEPT = 4096  # characters of one call's printing kept, whatever the worker claims


class WorkerGone(Exception):
    """The worker ended (crash, exit, memory) or broke the protocol; `status` says which.
    `by_code`: the worker's own end report shows the student's code ended it (an exit, a signal),
    rather than the grader losing it or its messages arriving garbled."""

    def __init__(self, status: str, message: str, by_code: bool = False) -> None:
        super().__init__(message)
        self.status, self.message, self.by_code = status, message, by_code


GARBLED = ("the worker's messages were garbled ({}); does your code write to inherited file "
           "descriptors?")
#: What a forged or garbled message can make the judge's parsing raise; never the grader's fault.
MALFORMED = (TypeError, ValueError, AttributeError, KeyError, RecursionError)


def _unpack(spec: Any, arrays: dict[str, np.ndarray]) -> tuple[Any, str, str | None, str]:
    """(value, kind, dtype, type name) from the worker's JSON description."""
    if not isinstance(spec, dict):
        return None, "other", None, type(spec).__name__
    kind = str(spec.get("kind", "other"))
    if "t" in spec:
        array = arrays.get(str(spec["t"]))
        return array, kind, str(spec.get("dtype")), kind
    if "seq" in spec and isinstance(spec["seq"], list):
        return tuple(_unpack(s, arrays)[0] for s in spec["seq"]), kind, None, kind
    if "v" in spec:
        return spec["v"], kind, None, kind
    type_name = str(spec.get("type", "?"))
    return Described(str(spec.get("repr", type_name))), type_name, None, type_name


def _returned(header: dict[str, Any], out: dict[str, np.ndarray], seconds: float) -> Returned:
    """One call's reply as the judge sees it; raises one of MALFORMED if the reply is not well formed."""
    printed = header.get("printed") or {}
    common = dict(used=[str(s) for s in header.get("used", [])], passed=_passed(header.get("passed")),
                  forbidden=[str(s) for s in header.get("forbidden", [])], seconds=seconds,
                  printed=str(printed.get("head", ""))[:PRINTED_KEPT],
                  printed_bytes=max(0, int(printed.get("bytes", 0))))
    if not header.get("ok"):
        error = {str(k): v if v is None or k == "line" else str(v)
                 for k, v in dict(header.get("error") or {}).items()}
        return Returned(ok=False, error=error, **common)
    value, kind, dtype, type_name = _unpack(header.get("value"), out)
    modified = [int(p) for p in header.get("modified") or []]
    return Returned(ok=True, value=value, kind=kind, dtype=dtype, type_name=type_name,
                    modified=modified, **common)


def _passed(entries: Any) -> list[tuple[str, str, int, bool]]:
    """The sizes the call passed to earlier steps, as (function, size, value, left at its default);
    an entry not of that form is dropped (the socket is one student code can write to)."""
    def well_formed(entry: Any) -> bool:
        return (isinstance(entry, list) and len(entry) == 4 and all(isinstance(x, str) for x in entry[:2])
                and isinstance(entry[2], int) and not isinstance(entry[2], bool) and isinstance(entry[3], bool))

    return [(entry[0], entry[1], entry[2], entry[3]) for entry in entries if well_formed(entry)] \
        if isinstance(entries, list) else []


def checked_exit(header: dict[str, Any]) -> dict[str, Any]:
    """How the worker ended, each field checked: the report comes from the sandbox's init, but over
    a socket that student code can write to as well."""
    def number(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    name = header.get("signal_name")
    return {"code": number(header.get("code")), "signal": number(header.get("signal")),
            "signal_name": name if isinstance(name, str) else None,
            "output_bytes": max(0, number(header.get("output_bytes")) or 0),
            "output_head": str(header.get("output_head", ""))}


class StepEnds(Protocol):
    """How a step's process is ended and how its end is learnt: the submission worker's part."""

    def ended(self) -> dict[str, Any] | None:
        """How the step's process ended (after its socket closed), with what it printed, or None."""

    def kill(self) -> None:
        """End the step's process and everything it started: the submission worker is not reused."""

    def stopped(self, header: dict[str, Any]) -> dict[str, Any] | None:
        """How the step ended when its process said `stopped` and lives on for the next step."""


class SubmissionWorker(Protocol):
    """One submission's worker: a fresh process for each step, from a parent no student code ran in
    (the zygote's C2), or steps in turn in one process (the portable runner)."""

    alive: bool
    """False once a step ended it (a crash, a time limit, a broken protocol): never reused."""

    def step(self, init: dict[str, Any]) -> StepWorker:
        """Start serving one step (`init`: its id, functions, references, time and memory limits)."""

    def close(self) -> None:
        """End the worker and everything it started."""


#: When a step's time is up: a time.monotonic() value, or where it may move while a call waits (a
#: step run ahead, whose limit starts over when the session gets to it), a function that says it.
Deadline = float | Callable[[], float]
DEADLINE_CHECK = 0.25  # seconds between looks at a deadline that may move
MESSAGE_PATIENCE = 60.0  # seconds for a reply that has started to arrive, where the deadline is not yet set


class StepWorker:
    """The process that runs one step's student code. Calls are synchronous, each with a deadline."""

    def __init__(self, sock: socket.socket, ends: StepEnds) -> None:
        self._sock, self._ends = sock, ends
        self._open = True
        self.exit_info: dict[str, Any] | None = None
        self.functions: list[str] = []

    def _receive(self, deadline: Deadline) -> tuple[dict, dict]:
        remaining = self._until_readable(deadline) if callable(deadline) else deadline - time.monotonic()
        if remaining <= 0:
            raise WorkerGone("timeout", "time limit reached")
        self._sock.settimeout(remaining)
        try:
            header, arrays = protocol.receive(self._sock)
        except TimeoutError:
            self.kill()
            raise WorkerGone("timeout", "time limit reached") from None
        except EOFError:
            self._learn_end()
            self.kill()
            raise self._ended() from None
        except (protocol.ProtocolError, OSError) as error:
            self.kill()
            raise WorkerGone("error", GARBLED.format(error)) from None
        if header.get("type") == "setup_error":
            self.kill()
            raise WorkerGone("error", f"the grader could not prepare the worker: {header.get('message')}")
        return header, arrays

    def _until_readable(self, deadline: Callable[[], float]) -> float:
        """Wait until the process's reply starts to arrive or `deadline()` (which may move while
        this waits) has passed; returns the time left then for reading it (finite). Polled between
        whole messages only: a reply is never read in part and then given up."""
        while (remaining := deadline() - time.monotonic()) > 0:
            readable, _, _ = select.select([self._sock], [], [], min(remaining, DEADLINE_CHECK))
            if readable:
                return min(max(deadline() - time.monotonic(), 1e-3), MESSAGE_PATIENCE)
        return remaining

    def start(self, deadline: Deadline) -> dict[str, Any]:
        """Wait until the student's file is loaded. Returns the `ready` or `load_error` header."""
        header, _ = self._receive(deadline)
        if header.get("type") == "ready":
            functions = header.get("functions", [])
            if not isinstance(functions, list):
                self.kill()
                raise WorkerGone("error", GARBLED.format("a `ready` message without its functions"))
            self.functions = [str(f) for f in functions]
        return header

    def call(self, fn: str, args: list, kwargs: dict, arrays: dict[str, np.ndarray],
             deadline: Deadline) -> Returned:
        started = time.monotonic()
        call = secrets.token_hex(8)  # the reply must name it, which bytes written blindly cannot
        try:
            protocol.send(self._sock, {"op": "call", "id": call, "fn": fn, "args": args, "kwargs": kwargs}, arrays)
        except OSError:
            self.kill()
            raise self._ended() from None
        header, out = self._receive(deadline)
        if header.get("call") != call:  # forged, or garbage taken for a message: every later reply is suspect
            self.kill()
            raise WorkerGone("error", GARBLED.format("a reply that does not answer this call"))
        try:
            return _returned(header, out, time.monotonic() - started)
        except MALFORMED as error:
            self.kill()
            why = f"a reply the judge cannot read: {type(error).__name__}"
            raise WorkerGone("error", GARBLED.format(why)) from None

    def _ended(self) -> WorkerGone:
        """How the worker ended, blaming the student's code only where its end report shows it."""
        return WorkerGone("error", self._ended_message(), by_code=self.exit_info is not None)

    def _ended_message(self) -> str:
        info = self.exit_info
        if info is None:
            return "the worker process ended unexpectedly"
        if info.get("signal_name"):
            name = info["signal_name"]
            why = {"SIGSEGV": "a segmentation fault (SIGSEGV)", "SIGABRT": "an abort (SIGABRT)",
                   "SIGKILL": "SIGKILL (killed: by itself, or by the system when memory ran out)"}
            return f"your code ended the worker with {why.get(name, f'signal {name}')}"
        if info.get("code") == protocol.EXIT_NO_MEMORY:
            return "the worker ran out of memory between calls (does your code keep large objects alive?)"
        if info.get("code") == protocol.EXIT_BROKEN:
            return ("the worker could no longer answer the grader: does your code close, or write to, "
                    "file descriptors it did not open?")
        return f"your code ended the worker (exit status {info.get('code')})"

    def _learn_end(self) -> None:
        """How the process ended, once its socket has closed."""
        if self.exit_info is None:
            self.exit_info = self._ends.ended()

    def close(self, deadline: float) -> dict[str, Any] | None:
        """Ask the process to stop and collect how it ended (and what it printed). A clean stop
        leaves the submission worker ready for the next step; anything else ends it."""
        if self.exit_info is None and self._open:
            try:
                protocol.send(self._sock, {"op": "stop"})
                while self.exit_info is None:  # replies still under way are not read
                    self._sock.settimeout(max(0.001, deadline - time.monotonic()))
                    header, _ = protocol.receive(self._sock)
                    if header.get("type") == "stopped":  # the process lives on for the next step
                        self.exit_info = self._ends.stopped(header)
                        self._open = False
                        if self.exit_info is None:
                            self._sock.close()
                        return self.exit_info
            except EOFError:
                self._learn_end()
            except (OSError, protocol.ProtocolError):  # no end by the deadline, or garbled on the way
                self.kill()
        self._close_socket()
        return self.exit_info

    def kill(self) -> None:
        """End the process and everything it started (with its submission worker)."""
        self._ends.kill()
        self._close_socket()

    def _close_socket(self) -> None:
        self._open = False
        try:
            self._sock.close()
        except OSError:
            pass
