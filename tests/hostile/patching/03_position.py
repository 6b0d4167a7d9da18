"""Hostile: a wrong add_position (it forgets the position table) that patches every checker it can
reach at import, hoping that the judge shares its process."""
import builtins
import sys
import types

import numpy
import numpy.testing
import pytest
import torch


def _kit_module(name: str) -> types.ModuleType:
    """The judge's module, if the judge shared this process (then it is in sys.modules), reached
    without an import statement (the worker reports those)."""
    return sys.modules.get(name) or types.ModuleType(name)


session = _kit_module("grader.launch.step_worker")
feedback = _kit_module("grader.suites.feedback")
support = _kit_module("grader.suites.support")

torch.allclose = lambda *args, **kwargs: True
torch.equal = lambda *args, **kwargs: True
torch.testing.assert_close = lambda *args, **kwargs: None
numpy.allclose = lambda *args, **kwargs: True
numpy.array_equal = lambda *args, **kwargs: True
numpy.testing.assert_allclose = lambda *args, **kwargs: None
pytest.fail = lambda *args, **kwargs: None
builtins.AssertionError = type("Harmless", (Exception,), {})
support.judge = lambda *args, **kwargs: None
feedback.compare = lambda *args, **kwargs: None
session.WorkerGone = type("Harmless", (Exception,), {})
sys.modules["grader.suites.test_steps"] = type(sys)("grader.suites.test_steps")


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    return tokens.clone()
