"""The portable runner: workers started with `subprocess`, for machines where the zygote cannot run.

The zygote (`grader/worker/zygote.py`) needs `os.fork`, `socket.send_fds`, the `resource` module
and libc's `prctl`, `unshare` and `mount`: Linux only. macOS and Windows (or
`VITGRADE_RUNNER=portable`) get this runner instead, behind the same interface (`runners.Runner`):

    judge ── keeper (`keeper.py`: the worker's parent, so that no student code can signal the judge)
               └─ worker (`python -m grader.worker.portable_worker`: imports torch, runs student code)
                    └─ anything the student starts: same process group (POSIX) or Job Object (Windows)

One worker serves a submission's steps in turn, for as long as each step leaves its interpreter
as it found it (`grader.worker.intact`; without fork no step can start from a clean copy): a step
that patched torch, left a thread or a child running, crashed or ran out of time hands the next
step a fresh worker. The next submission's worker imports torch ahead of time, between
submissions (never beside a step, whose calls it would slow). The judge reads the worker's output
(each step's share ends at a marker the worker prints) and its exit status directly, and at a time
limit it ends the worker's whole tree: `killpg` on POSIX, the Job Object (else `taskkill /T`) on
Windows.
"""
from __future__ import annotations

import functools
import hmac
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from grader.launch import protocol, sandbox
from grader.launch.interpreter import module_arguments
from grader.launch.step_worker import StepWorker
from grader.results import SandboxReport

