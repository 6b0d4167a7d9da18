"""The edits the search tries on any quantity, by its role in the lecture's computation: a value
replaced by another of its shape, sign-flipped or transposed; a term left out, subtracted, doubled or
scaled; a factor left out, squared or inverted; a constant, axis, order, row or size changed; and an
operation the lecture does not apply there (tanh, a ReLU, a clip, a row normalized ...) applied to a value
or to an argument as it comes in."""
from __future__ import annotations

import contextvars
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from grader import lecture_maths as maths
from grader import numerics
from grader.search.words import (AXIS_NAMES, ORDER_NAMES, WORDS, Candidate, fmt, page_of, sentence, transformed,
                                 words_of)


def role_edits(name: str, role: str, trace: Any) -> Iterator[Candidate]:
    """Every edit of quantity `name` that its role allows."""
    return _ROLE_EDITS.get(role, _no_edits)(name, trace)


def _no_edits(name: str, trace: Any) -> Iterator[Candidate]:
    return iter(())


def _value_edits(name: str, trace: Any) -> Iterator[Candidate]:
    value, page = trace[name], page_of(name)
    if not isinstance(value, np.ndarray):
        return
    yield from _replacements(name, trace)
    yield Candidate(f"sign:{name}", sentence(f"with the sign of {words_of(name)} flipped"), page, maths.times(name, -1))
    if value.ndim >= 2 and value.shape[-1] == value.shape[-2]:
        yield Candidate(f"transposed:{name}", sentence(f"with {words_of(name)} transposed (last two axes swapped)"),
                        page, transformed(name, lambda v, t: v.mT))
    yield from _applied_edits(name, trace)
    yield from _sums(name, trace)


# ---------------------------------------------------------------- an operation applied where none belongs

def _standardized(v: np.ndarray) -> np.ndarray:
    """A LayerNorm without weight or bias at PyTorch's eps 1e-5, as F.layer_norm or nn.LayerNorm adds it."""
    centred = v - v.mean(axis=-1, keepdims=True)  # (..., n)
    return centred / np.sqrt(np.square(centred).mean(axis=-1, keepdims=True) + 1e-5)


def _unit_rows(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)  # (..., n), each row of length 1


def _unit_columns(v: np.ndarray) -> np.ndarray:
    """F.normalize's default, dim=1: each vector along axis 1 (a (B, N, D) tensor's tokens) of length 1."""
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)


def _row_sums(v: np.ndarray) -> np.ndarray:
    """Each row's sum, (..., 1), where it is a number and not rounding: two float32 evaluations of a row's sum
    differ by up to `numerics.rounding_bound(n, Σ|x|)`, and a quotient by a sum within 2¹² of that (centred
    rows, whose sums are 0 but for rounding) could differ on another CPU by more than half a float16 step of
    a fingerprint, 2⁻¹² of its scale."""
    sums = v.sum(axis=-1, keepdims=True)
    rounding = numerics.rounding_bound(v.shape[-1], 1.0) * np.abs(v).sum(axis=-1, keepdims=True)
    if (np.abs(sums) <= 2.0 ** 12 * rounding).any():
        raise ValueError("a row sums to rounding: its quotient is not reproducible")
    return sums


#: Whether the edits are computed for the fixtures' fingerprints (`grader.search.edit_outputs`), which other
#: machines compare their students' numbers with, rather than for one student's numbers on this machine.
fingerprinting: contextvars.ContextVar[bool] = contextvars.ContextVar("fingerprinting", default=False)


def _refuse_near_a_step(value: Any, steps: Any) -> None:
    """Refuse a step function (floor, sign) for a fingerprint where another CPU's float32 rounding could
    put a value on the other side of its step (`numerics.near_a_step`): the result would move by a whole
    step there, so neither a rebuild nor a student's numbers would match it. The live search compares with
    the student's own numbers, computed from the same fixture inputs, and still tries it."""
    if fingerprinting.get() and numerics.near_a_step(value, steps):
        raise ValueError("a value lies within rounding of a step: the result is not reproducible elsewhere")


def reproducible_floor(v: np.ndarray) -> np.ndarray:
    """floor(v), refused for a fingerprint where another CPU could floor a value the other way."""
    _refuse_near_a_step(v, np.round(v))
    return np.floor(v)


