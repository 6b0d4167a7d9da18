"""The zygote: imports torch once, surveys the sandbox, then forks one sandboxed worker per submission,
which forks a fresh process for each step.

Process tree for one submission (C1-C3 are forked here):
    judge ── zygote ── C1 (enters new namespaces) ── C2 (PID 1 there: prepares, enters the view, reaps)
                                                       └─ C3, one per step (no privileges, limits:
                                                          runs student code)
C2 loads the reference solutions and enters the submission's view once, never runs student code,
and forks C3 for each step the judge asks for: what one step's code does to its interpreter (a
patched torch, module state) dies with its C3, and the next step starts from C2's clean copy. C2
captures each C3's stdout/stderr, reports how it ended, then kills whatever it left behind and
empties the view's /tmp; it ends itself when that fails, and the judge starts a fresh one. When C2
dies the kernel kills everything in its PID namespace, so nothing the student starts can outlive
the submission. Each layer is used only where the survey (before `ready`) found that this machine
allows it.

A pool of judges (`vitgrade grade --jobs N`) shares one torch import: the grading command starts
the zygote, and each judge is served by a copy forked from it (`clone`), C1-C3 then forked there.
"""
from __future__ import annotations

import gc
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from grader.launch import protocol, sandbox, view

class Zygote:
    """What this process learned as it started, and what it keeps while it serves: one per process
    (a copy forked by `clone` inherits it and forgets the copies, which are not its children)."""

    def __init__(self, plan: sandbox.Plan, base_view: list[str]) -> None:
        self.plan = plan  # what the survey found this machine allows
        self.base_view = base_view  # what every worker sees of the file system
        self.copies: set[int] = set()  # this zygote's copies still running (see _clone)
        self.contexts: dict[str, Any] = {}  # checkpoint file -> its serving.Context, built here once


def main(fd: int) -> None:
    from grader.paths import KIT_ROOT

    control = socket.socket(fileno=fd)
    # Before torch: forking a small process is cheap.
    plan = sandbox.survey(view.base_view(KIT_ROOT), view.worker_reads(KIT_ROOT), view.secrets(KIT_ROOT))
    gc.disable()  # until preload() has frozen what it imports (see there)
    from grader.worker import serving  # imports torch: only now, after the survey's forks

    serving.preload()
    serving.prepare_recorders()  # once for every submission, not in each one's worker parent (19 ms)
    z = Zygote(plan, view.base_view(KIT_ROOT))
    if z.plan.subreaper:
        sandbox.set_subreaper()
    _die_with_parent(z)
    _serve(z, control)


def _serve(z: Zygote, control: socket.socket) -> None:
    """Answer one judge until it says exit or its line closes, then end everything started for it."""
    protocol.send(control, {"type": "ready", "pid": os.getpid(), "sandbox": z.plan.to_json()})
    while True:
        try:
            header, _ = protocol.receive(control)
        except (EOFError, protocol.ProtocolError):
            break
        if header.get("op") == "spawn":
            _spawn(z, control, header)
        elif header.get("op") == "reap":  # what ended workers left; not its copies (other judges'),
            # nor the submissions the judge still uses (a step run ahead beside the one that ended)
            spare = z.copies | {pid for pid in header.get("spare", []) if isinstance(pid, int)}
            protocol.send(control, {"type": "reaped", "killed": reap_children(z, spare=spare)})
        elif header.get("op") == "clone":
            _clone(z, control)
        else:
            break
    reap_children(z)
    os._exit(0)  # skip the interpreter's teardown of torch: the judge is waiting for this exit


def _clone(z: Zygote, control: socket.socket) -> None:
    """A copy of this zygote for the line that came with the message: forked with torch imported
    and the sandbox surveyed, it serves one judge of a pool (`vitgrade grade --jobs N`), whose
    submissions' workers are its children alone, so that judge's reaping never reaches another's.
    It ends with its line, or with this zygote."""
    _, fds, _, _ = socket.recv_fds(control, 1, 1)
    line = socket.socket(fileno=fds[0])
    pid = os.fork()
    if pid == 0:
        control.close()
        z.copies.clear()  # its siblings are not its children
        if z.plan.subreaper:  # not inherited: what its workers leave behind comes back to the copy
            sandbox.set_subreaper()
        _die_with_parent(z)
        _serve(z, line)
    z.copies.add(pid)
    line.close()
    _reap_zombies(z)


