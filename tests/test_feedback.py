"""Where feedback says a value is wrong, it names the place as the lecture does."""
from __future__ import annotations

import numpy as np

from grader.suites.feedback import compare


def wrong_at(grid: int, row: int, col: int) -> str:
    expected = np.zeros((grid, grid))
    got = expected.copy()
    got[row, col] = 1.0
    return compare(got, expected, ["row", "col"], grid) or ""


def test_a_one_patch_occlusion_map_names_the_lecture_patch():
    assert "row 5, col 7 = patch P63 (row 5, col 7)" in wrong_at(14, 4, 6)


def test_a_coarser_occlusion_map_names_the_cover_by_its_pixels_not_a_patch_number():
    message = wrong_at(7, 1, 2)
    assert "row 2, col 3 = the 32x32 cover over pixels y 32-63, x 64-95" in message
    assert "patch P" not in message


def test_an_in_place_write_into_an_expanded_input_is_said_to_be_one():
    """PyTorch refuses `table.add_(tokens)` on a table expanded over the batch; the error's own words
    are kept, with what was done: an in-place write into memory the input shares."""
    from types import SimpleNamespace

    import torch

    from grader.suites.support import _error_feedback

    table = torch.zeros(4, 3).unsqueeze(0).expand(2, -1, -1)  # one table for two images, as add_position's
    try:
        table.add_(torch.ones(2, 4, 3))
    except RuntimeError as error:
        message = str(error)
    case = SimpleNamespace(function="add_position", step="03_position")
    feedback = _error_feedback(case, {"type": "RuntimeError", "message": message}, {})
    assert feedback.status == "error" and feedback.finding.id == "input_modified.in_place_error"
    assert message in feedback.message and "An in-place write" in feedback.message
    other = _error_feedback(case, {"type": "RuntimeError", "message": "shapes do not match"}, {})
    assert other.finding.id == "error.add_position.RuntimeError"


def test_another_exception_where_one_is_promised_says_which_was_promised():
    """An assert for the docstring's ValueError: the promise is broken, and the feedback says so rather
    than reporting a crash."""
    from types import SimpleNamespace

    import pytest

    from grader.suites.feedback import Feedback
    from grader.suites.returned import Returned
    from grader.suites.support import _check_raises

    case = SimpleNamespace(function="count_tokens", step="01_flatten",
                           args=[{"name": "image_size", "value": 230}, {"name": "patch_size", "value": 16}])
    asserted = Returned(ok=False, error={"type": "AssertionError", "message": ""})
    with pytest.raises(Feedback) as caught:
        _check_raises(case, asserted, "ValueError", {})
    assert caught.value.finding.id == "no_raise.count_tokens" and caught.value.status == "failed"
    assert "raised AssertionError where its docstring promises ValueError" in caught.value.message
    _check_raises(case, Returned(ok=False, error={"type": "ValueError"}), "ValueError", {})  # kept: passes


def test_a_library_normalization_where_the_lecture_normalizes_nothing_is_a_step_too_many():
    """F.layer_norm inside the MLP is not LayerNorm's work left to a library (write it yourself) but a
    normalization the lecture's MLP does not have; in block, whose LayerNorms it may replace, it is the former."""
    from types import SimpleNamespace

    import pytest

    from grader.suites.feedback import Feedback
    from grader.suites.returned import Returned
    from grader.suites.support import _check_own_work

    calls = ["F.layer_norm", "torch.ops.aten.native_layer_norm (a library normalization)"]
    with pytest.raises(Feedback) as caught:
        _check_own_work(SimpleNamespace(function="mlp"), Returned(ok=True, forbidden=calls))
    assert caught.value.finding.id == "extra_normalization"
    assert "the lecture's mlp normalizes nothing (page 36)" in caught.value.message
    with pytest.raises(Feedback) as caught:
        _check_own_work(SimpleNamespace(function="block"), Returned(ok=True, forbidden=calls))
    assert caught.value.finding.id == "forbidden" and "write that computation yourself" in caught.value.message
    with pytest.raises(Feedback) as caught:  # a convolution beside it is work left to a library, whatever else
        _check_own_work(SimpleNamespace(function="mlp"), Returned(ok=True, forbidden=[*calls, "F.conv2d"]))
    assert caught.value.finding.id == "forbidden"