def _reproducible_sign(v: np.ndarray) -> np.ndarray:
    """sign(v), refused for a fingerprint where another CPU could put a value on the other side of 0."""
    _refuse_near_a_step(v, 0.0)
    return np.sign(v)


def _softmax_of_all(v: np.ndarray) -> np.ndarray:
    """One softmax over every value of v together, as softmax(x.flatten()) or dim=0 of a vector."""
    shifted = np.exp(v - v.max())
    return shifted / shifted.sum()


#: (id, what is applied, in words with {q} for the quantity, the operation, the axis it works along: None
#: for each value alone, -1 for each row, 1 for axis 1 of a tensor of three axes or more, 0 for each
#: column of a matrix). Students add a
#: squashing or a normalization where the lecture has none: tanh after the projection, a LayerNorm of rows
#: already normalized, a map clamped at 0, a softmax taken twice, F.normalize with its default dim=1.
APPLIED: tuple[tuple[str, str, Callable[[np.ndarray], np.ndarray], int | None], ...] = (
    ("tanh", "tanh applied to {q}", np.tanh, None),
    ("floor", "{q} rounded down to whole numbers (a floor division, //, or floor)", reproducible_floor, None),
    ("sign", "{q} reduced to its signs, −1, 0 or 1", _reproducible_sign, None),
    ("softmax_all", "one softmax over all of {q} at once, every value, not each row", _softmax_of_all, None),
    ("relu", "{q} with every negative value set to 0 (a ReLU applied)", lambda v: np.maximum(v, 0), None),
    ("sigmoid", "a sigmoid applied to {q}", lambda v: 1 / (1 + np.exp(-v)), None),
    ("gelu", "GELU applied to {q}", lambda v: maths.ops_for(v).gelu(v), None),
    ("clip01", "{q} clipped to [0, 1]", lambda v: np.clip(v, 0, 1), None),
    ("clip11", "{q} clipped to [-1, 1]", lambda v: np.clip(v, -1, 1), None),
    ("abs", "the absolute value of {q} (every sign made positive)", np.abs, None),
    ("zeros", "{q} replaced by zeros", np.zeros_like, None),
    ("standardized", "each row of {q} normalized to mean 0 and variance 1 (a LayerNorm without weight or bias "
                     "applied)", _standardized, -1),
    ("centred", "each row of {q} centred (its mean subtracted)", lambda v: v - v.mean(axis=-1, keepdims=True), -1),
    ("unit_rows", "each row of {q} scaled to length 1", _unit_rows, -1),
    ("centred_dim1", "{q} centred along axis 1 (each feature's mean over the rows subtracted, not each row's "
                     "own)", lambda v: v - v.mean(axis=1, keepdims=True), 1),
    ("unit_dim1", "{q} scaled to length 1 along axis 1 (each feature over the rows, not each row), as "
                  "F.normalize does with its default dim=1; a row's features run along the last axis, dim=-1",
     _unit_columns, 1),
    ("unit_columns", "each column of {q} scaled to length 1 (F.normalize(..., dim=0)); the lecture uses it as "
                     "it is", lambda v: v / np.maximum(np.linalg.norm(v, axis=0, keepdims=True), 1e-12), 0),
    ("softmax", "a softmax applied to each row of {q}", lambda v: maths.ops_for(v).softmax(v, -1), -1),
    ("max_divided", "each row of {q} divided by its largest value", lambda v: v / v.max(axis=-1, keepdims=True),
     -1),
    ("sum_divided", "each row of {q} divided by its sum (made to sum to 1)", lambda v: v / _row_sums(v), -1),
)


#: Operations that leave whole numbers, tried on rows of values only: a statistic kept per row (a standard
#: deviation of shape (B, N, 1)) rounded takes a few values, which fit other mistakes' numbers by chance.
WHOLE_NUMBERS = frozenset({"floor", "sign"})


#: Operations tried on rows of a matrix only: of one vector, the vector over its sum is one scale, which the
#: diagnosis says as a scale.
ROWS_ONLY = frozenset({"sum_divided"})


#: Operations on the whole tensor at once, tried on a map or a vector only (the occlusion map, the four
#: quadrants): a softmax over tens of thousands of values makes each nearly 0, which fits by chance.
WHOLE_TENSOR = frozenset({"softmax_all"})
MAP_SIZE = 1024


