"""The runner is started once per command, as early as the command line allows, and never left
running: the command line starts it before importing its commands, the grader takes that one."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

import grader.cli
from grader import paths
from grader.launch import runners
from grader.launch.zygote_runner import ZygoteRunner


class FakeRunner:
    """Stands in for the zygote or the portable runner: counts how it is started and ended."""

    started: list[FakeRunner] = []

    def __init__(self) -> None:
        self.closed = False
        FakeRunner.started.append(self)

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_runners(monkeypatch):
    FakeRunner.started = []
    monkeypatch.setattr(runners, "new_runner", FakeRunner)
    return FakeRunner.started


@pytest.mark.parametrize(("argv", "early"), [
    (["vitgrade", "check", "05_attention"], True),
    (["vitgrade", "check", "--watch", "1"], True),
    (["vitgrade", "grade", "--solutions"], True),
    (["vitgrade", "grade", "class/", "--jobs", "1"], True),
    (["vitgrade", "grade", "class/", "--jobs=1"], True),
    (["vitgrade", "grade", "class/", "--jobs", "2"], True),  # the judges of the pool share its copies
    (["vitgrade", "grade", "class/", "--jobs=4"], True),
    (["vitgrade", "grade", "--jobs"], False),  # a usage error: typer says so
    (["vitgrade", "grade", "class/", "--jobs", "0"], False),
    (["vitgrade", "check", "--help"], False),
    (["vitgrade", "grade", "-h"], False),
    (["vitgrade", "list"], False),
    (["vitgrade", "show", "attention"], False),
    (["vitgrade"], False),
])
def test_the_command_line_starts_the_runner_early_only_for_a_check_or_a_grade(fake_runners, argv, early):
    started = grader.cli.early_runner(argv)
    if started is not None:
        started.close()
    assert len(fake_runners) == (1 if early else 0)


def test_a_pool_of_portable_runners_starts_none_early(fake_runners, monkeypatch):
    """The portable runner has no copies: each judge of a pool starts its own."""
    monkeypatch.setenv("VITGRADE_RUNNER", "portable")
    assert runners.EarlyRunner.for_jobs(1).take() is fake_runners[0]
    runners.EarlyRunner.for_jobs(2).close()
    assert len(fake_runners) == 1


def test_the_grader_takes_the_runner_started_early_and_no_other(fake_runners):
    with runners.EarlyRunner.for_jobs(1) as early:
        taken = early.take()
    assert fake_runners == [taken] and not taken.closed  # the grader that took it ends it


def test_a_runner_nobody_took_is_ended_with_the_block(fake_runners):
    with runners.EarlyRunner.for_jobs(1):
        pass  # a usage error after the runner started: nothing graded
    assert len(fake_runners) == 1 and fake_runners[0].closed


def test_the_command_line_ends_the_runner_a_command_never_took(fake_runners, monkeypatch):
    """A usage error ends the command before it runs: the runner started for it ends with it."""
    monkeypatch.setattr(sys, "argv", ["vitgrade", "grade", "--no-such-option"])
    with pytest.raises(SystemExit) as ended:
        grader.cli.main()
    assert ended.value.code == 2
    assert len(fake_runners) == 1 and fake_runners[0].closed


def test_a_pool_ends_a_runner_it_cannot_share_and_its_judges_start_their_own(fake_runners):
    """The portable runner has no copies: the one started early would only wait beside the judges."""
    with runners.EarlyRunner.for_jobs(1) as early:
        assert early.share(2) is None
        assert fake_runners[0].closed


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads parents in /proc")
def test_the_judges_of_a_pool_share_one_zygote_and_each_reaps_only_its_own(session_grader):
    """Each judge gets a copy forked from the one zygote (torch imported once), surveyed alike; the
    workers of one copy are its own: another judge's reaping never reaches them, and the zygote's
    own reaping (its submissions' leftovers) spares its copies."""
    zygote = session_grader.runner
    if not hasattr(zygote, "clone"):
        pytest.skip("the portable runner has no copies")
    first, second = (ZygoteRunner(zygote.clone()) for _ in range(2))
    try:
        assert first.plan() == second.plan() == zygote.plan()
        assert first._pid != second._pid and {_parent(first._pid), _parent(second._pid)} == {zygote._process.pid}
        worker = first.spawn({"submission": str(paths.SOLUTIONS), "references": {}, "stubs": [], "warm": [],
                              "checkpoint": session_grader.checkpoint_file})
        worker._prepare()  # its sandboxed parent is up, below the first copy
        assert second.reap() == 0 and zygote.reap() == 0  # nor does the zygote's own reaping end a copy
        assert all(_running(pid) for pid in (worker._c2, first._pid, second._pid))
    finally:
        first.close()
        second.close()
    # Each copy ended when told, and took its workers with it; the zygote reaps the copies later.
    assert not any(_running(pid) for pid in (first._pid, second._pid, worker._c2))


def _running(pid: int) -> bool:
    """Whether `pid` is a process that has not finished exiting (a zombie has)."""
    deadline = time.monotonic() + 10  # an exit frees a torch-sized address space first
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return False
        if state in "ZX":
            return False
        if state != "R":
            return True
        time.sleep(0.05)
    return True


def test_workers_get_the_cpu_kernel_settings_and_no_secrets():
    """A CPU without AVX, simulated for the judge (docs/numerics.md), is simulated in the workers
    too; a CI token stays with the judge."""
    from grader.headroom import KERNELS
    from grader.launch.sandbox import worker_environment

    settings = KERNELS["no AVX (SSE4.2)"]
    env = worker_environment({**settings, "GITHUB_TOKEN": "ghp_secret", "PATH": "/usr/bin"})
    assert settings.items() <= env.items() and "GITHUB_TOKEN" not in env
    assert {"MALLOC_MMAP_MAX_": "0"}.items() <= env.items()  # a step's fresh process reuses freed blocks


def test_a_command_that_runs_the_vit_itself_keeps_all_freed_memory(monkeypatch):
    """At run time through glibc's mallopt: the workers' values, and no mmap at all; another C library
    (macOS, Windows, musl) is left as it is."""
    from grader.launch import sandbox

    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(sandbox, "_libc_function", lambda name: lambda *args: calls.append(args) or 1)
    monkeypatch.setattr(sandbox, "in_libc", lambda name: True)
    monkeypatch.setattr(sandbox.platform, "libc_ver", lambda: ("glibc", "2.36"))
    sandbox.keep_freed_memory()
    assert sorted(calls) == [(-4, 0), (-3, 32 << 20), (-1, 1 << 30)]  # M_MMAP_MAX, M_MMAP_THRESHOLD, M_TRIM_THRESHOLD
    assert sandbox.KEEP_FREED_MEMORY.items() < sandbox.KEEP_ALL_FREED_MEMORY.items()
    assert {int(v) for v in sandbox.KEEP_ALL_FREED_MEMORY.values()} == {value for _, value in calls}

    calls.clear()
    monkeypatch.setattr(sandbox.platform, "libc_ver", lambda: ("", ""))
    sandbox.keep_freed_memory()
    assert calls == []



@pytest.mark.parametrize("spec, qkv_weight", [
    ({"params": "vit"}, lambda params: params.blocks[11].W_qkv),
    ({"params": 11}, lambda block: block.W_qkv),
    ({"param": "blocks.11.W_qkv"}, lambda W_qkv: W_qkv),
])
def test_an_in_place_change_to_checkpoint_parameters_is_found_and_reaches_no_later_call(spec, qkv_weight):
    """The worker compares parameter arguments with the checkpoint's own tensors, of which a student
    only ever gets copies: the change is reported, and the next call gets the original."""
    from types import ModuleType

    import torch

    from grader.worker import serving

    context = serving.Context(str(paths.STANDIN))
    original = context.params().blocks[11].W_qkv.clone()
    student = ModuleType("student")
    student.edit = lambda value: qkv_weight(value).mul_(1.5)
    student.read = qkv_weight
    edited, _ = serving._call(student, {"fn": "edit", "args": [spec]}, {}, context, ())
    read, out = serving._call(student, {"fn": "read", "args": [spec]}, {}, context, ())
    assert edited["ok"] and edited["modified"] == [0]
    assert read["ok"] and read["modified"] == [] and torch.equal(torch.from_numpy(out["r"]), original)
