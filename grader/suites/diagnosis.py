"""What kind of mistake a wrong array shows, when no known mistake of the catalogue matches it.

Every finding is checked on the numbers (got against expected, and the call's arguments where they
help: the case's tensors, or the checkpoint's parameters), never guessed from the student's file:
a per-feature offset is reported only when got - expected is the same vector in every row, a factor
only when got = c·expected everywhere with the fitted c, an order only when every row was found,
exactly, at another place. Where nothing fits, `diagnose` says nothing. It runs only on failing
cases (about 0.1 s each), so it may afford a few passes over the arrays.
"""
from __future__ import annotations

import functools
from typing import Any
from collections.abc import Callable

import numpy as np

from grader import numerics
from grader.expected.arguments import float64_params, numpy_array
from grader.lecture_layout import QUADRANTS
from grader.results import Finding
from grader.suites.feedback import CHANNELS, patch_name
from grader.suites.findings import FINDINGS, beside
try:  # the correct maths and the search over its edits: instructor side only, the student release leaves
    # them out (its visible cases carry every edit's fingerprint instead, grader.suites.support)
    from grader import lecture_maths as maths
    from grader import search
except ImportError:
    maths = search = None


def _found(name: str, sentence: str) -> Finding:
    """A finding of the diagnosis, with its registered title and page."""
    title, _, page = FINDINGS[name]
    return Finding(f"diagnosis.{name}", title, " ".join(sentence.split()), page)


#: Axes whose entries are rows of the lecture's tables (tokens, patches, heads, ...), in the order
#: findings prefer them; the last axis of an array is its features.
ROW_AXES = ("token", "query", "patch", "head", "quadrant", "row", "col", "channel", "input", "y", "x", "key",
            "image")


def diagnose(case: Any, expected: np.ndarray, got: np.ndarray, tolerance: numerics.Tolerance,
             parts: dict[str, np.ndarray] | None = None, search_edits: bool = True) -> list[Finding]:
    """Sentences naming the structure of the error, most specific first; empty when none fits.

    Args:
        case: the fixture case (function name, axes, arguments, input tensors).
        expected, got: arrays of the same shape, or of transposed shapes.
        tolerance: (absolute, relative), as the comparison used.
        parts: for functions returning several tensors, every expected output by name.
        search_edits: whether to search the lecture's edits (where the search ships).
    """
    e, g = np.asarray(expected, np.float64), np.asarray(got, np.float64)
    if not np.isfinite(g).all() or e.size == 0 or e.ndim == 0:
        return []
    try:
        if g.shape != e.shape:
            return _shape_findings(e, g, tolerance)
        close = numerics.Closeness(tolerance)
        if close(g, e):  # nothing is wrong: nothing to explain
            return []
        # the one edit of the lecture's computation that gives these numbers says what was done; the
        # structure of the error, checked on the numbers too, says beside it how the result shows it
        edit = search.find_edit(case, e, g, tolerance, _part_index(expected, parts or {})) \
            if search is not None and search_edits else None
        structure = _structure(case, e, g, close, parts or {})
        return said_beside(edit, structure)
    except Exception:  # noqa: BLE001 - a finding is extra: failing to find one must not hide the rest
        return []


def said_beside(edit: Finding | None, structure: Finding | None) -> list[Finding]:
    """The findings a failing test says: the named edit first, the structure of the error beside it
    unless it would send the student to another mistake (grader.suites.findings.beside); the
    structure alone where no edit is named."""
    if edit is None:
        return [structure] if structure is not None else []
    return [edit, structure] if structure is not None and beside(edit.id, structure.id) else [edit]


def _structure(case: Any, e: np.ndarray, g: np.ndarray, close: numerics.Closeness,
               parts: dict[str, np.ndarray]) -> Finding | None:
    """The first structural finding that fits the numbers; None when none does."""
    for check in _CHECKS:
        found = check(case, e, g, close, parts)
        if isinstance(found, str):  # the checks whose every sentence is one finding
            found = _found(_CHECK_FINDING[check.__name__], found)
        if found:
            return found
    return None


def _part_index(expected: np.ndarray, parts: dict[str, np.ndarray]) -> int | None:
    """Which of several outputs `expected` is (q, k or v), for the search; None for a single output."""
    return next((i for i, other in enumerate(parts.values()) if other is expected), None)


def _fmt(x: float) -> str:
    return f"{x:.4g}"


def _span(values: np.ndarray) -> str:
    """`from 0.97 to 1.04`, or `0.97 in every row` when they agree."""
    low, high = _fmt(float(values.min())), _fmt(float(values.max()))
    return f"{low} in every row" if low == high else f"from {low} to {high}"


# ---------------------------------------------------------------- shapes

def _shape_findings(e: np.ndarray, g: np.ndarray, tolerance: numerics.Tolerance) -> list[Finding]:
    """A transposed result, or the right rows with some missing."""
    close = numerics.Closeness(tolerance)
    if e.ndim >= 2 and g.shape == e.shape[:-2] + e.shape[-2:][::-1] and close(np.swapaxes(g, -1, -2), e):
        return [_found("transposed", "Your result is the expected one transposed: its last two axes are swapped.")]
    if e.ndim >= 2 and g.shape[:-2] == e.shape[:-2] and g.shape[-1] == e.shape[-1] and g.shape[-2] < e.shape[-2]:
        missing = e.shape[-2] - g.shape[-2]
        for start in range(missing + 1):
            if close(g, e[..., start:start + g.shape[-2], :]):
                return [_found("rows_missing", f"Your {g.shape[-2]} rows are the expected rows "
                               f"{start}..{start + g.shape[-2] - 1}: {missing} row{'s' if missing > 1 else ''} "
                               f"missing ({'at the start' if start else 'at the end'}).")]
    return []


# ---------------------------------------------------------------- probabilities and logits