def _spawn(z: Zygote, control: socket.socket, init: dict[str, Any]) -> None:
    context = _warm_context(z, init["checkpoint"], init.get("warm", []))
    gc.freeze()  # the model just built, shared like the imports (see serving.preload)
    ours, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        control.close()
        ours.close()
        _c1(z, init, theirs, context)
    theirs.close()
    protocol.send(control, {"type": "spawned", "pid": pid})
    socket.send_fds(control, [b"F"], [ours.fileno()])
    ours.close()
    _reap_zombies(z)


def _warm_context(z: Zygote, checkpoint: str, parts: list[str]) -> Any:
    """The checkpoint's parameters and model, built once here where every worker forked later
    shares them, instead of once per step. On one thread: a parallel torch op here would start
    OpenMP threads that the forked workers do not have, and their first parallel op would hang."""
    import torch

    from grader.worker import serving

    context = z.contexts.setdefault(checkpoint, serving.Context(checkpoint))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        context.warm(parts)
    finally:
        torch.set_num_threads(threads)
    return context


def _c1(z: Zygote, init: dict[str, Any], sock: socket.socket, context: Any) -> None:
    try:
        os.setsid()
        _die_with_parent(z)  # a zygote killed mid-step takes its workers with it
        if os.getppid() == 1:
            return
        if z.plan.namespaces:
            sandbox.enter_namespaces(user=z.plan.namespaces == "user")
        pid = os.fork()
        if pid == 0:
            _c2(z, init, sock, context)
        os.waitpid(pid, 0)
    finally:
        os._exit(0)


def _c2(z: Zygote, init: dict[str, Any], control: socket.socket, context: Any) -> None:
    """One submission's warm parent: prepares once, then forks a C3 for each step it is asked for."""
    from grader.worker import serving

    try:
        host_pid = int(os.readlink("/proc/self"))  # still the host's /proc: our pid as the judge sees it
        protocol.send(control, {"type": "spawned", "pid": host_pid})
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(sig, signal.SIG_IGN)
        _die_with_parent(z)
        serving.load_references(init["references"])  # before the view hides the solutions' folder
        if z.plan.view:
            sandbox.enter_view(view.submission_view(z.base_view, init))
        if z.plan.subreaper and os.getpid() != 1:  # what a step leaves behind comes back to us
            sandbox.set_subreaper()
        made_in_tmp = set(os.listdir("/tmp")) if z.plan.view else set()
        protocol.send(control, {"type": "ready"})
    except BaseException as error:  # noqa: BLE001 - report, then end: the judge decides
        try:
            protocol.send(control, {"type": "setup_error", "message": f"{type(error).__name__}: {error}"})
        except OSError:
            pass
        os._exit(0)
    try:
        while True:
            header, _ = protocol.receive(control)
            if header.get("op") != "step":
                break
            _, fds, _, _ = socket.recv_fds(control, 1, 1)
            step_sock = socket.socket(fileno=fds[0])
            protocol.send(control, _run_step(z, {**init, **header}, control, step_sock, context))
            if not _end_leftovers(z):
                break  # in doubt: the judge starts a fresh C2 for the next step
            if z.plan.view:
                _empty_tmp(made_in_tmp)
    except BaseException:  # noqa: BLE001 - the judge gone or garbled: nothing is left to serve
        pass
    finally:
        os._exit(0)


def _run_step(z: Zygote, init: dict[str, Any], control: socket.socket, step_sock: socket.socket,
              context: Any) -> dict[str, Any]:
    """Fork C3 for one step, capture what it prints until it ends, and say how it ended."""
    if z.plan.unprivileged or z.plan.landlock:  # the worker may write nothing of the judge's: a folder of its own
        os.environ["TMPDIR"] = tempfile.mkdtemp(prefix="vitgrade-worker-")
        if z.plan.unprivileged:
            os.chown(os.environ["TMPDIR"], sandbox.NOBODY, sandbox.NOBODY)
        tempfile.tempdir = None  # found again from TMPDIR
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        control.close()  # the judge's line to C2 never reaches student code
        os.close(read_end)
        _c3(z, init, step_sock, write_end, context)
    os.close(write_end)
    step_sock.close()
    head, total, status = _capture(read_end, pid)
    os.close(read_end)
    if z.plan.unprivileged or z.plan.landlock:
        shutil.rmtree(os.environ["TMPDIR"], ignore_errors=True)
    return {"type": "exit", **_describe_status(status), "output_bytes": total,
            "output_head": head.decode("utf-8", "replace")}


