"""The judge's side of a worker: spawn it through the zygote, call student functions, end it.

Nothing here imports torch: values arrive as numpy arrays and plain JSON.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grader.runner import protocol, sandbox

PRINTED_KEPT = 4096  # characters of one call's printing kept, whatever the worker claims
DEFAULT_MEMORY = 4 << 30  # bytes per worker; a batch of 196 ViT-Ti forwards needs about 1.4 GB


class WorkerGone(Exception):
    """The worker ended (crash, exit, memory) or broke the protocol; `status` says which."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Returned:
    """One call's outcome as the judge sees it."""

    ok: bool
    value: Any = None  # np.ndarray, python scalar, tuple of those, or None
    kind: str = ""  # "tensor", "ndarray", "tuple", "int", ... or the type name of anything else
    dtype: str | None = None
    type_name: str = ""
    error: dict[str, Any] = field(default_factory=dict)
    used: list[str] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    modified: list[int] = field(default_factory=list)  # positions of arguments changed in place
    seconds: float = 0.0
    printed: str = ""  # the start of what the call printed (stdout and stderr, from Python code)
    printed_bytes: int = 0  # how much it printed in all


class Described(str):
    """A returned object the worker could only describe: shows as its description, is never data."""

    def __repr__(self) -> str:
        return str(self)


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
    common = dict(used=[str(s) for s in header.get("used", [])],
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


def _exit_info(header: dict[str, Any]) -> dict[str, Any]:
    """How the worker ended, each field checked: the report comes from the sandbox's init, but over
    a socket that student code can write to as well."""
    def number(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    name = header.get("signal_name")
    return {"code": number(header.get("code")), "signal": number(header.get("signal")),
            "signal_name": name if isinstance(name, str) else None,
            "output_bytes": max(0, number(header.get("output_bytes")) or 0),
            "output_head": str(header.get("output_head", ""))}


class Zygote:
    """A process that has imported torch and forks workers; started early, used by every step."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        self._sock = ours
        env = sandbox.worker_environment(dict(os.environ))
        self._process = subprocess.Popen(
            [sys.executable, "-m", "grader.runner.zygote", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=env)
        theirs.close()
        self._ready = False
        self._sandbox: dict[str, Any] = {}

    def _wait_ready(self) -> None:
        if not self._ready:
            self._sock.settimeout(120)
            header, _ = protocol.receive(self._sock)
            if header.get("type") != "ready":
                raise RuntimeError("the grading zygote did not start")
            self._sandbox = dict(header.get("sandbox") or {})
            self._ready = True

    def sandbox(self) -> dict[str, Any]:
        """The zygote's probe: which confinement layers its workers get (`sandbox.Plan` as JSON)."""
        self._wait_ready()
        return self._sandbox

    def spawn(self, init: dict[str, Any]) -> Worker:
        self._wait_ready()
        protocol.send(self._sock, {"op": "spawn", **init})
        header, _ = protocol.receive(self._sock)
        _, fds, _, _ = socket.recv_fds(self._sock, 1, 1)
        return Worker(socket.socket(fileno=fds[0]), header["pid"], self)

    def reap(self) -> int:
        """Kill whatever a worker left behind; returns how many processes that was."""
        if not self._ready or self._process.poll() is not None:
            return 0
        protocol.send(self._sock, {"op": "reap"})
        header, _ = protocol.receive(self._sock)
        return int(header.get("killed", 0))

    def close(self) -> None:
        try:
            protocol.send(self._sock, {"op": "exit"})
        except OSError:
            pass
        self._sock.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


class Worker:
    """One sandboxed worker for one step. Calls are synchronous, each with a deadline."""

    def __init__(self, sock: socket.socket, c1_pid: int | None, zygote: Any, tree: Any = None) -> None:
        self._sock, self._c1, self._zygote = sock, c1_pid, zygote
        self._tree = tree  # the portable runner's worker (`portable.Spawned`): the judge sees it end
        self._c2: int | None = None
        self.exit_info: dict[str, Any] | None = None
        self.functions: list[str] = []

    def _receive(self, deadline: float) -> tuple[dict, dict]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise WorkerGone("timeout", "time limit reached")
        self._sock.settimeout(remaining)
        try:
            header, arrays = protocol.receive(self._sock)
        except TimeoutError:
            self.kill()
            raise WorkerGone("timeout", "time limit reached") from None
        except EOFError:
            if self._tree is not None and self.exit_info is None:
                self.exit_info = self._tree.ended()
            self.kill()
            raise WorkerGone("error", self._ended_message()) from None
        except (protocol.ProtocolError, OSError) as error:
            self.kill()
            raise WorkerGone("error", GARBLED.format(error)) from None
        if header.get("type") == "exit":
            self.exit_info = _exit_info(header)
            self.kill()
            raise WorkerGone("error", self._ended_message())
        if header.get("type") == "setup_error":
            self.kill()
            raise WorkerGone("error", f"the grader could not prepare the worker: {header.get('message')}")
        return header, arrays

    def start(self, deadline: float) -> dict[str, Any]:
        """Wait until the student's file is loaded. Returns the `ready` or `load_error` header."""
        header, _ = self._receive(deadline)
        if header.get("type") == "spawned":
            self._c2 = int(header["pid"])  # sent before any student code runs
            header, _ = self._receive(deadline)
        if header.get("type") == "ready":
            functions = header.get("functions", [])
            if not isinstance(functions, list):
                self.kill()
                raise WorkerGone("error", GARBLED.format("a `ready` message without its functions"))
            self.functions = [str(f) for f in functions]
        return header

    def call(self, fn: str, args: list, kwargs: dict, arrays: dict[str, np.ndarray],
             deadline: float) -> Returned:
        started = time.monotonic()
        try:
            protocol.send(self._sock, {"op": "call", "fn": fn, "args": args, "kwargs": kwargs}, arrays)
        except OSError:
            self.kill()
            raise WorkerGone("error", self._ended_message()) from None
        header, out = self._receive(deadline)
        try:
            return _returned(header, out, time.monotonic() - started)
        except MALFORMED as error:
            self.kill()
            why = f"a reply the judge cannot read: {type(error).__name__}"
            raise WorkerGone("error", GARBLED.format(why)) from None

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

    def close(self, deadline: float) -> dict[str, Any] | None:
        """Ask the worker to stop and collect how it ended (and what it printed)."""
        if self.exit_info is None:
            try:
                protocol.send(self._sock, {"op": "stop"})
                while self.exit_info is None:
                    self._receive(deadline)
            except (WorkerGone, OSError):
                pass
        self.kill()
        return self.exit_info

    def kill(self) -> None:
        """End the worker's whole process tree: C1 and C2 take theirs along, a Spawned its group or job."""
        if self._tree is not None:
            self._tree.kill()
        for pid in (self._c2, self._c1):
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        try:
            self._sock.close()
        except OSError:
            pass