#: What a student does to an argument as it comes in: normalizes it once more, or replaces it by zeros (a
#: running sum started at 0). A value zeroed is a term left out, or a result of zeros, said otherwise.
ARGUMENT_OPERATIONS = frozenset({"standardized", "centred", "centred_dim1", "unit_rows", "unit_dim1", "zeros"})


#: What is tried on a learned matrix as it comes in: an argument's operations, and its columns scaled to
#: length 1 (F.normalize(W, dim=0)).
PARAMETER_OPERATIONS = ARGUMENT_OPERATIONS | {"unit_columns"}


#: What is tried on a value: every operation but zeros, and the columns of a matrix.
VALUE_OPERATIONS = frozenset(kind for kind, *_ in APPLIED) - {"zeros", "unit_columns"}


def _applied_edits(name: str, trace: Any, operations: frozenset[str] = VALUE_OPERATIONS, prefix: str = "applied",
                   when: str = "") -> Iterator[Candidate]:
    """`name` passed through each of `operations` (of APPLIED), which the lecture does not apply to it; the
    kinds each claims are grader/suites/findings.py's APPLIED_KINDS."""
    value, page = trace[name], page_of(name)
    if not isinstance(value, np.ndarray) or value.dtype.kind != "f" or value.size < 2:
        return
    for kind, words, operation, axis in APPLIED:
        if axis == -1 and (value.ndim == 0 or value.shape[-1] < 2):
            continue
        if axis == 1 and (value.ndim < 3 or value.shape[1] < 2):  # of two axes, axis 1 is the rows' own
            continue
        if axis == 0 and (value.ndim != 2 or value.shape[0] < 2):  # the columns of a matrix
            continue
        if kind not in operations or (kind in WHOLE_NUMBERS and value.shape[-1] < 2) \
                or (kind in ROWS_ONLY and value.ndim < 2) \
                or (kind in WHOLE_TENSOR and (value.ndim > 2 or value.size > MAP_SIZE)):
            continue
        yield Candidate(f"{prefix}:{name}:{kind}", sentence("with " + words.format(q=words_of(name)) + when), page,
                        transformed(name, lambda v, t, op=operation: op(v) if op is np.zeros_like
                                    else _not_flattened(op, v)))


def _not_flattened(operation: Callable[[np.ndarray], np.ndarray], value: np.ndarray) -> np.ndarray:
    """`operation(value)`, unless it makes a value of different numbers one number everywhere (every standard
    deviation floored to 1): that result says a constant, not the operation, and fits by chance. Zeros for an
    argument are the one operation whose every result is a constant (a running sum started at 0)."""
    result = operation(value)
    if result.size > 1 and np.ptp(result) == 0 and np.ptp(value) > 0:
        raise ValueError("the operation left one number everywhere")
    return result


def _input_edits(name: str, trace: Any) -> Iterator[Candidate]:
    """An argument transformed as it comes in (the rows normalized again before the projection), or a
    matrix's numbers read out in another order into its own shape."""
    yield from _applied_edits(name, trace, ARGUMENT_OPERATIONS, "applied_to_input",
                              ", before anything else is computed with it")
    yield from _scrambles(name, trace)
    if name in PIXEL_INPUTS:
        yield from _pixel_edits(name, trace)
    else:
        yield from _width_scalings(name, trace)


def _width_scalings(name: str, trace: Any) -> Iterator[Candidate]:
    """Rows of D features multiplied or divided by √D as they come in, as the original Transformer scales its
    embeddings and attention its scores: a habit carried over where the lecture scales nothing."""
    value = trace[name]
    if not isinstance(value, np.ndarray) or value.ndim < 2 or value.shape[-1] < 2 or value.dtype.kind != "f":
        return
    root = float(np.sqrt(value.shape[-1]))
    for factor, how in ((root, "multiplied"), (1 / root, "divided")):
        yield Candidate(f"scaled:{name}:{fmt(factor)}", sentence(
            f"with {words_of(name)} {how} by √D = √{value.shape[-1]} as they come in; the lecture scales nothing "
            "there"), page_of(name), maths.times(name, factor))


#: The arguments that hold normalized pixels: images, the patch rows cut from them, the covered copies.
PIXEL_INPUTS = frozenset({"images", "patches", "covers"})


