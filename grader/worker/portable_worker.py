"""A worker of the portable runner (`grader/launch/portable.py`):
`python -m grader.worker.portable_worker FD` (POSIX, the socket inherited as FD) or
`... --connect PORT` (Windows: it connects to the judge on 127.0.0.1 and presents the one-time
token it reads from stdin).

It imports torch, says `started`, waits for its submission's init (loads the references, limits
its memory where the OS allows), then serves the submission's steps in turn: binds each step's
earlier steps and serves the judge's calls. After each step it compares its interpreter with a
snapshot taken before any student code ran (`intact`) and ends on any difference, so that the
judge starts a fresh worker for the next step. Its stdout and stderr are a pipe the judge reads,
so printing needs no capture here.
"""
from __future__ import annotations

import gc
import os
import socket
import sys
import threading
import time
from pathlib import Path

gc.disable()  # until serving.preload() has frozen what the import below brings (see there)
from grader.launch import protocol, sandbox  # noqa: E402
from grader.worker import intact, serving  # noqa: E402 - imports torch

JUDGE_CHECK = 0.5  # seconds between checks that the judge is still there (POSIX)


def main(argv: list[str]) -> None:
    sock = _socket(argv)
    serving.preload()
    _end_with_judge()
    protocol.send(sock, {"type": "started", "pid": os.getpid()})
    try:
        header, _ = protocol.receive(sock)
    except (EOFError, OSError, protocol.ProtocolError):
        os._exit(0)  # a spare worker the judge no longer needs
    init = {k: v for k, v in header.items() if k != "op"}
    try:
        serving.load_references(init["references"])
        context = serving.Context(init["checkpoint"])
        context.warm(init.get("warm", []))
        _limit_memory(int(init["memory"]))
        serving.note_memory_limit(int(init["memory"]))  # before the snapshot: the same every step
    except BaseException as error:  # noqa: BLE001 - report, then end: the judge decides
        protocol.send(sock, {"type": "setup_error", "message": f"{type(error).__name__}: {error}"})
        os._exit(0)
    before: intact.Snapshot | None = None
    while True:  # the submission's steps in turn, for as long as each leaves the interpreter intact
        try:
            header, _ = protocol.receive(sock)
        except (EOFError, OSError, protocol.ProtocolError):
            os._exit(0)
        if header.get("op") != "step":
            os._exit(0)
        step = {**init, **{k: v for k, v in header.items() if k != "op"}}
        serving.install_recorders(step["step"])
        before = before or intact.snapshot()  # after the recorders, before any student code
        intact.restore_randomness(before)
        try:
            serving.bind_earlier_steps(step["step"], Path(step["submission"]), step["step_references"])
        except BaseException as error:  # noqa: BLE001 - report, then end: the judge decides
            protocol.send(sock, {"type": "setup_error", "message": f"{type(error).__name__}: {error}"})
            os._exit(0)
        _serve(sock, step, context)
        serving.forget_step()
        changes = intact.differences(before)
        _end_output(str(step["marker"]))
        protocol.send(sock, {"type": "stopped", "intact": not changes, "changes": changes[:5]})
        if changes:
            os._exit(0)


def _socket(argv: list[str]) -> socket.socket:
    """The inherited socket FD, or (`--connect PORT`) a connection to the judge on 127.0.0.1 that
    presents the one-time token the judge wrote to our stdin."""
    if argv[0] == "--connect":
        token = sys.stdin.buffer.readline().strip()
        sock = socket.create_connection(("127.0.0.1", int(argv[1])))
        sock.sendall(token)
        return sock
    return socket.socket(fileno=int(argv[0]))


def _limit_memory(limit: int) -> None:
    """RLIMIT_DATA where the resource module exists (Windows: the judge's Job Object limits us)."""
    try:
        sandbox.limit_memory(limit)
    except sandbox.Unavailable:
        pass  # the judge's report names the missing memory limit


def _serve(sock: socket.socket, init: dict, context: serving.Context) -> None:
    """Serve one step until told to stop; where serving itself fails, end with the exit status
    that says so, as C3 does."""
    try:
        serving.serve(sock, init, context)
        return
    except MemoryError:
        code = protocol.EXIT_NO_MEMORY
    except BaseException:  # noqa: BLE001 - the exit code tells the judge this was not a clean stop
        code = protocol.EXIT_BROKEN
    _flush()
    os._exit(code)  # skip the interpreter's teardown of torch: the judge is waiting


def _flush() -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - closed or replaced by the student's code
        pass


def _end_output(marker: str) -> None:
    """Mark where this step's printing ends in the stream the judge reads (the judge's one-time
    marker on a line of its own): what follows belongs to the next step."""
    _flush()
    try:
        os.write(1, f"\n{marker}\n".encode())
    except OSError:
        pass


def _end_with_judge() -> None:
    """End this worker if the judge dies (POSIX has no parent-death signal outside Linux; on
    Windows the Job Object does this): a killed judge must not leave a loop running. The judge, not
    the parent: the parent is the keeper, which student code may kill without harm to the step."""
    if os.name != "posix":
        return
    judge = int(os.environ.get(protocol.JUDGE_VARIABLE) or os.getppid())

    def alive() -> bool:
        try:
            os.kill(judge, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # a pid reused by another user's process: the judge is gone
            return False
        return True

    def follow() -> None:
        while alive():
            time.sleep(JUDGE_CHECK)
        os._exit(protocol.EXIT_BROKEN)

    threading.Thread(target=follow, daemon=True).start()


if __name__ == "__main__":
    main(sys.argv[1:])
