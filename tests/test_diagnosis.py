"""Structural diagnosis (grader/suites/diagnosis.py) on arrays built here: each family of mistakes
is named only when the numbers show it, and nothing is said where no structure fits."""
from __future__ import annotations

import functools
import math

from types import SimpleNamespace

import numpy as np
import pytest

from grader import numerics
from grader.numerics import DEFAULT_TOLERANCE as TOLERANCE
from grader.results import Finding
from grader.suites.diagnosis import diagnose, diagnose_count, said_beside

rng = np.random.default_rng(0)


def case(function: str = "embed", axes=("image", "token", "feature"), grid: int | None = 2, **tensors):
    """A fixture case as the judge has it: the function, its axes and its tensor arguments."""
    args = [{"name": name, "tensor": name} for name in tensors]
    return SimpleNamespace(function=function, axes=list(axes), args=args, tensors=tensors,
                           extra={"grid": grid} if grid else {})


def said(c, expected, got, **options) -> str:
    return " ".join(finding.sentence for finding in diagnose(c, expected, got, TOLERANCE, **options))


TOKENS = rng.normal(size=(2, 5, 6))  # 2 images, CLS + a 2x2 grid of patches, 6 features


def test_nothing_is_said_where_no_structure_fits_or_nothing_is_wrong():
    assert said(case(), TOKENS, rng.normal(size=TOKENS.shape)) == ""
    assert said(case(), TOKENS, TOKENS + 1e-6) == ""
    assert said(case(), TOKENS, np.full(TOKENS.shape, np.nan)) == ""


def test_beside_a_named_edit_the_structure_says_how_it_shows_never_another_mistake():
    """Another class's probabilities are all near zero: beside "the target class − 1", "zero
    everywhere" would send the student to a function returning zeros. An approximate GELU's numbers
    are approximately right: that is said beside the edit."""
    target = Finding("edit.index:target:-1", "t", "with the target class − 1")
    zero = Finding("diagnosis.all_zero", "z", "the result is zero everywhere")
    assert said_beside(target, zero) == [target]
    assert said_beside(None, zero) == [zero]
    gelu = Finding("edit.move:sigmoid", "g", "with a sigmoid")
    approximate = Finding("diagnosis.approximate", "a", "approximately right everywhere")
    assert said_beside(gelu, approximate) == [gelu, approximate]
    constant_fill = Finding("edit.constant:fill:0", "f", "with the fill 0")
    assert said_beside(constant_fill, Finding("diagnosis.constant", "c", "one value")) == [constant_fill]


def test_probabilities_near_zero_but_not_zero_are_another_class_s_and_zeros_are_zeros():
    """Of a thousand classes almost every one has a probability near zero: a target's quadrant
    probabilities read from another class are tiny, not zero, and are said to be another class's; a
    result of exact zeros is said to be zero."""
    quadrants = case("quadrant_probabilities", axes=("quadrant",), grid=None)
    expected = np.array([0.81, 0.74, 0.79, 0.62])
    assert "a class the model gives almost no probability" in said(quadrants, expected,
                                                                   np.array([3e-7, 1e-7, 0.0, 2e-7]))
    assert said(quadrants, expected, np.zeros(4)) == "Every value of your result is zero (within the tolerance)."
    assert "almost no probability" not in said(case(), TOKENS, np.full(TOKENS.shape, 1e-7))  # not probabilities


def test_a_per_feature_offset_and_the_argument_it_equals():
    bias = rng.normal(size=6)
    text = said(case(b=bias), TOKENS, TOKENS - bias)
    assert "same vector in every row" in text and "it equals −`b`: `b` is left out" in text
    assert "`b` is added twice" in said(case(b=bias), TOKENS, TOKENS + bias)
    assert "same constant, 0.25" in said(case(), TOKENS, TOKENS + 0.25)
    assert "one constant per row" in said(case(), TOKENS, TOKENS + rng.normal(size=(2, 5, 1)))


def test_one_row_everywhere_or_one_result_for_every_image_says_the_input_is_not_read():
    row = rng.normal(size=6)
    assert "one and the same vector" in said(case(), TOKENS, np.broadcast_to(row, TOKENS.shape).copy())
    logits = rng.normal(size=(3, 10))
    same = np.broadcast_to(logits[:1] + 0.3, logits.shape).copy()
    assert "Every image of the batch gets the same result" in said(
        case("vit_forward", ("image", "class"), grid=None), logits, same)


def test_everything_before_a_bias_scaled_names_the_factor_and_the_bias():
    bias = rng.normal(size=6)
    text = said(case(b=bias), TOKENS, (TOKENS - bias) / 3 + bias)
    assert "0.3333 (= 1/3) × (expected − `b`) + `b`" in text


def test_values_through_a_curve_are_a_nonlinearity_a_rounding_or_a_line_is_not():
    x = np.linspace(-1, 1, 60).reshape(2, 5, 6)
    text = said(case(), x, 2 * ((x + 1) / 2) ** 2.2 - 1)
    assert "a fixed increasing function" in text and "-1 → -1" in text and "nonlinearity" in text
    assert "nonlinearity" in said(case(), TOKENS, np.tanh(TOKENS))
    assert "nonlinearity" not in said(case(), TOKENS, TOKENS.astype(np.float16).astype(np.float64))
    row = rng.normal(size=(1, 30))
    assert "nonlinearity" not in said(case("classify", ("image", "class"), grid=None), row, row - row.max())


def test_rows_dealt_across_the_images_say_the_images_are_mixed():
    patches = rng.normal(size=(2, 4, 6))
    dealt = patches.transpose(1, 0, 2).reshape(2, 4, 6)  # the image axis moved behind the patches
    text = said(case("patchify", ("image", "patch", "feature")), patches, dealt)
    assert "mixes the images of the batch" in text and "your image 1's P2" in text


