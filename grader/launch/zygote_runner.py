"""The judge's side of the zygote (`grader/worker/zygote.py`), the Linux runner: it asks the
zygote for a sandboxed worker per submission (its C2), which forks a fresh process per step (C3), and
hears from C2 how each step's process ended.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from typing import Any

from grader.launch import protocol, sandbox
from grader.launch.interpreter import module_arguments
from grader.launch.step_worker import StepWorker, WorkerGone, checked_exit
from grader.results import SandboxReport


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
        """The zygote's survey: which confinement layers its workers get (waits for it once)."""
        if self._plan is None:
            self._sock.settimeout(120)
            header, _ = protocol.receive(self._sock)
            if header.get("type") != "ready":
                raise RuntimeError("the grading zygote did not start")
            self._plan = sandbox.Plan.from_json(dict(header.get("sandbox") or {}))
            self._pid = int(header.get("pid") or 0)
        return self._plan

    def report(self, memory: int) -> SandboxReport:
        """The survey's findings as reports show them, the memory limit with its figure."""
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
        return checked_exit(header)

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
