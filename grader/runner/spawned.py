"""A worker of the portable runner (`portable.py`): `python -m grader.runner.spawned FD` (POSIX,
the socket inherited as FD) or `... --connect PORT` (Windows: it connects to the judge on
127.0.0.1 and presents the one-time token it reads from stdin).

It imports torch, says `started`, waits for one step's init, then does what the zygote's C2 and
C3 do between them: binds the earlier steps, limits its memory where the OS allows, and serves
the judge's calls. Its stdout and stderr are a pipe the judge reads, so printing needs no capture here.
"""
from __future__ import annotations

import os
import socket
import sys
import threading
import time
from pathlib import Path

from grader.runner import protocol, sandbox, worker

PARENT_CHECK = 0.5  # seconds between checks that the judge is still there (POSIX)


def main(argv: list[str]) -> None:
    sock = _socket(argv)
    worker.preload()
    _watch_parent()
    protocol.send(sock, {"type": "started", "pid": os.getpid()})
    try:
        header, _ = protocol.receive(sock)
    except (EOFError, OSError, protocol.ProtocolError):
        os._exit(0)  # a spare worker the judge no longer needs
    init = {k: v for k, v in header.items() if k != "op"}
    try:
        worker.load_references(init["references"])
        worker.bind_earlier_steps(init["step"], Path(init["submission"]), init["step_references"])
        context = worker.Context(init["checkpoint"])
        _limit_memory(int(init["memory"]))
    except BaseException as error:  # noqa: BLE001 - report, then end: the judge decides
        protocol.send(sock, {"type": "setup_error", "message": f"{type(error).__name__}: {error}"})
        os._exit(0)
    _serve(sock, init, context)


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


def _serve(sock: socket.socket, init: dict, context: worker.Context) -> None:
    """Serve until told to stop; the exit status says whether serving itself failed, as in C3."""
    code = 0
    try:
        worker.serve(sock, init, context)
    except MemoryError:
        code = protocol.EXIT_NO_MEMORY
    except BaseException:  # noqa: BLE001 - the exit code tells the judge this was not a clean stop
        code = protocol.EXIT_BROKEN
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001 - closed or replaced by the student's code
            pass
        os._exit(code)  # skip the interpreter's teardown of torch: the judge is waiting


def _watch_parent() -> None:
    """End this worker if the judge dies (POSIX has no parent-death signal outside Linux; on
    Windows the Job Object does this): a killed judge must not leave a loop running."""
    if os.name != "posix":
        return
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(protocol.EXIT_BROKEN)

    threading.Thread(target=watch, daemon=True).start()


if __name__ == "__main__":
    main(sys.argv[1:])