def test_the_expected_values_at_other_places_say_an_axis_moved_not_rows_reordered():
    """A (D, 3, P, P) kernel moved by movedim(-1, 0) and reshaped to (3·P·P, D): every weight is there, no
    row is whole; the same numbers in one row everywhere, or only a row of them, are not said so."""
    kernel = rng.normal(size=(6, 3, 2, 2))
    expected = kernel.reshape(6, -1).T  # (12, 6)
    scrambled = np.moveaxis(kernel, -1, 0).reshape(-1, 6)
    text = said(case("conv_to_linear", ("input", "feature"), None), expected, scrambled)
    assert "exactly the expected values, at other places" in text and "reshape keeps the order" in text
    one_row = case("read_cls", ("image", "feature"), None)
    rows = rng.normal(size=(3, 8))
    assert "at other places" not in said(one_row, rows, rows[::-1] + 1)
    swapped = rows.copy()
    swapped[1] = rows[1, ::-1]  # one row's features reversed: a part, said as such
    assert "at other places" not in said(one_row, rows, swapped)


def test_an_offset_is_not_claimed_from_a_single_row():
    row = rng.normal(size=(1, 8))
    assert "same vector" not in said(case("read_cls", ("image", "feature")), row, row + rng.normal(size=8))


def test_factors_sign_and_transpose():
    assert "0.125 × the expected one (= 1/8)" in said(case(), TOKENS, TOKENS / 8)
    assert "its own factor (from" in said(case(), TOKENS, TOKENS * rng.uniform(0.5, 2, size=(2, 5, 1)))
    assert "(= 1/√768)" in said(case(), TOKENS, TOKENS / 768 ** 0.5)
    assert "2 × the expected one:" in said(case(), TOKENS, TOKENS * 2)
    assert "zero" in said(case(), TOKENS, np.zeros_like(TOKENS))
    assert "0.5 × the expected one − 0.25: the right pattern through a wrong scale and shift" in said(
        case(), TOKENS, 0.5 * TOKENS - 0.25)
    assert "wrong sign" in said(case(), TOKENS, -TOKENS)
    square = rng.normal(size=(1, 4, 4))
    assert "transposed" in said(case("occlusion_map", ("image", "row", "col")), square, square.swapaxes(-1, -2))
    assert "transposed" in said(case(), TOKENS, TOKENS.swapaxes(-1, -2))


@pytest.mark.parametrize("order, words", [
    ([4, 3, 2, 1, 0], "reversed"),
    ([4, 0, 1, 2, 3], "moved down by 1 place"),
    ([0, 1, 3, 2, 4], "column by column"),
    ([0, 2, 1, 4, 3], "your P1 (row 1, col 1) [index 1] is the expected P2"),
])
def test_rows_in_another_order_say_which_order(order, words):
    assert words in said(case(), TOKENS, TOKENS[:, order])


def test_heads_and_feature_blocks_in_another_order():
    heads = rng.normal(size=(1, 3, 5, 4))
    assert "heads are the right ones in the wrong order: reversed" in said(
        case("qkv_heads", ("image", "head", "token", "feature")), heads, heads[:, ::-1])
    features = rng.normal(size=(1, 5, 12))
    joined = np.concatenate([features[..., 8:], features[..., 4:8], features[..., :4]], axis=-1)
    assert "blocks of 4 (e.g. heads of d = 4) joined in the order 3, 2, 1" in said(case(), features, joined)


def test_only_some_rows_or_heads_wrong():
    got = TOKENS.copy()
    got[:, 0] = TOKENS[:, 1:].mean(axis=1)
    assert "Only the CLS row [index 0] is wrong" in said(case(), TOKENS, got)
    assert "mean of the other rows" in said(case(), TOKENS, got)
    got = TOKENS.copy()
    got[:, 1:] += rng.normal(size=(2, 4, 6))
    assert "Only the patch rows are wrong" in said(case(), TOKENS, got)
    heads = rng.normal(size=(1, 3, 5, 4))
    got = heads.copy()
    got[:, 1] = rng.normal(size=(5, 4))
    assert "Only 1 of 3 heads is wrong: head 2" in said(case("qkv_heads", ("image", "head", "token", "feature")),
                                                          heads, got)
    got = TOKENS.copy()
    got[1] += rng.normal(size=(5, 6))  # every row of the second image
    assert "Only 1 of 2 images is wrong: image 2" in said(case(), TOKENS, got)


def test_another_output_of_the_same_call():
    q, k = rng.normal(size=(1, 2, 5, 4)), rng.normal(size=(1, 2, 5, 4))
    text = said(case("qkv_heads", ("image", "head", "token", "feature")), q, k, parts={"q": q, "k": k})
    assert "holds the expected k" in text


def softmax(x: np.ndarray) -> np.ndarray:
    x = np.exp(x - x.max(axis=-1, keepdims=True))
    return x / x.sum(axis=-1, keepdims=True)


def test_attention_rows_columns_scores_and_temperature():
    attention = case("attention_weights", ("image", "head", "query", "key"))
    scores = rng.normal(size=(1, 2, 5, 5)) * 3
    weights = softmax(scores)
    assert "these are scores, not weights" in said(attention, weights, scores)
    assert "columns sum to 1" in said(attention, weights, softmax(scores.swapaxes(-1, -2)).swapaxes(-1, -2))
    flat = np.exp(scores) / np.exp(scores).sum(axis=(-1, -2), keepdims=True)
    assert "not 1: normalize each query's row" in said(attention, weights, flat)
    assert "softmax of the right scores times 0.125" in said(attention, weights, softmax(scores / 8))
    q, k = rng.normal(size=(2, 1, 2, 5, 8))  # cosine scores: nearly uniform weights, fitted by any small scale
    unit = [x / np.linalg.norm(x, axis=-1, keepdims=True) for x in (q, k)]
    cosine = softmax(unit[0] @ unit[1].swapaxes(-1, -2) / math.sqrt(8))
    assert "softmax of the right scores times" not in said(attention, softmax(q @ k.swapaxes(-1, -2) / 8 ** 0.5),
                                                            cosine)


