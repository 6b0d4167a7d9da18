"""Hostile: a wrong add_position (it forgets the position table) that patches every checker it can
reach at import, hoping that the judge shares its process."""
import builtins
import sys

import numpy
import numpy.testing
import pytest
import torch

import grader.runner.protocol
import grader.runner.session
import grader.suites.feedback
import grader.suites.support

torch.allclose = lambda *args, **kwargs: True
torch.equal = lambda *args, **kwargs: True
torch.testing.assert_close = lambda *args, **kwargs: None
numpy.allclose = lambda *args, **kwargs: True
numpy.array_equal = lambda *args, **kwargs: True
numpy.testing.assert_allclose = lambda *args, **kwargs: None
pytest.fail = lambda *args, **kwargs: None
builtins.AssertionError = type("Harmless", (Exception,), {})
grader.suites.support.judge = lambda *args, **kwargs: None
grader.suites.feedback.compare = lambda *args, **kwargs: None
grader.runner.session.WorkerGone = type("Harmless", (Exception,), {})
sys.modules["grader.suites.test_03_position"] = type(sys)("grader.suites.test_03_position")


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    return tokens.clone()