def _standardized_images(v: np.ndarray) -> np.ndarray:
    """Each image minus its mean over channels and pixels, over its standard deviation there (torch's std,
    unbiased), as TensorFlow's per_image_standardization; (B, ...)."""
    axes = tuple(range(1, v.ndim))
    return (v - v.mean(axis=axes, keepdims=True)) / v.std(axis=axes, keepdims=True, ddof=1)


#: What a student does to pixels that are normalized already: normalizes them again as if they were in [0, 1]
#: (2x − 1, page 8), or standardizes each image on its own.
PIXEL_EDITS: tuple[tuple[str, str, Callable[[np.ndarray], np.ndarray]], ...] = (
    ("normalized_twice", "{q} normalized once more, 2x − 1 as for pixels in [0, 1], though they are normalized to "
                         "[−1, 1] already", lambda v: 2 * v - 1),
    ("standardized_per_image", "each image of {q} standardized on its own (minus its mean, over its standard "
                               "deviation), a preprocessing this ViT does not have: page 8's normalization is all",
     _standardized_images),
)


def _pixel_edits(name: str, trace: Any) -> Iterator[Candidate]:
    value = trace[name]
    if not isinstance(value, np.ndarray) or value.ndim < 2 or value.dtype.kind != "f":
        return
    for kind, words, operation in PIXEL_EDITS:
        yield Candidate(f"applied_to_input:{name}:{kind}", sentence("with " + words.format(q=words_of(name))),
                        page_of(name), transformed(name, lambda v, t, op=operation: op(v)))


#: A (m, n) matrix's numbers read into its own shape in another order, as a student makes the shapes fit:
#: its transpose read row by row (`W.T.reshape(W.shape)`), or its storage read as (n, m) and transposed
#: back (`W.reshape(n, m).T`), undoing a transposed storage it never had. Every number is there, at
#: another place: the shapes fit and nothing fails.
SCRAMBLES: tuple[tuple[str, str, Callable[[np.ndarray], np.ndarray]], ...] = (
    ("transpose_read_in_order", "{q} transposed and read back row by row into its own shape "
                                "(`.T.reshape(shape)`): its numbers scrambled, not transposed",
     lambda v: v.T.reshape(v.shape)),
    ("storage_read_transposed", "{q}'s numbers read as the transposed shape and transposed back "
                                "(`.reshape(n, m).T`): its numbers scrambled; it is used as it comes",
     lambda v: v.reshape(v.shape[::-1]).T),
)


def _scrambles(name: str, trace: Any) -> Iterator[Candidate]:
    value = trace[name]
    if not isinstance(value, np.ndarray) or value.ndim != 2 or value.shape[0] == value.shape[1] or 1 in value.shape:
        return  # a square matrix's scramble is its transpose, which the transposes try
    for kind, words, operation in SCRAMBLES:
        yield Candidate(f"applied_to_input:{name}:{kind}", sentence("with " + words.format(q=words_of(name))),
                        page_of(name), transformed(name, lambda v, t, op=operation: op(v)))


def _parameter_edits(name: str, trace: Any) -> Iterator[Candidate]:
    """A learned weight picked or passed wrongly: another weight of its shape in its place (ln1's bias for
    ln2's), a square matrix transposed (W_o.T, as for nn.Linear's (out, in) storage), a matrix's sign flipped,
    read out in another order, or normalized as it comes in (F.normalize(W_E, dim=0): unit columns)."""
    value = trace[name]
    if not isinstance(value, np.ndarray):
        return
    for other in _parameters_of_its_shape(name, trace):
        yield Candidate(f"replaced:{name}:{other}", sentence(f"with {words_of(other)} in place of {words_of(name)}"),
                        page_of(name), _picked_instead(name, other))
    if value.ndim != 2:
        return
    yield Candidate(f"first_term_left_out:{name}", sentence(
        f"with the first of the {value.shape[0]} terms of each sum through {words_of(name)} left out, x[..., 1:] @ "
        "W[1:], as if feature 0 were not one (CLS is a row of the sequence, not a feature)"), page_of(name),
        transformed(name, lambda v, t: np.concatenate([v[:1] * 0, v[1:]])))
    yield Candidate(f"averaged:{name}", sentence(
        f"with each sum of products through {words_of(name)} averaged, divided by the {value.shape[0]} terms it adds "
        "(a mean where the matrix product sums)"), page_of(name), maths.times(name, 1 / value.shape[0]))
    if value.shape[0] == value.shape[1]:
        yield Candidate(f"transposed_weight:{name}", sentence(
            f"with {words_of(name)} transposed: it is stored (in, out), to multiply rows on the right, x @ W; "
            "nn.Linear's weight is the one stored (out, in)"), page_of(name), transformed(name, lambda v, t: v.T))
    yield Candidate(f"sign:{name}", sentence(f"with the sign of {words_of(name)} flipped"), page_of(name),
                    maths.times(name, -1))
    yield from _applied_edits(name, trace, PARAMETER_OPERATIONS, "applied_to_input",
                              ", before anything else is computed with it")
    yield from _scrambles(name, trace)