def test_logits_and_probabilities():
    logits = rng.normal(size=(2, 10)) * 3
    log_probabilities = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    assert "log-probabilities" in said(case("classify", ("image", "class")), logits, log_probabilities)
    probabilities = np.exp(log_probabilities)
    assert "Your values are probabilities" in said(case("classify", ("image", "class")), logits, probabilities)
    quadrants = case("quadrant_probabilities", ("quadrant",), grid=None)
    assert "not probabilities" in said(quadrants, np.array([0.1, 0.2, 0.3, 0.4]), np.array([-1.0, 2.0, 0.5, 3.0]))
    assert "the expected top-left, top-right, bottom-right, bottom-left" in said(
        quadrants, np.array([0.1, 0.2, 0.3, 0.4]), np.array([0.1, 0.2, 0.4, 0.3]))
    percent = [f.id for f in diagnose(quadrants, np.array([0.1, 0.2, 0.3, 0.4]), np.array([10.0, 20, 30, 40]),
                                      TOLERANCE)]
    assert percent == ["diagnosis.scaled"]  # percentages: the right values times 100, said as such


def test_a_division_done_before_its_subtraction_is_named():
    """`x / 255 - 0.5 / 0.5`: 0.5 / 0.5 is divided first, so the values are x/255 − 1."""
    pixels = np.arange(0, 256, 15, dtype=np.uint8).reshape(1, 1, 2, 9)
    normalizing = SimpleNamespace(function="normalize", axes=["image", "channel", "y", "x"], extra={},
                                  tensors={"pixels": pixels}, args=[{"name": "pixels", "tensor": "pixels"}])
    right = (pixels.astype(np.float64) / 255 - 0.5) / 0.5
    found = [f for f in diagnose(normalizing, right, pixels / 255 - 0.5 / 0.5, TOLERANCE)]
    assert [f.id for f in found] == ["diagnosis.precedence"] and "(x/255 − 0.5) / 0.5" in found[0].sentence


def test_uint8_arithmetic_that_wrapped_round_is_named():
    """(pixels * 2 - 255) / 255 computed on uint8 pixels: below 128 the difference wraps to 2p + 1."""
    pixels = np.arange(0, 256, 15, dtype=np.uint8).reshape(1, 1, 2, 9)
    right = (pixels.astype(np.float64) / 255 - 0.5) / 0.5
    wrapped = (pixels * np.uint8(2) - np.uint8(255)).astype(np.float64) / 255
    normalizing = case("normalize", ("image", "channel", "y", "x"), grid=None)
    (found,) = [f for f in diagnose(normalizing, right, wrapped, TOLERANCE) if f.id.startswith("diagnosis.")]
    assert found.id == "diagnosis.uint8_wraparound" and "9 of 18 values" in found.sentence
    assert not [f for f in diagnose(normalizing, right, right - 1.0, TOLERANCE) if "uint8" in f.id]


def test_small_errors_float16_and_layer_norm_division():
    assert "a computation in float16" in said(case(), TOKENS, TOKENS.astype(np.float16).astype(np.float64))
    dyadic = np.round(TOKENS * 64) / 64  # float16 numbers too, but not the expected ones rounded
    assert "float16" not in said(case(), TOKENS * 1.01, dyadic)
    assert "the numbers are approximate" in said(case(), TOKENS, TOKENS * (1 + 1e-3 * rng.normal(size=TOKENS.shape)))
    x = rng.normal(size=(2, 5, 6)) * 1e-3
    weight, bias = rng.uniform(0.5, 2, size=6), rng.normal(size=6)
    centred, variance = x - x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    right = centred / np.sqrt(variance + 1e-6) * weight + bias
    misplaced = centred / (np.sqrt(variance) + 1e-6) * weight + bias
    text = said(case("layer_norm", x=x, weight=weight, bias=bias), right, misplaced)
    assert "division by the standard deviation is off" in text


def test_covers_off_by_one_and_filled_with_the_mean():
    pixels = rng.integers(0, 256, size=(1, 3, 8, 8), dtype=np.uint8)
    image = (pixels.astype(np.float32) / 255 - 0.5) / 0.5
    cover = SimpleNamespace(function="cover", axes=["image", "channel", "y", "x"], extra={},
                            tensors={"pixels": pixels},
                            args=[{"name": "images", "pixels": "pixels"}, {"name": "top", "value": 2},
                                  {"name": "left", "value": 3}, {"name": "size", "value": 4},
                                  {"name": "value", "value": 0.0}])
    expected = image.copy()
    expected[..., 2:6, 3:7] = 0
    wider = image.copy()
    wider[..., 2:7, 3:8] = 0
    assert "Your cover spans rows 2..6, columns 3..7 (5×5 pixels); asked: rows 2..5, columns 3..6" in said(
        cover, expected, wider)
    mean = image.copy()
    mean[..., 2:6, 3:7] = image.mean()
    assert "(the image's mean)" in said(cover, expected, mean)
    assert "cover" not in said(cover, expected, expected + rng.normal(size=expected.shape))  # no square: no claim
    assert "the whole image is covered" in said(cover, expected, np.zeros_like(image))  # zeros_like, no copy


