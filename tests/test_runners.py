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