WINDOWS = sys.platform == "win32"
#: The worker's parent, never the judge: student code that signals its parent reaches it (see there).
KEEPER = Path(__file__).resolve().with_name("keeper.py")
WORKER = tuple(module_arguments("grader.worker.portable_worker"))
START_PATIENCE = 120.0  # seconds for a worker's Python to import torch on a slow laptop
START_ATTEMPTS = 2  # workers started before "did not start" is reported
EXIT_PATIENCE = 2.0  # seconds a worker that closed its socket gets to finish exiting by itself
#: Windows variables Python and torch need beside the sandbox's allow-list: without SYSTEMROOT a
#: Python on Windows cannot even start its sockets.
WINDOWS_ENVIRONMENT = ("SYSTEMROOT", "WINDIR", "TEMP", "TMP", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
                       "PATHEXT", "COMSPEC", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE")


class PortableRunner:
    """Starts one subprocess worker per submission. The next one imports torch ahead of time
    between submissions (a re-check in a notebook or a watch loop, or a class's next submission,
    finds it ready), never beside a step: an import competing for the cores slowed the step's own
    calls (the default two torch threads spin-wait for a busy core: ten times slower here), which
    ran on the step's clock."""

    def __init__(self, because: str) -> None:
        """`because`: why the workers come from this runner (`runners.portable_because`), which its
        sandbox report names."""
        self._because = because
        self._env = {**sandbox.worker_environment(dict(os.environ)), **_windows_environment(),
                     "PYTHONIOENCODING": "utf-8",  # what the student prints arrives as UTF-8 everywhere
                     protocol.JUDGE_VARIABLE: str(os.getpid())}  # the worker ends with the judge, not with its keeper
        self._spare: Spawned | None = Spawned(self._env)
        self._used: list[Spawned] = []
        self.memory_refused: str | None = None  # why the OS refused a memory limit, once it did

    def wait_ready(self) -> None:
        """Until the next worker has imported torch: a step's time limit starts after that. A
        worker that ends while it starts has run no student code, so another is started once
        before the kit gives up (on a loaded machine one start can fail where the next succeeds)."""
        for attempt in range(START_ATTEMPTS):
            if self._spare is None:
                self._spare = Spawned(self._env)
            try:
                self._spare.wait_started()
                return
            except (EOFError, OSError, protocol.ProtocolError) as error:
                self._spare.kill()
                self._spare = None
                if attempt == START_ATTEMPTS - 1:
                    raise RuntimeError(f"a grading worker did not start: {error}") from None

    def spawn(self, init: dict[str, Any]) -> PortableSubmission:
        return PortableSubmission(self, init)

    def confines_files(self) -> bool:
        """Never: the portable workers see the file system as the judge does."""
        return False

    def runs_ahead(self) -> bool:
        """Never: a second worker would need a second torch import, the cost running ahead saves."""
        return False

    def take(self, init: dict[str, Any]) -> Spawned:
        """A started worker, told which submission it serves. A step that ends it mid-submission
        waits for a fresh one's import (off the step's clock) rather than run beside one."""
        self.wait_ready()
        spawned, self._spare = self._spare, None
        refused = spawned.limit_memory(int(init["memory"]))
        self.memory_refused = self.memory_refused or refused
        try:
            protocol.send(spawned.sock, {"op": "init", **init})
        except OSError:
            pass  # it died after starting: the step finds it gone and says how it ended
        self._used.append(spawned)
        return spawned

    def reap(self) -> int:
        """End what the submission's steps left behind (a worker's tree is already ended when it
        closes); the next submission's worker starts importing now, with no step running."""
        ended = self._end_used()
        if self._spare is None:
            self._spare = Spawned(self._env)
        return ended

    def close(self) -> None:
        """End every worker, the spare too: no submission follows."""
        self._end_used()
        if self._spare is not None:
            self._spare.kill()
            self._spare = None

    def _end_used(self) -> int:
        ended = sum(spawned.kill() for spawned in self._used)
        self._used = []
        return ended

    def report(self, memory: int) -> SandboxReport:
        """What the workers got here, and what this platform could not give them."""
        gib = f"{memory / 2**30:g} GiB"
        layers = ["own process"]
        missing = [f"namespaces and read-only view ({self._because}; the hidden files stay readable)",
                   "separation from the grader (same user, no PID namespace: the code could signal it)"]
        if WINDOWS:
            layers.append("Job Object (the whole process tree ends at the time limit)")
        else:
            layers.append("own process group (ended as a whole at the time limit)")
            missing.append("subreaper (a process that starts its own session can outlive the step)")
        missing.append("a fresh process per step (steps share one while each leaves it intact)")
        why_no_limit = self.memory_refused or _memory_limit_refused()
        if why_no_limit:
            missing.append(f"memory limit ({why_no_limit})")
        else:
            how = {"win32": "Job Object", "darwin": "RLIMIT_DATA, which macOS documents for sbrk only"}
            layers.append(f"memory limit {gib} ({how.get(sys.platform, 'RLIMIT_DATA')})")
        layers.append("environment allow-list")
        return SandboxReport(level="portable", layers=layers, missing=missing)


class PortableSubmission:
    """One submission's steps in turn in one worker process; a fresh one after a step that ended
    it (a crash, a time limit) or that left its interpreter changed (the worker says so), and for a
    step with another memory limit."""

    def __init__(self, runner: PortableRunner, init: dict[str, Any]) -> None:
        self._runner, self._init = runner, init
        self._spawned: Spawned | None = None
        self._memory: int | None = None
        self.alive = True  # a dead worker is replaced here, never the submission's

    def step(self, init: dict[str, Any]) -> StepWorker:
        if self._spawned is not None and int(init["memory"]) != self._memory:
            self.kill()
        if self._spawned is None:
            self._memory = int(init["memory"])
            self._spawned = self._runner.take({**self._init, "memory": self._memory})
        marker = f"vitgrade-step-end-{secrets.token_hex(8)}"
        self._spawned.begin_step(marker)
        try:
            protocol.send(self._spawned.sock, {"op": "step", **init, "marker": marker})
        except OSError:
            pass  # it died: the step finds it gone and says how it ended
        return StepWorker(self._spawned.sock, self)

    def ended(self) -> dict[str, Any] | None:
        spawned, self._spawned = self._spawned, None
        return spawned.ended() if spawned is not None else None

    def stopped(self, header: dict[str, Any]) -> dict[str, Any] | None:
        if self._spawned is None:
            return None
        info = {"signal": None, "signal_name": None, "code": 0, **self._spawned.step_output()}
        # Changed, it ends itself (what it started goes with its group); without its keeper (the
        # step's code killed it), the judge could no longer learn how the worker ends.
        if header.get("intact") is not True or self._spawned.process.poll() is not None:
            self.kill()
        return info

    def kill(self) -> None:
        spawned, self._spawned = self._spawned, None
        if spawned is not None:
            spawned.kill()

    def close(self) -> None:
        self.kill()


def _windows_environment() -> dict[str, str]:
    return {k: os.environ[k] for k in WINDOWS_ENVIRONMENT if WINDOWS and k in os.environ}


def _memory_limit_refused() -> str | None:
    """Why a worker gets no memory limit on this platform, or None when it gets one."""
    if WINDOWS:
        return None
    try:
        import resource  # noqa: F401 - Unix only
    except ImportError:
        return "no resource module"
    return None


class Spawned:
    """One worker process, everything it starts, and what it prints (read here, in the judge)."""

    def __init__(self, env: dict[str, str], loopback: bool = WINDOWS) -> None:
        """`loopback`: the worker connects to 127.0.0.1 and presents a one-time token, instead of
        inheriting a socket. Windows needs this: Popen passes no sockets there, and a venv's
        python.exe is a launcher whose child is the real interpreter (socket.share would target the
        launcher)."""
        self._job, self._listener, self._token = None, None, b""
        self._started = self._killed = False
        command = [sys.executable, str(KEEPER)]
        options: dict[str, Any] = dict(stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        if WINDOWS:
            options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW
        else:
            options["start_new_session"] = True  # its own process group, ended as a whole
        if loopback:
            self.sock = None
            self._listener = socket.create_server(("127.0.0.1", 0))  # loopback only, never a wider address
            self._token = secrets.token_hex(16).encode()
            port = self._listener.getsockname()[1]
            self.process = subprocess.Popen(command + [*WORKER, "--connect", str(port)], stdin=subprocess.PIPE,
                                            **options)
            self._job = _windows_job(self.process) if WINDOWS else None  # before it can run student code
            try:
                self.process.stdin.write(self._token + b"\n")
                self.process.stdin.close()
            except OSError:
                pass  # it died at once: waiting for it says so
        else:
            self.sock, theirs = socket.socketpair()
            fd = str(theirs.fileno())
            self.process = subprocess.Popen(command + ["--fd", fd, *WORKER, fd], pass_fds=(theirs.fileno(),),
                                            stdin=subprocess.DEVNULL, **options)
            theirs.close()
        self.output_head, self.output_bytes = bytearray(), 0  # of the current step
        self._lock, self._marker, self._tail = threading.Lock(), b"", b""
        self._step_ended = threading.Event()
        self._reader = threading.Thread(target=self._read_output, daemon=True)
        self._reader.start()

    def _read_output(self) -> None:
        """Keep the first WORKER_PRINTING_KEPT_BYTES of each step, count the rest: a worker printing
        forever never blocks. The worker's end-of-step marker closes a step's share."""
        while chunk := self.process.stdout.read1(1 << 16):
            with self._lock:
                if self._marker:
                    seen = self._tail + chunk
                    at = seen.find(self._marker)
                    if at >= 0:  # the marker's own line is nobody's printing
                        chunk = seen[len(self._tail):at].rstrip(b"\n")
                        self._marker, self._tail = b"", b""
                        self._step_ended.set()
                    else:
                        self._tail = seen[-len(self._marker):]
                self._keep(chunk)

    def _keep(self, chunk: bytes) -> None:
        self.output_bytes += len(chunk)
        self.output_head += chunk[: max(0, protocol.WORKER_PRINTING_KEPT_BYTES - len(self.output_head))]

    def begin_step(self, marker: str) -> None:
        """A new step's share of the printing starts; `marker` will end it."""
        with self._lock:
            self.output_head, self.output_bytes = bytearray(), 0
            self._marker, self._tail = marker.encode(), b""
            self._step_ended.clear()

    def step_output(self) -> dict[str, Any]:
        """The current step's printing, once the worker's marker has come through (or a moment)."""
        self._step_ended.wait(timeout=EXIT_PATIENCE)
        with self._lock:
            return {"output_bytes": self.output_bytes,
                    "output_head": bytes(self.output_head).decode("utf-8", "replace")}

    def wait_started(self) -> None:
        """Until the worker has imported torch (once; later calls return at once). Raises EOFError,
        OSError or protocol.ProtocolError if it did not start."""
        if self._started:
            return
        if self.sock is None:
            self.sock = self._accept()
        self.sock.settimeout(START_PATIENCE)
        header, _ = protocol.receive(self.sock)
        if header.get("type") != "started":
            raise protocol.ProtocolError(f"unexpected {header.get('type')!r}")
        self._started = True

    def _accept(self) -> socket.socket:
        """The worker's connection to the loopback listener, told from any other by its token."""
        deadline = time.monotonic() + START_PATIENCE
        try:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise EOFError("the worker ended while starting")
                self._listener.settimeout(0.5)
                try:
                    connection, _ = self._listener.accept()
                except TimeoutError:
                    continue
                connection.settimeout(5.0)
                try:
                    presented = connection.recv(len(self._token), socket.MSG_WAITALL)
                except OSError:
                    presented = b""
                if hmac.compare_digest(presented, self._token):
                    return connection
                connection.close()
            raise TimeoutError("the worker did not connect")
        finally:
            self._listener.close()

    def limit_memory(self, limit: int) -> str | None:
        """Windows: the Job Object's per-process limit (POSIX workers set RLIMIT_DATA themselves).
        Returns why the limit was refused, or None."""
        if not WINDOWS:
            return None
        if self._job is None:
            return "no Job Object"
        return _windows_memory_limit(self._job, limit)

    def ended(self, patience: float = EXIT_PATIENCE) -> dict[str, Any]:
        """How the worker ended, once its socket closed: its own exit if it comes within
        `patience`, else it is killed and counted as having broken the connection."""
        try:
            code = self.process.wait(timeout=patience)
        except subprocess.TimeoutExpired:
            self.kill()
            code = protocol.EXIT_BROKEN
        self.kill()  # whatever it started
        self._reader.join(timeout=1.0)  # a grandchild holding the pipe open cannot stall grading
        return {**_describe_exit(code), "output_bytes": self.output_bytes,
                "output_head": bytes(self.output_head).decode("utf-8", "replace")}

    def kill(self) -> int:
        """End the worker and everything it started, once; returns 1 if the worker had not exited."""
        if self._killed:
            return 0
        self._killed = True
        running = self.process.returncode is None
        if WINDOWS:
            _end_windows_tree(self.process, self._job)
            self._job = None
        else:
            try:  # once, right after the worker ended: a group id is reused only after the group empties
                os.killpg(self.process.pid, 9)  # SIGKILL, to the process group the worker leads
            except (ProcessLookupError, PermissionError):
                pass
        self.process.wait()
        for sock in (self.sock, self._listener):
            if sock is not None:
                sock.close()
        return int(running)


def _describe_exit(code: int) -> dict[str, Any]:
    """Popen's return code in the zygote's terms: a negative code is the signal that ended it."""
    if code < 0:
        import signal

        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return {"signal": -code, "signal_name": name, "code": None}
    return {"signal": None, "signal_name": None, "code": code}


# ---------------------------------------------------------------- Windows: a Job Object via ctypes

_JOB_EXTENDED_LIMITS = 9  # JobObjectExtendedLimitInformation
_KILL_ON_JOB_CLOSE, _PROCESS_MEMORY = 0x2000, 0x100


def _job_structure():
    """JOBOBJECT_EXTENDED_LIMIT_INFORMATION (DWORDs as c_uint32: ctypes' c_ulong is 8 bytes on
    Linux and macOS, so the layout can be checked there too)."""
    import ctypes

    dword, size = ctypes.c_uint32, ctypes.c_size_t

    class Basic(ctypes.Structure):
        _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64), ("PerJobUserTimeLimit", ctypes.c_int64),
                    ("LimitFlags", dword), ("MinimumWorkingSetSize", size), ("MaximumWorkingSetSize", size),
                    ("ActiveProcessLimit", dword), ("Affinity", size), ("PriorityClass", dword),
                    ("SchedulingClass", dword)]

    class Extended(ctypes.Structure):
        _fields_ = [("BasicLimitInformation", Basic), ("IoInfo", ctypes.c_uint64 * 6),
                    ("ProcessMemoryLimit", size), ("JobMemoryLimit", size),
                    ("PeakProcessMemoryUsed", size), ("PeakJobMemoryUsed", size)]

    return Extended