def _parameters_of_its_shape(name: str, trace: Any) -> Iterator[str]:
    """The other weights of `name`'s shape and kind the call was given, before or after it (one of each set
    of equal ones): all of them are there from the start, to be picked. A bias is picked for a bias, a gain
    for a gain (a gain passed as a bias is a move of its own: `weight_as_bias`)."""
    value = trace[name]
    seen: list[np.ndarray] = [value]
    for other, role in trace.roles.items():
        candidate = trace[other]
        if (role == "parameter" and other != name and other in WORDS and _is_bias(other) == _is_bias(name)
                and isinstance(candidate, np.ndarray) and candidate.shape == value.shape
                and not any(np.array_equal(candidate, s) for s in seen)):
            seen.append(candidate)
            yield other


def _is_bias(name: str) -> bool:
    return name.startswith("b_") or name.endswith("_bias")


def _picked_instead(name: str, other: str) -> Any:
    """`name` replaced by the weight `other`, as the correct run recorded it (it may come later in the call)."""
    def transform(value: Any, t: Any) -> Any:
        return (t.reuse if t.reuse is not None else t)[other]
    return maths.Edit((maths.Change(name, transform, ("replaced", name, other)),))


def _replacements(name: str, trace: Any) -> Iterator[Candidate]:
    """`name` replaced by each quantity of its shape computed before it (one of each set of equal ones)."""
    for other in _earlier_of_its_shape(name, trace):
        yield Candidate(f"replaced:{name}:{other}", sentence(f"with {words_of(other)} in place of {words_of(name)}"),
                        page_of(name), maths.replaced(name, other))


def _earlier_of_its_shape(name: str, trace: Any) -> Iterator[str]:
    """The quantities of `name`'s shape computed before it (one of each set of equal ones)."""
    value = trace[name]
    seen: list[np.ndarray] = [value]
    for other, role in trace.roles.items():  # in the order computed: only what exists by then
        if other == name:
            break
        candidate = trace[other]
        if (other not in WORDS or role in ("axis", "order", "index", "constant")
                or not isinstance(candidate, np.ndarray) or candidate.shape != value.shape
                or any(np.array_equal(candidate, s) for s in seen)):
            continue
        seen.append(candidate)
        yield other


def _sums(name: str, trace: Any) -> Iterator[Candidate]:
    """`name` with an earlier quantity of its shape added to it (a receiver's own value added to its message)."""
    for other in _earlier_of_its_shape(name, trace):
        yield Candidate(f"added_to:{name}:{other}", sentence(f"with {words_of(other)} added to {words_of(name)}"),
                        page_of(name), transformed(name, lambda v, t, o=other: v + t[o]))


def _term_edits(name: str, trace: Any) -> Iterator[Candidate]:
    words, page = words_of(name), page_of(name)
    yield Candidate(f"left_out:{name}", sentence(f"without {words}: it is left out"), page, maths.left_out(name))
    if isinstance(trace[name], np.ndarray) and trace[name].ndim >= 2:  # a residual or a table
        yield from _replacements(name, trace)
    yield Candidate(f"subtracted:{name}", sentence(f"with {words} subtracted instead of added"), page,
                    maths.times(name, -1))
    yield Candidate(f"twice:{name}", sentence(f"with {words} added twice"), page, maths.times(name, 2))
    value = trace[name]
    for factor in _factors(value):
        yield Candidate(f"scaled:{name}:{fmt(factor)}", sentence(f"with {words} multiplied by {fmt(factor)}"),
                        page, maths.times(name, factor))
    if isinstance(value, np.ndarray) and value.ndim == 2 and value.shape[0] > 1:  # a table of rows
        yield from _table_edits(name, words, page)
        yield from _applied_edits(name, trace, ARGUMENT_OPERATIONS - {"zeros"}, "applied_to_input",
                                  ", before it is added")


