"""Fixtures shared by several test modules: one grader with the students' defaults (hidden tests,
reference earlier steps) and the solutions graded by it once, for the whole session.

Every Grader starts a runner whose zygote imports torch; tests that need other limits or options
take `grader_with` instead of starting a Grader of their own, and tests of CLI commands run in this
process take `cli_on_the_shared_runner`."""
from __future__ import annotations

import copy
import gc
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace

# As the command line does for its judge (grader/cli/__init__.py): the search's numpy on one thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# The runs started with the session (tests/together.py's `early`) keep the second core busy: torch
# on two OpenMP threads here (and in the workers, which inherit it) would spin waiting for that core
# and run several times slower, not two times.
os.environ.setdefault("OMP_NUM_THREADS", "1")
# Until the test modules are collected: their imports make hundreds of thousands of objects and
# almost no garbage, and collecting while they import took 2 s of the quick tier's 27.
gc.disable()

import pytest  # noqa: E402

from grader import paths  # noqa: E402
from grader.judge.grading import Grader, GradeOptions  # noqa: E402
from grader.launch.runners import Runner  # noqa: E402
from grader.launch.sandbox import keep_freed_memory  # noqa: E402
from together import EARLY, Together, made  # noqa: E402

# The tests' own forwards (shown occlusion maps, rebuilt fixtures) reuse freed memory, as the
# commands that run them do.
keep_freed_memory()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the test modules imported (torch, the kit) lives as long as the session: as the zygote
    does, the collector stays off while they import (see `gc.disable()` above) and is then turned
    on with all of it frozen, out of the sight of every later full collection."""
    _freeze_what_is_loaded()
    gc.enable()


_FROZEN_WITH_MODULES = [0]  # how many modules were loaded at the last freeze


def _freeze_what_is_loaded() -> None:
    gc.freeze()
    _FROZEN_WITH_MODULES[0] = len(sys.modules)


_MANY_MODULES = 200  # timm brings 1,300 (torchvision, sympy); a test's own submission a handful


@pytest.hookimpl(trylast=True)  # after the test's own fixtures are torn down
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """Freeze again after a test that imported many modules (timm, in the tests that compare with
    it): their objects, 150,000 of them, are otherwise walked by every full collection (0.15 s
    each). Collected first, so that no garbage of the tests is frozen with them."""
    if len(sys.modules) - _FROZEN_WITH_MODULES[0] > _MANY_MODULES:
        gc.collect()
        _freeze_what_is_loaded()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that read an early run go last, in the order their runs start: each run then has
    the whole session before it to finish beside the other tests."""
    turn = {test: index for index, run in enumerate(EARLY.values()) for test in run.tests}
    # A stable sort: every other test (-1) keeps its place, before them.
    items.sort(key=lambda item: turn.get(getattr(item, "originalname", item.name), -1))


@pytest.fixture(scope="session", autouse=True)
def early_runs(request, tmp_path_factory) -> Iterator[Together]:
    """The runs test modules registered with together.early, where one of their tests was selected:
    dealt in turn to two chains started with the session, each running its runs one after another.
    Two, not one: some runs mostly wait (time limits running out, sleeping loops), and while one
    chain waits the other computes; the session's own tests keep a core busy beside them."""
    selected = {getattr(item, "originalname", item.name) for item in request.session.items}
    runs = {name: made(run.make, tmp_path_factory.mktemp(name.replace(" ", "-").replace(":", "")))
            for name, run in EARLY.items() if selected & set(run.tests)}
    with Together(runs, tmp_path_factory.mktemp("early-output"), chains=2, nice=5) as together:
        yield together


@pytest.fixture(scope="session")
def session_grader():
    """Hidden tests included, references for earlier steps, the default time and memory limits."""
    instance = Grader(GradeOptions())
    yield instance
    instance.close()


@pytest.fixture(scope="session")
def grader(session_grader) -> Grader:
    """The session's grader under the name tests take; a module may override `grader` with a
    variant of it, which then never reaches `grader_with`."""
    return session_grader


@pytest.fixture(scope="session")
def grader_with(session_grader) -> Callable[..., Grader]:
    """`grader_with(timeout=5.0, hidden=False, ...)`: the shared grader's runner and verified
    fixtures, grading with other options. Sound because a Grader's options only shape the plan of
    each grade (cases, references, per-step limits sent to each new worker) and a grade ends its
    worker before it returns; tests run one at a time, so no two variants grade at once."""
    def variant(**changes) -> Grader:
        if "fixtures" in changes:
            raise ValueError("another fixtures folder needs a Grader of its own (it verifies and loads them)")
        twin = copy.copy(session_grader)
        twin.options = replace(session_grader.options, **changes)
        return twin
    return variant


@pytest.fixture(scope="session")
def solutions_result(session_grader):
    return session_grader.grade(paths.SOLUTIONS)


class _KeptOpen:
    """The session's runner as a Grader made by a CLI command sees it: closing that Grader leaves
    the runner running, for the tests after it (the session closes it)."""

    def __init__(self, runner: Runner) -> None:
        self._runner = runner

    def __getattr__(self, name: str):
        return getattr(self._runner, name)

    def close(self) -> None:
        """The session's runner outlives every command; each grade has ended its worker already."""


@pytest.fixture
def cli_on_the_shared_runner(session_grader, monkeypatch) -> None:
    """CLI commands invoked in this process (typer's CliRunner) grade on the session's runner
    instead of starting a zygote and importing torch again; a pool of judges (`--jobs 2`) gets
    copies of its zygote. Their own parsing, fixture checks, options, plans, reports and exit
    statuses run as ever; a command run as a subprocess still starts a runner of its own."""
    monkeypatch.setattr("grader.launch.runners.new_runner", lambda: _KeptOpen(session_grader.runner))
