"""The runner is started once per command, as early as the command line allows, and never left
running: the command line starts it before importing its commands, the grader takes that one."""
from __future__ import annotations

import pytest

import grader.cli
from grader.runner import runners


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
    monkeypatch.setattr(runners, "_new_runner", FakeRunner)
    monkeypatch.setattr(runners, "_AHEAD", [])
    return FakeRunner.started


@pytest.mark.parametrize(("argv", "early"), [
    (["vitgrade", "check", "05_attention"], True),
    (["vitgrade", "check", "--watch", "1"], True),
    (["vitgrade", "grade", "--solutions"], True),
    (["vitgrade", "grade", "class/", "--jobs", "1"], True),
    (["vitgrade", "grade", "class/", "--jobs=1"], True),
    (["vitgrade", "grade", "class/", "--jobs", "2"], False),  # each judge of the pool starts its own
    (["vitgrade", "grade", "class/", "--jobs=4"], False),
    (["vitgrade", "grade", "--jobs"], False),  # a usage error: typer says so
    (["vitgrade", "check", "--help"], False),
    (["vitgrade", "grade", "-h"], False),
    (["vitgrade", "list"], False),
    (["vitgrade", "show", "attention"], False),
    (["vitgrade"], False),
])
def test_the_command_line_starts_the_runner_early_only_for_a_check_or_a_grade(fake_runners, argv, early):
    grader.cli._start_runner_early(argv)
    assert len(fake_runners) == (1 if early else 0)


def test_the_grader_takes_the_runner_started_early_and_no_other(fake_runners):
    runners.start_ahead()
    with runners.started_ahead():
        taken = runners.start_runner()
    assert fake_runners == [taken] and not taken.closed  # the grader that took it ends it


def test_a_runner_no_grader_took_is_ended_with_the_block_or_at_exit(fake_runners):
    with runners.started_ahead():
        pass  # a usage error after the runner started: nothing graded
    runners.start_ahead()
    runners._end_ahead()  # registered with atexit: the process ends without reaching a block
    assert len(fake_runners) == 2 and all(r.closed for r in fake_runners)


def test_a_pool_of_judges_ends_a_runner_started_early(fake_runners):
    runners.start_ahead()
    with runners.started_ahead(start=False):
        assert runners._AHEAD == []
    assert fake_runners[0].closed


def test_workers_get_the_cpu_kernel_settings_and_no_secrets():
    """A CPU without AVX, simulated for the judge (docs/numerics.md), is simulated in the workers
    too; a CI token stays with the judge."""
    from grader.runner.sandbox import worker_environment

    settings = {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2", "ONEDNN_MAX_CPU_ISA": "SSE41"}
    env = worker_environment({**settings, "GITHUB_TOKEN": "ghp_secret", "PATH": "/usr/bin"})
    assert settings.items() <= env.items() and "GITHUB_TOKEN" not in env


def test_a_command_that_runs_the_vit_itself_keeps_all_freed_memory(monkeypatch):
    """At run time through glibc's mallopt: the workers' values, and no mmap at all; another C library
    (macOS, Windows, musl) is left as it is."""
    from grader.runner import sandbox

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
