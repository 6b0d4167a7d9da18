"""The step table: each step's rules are written once, and the worker's watches and the static scan
read the same rules from it."""
from __future__ import annotations

import importlib

import pytest
import torch

from grader.judge import scan
from grader.steps import KIT_IMPORTS, STEP_IDS, STEPS, forbidden, get_step
from grader.worker import instruments

# Import forms a step file may write, and whether the kit allows them.
KIT_IMPORT_FORMS = [
    ("import grader", "grader", (), True),
    ("import grader.params", "grader.params", (), True),
    ("from grader import *", "grader", ("*",), True),
    ("from grader import ViTParams, BlockParams, earlier_step", "grader",
     ("ViTParams", "BlockParams", "earlier_step"), True),
    ("from grader import params, student", "grader", ("params", "student"), True),
    ("from grader.params import ViTParams", "grader.params", ("ViTParams",), True),
    ("from grader.student import earlier_step", "grader.student", ("earlier_step",), True),
    ("import grader.mistakes.catalogue", "grader.mistakes.catalogue", (), False),
    ("from grader import judge", "grader", ("judge",), False),
    ("from grader.worker.vit import CheckpointViT", "grader.worker.vit", ("CheckpointViT",), False),
]


def test_a_later_step_forbids_everything_an_earlier_step_does():
    for earlier, later in zip(STEPS, STEPS[1:]):
        before, after = forbidden(earlier.id), forbidden(later.id)
        assert set(before.operators) <= set(after.operators), later.id
        assert set(before.names) <= set(after.names), later.id
    for step in STEPS:
        assert set(step.operators) <= set(forbidden(step.id).operators)
        assert set(step.names) <= set(forbidden(step.id).names)


def test_every_forbidden_torch_name_exists():
    """A name the worker wraps or the scan looks for must be one torch really has."""
    for dotted in forbidden(STEP_IDS[-1]).names:
        if not dotted.startswith("torch."):
            continue
        module_name, _, attribute = dotted.rpartition(".")
        owner = torch.ops.aten if module_name == "torch.ops.aten" else importlib.import_module(module_name)
        assert hasattr(owner, attribute), dotted


def test_weights_name_the_functions_in_order_and_cannot_change():
    for step in STEPS:
        assert step.functions == tuple(step.weights) and all(w > 0 for w in step.weights.values())
    with pytest.raises(TypeError):
        get_step("01_flatten").weights["normalize"] = 5  # type: ignore[index]


@pytest.mark.parametrize("source, module, names, allowed", KIT_IMPORT_FORMS,
                         ids=[form[0] for form in KIT_IMPORT_FORMS])
def test_the_scan_and_the_import_watch_agree_on_kit_imports(source, module, names, allowed):
    step = get_step("06_block")
    assert step.kit_imports == KIT_IMPORTS
    assert (scan.findings(source, step.id) == []) is allowed
    assert (instruments._borrowed(step, module, names) == []) is allowed