def _factors(value: Any) -> list[float]:
    """Scales a student may put on a term: a tenth, a half, ten, and √D or 1/√D of its width D."""
    width = value.shape[-1] if isinstance(value, np.ndarray) and value.ndim else 1
    return [0.1, 0.5, 10.0] + ([float(np.sqrt(width)), float(1 / np.sqrt(width))] if width > 1 else [])


def _table_edits(name: str, words: str, page: int) -> Iterator[Candidate]:
    yield Candidate(f"reversed:{name}", sentence(f"with the rows of {words} in reverse order"), page,
                    transformed(name, lambda v, t: v[::-1]))
    for shift in (1, -1):
        yield Candidate(f"shifted:{name}:{shift}", sentence(
            f"with the rows of {words} moved {'down' if shift > 0 else 'up'} by one, wrapping round"), page,
            transformed(name, lambda v, t, s=shift: np.roll(v, s, axis=0)))
    yield Candidate(f"mean_row:{name}", sentence(f"with the mean row of {words} added to every row, "
                                                  "instead of each row its own"), page,
                    transformed(name, lambda v, t: v.mean(axis=0)))
    yield Candidate(f"first_row:{name}", sentence(f"with the first row of {words} added to every row"), page,
                    transformed(name, lambda v, t: v[0]))


def _factor_edits(name: str, trace: Any) -> Iterator[Candidate]:
    words, page = words_of(name), page_of(name)
    yield Candidate(f"left_out:{name}", sentence(f"without {words}: it is left out"), page, maths.left_out(name))
    yield Candidate(f"squared:{name}", sentence(f"with {words} applied twice (squared)"), page,
                    transformed(name, lambda v, t: v * v))
    yield Candidate(f"inverted:{name}", sentence(f"with {words} inverted (multiplied where it divides, "
                                                  "or divided where it multiplies)"), page,
                    transformed(name, lambda v, t: 1 / v))
    if isinstance(trace[name], float) and trace[name] > 1:  # a scale such as √d: its square root, too
        yield Candidate(f"root:{name}", sentence(f"with the square root of {words}"), page,
                        transformed(name, lambda v, t: v ** 0.5))


def _constant_edits(name: str, trace: Any) -> Iterator[Candidate]:
    words, page, current = words_of(name), page_of(name), trace[name]
    # a fill is mid-gray, black or white, or 0.5, mid-gray of pixels in [0, 1]; eps is also tried at PyTorch's
    # default, Keras's and at a negligible size
    for value in (0.0, -1.0, 1.0) + ((0.5,) if name == "fill" else ()) + ((1e-5, 1e-3, 1e-12) if name == "eps" else ()):
        if value != current:
            why = (": 0.5 is mid-gray of pixels in [0, 1], and these are normalized to [-1, 1], where mid-gray is 0"
                   if name == "fill" and value == 0.5 and current == 0 else "")
            yield Candidate(f"constant:{name}:{fmt(value)}", sentence(
                f"with {words} {fmt(value)} instead of {fmt(current)}{why}"), page, maths.set_to(name, value))
    if name == "fill" and current == 0:
        yield Candidate("constant:fill:image_mean", sentence(
            "with each cover filled with the image's mean instead of 0: normalized 0 is mid-gray (page 42), one fixed "
            "gray for every image"), page, transformed(name, lambda v, t: _image_mean(t)))


def _image_mean(t: Any) -> float:
    """The mean of the call's image (its images: every value of the batch), a fill a student may pick."""
    return float(next(a for a in t["call_args"] if isinstance(a, np.ndarray) and a.ndim == 4).mean())


def _axis_edits(name: str, trace: Any) -> Iterator[Candidate]:
    names, page, current = AXIS_NAMES.get(name, {}), page_of(name), trace[name]
    for axis in names:
        if axis != current:
            yield Candidate(f"axis:{name}:{axis}", sentence(
                f"with {words_of(name)} running over {names[axis]} instead of {names[current]}"), page,
                maths.set_to(name, axis))


