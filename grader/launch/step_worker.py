"""The judge's side of its workers: the zygote runner (a submission's C2, a step's C3 forked from
it), the step worker both runners hand out (call student functions, stop, learn how it ended),
and the interfaces a runner's submission worker implements.

Nothing here imports torch: values arrive as numpy arrays and plain JSON.
"""
from __future__ import annotations

import os
import secrets
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from grader.launch import protocol, sandbox
from grader.launch.interpreter import module_arguments
from grader.results import SandboxReport
from grader.suites.returned import Described, Returned

if TYPE_CHECKING:  # the zygote starts before numpy is imported: a command's first wait starts 30 ms sooner
    import numpy as np

PRINTED_KEPT = 4096  # characters of one call's printing kept, whatever the worker claims
DEFAULT_MEMORY = 4 << 30  # bytes per worker; a batch of 196 ViT-Ti forwards needs about 1.4 GB


class WorkerGone(Exception):
    """The worker ended (crash, exit, memory) or broke the protocol; `status` says which."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


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


class ZygoteRunner:
    """The Linux runner: a process that has imported torch and forks a sandboxed worker per
    submission; started early, used by every submission of a grading run."""

    def __init__(self, line: socket.socket | None = None) -> None:
        """A zygote of its own, or with `line` (from `clone`, in a judge of a pool) the copy of
        another process's zygote at the other end."""
        self._plan: sandbox.Plan | None = None
        self._submissions: list[ZygoteSubmission] = []  # spawned here: the live ones are never reaped
        self._pid = 0  # the zygote's, as its `ready` says
        self._cloned = False
        if line is not None:
            self._sock, self._process = line, None
            return
        ours, theirs = socket.socketpair()
        self._sock = ours
        env = sandbox.worker_environment(dict(os.environ))
        self._process = subprocess.Popen(
            [sys.executable, *module_arguments("grader.worker.zygote"), str(theirs.fileno())],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=env)
        theirs.close()

    def clone(self) -> socket.socket:
        """A line to a copy of this zygote, forked as soon as it is ready (no wait here): for a
        judge process of a pool, which passes it to `ZygoteRunner(line)`. The copy ends when its
        line closes, or with this zygote."""
        ours, theirs = socket.socketpair()
        try:
            protocol.send(self._sock, {"op": "clone"})
            socket.send_fds(self._sock, [b"F"], [theirs.fileno()])
        finally:
            theirs.close()
        self._cloned = True
        return ours

    def plan(self) -> sandbox.Plan:
        """The zygote's probe: which confinement layers its workers get (waits for it once)."""
        if self._plan is None:
            self._sock.settimeout(120)
            header, _ = protocol.receive(self._sock)
            if header.get("type") != "ready":
                raise RuntimeError("the grading zygote did not start")
            self._plan = sandbox.Plan.from_json(dict(header.get("sandbox") or {}))
            self._pid = int(header.get("pid") or 0)
        return self._plan

    def report(self, memory: int) -> SandboxReport:
        """The probe's findings as reports show them, the memory limit with its figure."""
        plan = self.plan()
        layers = [f"memory limit {memory / 2**30:g} GiB" if layer == "memory limit" else layer
                  for layer in plan.layers()]
        return SandboxReport(level=plan.level(), layers=layers, missing=list(plan.missing))

    def confines_files(self) -> bool:
        """Whether workers see only the read-only view (the fixtures out of their reach)."""
        return bool(self.plan().view)

    def runs_ahead(self) -> bool:
        """With two cores or more: a second worker is a second C2, in namespaces of its own."""
        return len(os.sched_getaffinity(0)) >= 2

    def spawn(self, init: dict[str, Any]) -> ZygoteSubmission:
        self.plan()
        protocol.send(self._sock, {"op": "spawn", **init})
        header, _ = protocol.receive(self._sock)
        _, fds, _, _ = socket.recv_fds(self._sock, 1, 1)
        submission = ZygoteSubmission(socket.socket(fileno=fds[0]), int(header["pid"]))
        self._submissions = [s for s in self._submissions if s.alive] + [submission]
        return submission

    def reap(self) -> int:
        """Kill whatever ended workers left behind; returns how many processes that was. A
        submission still alive (a step run ahead beside the one that ended) keeps its processes."""
        if self._plan is None or (self._process is not None and self._process.poll() is not None):
            return 0
        self._submissions = [s for s in self._submissions if s.alive]
        protocol.send(self._sock, {"op": "reap", "spare": [s.c1 for s in self._submissions]})
        header, _ = protocol.receive(self._sock)
        return int(header.get("killed", 0))

    def close(self) -> None:
        """End the zygote once it has ended every worker it started (a copy: once its line says so)."""
        if self._process is None:
            self._close_copy()
            return
        if self._plan is None and not self._cloned:  # never used (a command that stopped early)
            self._process.kill()
            self._process.wait()
            self._sock.close()
            return
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

    def _close_copy(self) -> None:
        """A copy is not this process's child: told to exit, it reaps its workers and then exits,
        which closes its end of the line. Killed after 10 s, like a zygote of our own."""
        try:
            protocol.send(self._sock, {"op": "exit"})
            self._sock.settimeout(10)
            while self._sock.recv(1 << 16):
                pass
        except TimeoutError:
            if self._pid > 0:
                try:
                    os.kill(self._pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        except OSError:
            pass
        self._sock.close()


SETUP_PATIENCE = 120.0  # seconds for C2 to load the references and enter the view on a busy machine
END_PATIENCE = 15.0  # seconds for C2 to report a step's end (it first waits for the step's process)


class ZygoteSubmission:
    """The judge's line to one submission's C2: asks it for a fresh C3 per step and hears how each
    one ended. Any abnormal end kills C2 with everything in its namespace: the next step gets a
    fresh C2."""

    def __init__(self, control: socket.socket, c1_pid: int) -> None:
        self._control, self.c1 = control, c1_pid
        self._c2: int | None = None
        self.alive = True
        self._prepared = False

    def _prepare(self) -> None:
        """Wait until C2 has loaded the references and entered the view (once)."""
        if self._prepared:
            return
        self._control.settimeout(SETUP_PATIENCE)
        header = self._receive()
        if header.get("type") == "spawned":  # sent before anything else: its pid as the judge sees it
            self._c2 = int(header["pid"])
            header = self._receive()
        if header.get("type") != "ready":
            self.kill()
            raise WorkerGone("error", f"the grader could not prepare the worker: {header.get('message')}")
        self._prepared = True

    def _receive(self) -> dict[str, Any]:
        try:
            header, _ = protocol.receive(self._control)
        except (EOFError, OSError, protocol.ProtocolError, TimeoutError):
            self.kill()
            raise WorkerGone("error", "the worker process ended unexpectedly") from None
        return header

    def step(self, init: dict[str, Any]) -> StepWorker:
        self._prepare()
        ours, theirs = socket.socketpair()
        try:
            protocol.send(self._control, {"op": "step", **init})
            socket.send_fds(self._control, [b"F"], [theirs.fileno()])
        except OSError:
            ours.close()
            self.kill()
            raise WorkerGone("error", "the worker process ended unexpectedly") from None
        finally:
            theirs.close()
        return StepWorker(ours, self)

    def ended(self) -> dict[str, Any] | None:
        """C2's report of the step's end, which it sends once the step's process has exited."""
        if not self.alive:
            return None
        self._control.settimeout(END_PATIENCE)
        try:
            header = self._receive()
        except WorkerGone:
            return None
        if header.get("type") != "exit":
            self.kill()
            return None
        return _exit_info(header)

    def stopped(self, header: dict[str, Any]) -> dict[str, Any] | None:
        """C3 ends after each step and never says `stopped`: a message that does is forged."""
        self.kill()
        return None

    def kill(self) -> None:
        """End C2 and C1: the kernel ends everything in their namespace (the zygote reaps the rest)."""
        self.alive = False
        for pid in (self._c2, self.c1):
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        try:
            self._control.close()
        except OSError:
            pass

    def close(self) -> None:
        if self.alive:
            try:
                protocol.send(self._control, {"op": "stop"})
            except OSError:
                pass
        self.kill()


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
            raise WorkerGone("error", self._ended_message()) from None
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
            raise WorkerGone("error", self._ended_message()) from None
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