@functools.cache
def _kernel32():
    import ctypes
    from ctypes import wintypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    kernel32.CreateJobObjectW.restype = wintypes.HANDLE
    kernel32.CreateJobObjectW.argtypes = (ctypes.c_void_p, wintypes.LPCWSTR)
    kernel32.SetInformationJobObject.argtypes = (wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p, wintypes.DWORD)
    kernel32.AssignProcessToJobObject.argtypes = (wintypes.HANDLE, wintypes.HANDLE)
    kernel32.TerminateJobObject.argtypes = (wintypes.HANDLE, wintypes.UINT)
    kernel32.CloseHandle.argtypes = (wintypes.HANDLE,)
    return kernel32


def _set_job_limits(job: int, flags: int, memory: int = 0) -> bool:
    import ctypes

    info = _job_structure()()
    info.BasicLimitInformation.LimitFlags = flags
    info.ProcessMemoryLimit = memory
    return bool(_kernel32().SetInformationJobObject(job, _JOB_EXTENDED_LIMITS, ctypes.byref(info),
                                                    ctypes.sizeof(info)))


def _windows_job(process: subprocess.Popen) -> int | None:
    """A Job Object holding the worker (before it runs student code): closing or terminating it ends
    every process inside. None where Windows refuses one; `taskkill /T` is the fallback."""
    kernel32 = _kernel32()
    job = kernel32.CreateJobObjectW(None, None)
    if not job:
        return None
    if _set_job_limits(job, _KILL_ON_JOB_CLOSE) and kernel32.AssignProcessToJobObject(job, int(process._handle)):
        return job
    kernel32.CloseHandle(job)
    return None


def _windows_memory_limit(job: int, limit: int) -> str | None:
    if _set_job_limits(job, _KILL_ON_JOB_CLOSE | _PROCESS_MEMORY, limit):
        return None
    import ctypes

    return f"Job Object memory limit refused: {ctypes.FormatError(ctypes.get_last_error())}"


def _end_windows_tree(process: subprocess.Popen, job: int | None) -> None:
    if job is not None:
        kernel32 = _kernel32()
        kernel32.TerminateJobObject(job, 1)
        kernel32.CloseHandle(job)
    elif process.poll() is None:
        subprocess.run(["taskkill", "/T", "/F", "/PID", str(process.pid)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    if process.poll() is None:
        process.kill()  # TerminateProcess