def _order_edits(name: str, trace: Any) -> Iterator[Candidate]:
    current, page = tuple(trace[name]), page_of(name)
    fixed = 1 if name in ("patch_axes", "kernel_axes") else 0  # the image / feature axis stays first
    for order in itertools.permutations(current[fixed:]):
        order = current[:fixed] + order
        if order != current:
            yield Candidate(f"order:{name}:{'-'.join(str(getattr(o, 'name', o)) for o in order)}", sentence(
                f"with {_orderwords_of(name, order, current)}"), page, maths.set_to(name, order))


def _orderwords_of(name: str, order: tuple, current: tuple) -> str:
    if name == "quadrants":
        return (f"the quadrants in the order {', '.join(q.name for q in order)}; the lecture's is "
                f"{', '.join(q.name for q in current)}")
    if name == "qkv_layout":
        return (f"each row's 3D columns split as ({', '.join(order)}); they are [q | k | v], each H heads of d "
                "consecutive features")
    labels = ORDER_NAMES.get(name)
    if labels is None:
        return f"{words_of(name)} as {order} instead of {current}"
    if name == "qkv_parts":
        return f"q, k and v taken from the column blocks of {', '.join(labels[i] for i in order)}"
    names = ", ".join(labels[i] for i in order)
    return f"{words_of(name)} as ({names}); the lecture's is ({', '.join(labels[i] for i in current)})"


def _index_edits(name: str, trace: Any) -> Iterator[Candidate]:
    if name == "target":  # a class read off by one
        for shift in (-1, 1):
            target = int(trace[name]) + shift
            if target < 0:  # class -1 is the last one: no class before the first
                continue
            yield Candidate(f"index:target:{shift:+d}", sentence(
                f"reading class {target} instead of the target class {int(trace[name])}: the target's column is "
                "[:, target], as given"), page_of(name), maths.set_to(name, target))
        return
    for index, words in ((-1, "the last row"), (1, "row 1, the first patch")):
        yield Candidate(f"index:{name}:{index}", sentence(f"reading {words} instead of the CLS row, row 0"),
                        page_of(name), maths.set_to(name, index))


def _size_edits(name: str, trace: Any) -> Iterator[Candidate]:
    """A cover's side halved or doubled (a quadrant a quarter of the image's side)."""
    current = int(trace[name])
    if name in ("cover_size", "cover_side"):  # the end one off: image[top:top + size] covers top..top+size-1
        for size in (current - 1, current + 1):
            yield Candidate(f"size:{name}:{size}", sentence(
                f"covering {size}×{size} pixels where {current}×{current} are asked: image[top:top + size] covers "
                "rows top..top + size − 1"), page_of(name), maths.set_to(name, size))
    if name == "quadrant_side":  # (H − 1) // 2, as for the last pixel's index, or (H + 1) // 2
        for size in (current - 1, current + 1):
            yield Candidate(f"size:{name}:{size}", sentence(
                f"with each quadrant {size} pixels on a side, its covers at 0 and {size}: half the side is "
                f"H // 2 = {current}, one {'more' if size < current else 'less'} than yours"), page_of(name),
                maths.set_to(name, size))
    for size, change in ((current // 2, f"half of {current}"), (current * 2, f"twice {current}")):
        if size > 0:
            yield Candidate(f"size:{name}:{size}", sentence(f"with {words_of(name)} {size} pixels ({change})"),
                            page_of(name), maths.set_to(name, size))
    if name == "quadrant_side":  # the sizes read from image.shape[:2], (1, 3) of a (1, 3, H, W) image
        yield Candidate(f"size:{name}:0", sentence(
            f"with nothing covered: {words_of(name)} came out 0 pixels, as when the height and width are read from "
            "the wrong axes (image.shape[:2] of a (1, 3, H, W) image is (1, 3)); they are image.shape[-2:]"),
            page_of(name), maths.set_to(name, 0))


_ROLE_EDITS: dict[str, Callable[[str, Any], Iterator[Candidate]]] = {
    "value": _value_edits, "input": _input_edits, "parameter": _parameter_edits, "term": _term_edits,
    "factor": _factor_edits, "constant": _constant_edits,
    "axis": _axis_edits, "order": _order_edits, "index": _index_edits, "size": _size_edits,
}
