"""Fixtures shared by several test modules: one grader with the students' defaults (hidden tests,
reference earlier steps) and the solutions graded by it once, for the whole session.

Every Grader starts a runner whose zygote imports torch; tests that need other limits or options
take `grader_with` instead of starting a Grader of their own."""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

import pytest

from grader import paths
from grader.runner.grader import Grader, GradeOptions


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