def _probabilities(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    if case.function == "attention_weights":  # (weights times one factor are said as that factor, by _scale)
        return None if _multiple(e, g, close) else _attention(e, g, close)
    if (case.function == "quadrant_probabilities" and (g.min() < 0 or g.max() > 1) and not _multiple(e, g, close)
            and _affine_fit(e, g, close) is None):  # (a scale and shift of the probabilities, said by _affine)
        text = (f"Your values run from {_fmt(g.min())} to {_fmt(g.max())}: they are not probabilities, "
                "which lie in [0, 1]; take the softmax over the classes and read the target's entry (page 42).")
        return _found("not_probabilities", text)
    if case.function in ("classify", "vit_forward") and g.ndim == 2:
        with np.errstate(over="ignore"):
            sums, expected_sums = np.exp(g).sum(axis=-1), np.exp(e).sum(axis=-1)
        if _sum_to_one(sums) and not _sum_to_one(expected_sums):
            text = ("Your values are log-probabilities: the exponentials of each image's row sum to 1 "
                    "(a log_softmax); return the raw logits, before any softmax (page 52).")
            return _found("log_probabilities", text)
        if g.min() >= 0 and _sum_to_one(g.sum(axis=-1)) and not _sum_to_one(e.sum(-1)):
            text = ("Your values are probabilities: each image's row lies in [0, 1] and sums to 1 (a softmax); "
                    "return the raw logits, before any softmax (page 52).")
            return _found("probabilities", text)
    return None


def _multiple(e: np.ndarray, g: np.ndarray, close) -> bool:
    """Whether g is e times one factor (percentages): said by the scale check, not as non-probabilities."""
    return bool(close(g, _factor(e, g) * e))


def _factor(e: np.ndarray, g: np.ndarray) -> float:
    """The one c that brings c·e nearest to g (least squares); 0 where e is zero."""
    return float((g * e).sum() / max(float((e * e).sum()), 1e-300))


def _normalize_precedence(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """normalize written `x / 255 - 0.5 / 0.5`: Python divides 0.5 by 0.5 first, giving x/255 − 1."""
    pixels = numpy_array(case, "pixels") if case.function == "normalize" else None
    if pixels is None or pixels.shape != g.shape or not close(g, np.asarray(pixels, np.float64) / 255 - 1):
        return None
    return _found("precedence", "Your values are x/255 − 1, in [−1, 0]: written x / 255 - 0.5 / 0.5, Python "
                  "divides 0.5 by 0.5 first. The lecture's is (x/255 − 0.5) / 0.5, the parentheses first (page 8).")


def _wrapped_pixels(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """normalize: some values off by a whole number of 256-pixel steps, the uint8 arithmetic wrapped round
    (uint8 holds 0..255, so 2 · 200 is 144 there) before the pixels were made floats."""
    if case.function != "normalize" or g.shape != e.shape:
        return None
    wrong = numerics.outside(g, e, close.tolerance)
    step = 256 / 255  # a wrap of 256 in the pixels (2.008 after the ×2) or in 2·pixels (1.004)
    turns = (g - e)[wrong] / step
    if (not wrong.any() or wrong.all() or not np.allclose(turns, np.round(turns), rtol=0, atol=1e-3)
            or (np.round(turns) == 0).any()):  # a rounding error is no wrap
        return None
    return _found("uint8_wraparound", f"{int(wrong.sum())} of {wrong.size} values are off by a whole multiple of "
                  f"256/255 = {_fmt(step)}: arithmetic on the uint8 pixels wrapped round (uint8 holds 0..255, so "
                  "2 · 200 is 144 there, and 100 − 255 is 101). Make the pixels floats first, then compute (page 8).")


def _attention(e: np.ndarray, g: np.ndarray, close) -> Finding | None:
    rows, columns = g.sum(axis=-1), g.sum(axis=-2)
    if not _sum_to_one(rows):
        if g.min() < 0 or g.max() > 1:
            text = (f"Your weights run from {_fmt(g.min())} to {_fmt(g.max())} and rows sum to "
                    f"{_fmt(rows.min())}..{_fmt(rows.max())}: these are scores, not weights; a softmax "
                    "over the keys turns each query's row into weights that sum to 1 (page 28).")
            return _found("scores_not_weights", text)
        if _sum_to_one(columns):
            text = ("Your columns sum to 1, not your rows: the softmax ran over the queries; "
                    "each query's row of weights over the keys must sum to 1 (pages 28, 31).")
            return _found("softmax_over_queries", text)
        text = (f"Your rows sum to {_fmt(rows.min())}..{_fmt(rows.max())}, not 1: normalize each query's "
                "row over the keys alone, as the softmax does (page 28).")
        return _found("rows_not_normalized", text)
    return _temperature(e, g, close)


def _sum_to_one(sums: np.ndarray) -> bool:
    return numerics.close(sums, np.ones_like(sums), numerics.SUMS_TO_ONE)


#: A fitted curve explains numbers when what it leaves is at most this share of their spread: float32
#: rounding leaves ~1e-7 of it; a fit that merely sits within the tolerance leaves far more.
FIT_SHARE = 1e-3


def _fits(g: np.ndarray, fitted: np.ndarray, close) -> bool:
    """`fitted` gives the numbers `g`: within the test's tolerance, or, where the mistake multiplied the
    rounding errors with the values (logits times 100), leaving little of their spread."""
    return close(g, fitted) or _leaves_little(g, fitted)


def _leaves_little(g: np.ndarray, fitted: np.ndarray) -> bool:
    """What `fitted` leaves of `g` is at most FIT_SHARE of the spread of `g`."""
    return float(np.abs(g - fitted).max()) <= FIT_SHARE * float(np.ptp(g))


def _temperature(e: np.ndarray, g: np.ndarray, close) -> Finding | None:
    """Rows that are softmax(c · the right scores): the scores were scaled by c too many times."""
    if (e <= 0).any() or (g <= 0).any():
        return None
    le = np.log(e) - np.log(e).mean(axis=-1, keepdims=True)  # the scores, up to a per-row constant
    lg = np.log(g) - np.log(g).mean(axis=-1, keepdims=True)
    c = float((le * lg).sum() / max((le * le).sum(), 1e-300))
    if abs(c - 1) < 1e-3 or c <= 0:
        return None
    fitted = np.exp(c * le)
    fitted /= fitted.sum(axis=-1, keepdims=True)
    # a temperature fits to rounding; nearly uniform weights (scores all near 0) fit any small c within the
    # tolerance, however they were made, and say nothing of a scale
    if not (close(g, fitted) and _leaves_little(g, fitted)):
        return None
    text = (f"Your weights are the softmax of the right scores times {_fmt(c)}{_factor_name(c)}: "
            "the scale of q·kᵀ is off; divide by √d, once (page 28).")
    return _found("temperature", text)


# ---------------------------------------------------------------- what the arguments say

def diagnose_count(case: Any, got: int) -> Finding | None:
    """count_tokens: a wrong count that is the patches plus a wrong number of CLS tokens, or the pixels
    divided by the patch's side instead of its area (a patch is P x P pixels)."""
    values = {spec["name"]: spec.get("value") for spec in getattr(case, "args", [])}
    size, patch, cls = values.get("image_size"), values.get("patch_size"), values.get("cls", True)
    if case.function != "count_tokens" or not isinstance(size, int) or not isinstance(patch, int) or patch <= 0:
        return None
    patches = (size // patch) ** 2
    asked = "cls=True: one CLS token" if cls else "cls=False: no CLS token"
    extra = got - patches
    if extra != int(bool(cls)) and 0 <= extra <= 3:
        return _found("cls_count", f"Your count is the {patches} patches plus {extra}; {asked} (pages 48-49).")
    if cls and extra == size // patch > 3:  # CLS counted as one more row of the grid
        return _found("cls_count", f"Your count is the {patches} patches plus {extra}, one more row of the "
                      f"{size // patch} x {size // patch} grid; {asked}, a single row of the sequence (pages 48-49).")
    by_side = size * size // patch  # the pixels over P, not over P * P
    if by_side != patches and got - by_side in (0, 1):
        return _found("patch_area", f"Your count is the {size}x{size} pixels divided by the patch side {patch} "
                      f"({by_side}{' plus one' if got > by_side else ''}); a patch holds {patch}x{patch} pixels, "
                      f"so the grid has ({size}/{patch})² = {patches} patches, then {asked} (page 7).")
    if got - size * size in (0, 1) and size * size != patches:  # size * size // P * P is ((size·size) // P)·P
        return _found("pixel_count", f"Your count is the {size}x{size} = {size * size} pixels"
                      f"{' plus one' if got > size * size else ''}: written `size * size // P * P`, Python reads "
                      "((size·size) // P)·P, which gives the pixels back. Divide by the patch's area in brackets, "
                      f"size·size // (P·P), or count per side, (size // P)² = {patches} patches, then {asked} "
                      "(page 7).")
    tokens = patches + int(bool(cls))
    if got == tokens * tokens and tokens > 1:
        return _found("squared_count", f"Your count is {tokens}² = {got}, the number of attention scores, one per "
                      f"pair of tokens (page 49): the tokens themselves are {patches} patches, then {asked} "
                      "(page 7).")
    written = (LECTURE_IMAGE_SIZE // patch) ** 2
    if size != LECTURE_IMAGE_SIZE and written != patches and got - written in (0, 1):
        return _found("written_image_size", f"Your count is the lecture's 224-pixel image's, ({LECTURE_IMAGE_SIZE}"
                      f"/{patch})² = {written}{' plus one' if got > written else ''}, for an image of {size} pixels: "
                      f"count from image_size, ({size}/{patch})² = {patches} patches, then {asked} (page 48).")
    sliding = (size - patch + 1) ** 2  # a convolution's output size with stride 1
    if sliding != patches and got - sliding in (0, 1):
        return _found("sliding_count", f"Your count is ({size} − {patch} + 1)² = {sliding}"
                      f"{' plus one' if got > sliding else ''}: the places of a {patch}x{patch} window moved one "
                      f"pixel at a time. Patches do not overlap: the window moves {patch} pixels, so "
                      f"({size}/{patch})² = {patches} patches, then {asked} (page 7).")
    if not cls and got == 0 and patches > 0:  # `n * n + 1 if cls else 0` is `(n * n + 1) if cls else 0`
        return _found("conditional_count", f"Your count is 0 for cls=False: written `n * n + 1 if cls else 0`, "
                      "Python reads `(n * n + 1) if cls else 0`, the conditional taking the whole sum. Put the "
                      f"parentheses round `(1 if cls else 0)`: {patches} patches, then {asked} (page 7).")
    side = size // patch
    return (_grid_side_count(side, got, patches, asked) or _xor_count(side, got, patches, asked)
            or _doubled_count(side, got, patches, asked) or _channel_count(got, patches, asked)
            or _other_patch_count(size, patch, got, cls, asked))


#: The lecture's image side, which a count may have written in for image_size.
LECTURE_IMAGE_SIZE = 224

#: Patch sizes a count may have been written for: ViT-B/32's, ViT-B/16's (the lecture's), /14, /8.
WRITTEN_PATCH_SIZES = (32, 16, 14, 8)


def _other_patch_count(size: int, patch: int, got: int, cls: Any, asked: str) -> Finding | None:
    """The count of another patch size than the one passed: a size written in, patch_size unread."""
    for other in WRITTEN_PATCH_SIZES:
        if other != patch and size % other == 0 and got == (size // other) ** 2 + int(bool(cls)):
            return _found("written_patch_size", f"Your count is that of {other}-pixel patches, ({size}/{other})² = "
                          f"{(size // other) ** 2}, where patch_size is {patch}: read the patch size from the "
                          f"argument, ({size}/{patch})² = {(size // patch) ** 2} patches, then {asked} (page 7).")
    return None


def _doubled_count(side: int, got: int, patches: int, asked: str) -> Finding | None:
    """`side * 2` (or `side + side`) where the square `side ** 2` was meant."""
    if 2 * side != patches and got - 2 * side in (0, 1):
        return _found("doubled_count", f"Your count is {side} × 2 = {2 * side}{' plus one' if got > 2 * side else ''}:"
                      f" the patches per side doubled, not squared. The grid is {side} × {side}: {side} ** 2 = "
                      f"{patches} patches, then {asked} (page 7).")
    return None


def _channel_count(got: int, patches: int, asked: str) -> Finding | None:
    """Each patch counted once per colour channel: a (B, 3, rows, cols) grid's every number counted."""
    if patches > 0 and got - 3 * patches in (0, 1):
        return _found("channel_count", f"Your count is 3 × {patches} = {3 * patches}"
                      f"{' plus one' if got > 3 * patches else ''}: each patch counted once per colour channel. A "
                      f"token is a whole patch, its three channels flattened together into one row (page 9): "
                      f"{patches} patches, then {asked} (page 7).")
    return None


def _grid_side_count(side: int, got: int, patches: int, asked: str) -> Finding | None:
    """A grid of side ± 1 patches per side: the fencepost count of the cuts, not of the patches."""
    for other in (side + 1, side - 1):
        if other > 0 and got - other ** 2 in (0, 1) and other ** 2 != patches:
            return _found("grid_side_count", f"Your count is a grid of {other} x {other} = {other ** 2} patches"
                          f"{' plus one' if got > other ** 2 else ''}: one patch {'more' if other > side else 'fewer'}"
                          f" per side than the {side} that image_size // patch_size gives. The grid has {side} ** 2 "
                          f"= {patches} patches, then {asked} (page 7).")
    return None


def _xor_count(side: int, got: int, patches: int, asked: str) -> Finding | None:
    """`side ^ 2`, Python's bitwise XOR where a power was meant; `^` binds more loosely than `+`, so
    `side ^ 2 + 1` is side XOR 3."""
    for exponent in (3, 2):  # `side ^ 2 + 1` as Python reads it first
        xor = side ^ exponent
        if xor != patches and got - xor in (0, 1) and (exponent == 2 or got == xor):
            written = f"{side} ^ 2 + 1 = {side} ^ 3" if exponent == 3 else f"{side} ^ 2"
            return _found("xor_count", f"Your count is {written} = {xor}{' plus one' if got > xor else ''}: in "
                          f"Python ^ is a bitwise XOR, not a power (and it binds more loosely than +). The grid "
                          f"has {side} ** 2 = {patches} patches, then {asked} (page 7).")
    return None


def _magnitude(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """|expected|: the sizes right, every negative value's sign lost."""
    if not (e < -numerics.allowed(e, close.tolerance)).any() or not close(g, np.abs(e)):
        return None
    return _found("magnitude", "Your values are the sizes of the expected ones, |expected|: every negative "
                  "value came out positive, so the sign, which says which way a value goes, is lost.")


def _position(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """add_position: what the student added to the tokens (got − tokens), against the table it was
    given: its rows in another order, a multiple of it, its mean row, or a product instead of a sum."""
    if case.function != "add_position" or e.ndim != 3:
        return None
    tokens, table = numpy_array(case, "tokens"), numpy_array(case, "pos_table")
    if tokens is None or table is None or tokens.shape != e.shape or table.shape != e.shape[1:]:
        return None
    if _multiple(e, g, close):  # the whole sum times a factor, tokens too: said by _scale
        return None
    tokens, table = np.asarray(tokens, np.float64), np.asarray(table, np.float64)
    added = g - tokens  # (B, N, D): what the student's code added to each token
    if close(added, tokens):
        return _found("position_tokens_added", "What you added to each token is the token itself, 2·c_i: the "
                      "position table is never used. Add its row i to token i, c_i + p_i (page 16).")
    if close(g, tokens * table):
        return _found("position_multiplied", "Your result is tokens × position table: content and position are "
                      "multiplied; e_i = c_i + p_i adds them, coordinate by coordinate (page 16).")
    factor = float((added * table).sum() / max(float((table * table).sum()) * len(added), 1e-300))
    if abs(factor - 1) > 1e-3 and abs(factor) > 1e-3 and close(g, tokens + factor * table):
        return _found("position_scaled", f"What you added to the tokens is {_fmt(factor)}{_factor_name(factor)} × "
                      "the position table: add each row as it is (page 16).")
    factors = (added * table).sum(-1, keepdims=True) / np.maximum((table * table).sum(-1, keepdims=True), 1e-300)
    left_or_kept = (np.abs(factors) < 1e-3) | (np.abs(factors - 1) < 1e-3)  # rows left out or right: a part
    if np.ptp(factors) > 1e-3 and left_or_kept.mean() < 0.5 and close(g, tokens + factors * table):  # (B, N, 1)
        return _found("position_rows_scaled", f"What you added to each token is its own position row times a "
                      f"factor of its own (from {_fmt(factors.min())} to {_fmt(factors.max())}), as when each "
                      "row is rescaled (to its token's length, say): add each row as it is, c_i + p_i (page 16).")
    if close(g, tokens + table.mean(axis=0)):
        return _found("position_mean", "You added the table's mean row to every token: each token gets its own "
                      "row of the position table, row i for token i (page 17).")
    if close(g, tokens + table.mean(axis=1, keepdims=True)):
        return _found("position_feature_mean", "You added each position row's mean over the features, one number "
                      "per token: add the whole row, coordinate by coordinate (page 16).")
    index = np.arange(table.shape[0], dtype=np.float64)[:, None]  # (N, 1): each token's place
    if close(g, tokens + index):
        return _found("position_index", "You added each token's index i (0, 1, ..., N − 1) to all its features: "
                      "the position a token gets is row i of the learned position table, the pos_table given, "
                      "not the number i (pages 16-17).")
    if close(g, tokens + _sinusoidal(*table.shape)):
        return _found("position_sinusoidal", "You added the sine-and-cosine position table of the original "
                      "Transformer: this ViT learned its own, the pos_table given; add its row i to token i "
                      "(pages 16-17).")
    added_rows = added.mean(axis=0)  # (N, D): the same table for every image, if any
    if not close(added, np.broadcast_to(added_rows, added.shape)):
        return None
    perm = _matching(table, added_rows, 0, close)
    own_rows = sum(not close(row, table_row) for row, table_row in zip(added_rows, table))
    # A few rows wrong are said as such, by _some_rows; the given table rounded (float16, say) is
    # the given table all the same, said by _approximate.
    # One image cannot show that what was added is the same whatever the image: a table.
    if perm is None and own_rows > len(table) // 2 and len(added) > 1 \
            and not _within_a_few_per_cent(added_rows, table):
        return _found("position_own_table", "What you added is the same table for every image, but not the "
                      "pos_table given, nor its rows in another order: a table of your own (a fixed sine code, "
                      "an index, ...). This ViT learned its table: add its row i to token i (pages 16-17).")
    if perm is None or (perm == np.arange(len(perm))).all():
        return None
    axes = list(getattr(case, "axes", []))
    order = _order_sentence(perm, axes[1] if len(axes) == 3 else "token", case).split(": ", 1)[-1]
    return _found("position_reordered", f"What you added to the tokens are the table's rows in another order: "
                  f"{order} Token i gets row i of the position table (page 17).")


def _sinusoidal(count: int, width: int) -> np.ndarray:
    """(count, width): the fixed table of the original Transformer, sin and cos of pos / 10000^(2i/width)
    in the even and odd features."""
    position = np.arange(count, dtype=np.float64)[:, None]  # (N, 1)
    frequency = 10000.0 ** (-np.arange(0, width, 2, dtype=np.float64) / width)  # (ceil(D/2),)
    table = np.zeros((count, width))
    table[:, 0::2] = np.sin(position * frequency)
    table[:, 1::2] = np.cos(position * frequency)[:, :width // 2]
    return table


# ---------------------------------------------------------------- sign, transpose, factors, offsets

#: The functions that return (changes of) one class's probabilities: of a thousand classes, almost
#: every one has a probability near zero, so a result near zero but not zero reads another class.
CLASS_PROBABILITIES = ("quadrant_probabilities", "occlusion_map")


def _constant(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """One value everywhere, where the expected values vary: no pattern to scale or shift."""
    value = float(g.mean())
    if not close(g, np.full_like(g, value)) or close(e, np.full_like(e, float(e.mean()))):
        return None
    if close(g, np.zeros_like(g)):
        if case.function in CLASS_PROBABILITIES and np.any(g != 0):
            if _leaves_little(g, _factor(e, g) * e):  # the right pattern made small (divided by the area)
                return None
            return _found("unlikely_class", f"Every value of your result is near zero but not zero (the largest "
                          f"{_fmt(float(np.abs(g).max()))}), where the target class's are not: those of a class "
                          "the model gives almost no probability. The target is the class passed in, the one "
                          "the model predicts for the image (page 42).")
        return _found("all_zero", "Every value of your result is zero (within the tolerance).")
    original = _original_probability(case) if case.function == "occlusion_map" else None
    # minus the original within a few per cent: the covered probabilities are near zero
    if original is not None and abs(value + original) <= APPROXIMATE * original:
        return _found("covered_other_class", f"Every value of your result is {_fmt(value)}, minus the original "
                      "probability of the target: the covered images' probabilities you read are all near zero, "
                      "as those of a class the model gives almost nothing, or of images covered all over. Read the "
                      "target's from both, and let each cover keep the image but its own square (page 44).")
    if case.function == "quadrant_probabilities" and close(g, np.ones_like(g)):
        return _found("certain_class", "Every value of your result is 1: the target certain under every cover, "
                      "where the expected probabilities vary. A class's probability is the softmax over every "
                      "class's logit, read at the target (page 43); a softmax over the target's logit alone, or a "
                      "sigmoid of a large logit, gives 1.")
    # one number on this case's inputs: whether on every input, one case cannot tell
    return _found("constant", f"Every value of your result is {_fmt(value)}: one number, where the expected "
                  "values vary.")


def _same_everywhere(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """One row for every row of every image, or one result for every image, where the expected ones
    differ: what was computed does not depend on the rows (or the image) the function was given."""
    if e.ndim < 2 or e.shape[-1] < 2:
        return None
    per_image = list(getattr(case, "axes", []))[:1] == ["image"] and e.shape[0] > 1
    if e.ndim == 3 and e.shape[1] > 2 and close(g, np.broadcast_to(e[:, :1], e.shape)):  # (B, N, D)
        attention = case.function in ("multi_head_attention", "block")  # (rows of tokens, CLS first)
        return _found("first_row_everywhere", "Every row of your result is its image's expected first row [index 0]"
                      f"{', the CLS row' if attention else ''}: row 0 is right, and every other row got row 0's "
                      "result instead of its own" + (", as if each token asked with CLS's query or its row of "
                      "weights (page 31: every query row receives its own message)." if attention else "."))
    rows_e, rows_g = e.reshape(-1, e.shape[-1]), g.reshape(-1, e.shape[-1])
    if (not (per_image and e.ndim == 2) and len(rows_g) > 2 and _all_alike(rows_g)
            and not _all_alike(rows_e)):
        return _found("same_row_everywhere", "Every row of your result is one and the same vector, where the "
                      "expected rows differ: your rows do not depend on the rows your function was given (they are "
                      "replaced, zeroed or left out before they are read).")
    if per_image and _all_alike(g) and not _all_alike(e):
        return _found("same_for_every_image", "Every image of the batch gets the same result, where the expected "
                      "results differ: what you compute does not depend on the image's own rows (one image's, or "
                      "rows that are the same for every image, are used for all).")
    return None


#: Rows computed alike from the same numbers agree to a few float32 roundings of their size (8 units
#: in the last place); rows that merely fall within the tolerance of each other still depend on their input.
_ALIKE = 8 * float(np.finfo(np.float32).eps)


def _all_alike(x: np.ndarray) -> bool:
    """Every entry along the first axis equals the first, to a few float32 roundings."""
    return bool(np.abs(x - x[:1]).max() <= _ALIKE * max(1.0, float(np.abs(x).max())))


def _original_probability(case: Any) -> float | None:
    """occlusion_map's original probability of its target: the case's model run once on the uncovered
    image with the lecture maths (the probe model, or the checkpoint's ViT), or as the fixture builder
    stored it (`original`: the release's visible cases, where the maths does not ship); None where
    neither can be had."""
    if "original" in getattr(case, "extra", {}):
        return float(case.extra["original"])
    spec = next((spec for spec in case.args if spec.get("name") == "model"), {})
    target = next((spec.get("value") for spec in case.args if spec.get("name") == "target"), None)
    if not _recomputes(case) or not isinstance(target, int):
        return None
    image = numpy_array(case, "image")
    if image is None:
        return None
    if spec.get("model") == "probe" and spec.get("weights") in case.tensors:
        model = search.Probe(np.asarray(case.tensors[spec["weights"]], np.float64))
    elif spec.get("model") == "vit" and case.extra.get("checkpoint"):
        params = float64_params(case.extra["checkpoint"])
        model = functools.partial(maths.vit_forward, params=params)
    else:
        return None
    return float(maths.target_probability(model, image, target)[0])


def _sign(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    if np.abs(e).max() > 0 and close(-g, e):
        return _found("sign", "Every value has the wrong sign: you returned −1 × the expected result.")
    return None


def _transposed(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    if e.ndim >= 2 and e.shape[-1] == e.shape[-2] and close(np.swapaxes(g, -1, -2), e):
        return _found("transposed", "Your result is the expected one transposed: rows and columns are swapped.")
    return None


def _scale(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """got = c·expected, one c for everything, else one c per row."""
    norm = float((e * e).sum())
    if norm == 0:
        return None
    c = _factor(e, g)
    small_pattern = np.ptp(g) > 0 and _leaves_little(g, c * e)  # the right pattern, made small (÷ the area)
    if close(g, np.zeros_like(g)) and not small_pattern:
        return _found("all_zero", "Every value of your result is zero (within the tolerance).")
    if abs(c - 1) > 1e-3 and _fits(g, c * e, close):
        text = (f"Every value is {_fmt(c)} × the expected one{_factor_name(c)}: the pattern is "
                "right, the scale is not.")
        return _found("scaled", text)
    if e.ndim < 2:
        return None
    per_row = (g * e).sum(axis=-1, keepdims=True) / np.maximum((e * e).sum(axis=-1, keepdims=True), 1e-300)
    if np.ptp(per_row) > 1e-3 and (np.abs(per_row - 1) > 1e-3).all() and close(g, per_row * e):
        lengths = np.linalg.norm(g, axis=-1)  # (..., rows)
        if close(lengths, np.full_like(lengths, lengths.mean())):  # the rows' size set, not scaled
            return _found("rows_normalized", f"Every row of yours has the same length, {_fmt(lengths.mean())}"
                          f"{_factor_name(float(lengths.mean()))}, and points the way the expected row does: each "
                          "row was divided by its own length (and scaled), a normalization the computation "
                          "does not have here.")
        text = (f"Each row is the expected row times its own factor ({_span(per_row)}): every row points "
                "the right way but has the wrong size.")
        return _found("rows_scaled", text)
    return None


#: The fewest values a result needs before exact zeros scattered through it can be told from chance.
_DROPOUT_MIN_VALUES = 20


def _dropout(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """A share of the values exactly 0 where the expected ones are not, every other value the expected
    one times 1/(1 − p), and that share near p: dropout left on, as F.dropout does by default
    (training=True), zeroing other values at every call."""
    zeroed = (g == 0) & (e != 0)
    count = int(zeroed.sum())
    if e.size < _DROPOUT_MIN_VALUES or count < 2 or count == e.size:
        return None
    kept = ~zeroed
    c = _factor(e[kept], g[kept])
    share = count / e.size
    p = 1 - 1 / c if c > 1 else 0.0
    chance = 4 * np.sqrt(p * (1 - p) / e.size) + 0.02  # the share of p's coin flips, four deviations wide
    if not (c > 1 + 1e-3 and close(g[kept], c * e[kept]) and abs(share - p) <= chance):
        return None
    # dropout picks its zeros blind to the values: about as many negative ones among them as anywhere
    # (a ReLU of scaled values zeroes the negative ones alone)
    negative = float((e < 0).mean())
    if abs(float((e[zeroed] < 0).mean()) - negative) > 4 * np.sqrt(negative * (1 - negative) / count) + 0.1:
        return None
    # no count or share in the sentence: they change at every call, the scale does not
    return _found("dropout", f"Some values are exactly 0 and every other value is the expected one divided by "
                  f"{1 / c:.3g}: dropout with p = {p:.2g}, left on as in training (F.dropout drops at random by "
                  "default, other values at every call). The forward pass of a trained ViT drops nothing.")


def _affine_fit(e: np.ndarray, g: np.ndarray, close) -> tuple[float, float] | None:
    """(a, b) where got = a·expected + b everywhere with a ≠ 1 and b ≠ 0; None where no such line fits."""
    if e.size < 3 or np.ptp(e) == 0:  # (two values always lie on a line)
        return None
    a, b = np.polyfit(e.reshape(-1), g.reshape(-1), 1)
    if abs(a - 1) < 1e-4 or abs(b) < 1e-6 or not close(g, a * e + b):
        return None
    return float(a), float(b)


def _affine(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """got = a·expected + b everywhere, one a and one b: a wrong constant in a scale-and-shift."""
    fit = _affine_fit(e, g, close)
    if fit is None:
        return None
    a, b = fit
    line = f"Every value is {_fmt(a)} × the expected one {'+' if b > 0 else '−'} {_fmt(abs(b))}"
    if case.function in CLASS_PROBABILITIES and abs(a / 100 - 1) < 1e-3:
        return _found("affine", f"{line}: percentage points less one constant, as the change from the uncovered "
                      "probability, 100·(p − p₀), would be (page 43 prints it beside each probability); return "
                      f"{'the probabilities themselves' if case.function == 'quadrant_probabilities' else 'p − p₀'},"
                      " as fractions (page 42).")
    return _found("affine", f"{line}: the right pattern through a wrong scale and shift (e.g. a wrong constant "
                  "of the normalization, page 8).")


def _scaled_offset(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """got = c·expected + v, one factor c and the same vector v in every row: the part of the sum before a
    bias scaled by c (heads averaged instead of joined, a weighted sum divided by its count)."""
    if e.ndim < 2 or e.shape[-1] < 2:
        return None
    rows_e, rows_g = e.reshape(-1, e.shape[-1]), g.reshape(-1, e.shape[-1])  # (rows, D)
    centred = rows_e - rows_e.mean(axis=0)
    norm = float((centred * centred).sum())
    if len(rows_e) < 3 or norm == 0:
        return None
    c = float((centred * (rows_g - rows_g.mean(axis=0))).sum()) / norm
    v = rows_g.mean(axis=0) - c * rows_e.mean(axis=0)  # (D,)
    if abs(c - 1) < 1e-3 or not close(rows_g, c * rows_e + v) or close(rows_g, np.broadcast_to(v, rows_g.shape)):
        return None  # (the last: the scaled part lost within the tolerance, the rows all v; no scale to speak of)
    for spec in getattr(case, "args", []):  # v = (1 − c)·b: everything but the bias b scaled by c
        b = numpy_array(case, spec["name"])
        if b is not None and b.shape == v.shape and np.abs(b).max() > 0 and close(v, (1 - c) * b):
            return _found("scaled_before_bias", f"Your result is {_fmt(c)}{_factor_name(c)} × (expected − "
                          f"`{spec['name']}`) + `{spec['name']}`: everything computed before the bias "
                          f"`{spec['name']}` is added is {_fmt(c)} times the right value; the bias itself is right.")
    return _found("scaled_before_bias", f"Every value is {_fmt(c)}{_factor_name(c)} × the expected one plus the "
                  "same vector in every row: a term scaled by that factor before a vector (a bias) is added.")


#: The fewest values, and distinct expected values, that can show a curve rather than a coincidence.
_CURVE_MIN_VALUES, _CURVE_MIN_DISTINCT = 20, 10


def _curved(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """Each value a fixed monotone function of its expected value, but no straight line (the straight
    ones are scales and shifts, found before): a nonlinearity applied where the computation has none,
    or another one where it has one. Within a few per cent everywhere, it is an approximation instead."""
    flat_e, flat_g = e.reshape(-1), g.reshape(-1)
    if (flat_e.size < _CURVE_MIN_VALUES or len(np.unique(flat_e)) < _CURVE_MIN_DISTINCT
            or _within_a_few_per_cent(g, e)):
        return None
    order = np.argsort(flat_e, kind="stable")
    ys = flat_g[order]  # your values, in the order of their expected ones
    rising = close(ys[1:], np.maximum(ys[1:], ys[:-1]))  # never below the one before, within the tolerance
    falling = close(ys[1:], np.minimum(ys[1:], ys[:-1]))
    if not (rising or falling) or len(np.unique(ys)) < _CURVE_MIN_DISTINCT:  # a step is no curve
        return None
    if _fits(flat_g, np.polyval(np.polyfit(flat_e, flat_g, 1), flat_e), close):  # a straight line: scale, shift
        return None
    picks = order[np.round(np.linspace(0, flat_e.size - 1, 5)).astype(int)]
    points = ", ".join(f"{_fmt(float(flat_e[i]))} → {_fmt(float(flat_g[i]))}" for i in picks)
    return _found("curved", f"Each of your values is a fixed {'increasing' if rising else 'decreasing'} function of "
                  f"its expected value, but not a straight line (expected → yours: {points}): a nonlinearity is "
                  "applied where the computation has none, or another one where it has one.")


def _clipped(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """got = expected cut to [lo, hi]: right where the expected value lies inside, the bound where it lies
    beyond (a clamp on the result, as a colour scale's limits); at least two values cut."""
    lo, hi = float(g.min()), float(g.max())
    beyond = functools.partial(numerics.outside, tolerance=close.tolerance)  # (elementwise)
    below, above = beyond(np.full_like(e, lo), np.minimum(e, lo)), beyond(np.full_like(e, hi), np.maximum(e, hi))
    cut = below | above
    if cut.sum() < 2 or (~cut).sum() < 2 or not close(g, np.clip(e, lo, hi)):
        return None
    bounds = (f"[{_fmt(lo)}, {_fmt(hi)}]" if below.any() and above.any()
              else f"{'at least' if below.any() else 'at most'} {_fmt(lo if below.any() else hi)}")
    return _found("clipped", f"Your values are the expected ones cut to {bounds}: the {int(cut.sum())} of {e.size} "
                  "expected values beyond it come back as the bound, every other value is right. Something clamps "
                  "the result (a clamp, or a display's colour limits) where the computation has no limit.")


def _factor_name(c: float) -> str:
    """`(= 1/8)`, `(= √768)` or `(= 1/√768)` where |c| or 1/|c| is a whole number or the root of one."""
    sign = "−" if c < 0 else ""
    for prefix, value in (("", abs(c)), ("1/", 1 / abs(c))):
        whole, square = round(value), round(value * value)
        if 1 < whole <= 4096 and abs(value / whole - 1) < 1e-4:
            return f" (= {sign}1/{whole})" if prefix else ""  # a whole factor already reads as one
        if 1 < square <= 1 << 16 and abs(value / square ** 0.5 - 1) < 1e-4:
            return f" (= {sign}{prefix}√{square})"
    return ""


def _offset(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """got - expected the same everywhere, the same vector in every row, or constant along each row."""
    delta = g - e
    if e.ndim < 2 or e.shape[-1] < 2:
        return None
    rows = delta.reshape(-1, e.shape[-1])
    if len(rows) < 2:  # one row: "the same in every row" would say nothing
        return None
    same = rows.mean(axis=0)
    constant = float(delta.mean())
    if close(g, e + constant) and not close(e + constant, e):
        text = (f"Every value is off by the same constant, {_fmt(constant)}: something is added or "
                "left out as a whole.")
        return _found("shifted", text)
    if close(g, e + same) and not close(e + same, e):
        named = _named_vector(case, same, close)
        text = ("got − expected is the same vector in every row: a per-feature offset, as when a bias "
                f"is left out, added twice or added in the wrong place{named}.")
        return _found("offset_vector", text)
    per_row = delta.mean(axis=-1, keepdims=True)
    if close(g, e + per_row) and not close(e + per_row, e):
        text = (f"got − expected is one constant per row ({_span(per_row)}), "
                "the same for every feature of that row: each row is shifted as a whole.")
        return _found("rows_shifted", text)
    return None


def _named_vector(case: Any, offset: np.ndarray, close) -> str:
    """`; it equals −b_E` when the offset is (minus) one of the call's vector arguments."""
    for spec in getattr(case, "args", []):
        value = numpy_array(case, spec["name"])
        if value is None or value.shape != offset.shape or not np.abs(value).max() > 0:
            continue
        t = np.asarray(value, np.float64)
        for factor, words in ((-1, "left out"), (1, "added twice"), (-2, "subtracted instead of added")):
            if close(offset, factor * t):
                sign = "" if factor == 1 else ("−" if factor == -1 else "−2 × ")
                return f"; it equals {sign}`{spec['name']}`: `{spec['name']}` is {words}"
    return ""


def _input_added(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """got - expected equals one of the call's inputs: added (or left out) once too often."""
    delta = g - e
    for spec in getattr(case, "args", []):
        tensor = case.tensors.get(spec.get("tensor", ""))
        if tensor is None or tensor.shape != e.shape or not np.abs(tensor).max() > 0:
            continue
        for factor, words in ((1, "added once too often"), (-1, "missing")):
            if close(delta, factor * np.asarray(tensor, np.float64)):
                text = (f"got − expected is {'' if factor == 1 else '−'}your input `{spec['name']}` itself: "
                        f"`{spec['name']}` is {words} (a residual add, page 34).")
                return _found("input_added", text)
    return None


# ---------------------------------------------------------------- orders

def _other_part(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """For several outputs (q, k, v): this output is another one's expected value."""
    for name, other in parts.items():
        if other is not e and other.shape == g.shape and close(g, np.asarray(other, np.float64)):
            text = f"This output holds the expected {name}: your outputs are in the wrong order or mixed up."
            return _found("output_mixed_up", text)
    return None


def _reordered(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> str | None:
    """The right rows (or features, or heads) at the wrong places, with the order they are in."""
    axes = list(getattr(case, "axes", [])) or [f"axis {i}" for i in range(e.ndim)]
    for axis in _row_axes(axes, e.shape) + [e.ndim - 1]:
        perm = _matching(e, g, axis, close)
        if perm is None or (perm == np.arange(len(perm))).all():
            continue
        if axis == e.ndim - 1 and e.ndim > 1:
            return _feature_order(perm, case)
        return _order_sentence(perm, axes[axis], case)
    return _rows_across_images(case, e, g, close, axes)


def _rows_across_images(case: Any, e: np.ndarray, g: np.ndarray, close, axes: list[str]) -> str | None:
    """(B, N, D): every row a right row, but some from another image (a batch axis moved in a permute
    before the reshape)."""
    if e.ndim != 3 or axes[:1] != ["image"] or e.shape[0] < 2:
        return None
    B, N, D = e.shape
    perm = _matching(e.reshape(B * N, D), g.reshape(B * N, D), 0, close)
    if perm is None or not (perm // N != np.arange(B * N) // N).any():
        return None
    label = _labeler(axes[1] if len(axes) > 1 else "row", getattr(case, "extra", {}).get("grid"))
    moved = [i for i in range(B * N) if perm[i] != i][:3]
    shown = "; ".join(f"your image {i // N + 1}'s {label(i % N)} is the expected image {perm[i] // N + 1}'s "
                      f"{label(int(perm[i]) % N)}" for i in moved)
    return (f"Your rows are all right rows, in an order that mixes the images of the batch: {shown}; .... Keep "
            "the images' axis first through every permute and reshape.")


def _scrambled(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> str | None:
    """Exactly the expected values, at other places: no row or feature moved whole (`_reordered` said those)
    and not a few rows alone (`_some_rows`), so an axis was moved or read in another order inside a reshape.
    The sorted values match."""
    if e.size < 4 or _all_alike(e.reshape(-1)) or not close(np.sort(g, axis=None), np.sort(e, axis=None)):
        return None
    return ("Your result holds exactly the expected values, at other places: an axis moved to another "
            "place (a permute, movedim or transpose with the wrong axes), or a reshape that read the numbers in an "
            "order other than the one asked. reshape keeps the order the numbers are stored in; only permute, "
            "movedim and transpose move an axis.")


def _row_axes(axes: list[str], shape: tuple[int, ...]) -> list[int]:
    """Axes of `axes` worth reordering (named rows with more than one entry), preferred first."""
    found = [i for i in range(len(shape) - (1 if len(shape) > 1 else 0)) if shape[i] > 1]
    rank = {name: n for n, name in enumerate(ROW_AXES)}
    return sorted(found, key=lambda i: rank.get(axes[i] if i < len(axes) else "", len(ROW_AXES)))


def _matching(e: np.ndarray, g: np.ndarray, axis: int, close) -> np.ndarray | None:
    """perm with g[i] = e[perm[i]] along `axis` for every i, each matched exactly; else None."""
    n = e.shape[axis]
    er = np.moveaxis(e, axis, 0).reshape(n, -1)
    gr = np.moveaxis(g, axis, 0).reshape(n, -1)
    if n > 1024:
        return None
    distance = (gr * gr).sum(1)[:, None] + (er * er).sum(1)[None, :] - 2 * gr @ er.T
    perm = distance.argmin(axis=1)
    if not close(gr, er[perm]):
        return None
    # every expected row must be distinguishable, else "the same row" would pass as an order
    if len(set(perm.tolist())) != n:
        return None
    return perm


def _order_sentence(perm: np.ndarray, axis: str, case: Any) -> str:
    n = len(perm)
    grid = getattr(case, "extra", {}).get("grid")
    label = _labeler(axis, grid)
    noun = {"token": "rows", "query": "rows", "patch": "patches", "head": "heads", "quadrant": "quadrants",
            "channel": "channels", "input": "rows"}.get(axis, f"entries along {axis}")
    head = f"Your {noun} are the right ones in the wrong order"
    index = np.arange(n)
    if (perm == index[::-1]).all():
        return f"{head}: reversed (your first is the expected last)."
    for shift in range(1, n):
        if (perm == (index + shift) % n).all():
            places = f"up by {shift}" if shift <= n // 2 else f"down by {n - shift}"
            return (f"{head}: moved {places} place{'s' if min(shift, n - shift) > 1 else ''}, wrapping round "
                    f"(your {label(0)} holds the expected {label(shift)}).")
    order = _grid_order(perm, grid, axis)
    if order:
        return f"{head}: {order}."
    block = _block_order(perm)
    if block:
        size, blocks = block
        return (f"{head}: in blocks of {size}, taken in the order {', '.join(str(b + 1) for b in blocks)} "
                f"(of {n // size}).")
    if n <= len(QUADRANTS):
        return f"{head}: yours are, in order, the expected {', '.join(label(int(j)) for j in perm)}."
    moved = [i for i in range(n) if perm[i] != i]
    shown = "; ".join(f"your {label(i)} is the expected {label(int(perm[i]))}" for i in moved[:3])
    return f"{head}: {shown}{'; ...' if len(moved) > 3 else ''}."


def _labeler(axis: str, grid: int | None) -> Callable[[int], str]:
    if axis in ("token", "query"):
        return lambda i: "CLS [index 0]" if i == 0 else f"{patch_name(i - 1, grid)} [index {i}]"
    if axis == "patch":
        return lambda i: f"{patch_name(i, grid)} [index {i}]"
    if axis == "head":
        return lambda i: f"head {i + 1}"
    if axis == "quadrant":
        return lambda i: QUADRANTS[i].name if i < len(QUADRANTS) else f"entry {i + 1}"
    if axis == "channel":
        return lambda i: CHANNELS[i] if i < len(CHANNELS) else f"channel {i + 1}"
    if axis in ("row", "col", "image"):
        return lambda i: f"{axis} {i + 1}"
    return lambda i: f"{axis} {i} " if axis in ("y", "x") else f"index {i}"


def _grid_order(perm: np.ndarray, grid: int | None, axis: str) -> str | None:
    """Patches (after CLS, for tokens) read column by column instead of row by row."""
    offset = 1 if axis in ("token", "query") else 0
    if not grid or len(perm) != grid * grid + offset or (offset and perm[0] != 0):
        return None
    patches = perm[offset:] - offset
    columns = np.arange(grid * grid).reshape(grid, grid).T.reshape(-1)
    if (patches == columns).all():
        return "patches taken column by column; P1...P196 run row by row (page 7)"
    return None


def _block_order(perm: np.ndarray) -> tuple[int, list[int]] | None:
    """(block size, block order) when perm moves whole blocks of consecutive entries; the largest
    such blocks, so that three swapped channels read as 3 blocks, not 384 pairs."""
    n = len(perm)
    for size in range(n // 2, 1, -1):
        if n % size:
            continue
        starts = perm[::size]
        if (starts % size == 0).all() and all(
                (perm[b * size:(b + 1) * size] == starts[b] + np.arange(size)).all() for b in range(n // size)):
            return size, [int(s) // size for s in starts]
    return None


def _feature_order(perm: np.ndarray, case: Any, whose: str = "Your features") -> str:
    block = _block_order(perm)
    if block:
        size, blocks = block
        return (f"{whose} are the right ones in another order: blocks of {size} "
                f"(e.g. heads of d = {size}) joined in the order {', '.join(str(b + 1) for b in blocks)}; "
                "join each row's heads side by side in order 1, 2, 3 (page 32).")
    moved = int((perm != np.arange(len(perm))).sum())
    return f"{whose} are the right ones in another order ({moved} of {len(perm)} moved)."


def _joined_heads(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> str | None:
    """multi_head_attention: with W_o and b_o undone, the joined heads in another order."""
    if case.function != "multi_head_attention":
        return None
    W_o, b_o = numpy_array(case, "W_o"), numpy_array(case, "b_o")
    if W_o is None or b_o is None or W_o.shape != (e.shape[-1],) * 2 or b_o.shape != e.shape[-1:]:
        return None
    try:
        inverse = np.linalg.inv(np.asarray(W_o, np.float64))
    except np.linalg.LinAlgError:
        return None
    joined_e, joined_g = (e - b_o) @ inverse, (g - b_o) @ inverse  # (..., H*d), before W_o
    loose = numerics.Closeness(numerics.inverse_tolerance(joined_e))
    perm = _matching(joined_e, joined_g, e.ndim - 1, loose)
    if perm is None or (perm == np.arange(len(perm))).all():
        return None
    return _feature_order(perm, case, "With W_o and b_o undone, your joined heads")


def _recomputes(case: Any) -> bool:
    """Whether a check may recompute with the lecture maths: where they ship (the instructor's kit, not
    the student release)."""
    return maths is not None


def _row_read(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """read_cls: the row of the final LayerNorm's output (or of its input) that was returned instead."""
    if case.function != "read_cls" or e.ndim != 2:
        return None
    x, weight, bias = (numpy_array(case, name) for name in ("x", "norm_weight", "norm_bias"))
    if not _recomputes(case) or x is None or weight is None or bias is None or x.ndim != 3 or x.shape[::2] != e.shape:
        return None
    x = np.asarray(x, np.float64)
    normalized = maths.layer_norm(x, np.asarray(weight, np.float64), np.asarray(bias, np.float64))
    if close(g, normalized.mean(axis=1)):
        text = ("Your result is the mean of all normalized rows (mean pooling); this checkpoint reads the "
                "CLS row, row 0 (pages 18, 38).")
        return _found("mean_pooled", text)
    label = _labeler("token", getattr(case, "extra", {}).get("grid"))
    for rows, before in ((normalized, False), (x, True)):
        for j in range(rows.shape[1]):
            if not close(g, rows[:, j]):
                continue
            if before and j == 0:
                text = "Your result is the CLS row before the final LayerNorm: normalize, then read row 0 (page 38)."
                return _found("cls_before_norm", text)
            stage = "before" if before else "after"
            text = (f"Your result is row {label(j)} {stage} the final LayerNorm; the image summary is the "
                    "normalized CLS row, row 0 (page 38).")
            return _found("wrong_row_read", text)
    return None


# ---------------------------------------------------------------- some rows wrong

def _some_rows(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> str | None:
    """Only some rows (CLS, the patch rows, one head, ...) are wrong; the rest is right. Not where the
    error is a rounding's: it takes only some rows past the tolerance, yet every row is approximate,
    as _approximate says."""
    if _approximate_everywhere(g, e):
        return None
    bad = numerics.outside(g, e, close.tolerance)
    axes = list(getattr(case, "axes", []))
    for axis in _row_axes(axes, e.shape):
        name = axes[axis] if axis < len(axes) else ""
        if name not in ("token", "query", "patch", "head", "quadrant", "channel", "row", "col", "image"):
            continue
        wrong = bad.any(axis=tuple(i for i in range(e.ndim) if i != axis))
        count, n = int(wrong.sum()), len(wrong)
        patch_rows_only = name in ("token", "query") and count == n - 1 and not wrong[0]
        if count == 0 or (count > n // 2 and not patch_rows_only):  # "only" must mean a few
            continue
        return _some_rows_sentence(case, e, g, wrong, name, axis, close)
    return None


def _some_rows_sentence(case: Any, e: np.ndarray, g: np.ndarray, wrong: np.ndarray, name: str, axis: int,
                        close) -> str:
    grid = getattr(case, "extra", {}).get("grid")
    label = _labeler(name, grid)
    count, n = int(wrong.sum()), len(wrong)
    if name in ("token", "query") and count == 1 and wrong[0]:
        what = _what_row_is(e, g, 0, axis, close)
        return f"Only the CLS row [index 0] is wrong; all {n - 1} patch rows are right{what}."
    if name in ("token", "query") and count == n - 1 and not wrong[0]:
        return "Only the patch rows are wrong; the CLS row [index 0] is right."
    listed = ", ".join(label(int(i)).strip() for i in np.flatnonzero(wrong)[:4])
    more = ", ..." if count > 4 else ""
    what = _what_row_is(e, g, int(np.flatnonzero(wrong)[0]), axis, close) if count == 1 else ""
    noun = {"patch": "patches", "query": "queries"}.get(name, f"{name}s")
    verb = "is" if count == 1 else "are"
    return f"Only {count} of {n} {noun} {verb} wrong: {listed}{more}; the rest are right{what}."


def _what_row_is(e: np.ndarray, g: np.ndarray, index: int, axis: int, close) -> str:
    """`: your CLS row is all zeros` and the like, when the one wrong row is something recognisable."""
    row = np.take(g, index, axis=axis)
    others = np.delete(e, index, axis=axis)
    if not np.abs(row).max() > 0:
        return ": yours is all zeros"
    if close(row, others.mean(axis=axis)):
        return ": yours is the mean of the other rows"
    for j in range(e.shape[axis]):
        if j != index and close(row, np.take(e, j, axis=axis)):
            return f": yours is a copy of the expected row at index {j}"
    return ""


# ---------------------------------------------------------------- LayerNorm's division

def _normalization(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """LayerNorm whose rows, before the learned scale and shift, are the right rows times a factor
    of their own: the division by the standard deviation is off (eps, or the variance itself)."""
    if case.function != "layer_norm" or e.ndim < 2:
        return None
    bias = numpy_array(case, "bias")
    if bias is None or bias.shape != e.shape[-1:]:
        return None
    ne, ng = e - bias, g - bias  # the normalized rows times the weight, the student's and ours
    if numerics.close(ng, ng * 0, numerics.fit_tolerance(ne)):  # the bias alone: the rows were lost, not divided
        return None
    factor = (ng * ne).sum(axis=-1, keepdims=True) / np.maximum((ne * ne).sum(axis=-1, keepdims=True), 1e-300)
    if not numerics.close(ng, factor * ne, numerics.fit_tolerance(ne)):
        return None
    text = (f"Before the learned scale and shift, each row is the right normalized row times a factor of its "
            f"own ({_span(factor)}): the division by the standard deviation "
            "is off, as when eps is added in another place or the variance is computed otherwise (page 36).")
    return _found("normalization", text)


# ---------------------------------------------------------------- approximations

#: "Approximate" means every value within this share of its own expected value: an error of
#: structure is larger than that in some values, even where it is small against the largest one.
#: Measured on the stand-in's blocks 1, 4 and 12: sigmoid GELU 1.3-4.5 %; both sublayers reading x
#: 7-257 %, the MLP before the attention 11-240 %.
APPROXIMATE = 0.05


def _typical_size(e: np.ndarray) -> float:
    """The median size of the expected values. A smaller value is judged against it: a value near
    zero is a near-cancellation of larger terms (768 products in an MLP's output), and an
    approximation's error, carried through that sum, is a share of the terms, not of what is left.
    The median, not the RMS: the residual stream's few huge features would make every error small."""
    return float(np.median(np.abs(e)))


def _relative_errors(g: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Each value's error as a share of its own expected value (of the typical size, where that is
    larger: see _typical_size)."""
    return np.abs(g - e) / np.maximum(np.abs(e), _typical_size(e))


def _within_a_few_per_cent(g: np.ndarray, e: np.ndarray) -> bool:
    """Every value of `g` within APPROXIMATE of its own expected value."""
    return float(np.abs(e).max()) > 0 and not (_relative_errors(g, e) > APPROXIMATE).any()


#: A value "errs" where its relative error is at least this share of the largest one.
ERRING = 0.01


def _approximate_everywhere(g: np.ndarray, e: np.ndarray) -> bool:
    """Every value within a few per cent of its own expected value, and at least half of them erring:
    a rounding or an approximation errs everywhere, while a few values off by per cents beside exact
    ones are a few wrong values (the top class's probability read where the target is not it)."""
    if not _within_a_few_per_cent(g, e):
        return False
    errors = _relative_errors(g, e)
    return float(np.mean(errors >= ERRING * errors.max())) >= 0.5


def _approximate(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """Every value within a few per cent of its own expected value, the error spread over most of
    them: the structure is right, the numbers approximate."""
    if not _approximate_everywhere(g, e):
        return None
    scale = float(np.abs(e).max())
    error = np.abs(g - e)
    step = float(np.spacing(np.float16(scale)))  # float16's resolution at the array's largest value
    if np.array_equal(g.astype(np.float16).astype(np.float64), g) and not np.array_equal(
            e.astype(np.float16).astype(np.float64), e) and error.max() <= 2 * step:
        text = ("Your values are float16 numbers, off by no more than float16's resolution at this scale, as "
                "a computation in float16 gives: compute in float32 throughout.")
        return _found("float16", text)
    wrong = float(numerics.outside(g, e, close.tolerance).mean())
    worst = float(_relative_errors(g, e).max())
    text = (f"A small error spread over {wrong:.0%} of the values, each within {worst:.2%} of its own "
            "expected value: the structure is right but the numbers are approximate, as with an approximation "
            "(e.g. of GELU), an eps in another place or a lower precision.")
    return _found("approximate", text)


# ---------------------------------------------------------------- covers (step 08)

def _cover(case: Any, e: np.ndarray, g: np.ndarray, close, parts) -> Finding | None:
    """cover: where the student's square is and what it holds, when what changed is one filled square."""
    if case.function != "cover" or e.ndim != 4:
        return None
    values = {s["name"]: s.get("value") for s in case.args if "value" in s}
    top, left, size, fill = (values.get(k) for k in ("top", "left", "size", "value"))
    image = numpy_array(case, "images")  # a photograph's pixels looked up, in the kit and the release alike
    if image is None or None in (top, left, size) or image.shape != g.shape:
        return None
    fill = 0.0 if fill is None else float(fill)
    asked = f"rows {top}..{top + size - 1}, columns {left}..{left + size - 1}"
    outside = np.ones(g.shape[-2:], bool)
    outside[top:top + size, left:left + size] = False
    kept, blank = image[..., outside], g[..., outside]  # (B, C, pixels outside the square)
    if np.ptp(blank) <= 1e-6 < np.ptp(kept) and np.ptp(g) > 1e-6:  # (one value everywhere: cover_everything)
        return _found("cover_on_blank", f"Outside the square your result is {_fmt(float(blank.flat[0]))} "
                      "everywhere: the images are not kept. A cover starts from a copy of the images and sets "
                      f"only {asked} (page 42).")
    changed = (np.abs(g - image) > 1e-6).any(axis=(0, 1))  # (H, W)
    rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
    if rows.size == 0:
        return _found("cover_nothing", f"Your result equals the input: nothing was covered (asked: {asked}).")
    square = g[:, :, rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    per_channel = square.reshape(square.shape[0], square.shape[1], -1)
    if np.ptp(per_channel, axis=-1).max() > 1e-6:  # not one filled rectangle: no cover to describe
        return None
    filled = float(square.flat[0])
    if square.shape == g.shape:  # every pixel of every image one value: nothing of the image kept
        return _found("cover_everything", f"Your result is {_fmt(filled)} everywhere: the whole image is covered, "
                      f"none of it kept; asked: a copy of the image with only {asked} set to {_fmt(fill)} "
                      "(page 42).")
    if (rows[0], rows[-1], cols[0], cols[-1]) != (top, top + size - 1, left, left + size - 1):
        height, width = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
        text = (f"Your cover spans rows {rows[0]}..{rows[-1]}, columns {cols[0]}..{cols[-1]} ({height}×{width} "
                f"pixels); asked: {asked} ({size}×{size}): image[top:top+size] covers rows top..top+size-1 "
                "(page 42).")
        return _found("cover_place", text)
    if np.ptp(square) <= 1e-6 and abs(filled - fill) > 1e-6:
        mean = " (the image's mean)" if abs(filled - float(image.mean())) < 1e-4 else ""
        text = f"Your cover is in the right place but filled with {_fmt(filled)}{mean}; asked: {_fmt(fill)} (page 42)."
        return _found("cover_fill", text)
    channel_means = image.mean(axis=(2, 3), keepdims=True)
    if close(square, np.broadcast_to(channel_means, square.shape)):
        text = (f"Your cover is in the right place but filled with each channel's mean; asked: {_fmt(fill)} "
                "(page 42).")
        return _found("cover_channel_means", text)
    return None


_CHECKS = (_cover, _probabilities, _normalize_precedence, _wrapped_pixels, _constant, _same_everywhere, _position,
           _sign, _magnitude, _transposed, _other_part, _dropout, _scale, _offset, _affine, _scaled_offset,
           _input_added, _reordered, _joined_heads, _row_read, _clipped, _curved, _some_rows, _scrambled,
           _normalization, _approximate)
#: The finding of the checks that return a plain sentence.
_CHECK_FINDING = {"_reordered": "reordered", "_joined_heads": "heads_reordered", "_scrambled": "scrambled",
                  "_some_rows": "some_rows"}
