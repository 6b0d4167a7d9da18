"""Fixtures shared by several test modules: one grader with the students' defaults (hidden tests,
reference earlier steps) and the solutions graded by it once, for the whole session."""
from __future__ import annotations

import pytest

from grader import paths
from grader.runner.grader import Grader, GradeOptions


@pytest.fixture(scope="session")
def grader():
    """Hidden tests included, references for earlier steps, the default time and memory limits."""
    instance = Grader(GradeOptions())
    yield instance
    instance.close()


@pytest.fixture(scope="session")
def solutions_result(grader):
    return grader.grade(paths.SOLUTIONS)