def test_heads_joined_in_another_order_are_seen_through_the_output_projection():
    joined = rng.normal(size=(1, 5, 8))  # two heads of 4, side by side
    W_o, b_o = rng.normal(size=(8, 8)), rng.normal(size=8)
    swapped = np.concatenate([joined[..., 4:], joined[..., :4]], axis=-1)
    mha = case("multi_head_attention", W_o=W_o, b_o=b_o)
    assert "your joined heads are the right ones in another order: blocks of 4 (e.g. heads of d = 4) " \
           "joined in the order 2, 1" in said(mha, joined @ W_o + b_o, swapped @ W_o + b_o)


def test_a_checkpoint_parameter_is_named_when_the_offset_equals_it():
    from grader.expected.store import load_manifest
    from grader.paths import FIXTURES

    checkpoint = str(FIXTURES / load_manifest()["checkpoint"]["file"])
    from safetensors.numpy import load_file

    b_o = load_file(checkpoint)["blocks.3.attn.proj.bias"].astype(np.float64)
    tokens = rng.normal(size=(1, 5, b_o.size))
    mha = SimpleNamespace(function="multi_head_attention", axes=["image", "token", "feature"], tensors={},
                          args=[{"name": "b_o", "param": "blocks.3.b_o"}], extra={"checkpoint": checkpoint})
    assert "it equals −`b_o`: `b_o` is left out" in said(mha, tokens + b_o, tokens)


def test_read_cls_names_the_row_it_read():
    x = rng.normal(size=(2, 5, 6))
    weight, bias = rng.uniform(0.5, 2, size=6), rng.normal(size=6)
    normalized = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-6) * weight + bias
    read = case("read_cls", ("image", "feature"), x=x, norm_weight=weight, norm_bias=bias)
    assert "row P2 (row 1, col 2) [index 2] after the final LayerNorm" in said(read, normalized[:, 0], normalized[:, 2])
    assert "the CLS row before the final LayerNorm" in said(read, normalized[:, 0], x[:, 0])
    assert "mean of all normalized rows" in said(read, normalized[:, 0], normalized.mean(axis=1))


# ------------------------------------------------------------------ never mislead

def test_approximate_only_when_every_value_is_within_a_few_per_cent_of_its_own():
    """One outlier feature makes 2 % of the largest value several times every other value's size
    (a sublayer moved, a term added): structure, not an approximation; 1 % of every value is one,
    and so is 1 % of the typical (median) size on values near zero."""
    expected = rng.normal(size=(2, 50, 8))
    expected[..., 0] *= 100  # the residual stream's outlier features
    structural = expected.copy()
    structural[..., 1:] += 0.02 * np.abs(expected).max() * rng.uniform(0.5, 1, size=(2, 50, 7))
    assert "approximate" not in said(case(), expected, structural)
    typical = float(np.median(np.abs(expected)))
    approximately = expected * (1 + 0.01 * rng.uniform(-1, 1, size=expected.shape))
    assert "approximate" in said(case(), expected, approximately)
    near_zero = approximately + 0.01 * typical * rng.uniform(-1, 1, expected.shape)  # 1 % of the typical size
    assert "approximate" in said(case(), expected, near_zero)


def test_a_rounding_that_takes_a_few_rows_past_the_tolerance_is_approximate_not_some_rows():
    """float16 rounding errs in every value; only the rows where it happens to err most pass the
    tolerance. "Only 2 of 50 tokens are wrong" would send the student to look for a mistake in them."""
    expected = 0.1 * rng.normal(size=(1, 50, 8))  # float16 errs by less than the tolerance here ...
    expected[:, [3, 7]] *= 30  # ... and by more in two rows of larger values
    rounded = expected.astype(np.float16).astype(np.float64)
    rows_past = numerics.outside(rounded, expected, TOLERANCE).any(axis=(0, 2))
    assert 0 < rows_past.sum() <= 25  # few enough that "only some rows" would be said
    text = said(case(axes=("image", "token", "feature"), grid=7), expected, rounded)
    assert "float16" in text and "Only" not in text


def test_a_few_values_off_by_per_cents_beside_exact_ones_are_some_rows_not_approximate():
    """The top class's probability read in place of the target's: where the target is the top class
    the value is exact, in one quadrant it is another class's, 3 % away. Not "the structure is right"."""
    expected = np.array([0.751, 0.402, 0.688, 0.249])
    got = expected.copy()
    got[1] = 0.414
    found = diagnose(case("quadrant_probabilities", axes=("quadrant",), grid=None), expected, got, TOLERANCE)
    assert [f.id for f in found] == ["diagnosis.some_rows"], [f.sentence for f in found]


def test_dropout_left_on_is_named_by_its_zeros_and_the_rest_scaled_up():
    kept = rng.random(TOKENS.shape) >= 0.2
    (found,) = diagnose(case("add_position"), TOKENS, np.where(kept, TOKENS / 0.8, 0.0), TOLERANCE)
    assert found.id == "diagnosis.dropout" and "divided by 0.8: dropout with p = 0.2" in found.sentence
    # zeros without the scale (a mask, a ReLU) are not dropout; nor is a scale without zeros
    assert "dropout" not in said(case("add_position"), TOKENS, np.where(kept, TOKENS, 0.0))
    assert "dropout" not in said(case("add_position"), TOKENS, TOKENS / 0.8)
    many = rng.normal(size=(2, 50, 8))  # a ReLU of doubled values: half zeros, the rest times 2, as p = 0.5
    assert "dropout" not in said(case("add_position"), many, np.maximum(2 * many, 0.0))


def test_a_constant_result_is_named_constant_never_a_scaled_pattern():
    got = np.full(TOKENS.shape, 0.25)
    text = said(case(), TOKENS, got)
    assert text.startswith("Every value of your result is 0.25: one number") and "scale" not in text
    ids = [f.id for f in diagnose(case(), TOKENS, got, TOLERANCE)]
    assert ids == ["diagnosis.constant"]