def _c3(z: Zygote, init: dict[str, Any], sock: socket.socket, output_fd: int, context) -> None:
    from grader.worker import serving

    code = 0
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        os.close(output_fd)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _die_with_parent(z)
        serving.drop_references_from(init["step"])  # loaded in C2 for the later steps
        serving.bind_earlier_steps(init["step"], Path(init["submission"]), init["step_references"])
        _confine_worker(z, init)
        serving.serve(sock, init, context)
    except MemoryError:
        code = protocol.EXIT_NO_MEMORY
    except BaseException:  # noqa: BLE001 - the exit code tells the judge this was not a clean stop
        code = protocol.EXIT_BROKEN
    finally:
        os._exit(code)


def _end_leftovers(z: Zygote) -> bool:
    """Kill whatever the step's process left behind; True once nothing is left."""
    if os.getpid() != 1:
        reap_children(z)
        return not _children()
    deadline = time.monotonic() + REAP_PATIENCE
    while time.monotonic() < deadline:  # PID 1 of the namespace: -1 reaches every other process in it
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return True
        time.sleep(0.005)
    return False


def _empty_tmp(kept: set[str]) -> None:
    """The view's /tmp as the next step must find it: what one step wrote there is gone."""
    for name in set(os.listdir("/tmp")) - kept:
        path = os.path.join("/tmp", name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def _die_with_parent(z: Zygote) -> None:
    if z.plan.parent_death:
        sandbox.die_with_parent()


def _confine_worker(z: Zygote, init: dict[str, Any]) -> None:
    """The layers of the last process, the one that runs student code."""
    plan = z.plan
    become = sandbox.NOBODY if plan.unprivileged and _nobody_can_read(init) else None
    if plan.capabilities or become is not None:
        sandbox.drop_capabilities(become=become)
    if plan.no_new_privs:
        sandbox.set_no_new_privs()
    if plan.memory:
        sandbox.limit_memory(init["memory"])
    if plan.cpu:  # never before the wall-clock limit, even with every core busy
        sandbox.limit_cpu(init["timeout"] * (os.cpu_count() or 1) + 5)
    if plan.landlock:  # the view's files, where there is no view
        sandbox.enter_landlock(*view.landlock_view(z.base_view, init, os.environ["TMPDIR"]))
    _die_with_parent(z)


def _nobody_can_read(init: dict[str, Any]) -> bool:
    """Whether the unprivileged user can read this step's submission and checkpoint. Where not
    (a submission in root's home), the worker stays root without capabilities, as before: an
    honest submission must never fail because of where it was put."""
    from grader.paths import EXERCISES  # the stubs of missing earlier steps

    submission = Path(init["submission"])
    files = [str(f) for f in submission.glob("*.py")] if submission.is_dir() else []
    try:
        return sandbox.readable_as(sandbox.NOBODY, [str(submission), *files, init["checkpoint"], str(EXERCISES)])
    except OSError:
        return False


def _capture(read_end: int, pid: int) -> tuple[bytes, int, int]:
    """Keep the first WORKER_PRINTING_KEPT_BYTES of what the worker prints, count the rest, until it ends."""
    head, total = bytearray(), 0
    while True:
        ready, _, _ = select.select([read_end], [], [], 0.05)
        if ready:
            chunk = os.read(read_end, 1 << 16)
            total += len(chunk)
            head += chunk[: max(0, protocol.WORKER_PRINTING_KEPT_BYTES - len(head))]
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return bytes(head), total, status


def _describe_status(status: int) -> dict[str, Any]:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return {"signal": sig, "signal_name": signal.Signals(sig).name, "code": None}
    return {"signal": None, "code": os.WEXITSTATUS(status)}


def _reap_zombies(z: Zygote) -> None:
    try:
        while pid := os.waitpid(-1, os.WNOHANG)[0]:
            z.copies.discard(pid)  # a pid reused later is not taken for a copy
    except ChildProcessError:
        pass


def _children() -> list[int]:
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == me:
                found.append(int(entry))
    return found


REAP_PATIENCE = 10.0  # seconds; a killed process may take a while to free a torch-sized address space


def reap_children(z: Zygote, spare: set[int] = frozenset()) -> int:
    """Kill every process left under the zygote (orphans re-parent here) but those in `spare`, and
    wait until each one is gone: a killed process keeps running its exit for a while, and a
    namespace's init waits for all of its namespace. Returns how many processes were killed."""
    killed: set[int] = set()
    deadline = time.monotonic() + REAP_PATIENCE
    while time.monotonic() < deadline:
        children = [pid for pid in _children() if pid not in spare]
        if not children:
            break
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except ProcessLookupError:
                pass
        _reap_zombies(z)
        time.sleep(0.005)
    _reap_zombies(z)
    return len(killed)


if __name__ == "__main__":
    main(int(sys.argv[1]))
