"""The headroom figure of `vitgrade bench` (grader/headroom.py), on the cheap steps only: the full
figure costs minutes and runs in the benchmark, not in the suite."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from grader import headroom
from grader.numerics import CORRECT_HEADROOM, MISTAKE_SEPARATION
from grader.student import forget_steps

CHEAP_STEPS = ("01_flatten", "02_project", "03_position")


@pytest.fixture(autouse=True)
def _solutions_unbound_afterwards():
    """bind_solutions binds every step in this process, as a worker does: later tests that load a
    student's files here (`predict`, `show`) must find the student's own earlier steps again."""
    yield
    forget_steps([])


@pytest.fixture(scope="module")
def cheap_cases() -> list:
    return [case for case in headroom.graded_cases() if case.step in CHEAP_STEPS]


def test_errors_are_measured_in_tolerances():
    expected = np.array([0.0, 2.0, -4.0], dtype=np.float32)
    at_the_edge = torch.tensor([1e-4, 2.0 + 3e-4, -4.0 - 5e-4], dtype=torch.float64)  # atol + rtol·|e|
    assert headroom.error_in_tolerances(at_the_edge, expected, (1e-4, 1e-4)) == pytest.approx(1.0, rel=1e-9)
    assert headroom.error_in_tolerances(torch.from_numpy(expected), expected, (1e-4, 1e-4)) == 0.0
    assert headroom.error_in_tolerances(torch.zeros(2), expected, (1e-4, 1e-4)) == math.inf  # wrong shape
    assert headroom.error_in_tolerances(197, 197, (1e-4, 1e-4)) == 0.0
    assert headroom.error_in_tolerances(197.0, 197, (1e-4, 1e-4)) == math.inf  # a float is no count


def test_correct_code_computed_other_ways_stays_inside(cheap_cases):
    arguments, modules = headroom.Arguments(), headroom.bind_solutions()
    for errors in (headroom.correct_errors(cheap_cases, arguments, modules),
                   headroom.correct_errors(cheap_cases, arguments, modules, float64=True)):
        assert len(errors) == len(cheap_cases)
        assert max(errors.values()) <= CORRECT_HEADROOM, errors


def test_every_known_mistake_of_the_cheap_steps_lands_far_outside(cheap_cases):
    headroom.bind_solutions()
    separations = headroom.catalogue_separations(cheap_cases, headroom.Arguments())
    assert separations, "the cheap steps have catalogued mistakes"
    assert [s for s in separations if s.separation < MISTAKE_SEPARATION] == []