def test_quadrant_probabilities_of_one_say_how_a_probability_saturates():
    """A sigmoid of the ViT's large target logit rounds to 1 under every cover: the sentence says
    how a probability comes out certain, not that the code ignores its input."""
    expected = np.array([0.751, 0.402, 0.688, 0.249])
    found = diagnose(case("quadrant_probabilities", axes=("quadrant",), grid=None), expected, np.ones(4), TOLERANCE)
    assert [f.id for f in found] == ["diagnosis.certain_class"]
    assert "softmax over every class's logit" in found[0].sentence and "sigmoid" in found[0].sentence
    other = diagnose(case("quadrant_probabilities", axes=("quadrant",), grid=None), expected, np.full(4, 0.5),
                     TOLERANCE)
    assert [f.id for f in other] == ["diagnosis.constant"]


# ------------------------------------------------------------------ what the arguments say

POSITION_TOKENS = rng.normal(size=(2, 4, 6))
POSITION_TABLE = rng.normal(size=(4, 6))


def position(got: np.ndarray) -> list:
    c = case("add_position", axes=("image", "patch", "feature"), tokens=POSITION_TOKENS, pos_table=POSITION_TABLE)
    return diagnose(c, POSITION_TOKENS + POSITION_TABLE, got, TOLERANCE)


@pytest.mark.parametrize("table, finding, words", [
    (POSITION_TABLE[::-1], "position_reordered", "the table's rows in another order: reversed"),
    (np.roll(POSITION_TABLE, 1, axis=0), "position_reordered", "moved down by 1 place"),
    (0.1 * POSITION_TABLE, "position_scaled", "What you added to the tokens is 0.1 (= 1/10) × the position table"),
    (POSITION_TABLE.mean(axis=0), "position_mean", "the table's mean row to every token"),
    (POSITION_TABLE * np.linalg.norm(POSITION_TOKENS, axis=-1, keepdims=True), "position_rows_scaled",
     "its own position row times a factor of its own"),
    (POSITION_TABLE.mean(axis=1, keepdims=True), "position_feature_mean", "one number per token"),
    (np.arange(4.0)[:, None], "position_index", "each token's index i"),
    (np.sin(np.arange(4.0)[:, None] / 10000 ** (np.arange(6) / 6)), "position_own_table", "a table of your own"),
    (np.array([[math.sin(n / 10000 ** (f // 2 * 2 / 6)) if f % 2 == 0 else math.cos(n / 10000 ** (f // 2 * 2 / 6))
                for f in range(6)] for n in range(4)]), "position_sinusoidal", "sine-and-cosine"),
])
def test_add_position_compares_what_was_added_with_the_table(table, finding, words):
    """The structure of what was added is said, after the one edit of the computation where one fits."""
    *edit, found = position(POSITION_TOKENS + table)
    assert found.id == f"diagnosis.{finding}" and words in found.sentence, found.sentence
    assert found.page in (16, 17)
    assert all(f.id.startswith("edit.") for f in edit)


def test_the_given_table_rounded_is_approximate_never_a_table_of_ones_own():
    """The pos_table rounded to float16 before it is added is the table given, off by float16's
    rounding: said as approximate numbers, not as a table the student made up."""
    # The hidden case's sizes; most rows outside the tolerance, as float16's rounding leaves them.
    tokens, table = np.random.default_rng(2).normal(size=(2, 7, 5)), np.random.default_rng(1).normal(size=(7, 5))
    c = case("add_position", axes=("image", "patch", "feature"), tokens=tokens, pos_table=table)
    rounded = table.astype(np.float16).astype(np.float64)
    found = diagnose(c, tokens + table, tokens + rounded, TOLERANCE)
    assert [f.id for f in found] == ["diagnosis.approximate"], [f.sentence for f in found]


def test_the_tokens_added_to_themselves_are_said_so():
    """torch.add(tokens, tokens): 2·c_i, on one image and on two, the table never used."""
    for tokens in (POSITION_TOKENS[:1], POSITION_TOKENS):
        c = case("add_position", axes=("image", "patch", "feature"), tokens=tokens, pos_table=POSITION_TABLE)
        found = diagnose(c, tokens + POSITION_TABLE, 2 * tokens, TOLERANCE, search_edits=False)
        assert [f.id for f in found] == ["diagnosis.position_tokens_added"], [f.sentence for f in found]


def test_the_whole_sum_scaled_is_a_scale_never_a_table_of_ones_own():
    """(tokens + table) / √2 on one image: what was added depends on the tokens, which one image
    cannot show; the result is the expected one times 0.707, and that is what is said."""
    tokens, table = POSITION_TOKENS[:1], POSITION_TABLE
    c = case("add_position", axes=("image", "patch", "feature"), tokens=tokens, pos_table=table)
    found = diagnose(c, tokens + table, (tokens + table) / math.sqrt(2), TOLERANCE)
    assert [f.id for f in found if f.id.startswith("diagnosis.")] == ["diagnosis.scaled"], [f.sentence for f in found]
    own = diagnose(c, tokens + table, tokens + np.cos(np.arange(4.0)[:, None] + np.arange(6)), TOLERANCE)
    assert "diagnosis.position_own_table" not in [f.id for f in own]  # one image: no "same for every image"


def test_the_edit_that_gives_the_numbers_speaks_first():
    edit, structure = position(POSITION_TOKENS + POSITION_TABLE[::-1])
    assert edit.id == "edit.reversed:pos_table" and "reverse order" in edit.sentence
    assert structure.id == "diagnosis.position_reordered"


def test_add_position_multiplied_is_named_by_its_arguments():
    *edit, found = position(POSITION_TOKENS * POSITION_TABLE)
    assert found.id == "diagnosis.position_multiplied" and "multiplied" in found.sentence


def test_a_count_doubled_or_of_a_written_in_patch_size_is_said_so():
    def count(size, patch, cls=True):
        return SimpleNamespace(function="count_tokens", args=[{"name": "image_size", "value": size},
                                                               {"name": "patch_size", "value": patch},
                                                               {"name": "cls", "value": cls}])
    assert "14 × 2 = 28 plus one: the patches per side doubled" in diagnose_count(count(224, 16), 29).sentence
    assert "that of 16-pixel patches, (224/16)² = 196, where patch_size is 32" in diagnose_count(
        count(224, 32), 197).sentence


def test_weights_times_one_factor_are_a_scale_not_rows_that_fail_to_sum_to_one():
    attention = case("attention_weights", ("image", "head", "query", "key"))
    weights = softmax(rng.normal(size=(1, 2, 5, 5)))
    text = said(attention, weights, weights / 8)
    assert "0.125 × the expected one (= 1/8)" in text and "not 1" not in text


def test_magnitudes_and_a_wrong_cls_count():
    changes = rng.normal(size=(14, 14))
    c = case("occlusion_map", axes=("row", "col"), grid=14)
    (found,) = diagnose(c, changes, np.abs(changes), TOLERANCE)
    assert found.id == "diagnosis.magnitude" and "|expected|" in found.sentence
    assert [f.id for f in diagnose(c, changes, -changes, TOLERANCE)] == ["diagnosis.sign"]

    counting = SimpleNamespace(function="count_tokens", args=[{"name": "image_size", "value": 224},
                                                             {"name": "patch_size", "value": 16},
                                                             {"name": "cls", "value": True}])
    assert "the 196 patches plus 2; cls=True: one CLS token" in diagnose_count(counting, 198).sentence
    assert diagnose_count(counting, 197) is None and diagnose_count(counting, 14) is None
    grid_row = diagnose_count(counting, 196 + 14)  # CLS counted as one more row of the 14 x 14 grid
    assert grid_row.id == "diagnosis.cls_count" and "one more row of the 14 x 14 grid" in grid_row.sentence
    by_side = diagnose_count(counting, 224 * 224 // 16 + 1)  # the pixels over P, not over P * P
    assert by_side.id == "diagnosis.patch_area" and "(224/16)² = 196 patches" in by_side.sentence
    sliding = diagnose_count(counting, 209 * 209 + 1)  # a window moved one pixel at a time, plus CLS
    assert sliding.id == "diagnosis.sliding_count" and "moves 16 pixels" in sliding.sentence
    xor = diagnose_count(counting, 14 ^ 2 + 1)  # `side ^ 2 + 1`: ^ is XOR, and it binds after the +
    assert xor.id == "diagnosis.xor_count" and "14 ^ 2 + 1 = 14 ^ 3 = 13" in xor.sentence
    fencepost = diagnose_count(counting, 15 * 15 + 1)  # image_size // patch_size + 1 per side
    assert fencepost.id == "diagnosis.grid_side_count" and "15 x 15 = 225 patches plus one" in fencepost.sentence
    pixels = diagnose_count(counting, 224 * 224 // 16 * 16 + 1)  # ((size·size) // P)·P: the pixels again
    assert pixels.id == "diagnosis.pixel_count" and "size·size // (P·P)" in pixels.sentence
    planes = diagnose_count(counting, 3 * 196 + 1)  # every patch counted once per colour plane
    assert planes.id == "diagnosis.channel_count" and "3 × 196 = 588 plus one" in planes.sentence
    squared = diagnose_count(counting, 197 ** 2)  # the attention scores, one per pair of tokens
    assert squared.id == "diagnosis.squared_count" and "197² = 38809" in squared.sentence
    small = SimpleNamespace(function="count_tokens", args=[{"name": "image_size", "value": 64},
                                                          {"name": "patch_size", "value": 16}, {"name": "cls"}])
    written = diagnose_count(small, 197)  # 224 // P written in for image_size // P
    assert written.id == "diagnosis.written_image_size" and "(64/16)² = 16 patches" in written.sentence
    counting.args[2]["value"] = False
    assert "14 ^ 2 = 12" in diagnose_count(counting, 14 ^ 2).sentence
    conditional = diagnose_count(counting, 0)  # `n * n + 1 if cls else 0`: the conditional takes the sum
    assert conditional.id == "diagnosis.conditional_count" and "(1 if cls else 0)" in conditional.sentence


# ---------------------------------------------------------------- edits named by their fixtures' fingerprints

def _visible(step: str, function: str):
    from grader.expected.store import load_cases, load_manifest
    from grader.paths import FIXTURES

    found = next(c for c in load_cases(step, "visible") if c.function == function)
    found.extra["checkpoint"] = str(FIXTURES / load_manifest()["checkpoint"]["file"])
    return found


@functools.cache
def _edit_outputs(step: str, function: str) -> dict[str, np.ndarray]:
    """Every edit's output on the function's first visible case, by finding id, computed once for the
    parameters that share the case (a ViT's edits take seconds)."""
    from grader import search

    return {finding.id: output for finding, output in search.edit_outputs(_visible(step, function))}


@pytest.mark.parametrize("step, function, edit", [
    ("07_head", "vit_forward", "edit.move:encoder_one_head"),
    ("07_head", "vit_forward", "edit.move:encoder_twelve_heads"),
    ("07_head", "vit_forward", "edit.move:norm_after_every_block"),
    ("08_occlusion", "occlusion_map", "edit.index:target:-1"),
    ("08_occlusion", "quadrant_probabilities", "edit.size:quadrant_side:0"),
])
def test_a_visible_case_names_an_edit_by_lookup_without_the_search(monkeypatch, step, function, edit):
    """The builder's fingerprint names the edit, in the words the search would use, and the search
    itself does not run (the release has none)."""
    from grader import search
    from grader.suites import support

    c = _visible(step, function)
    output = _edit_outputs(step, function)[edit]
    monkeypatch.setattr(search, "find_edit", lambda *a, **k: pytest.fail("the search ran on a visible case"))
    text, finding = support._explanation(c, c.expected, np.asarray(output, np.float32).astype(np.float64),
                                         tuple(c.extra.get("tolerance", TOLERANCE)), None, None)
    # the edit speaks first; the structure of the error may follow it on lines of its own
    assert finding is not None and finding.id == edit and text.strip().splitlines()[0] == finding.sentence


def test_an_edit_whose_numbers_are_zeros_within_the_tolerance_is_never_named():
    """Class 71's changes under the probe model stay below the test's absolute tolerance: zeros fit them, and
    so would any unlikely class's, so a map of them names no class; nor does the search name one."""
    from grader import search
    from grader.numerics import case_tolerance
    from grader.suites import support

    c = _visible("08_occlusion", "occlusion_map")
    output = next(out for finding, out in search.edit_outputs(c) if finding.id == "edit.index:target:+1")
    tolerance = case_tolerance(c.extra)
    assert np.abs(output).max() < tolerance[0]  # what makes it unnameable
    got = np.asarray(output, np.float32).astype(np.float64)
    assert support._edit_named(c, c.expected, got, None) is None
    assert search.find_edit(c, c.expected, got, tolerance) is None


def test_an_occlusion_map_of_minus_the_original_probability_reads_another_class_when_covered():
    """A map that is minus the original probability everywhere: the covered images' probabilities were
    read for a class the model gives almost nothing. The original is computed here by the workers'
    own probe model on the photograph as the workers normalize it."""
    import torch

    from grader.photos import normalize_pixels
    from grader.suites import diagnosis
    from grader.worker.probe_model import ProbeModel

    c = _visible("08_occlusion", "occlusion_map")
    spec = {spec["name"]: spec for spec in c.args}
    image = normalize_pixels(torch.from_numpy(c.tensors[spec["image"]["pixels"]].copy()))
    logits = ProbeModel(torch.from_numpy(c.tensors[spec["model"]["weights"]].copy()).double())(image.double())
    original = float(torch.softmax(logits, dim=-1)[0, spec["target"]["value"]])
    found = diagnosis.diagnose(c, c.expected, np.full(c.expected.shape, -original + 1e-6), TOLERANCE,
                               search_edits=False)  # the structure alone, as on a case the search cannot rerun
    assert [f.id for f in found] == ["diagnosis.covered_other_class"]
    assert [f.id for f in diagnosis.diagnose(c, c.expected, np.full(c.expected.shape, -0.5 * original),
                                             TOLERANCE, search_edits=False)] == ["diagnosis.constant"]
    # every cover the whole image: the probe gives a gray image's target 1 % here, near zero beside the
    # original's 55 %, so the sentence names both ways of reading near-zero probabilities
    blank = float(torch.softmax(ProbeModel(torch.from_numpy(c.tensors[spec["model"]["weights"]].copy()).double())(
        torch.zeros_like(image).double()), dim=-1)[0, spec["target"]["value"]])
    (both,) = diagnosis.diagnose(c, c.expected, np.full(c.expected.shape, blank - original), TOLERANCE,
                                 search_edits=False)
    assert both.id == "diagnosis.covered_other_class" and "or of images covered all over" in both.sentence



def test_the_release_reads_the_original_probability_from_the_fixture(monkeypatch):
    """Without the lecture maths (a student's release), the visible case's stored original probability
    gives the same finding as the instructor's recomputation."""
    from grader.suites import diagnosis

    c = _visible("08_occlusion", "occlusion_map")
    monkeypatch.setattr(diagnosis, "maths", None)
    found = diagnosis.diagnose(c, c.expected, np.full(c.expected.shape, -c.extra["original"] + 1e-6), TOLERANCE,
                               search_edits=False)
    assert [f.id for f in found] == ["diagnosis.covered_other_class"]


def test_every_visible_case_carries_its_edits_each_result_once():
    from grader.expected.store import load_cases
    from grader.steps import STEP_IDS

    for step in STEP_IDS:
        for c in load_cases(step, "visible"):
            if "raises" in c.extra:
                continue
            assert c.edits is not None, c.name
            prints = [fp for _, fp in c.edits if not isinstance(fp, tuple)]
            for i, a in enumerate(prints):  # merged at build: no two stored edits give the same numbers
                same = [b for b in prints[i + 1:] if a.shape == b.shape and np.array_equal(a.values, b.values)]
                assert not same, c.name


def test_two_edits_that_fit_name_neither():
    from grader.suites import support

    c = _visible("07_head", "vit_forward")
    finding, fingerprint = next((f, p) for f, p in c.edits if not f.id.startswith("edit.applied"))
    c.edits = [(finding, fingerprint), (finding.__class__("edit.other", "other", "other"), fingerprint)]
    value = np.zeros(fingerprint.shape)
    value.reshape(-1)[fingerprint.index] = fingerprint.values
    assert support._edit_named(c, c.expected, value, None) is None
    c.edits = c.edits[:1]
    assert support._edit_named(c, c.expected, value, None) == finding
    # an operation put on any quantity that fits too comes after an edit of the computation itself
    c.edits.append((finding.__class__("edit.applied:logits:tanh", "tanh", "tanh"), fingerprint))
    assert support._edit_named(c, c.expected, value, None) == finding


def test_the_release_judges_without_the_maths_or_the_search():
    """grader.suites.support imports, names a visible case's edit, and reads a photograph's cover, where
    neither module exists."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['grader.lecture_maths'] = None; sys.modules['grader.search'] = None\n"
            "import numpy as np\n"
            "from grader.expected.store import load_cases\n"
            "from grader.suites import diagnosis, support\n"
            "assert diagnosis.search is None and diagnosis.maths is None\n"
            "c = next(c for c in load_cases('07_head', 'visible') if c.function == 'vit_forward')\n"
            "finding, fp = c.edits[0]\n"
            "value = c.expected.astype(np.float64).copy()\n"
            "value.reshape(-1)[fp.index] = fp.values\n"
            "text, found = support._explanation(c, c.expected, value, (1e-3, 1e-4), None, None)\n"
            "print(found.id if found else None, finding.id)\n"
            # a photograph's cover filled with its channel means: the image is read without the maths
            "from grader.expected.arguments import numpy_array\n"
            "c = next(c for c in load_cases('08_occlusion', 'visible') if c.function == 'cover')\n"
            "top, left, size = (next(a['value'] for a in c.args if a.get('name') == n)\n"
            "                   for n in ('top', 'left', 'size'))\n"
            "image = numpy_array(c, 'images')\n"
            "value = image.copy()\n"
            "value[..., top:top + size, left:left + size] = image.mean(axis=(2, 3), keepdims=True)\n"
            "found = diagnosis.diagnose(c, c.expected, value, (1e-5, 1e-5))\n"
            "print(found[0].id if found else None, 'diagnosis.cover_channel_means')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        found, expected = line.split()
        assert found == expected


def test_stale_fingerprints_are_said(tmp_path):
    from grader.expected.store import RELEASE_STAMP, diagnosis_version, stale_fingerprints

    version = diagnosis_version()
    assert version is not None and stale_fingerprints({"diagnosis": version}, "m") == ""
    assert "another version of the diagnosis" in stale_fingerprints({"diagnosis": "older"}, "m")
    release = tmp_path / "grader"  # a release's grader/: no diagnosis sources, a stamp instead
    release.mkdir()
    (release / RELEASE_STAMP).write_text(f'{{"fixtures": "m", "diagnosis": "{version}"}}')
    assert stale_fingerprints({"diagnosis": version}, "m", release) == ""
    assert "not the ones this release was made with" in stale_fingerprints({"diagnosis": version}, "n", release)
    assert "make the release again" in stale_fingerprints({"diagnosis": "older"}, "m", release)


def test_the_committed_fixtures_fingerprints_are_this_graders():
    """Any edit of a source the diagnosis version hashes (a docstring too) needs `vitgrade fixtures
    build`: without it every check would warn that its fingerprints are stale."""
    import json

    from grader import paths
    from grader.expected.store import diagnosis_version

    manifest = json.loads((paths.FIXTURES / "manifest.json").read_text())
    assert manifest["diagnosis"] == diagnosis_version(), "rebuild the fixtures: `vitgrade fixtures build`"


def test_quadrant_changes_in_percentage_points_are_a_scale_and_shift_not_other_numbers():
    """100·(p − p₀) is a line through the probabilities: said as that line and what it is, not as
    "not probabilities" (which sends the student to the softmax)."""
    expected = np.array([0.81, 0.74, 0.79, 0.62])
    found = diagnose(case("quadrant_probabilities", axes=("quadrant",), grid=None), expected,
                     100 * (expected - 0.9), TOLERANCE)
    assert [f.id for f in found] == ["diagnosis.affine"]
    assert "100 × the expected one − 90" in found[0].sentence and "percentage points" in found[0].sentence
    scattered = diagnose(case("quadrant_probabilities", axes=("quadrant",), grid=None), expected,
                         np.array([-3.0, 8.0, 2.0, -1.0]), TOLERANCE)
    assert [f.id for f in scattered] == ["diagnosis.not_probabilities"]


def test_values_cut_to_a_range_are_said_clipped_and_a_curve_is_not():
    x = np.linspace(-1, 1, 60).reshape(2, 5, 6)
    found = diagnose(case(), x, np.clip(x, -0.5, 0.5), TOLERANCE)
    assert [f.id for f in found] == ["diagnosis.clipped"]
    assert "cut to [-0.5, 0.5]" in found[0].sentence and "the 30 of 60" in found[0].sentence
    assert "cut to at most 0.5" in said(case(), x, np.minimum(x, 0.5))
    assert "clamps" not in said(case(), TOKENS, np.tanh(TOKENS))


def test_rows_brought_to_one_length_are_a_normalization_not_rows_scaled_by_chance():
    lengths = np.linalg.norm(TOKENS, axis=-1, keepdims=True)
    found = diagnose(case(), TOKENS, TOKENS / lengths * math.sqrt(6), TOLERANCE)
    assert [f.id for f in found] == ["diagnosis.rows_normalized"] and "2.449 (= √6)" in found[0].sentence
    factors = rng.uniform(0.5, 2.0, size=(2, 5, 1))
    assert [f.id for f in diagnose(case(), TOKENS, TOKENS * factors, TOLERANCE)] == ["diagnosis.rows_scaled"]


def test_the_first_row_s_result_in_every_row_is_said_so_per_image():
    """Each image's rows all equal its expected CLS row: CLS's message handed to every token."""
    got = np.broadcast_to(TOKENS[:, :1], TOKENS.shape).copy()
    found = diagnose(case("multi_head_attention"), TOKENS, got, TOLERANCE)
    assert [f.id for f in found] == ["diagnosis.first_row_everywhere"] and "the CLS row" in found[0].sentence
    assert "one and the same vector" in said(case(), TOKENS, np.broadcast_to(TOKENS[:1, :1], TOKENS.shape).copy())
