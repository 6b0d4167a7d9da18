"""Naming a mistake that no catalogue holds: the lecture's computation rerun with one edit at a time.

When a result is wrong and no known mistake matches, `find_edit` recomputes the function (numpy, from
the case's inputs and, where needed, the checkpoint's parameters) with one edit of the lecture's
computation at a time (`grader.lecture_maths`): a named quantity replaced by another of the same shape,
a term left out, subtracted or added twice, a factor left out, squared or inverted, a sign, an axis, an
order, a fill value or a row changed, or one of the lecture's known moves (normalise after the residual,
the MLP before the attention). It names the edit only when exactly one reproduces the student's numbers
within the test's tolerance (edits giving the same numbers count as one), and only when the search ran
to the end within its time budget: a search cut short cannot know that no other edit fits.

The search is instructor-side only, as the lecture maths it reruns: the student release leaves both out,
and names a visible case's edits by the fingerprints the fixture builder stored (`edit_outputs`).
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from grader import lecture_maths as maths
from grader import mistakes, numerics
from grader.checkpoint import HEADS
from grader.expected.arguments import numpy_arguments
from grader.results import Finding

#: CPU seconds (this process's, so that other load on the machine does not count) one failing test
#: may spend searching; a search that would need more finds nothing rather than a guess.
BUDGET_SECONDS = 3.0
#: The functions whose every edit reruns the model on a batch of covers (196 full images for the
#: occlusion map: about 0.1-0.6 CPU-s an edit, 2.7 s for all of them here) get more.
BUDGETS = {"occlusion_map": 6.0}


@dataclass(frozen=True)
class Candidate:
    """One edit the search tries, with what it would say."""

    id: str
    sentence: str
    page: int
    edit: Any  # lecture_maths.Edit
    across_images: bool = False
    """Whether the edit mixes the images of a batch (a sum or mean over them): tried on the whole call,
    since the first image alone cannot show it."""


# ---------------------------------------------------------------- the lecture's words for each quantity

#: quantity -> (its words, lecture page)
WORDS: dict[str, tuple[str, int]] = {
    "scaled": ("the pixels scaled to [0, 1]", 8), "pixel_range": ("the division by 255", 8),
    "pixel_mean": ("the subtracted mean 0.5", 8), "pixel_std": ("the division by the std 0.5", 8),
    "normalized": ("the normalized rows", 36), "images": ("the image", 9),
    "patches": ("the patch rows", 9), "patch_axes": ("the order patches are cut and flattened in", 9),
    "kernel": ("the kernel", 10), "kernel_rows": ("the kernel's rows", 10), "W_E": ("W_E", 10),
    "kernel_axes": ("the order of W_E's rows", 9),
    "tokens": ("the token rows", 10), "b_E": ("the patch bias b_E", 10),
    "pos_table": ("the position table", 16), "with_position": ("tokens + position table", 16),
    "cls": ("the CLS row", 20), "cls_token": ("the learned CLS vector", 20),
    "with_cls": ("the sequence [CLS, P1, ..., PN]", 23), "embedded": ("the embedded rows", 23),
    "qkv": ("x·W_qkv + b_qkv", 26), "b_qkv": ("the qkv bias", 26),
    "qkv_layout": ("the split of the 3D columns", 32), "qkv_parts": ("which columns are q, k and v", 26),
    "q": ("the queries q", 26), "k": ("the keys k", 26), "v": ("the values v", 31),
    "scores": ("the scores q·kᵀ/√d", 28), "sqrt_d": ("the division by √d", 28),
    "softmax_axis": ("the softmax's axis", 28), "A": ("the attention weights A", 28),
    "heads": ("the heads A·v", 31), "joined": ("the joined heads", 32), "b_o": ("the output bias b_o", 32),
    "W_o": ("the output projection W_o", 32),
    "attn": ("the attention update", 32),
    "mean": ("each row's mean", 36), "centred": ("the centred rows", 36), "var": ("each row's variance", 36),
    "std": ("each row's standard deviation", 36), "eps": ("eps", 36), "norm_axis": ("LayerNorm's axis", 36),
    "ln_weight": ("LayerNorm's weight", 36), "ln_bias": ("LayerNorm's bias", 36), "ln_out": ("LayerNorm's output", 36),
    "hidden": ("the hidden layer x·W_1 + b_1", 35), "activated": ("GELU of the hidden layer", 35),
    "b_1": ("the bias b_1", 35), "b_2": ("the bias b_2", 35), "mlp": ("the MLP update", 35),
    "x": ("the block's input x", 34), "ln1": ("LN1(x)", 34), "u": ("u = x + MSA(LN1(x))", 34),
    "ln2": ("LN2(u)", 35), "residual_1": ("the residual x in u = x + MSA(LN1(x))", 34),
    "residual_2": ("the residual u in u + MLP(LN2(u))", 34), "out": ("the block's output", 34),
    "encoded": ("the encoder's output rows", 38), "normed": ("the final LayerNorm's output", 38),
    "cls_row": ("the row read out", 38), "h": ("the CLS summary h", 38),
    "logits": ("the logits", 52), "b_head": ("the head's bias", 54),
    "fill": ("the cover's fill value", 42), "covered": ("the covered image", 42),
    "quadrant_side": ("each quadrant's side", 43), "cover_side": ("each cover's side", 44),
    "cover_size": ("the square's side", 42),
    "target": ("the target class", 42),
    "quadrants": ("the quadrant order TL, TR, BL, BR", 43), "original": ("the original probability", 44),
    "covered_probabilities": ("the covered probabilities", 44), "change": ("the map", 44),
    "probabilities": ("the probabilities", 43), "class_axis": ("the softmax's axis", 43),
}

#: Names of the positions of each order, for sentences.
ORDER_NAMES: dict[str, tuple[str, ...]] = {
    "patch_axes": ("image", "channel", "patch row", "pixel row", "patch column", "pixel column"),  # the grid's
    "kernel_axes": ("feature", "channel", "kernel row", "kernel column"),
    "qkv_parts": ("q", "k", "v"),
}
AXIS_NAMES = {"softmax_axis": {-1: "the keys", -2: "the queries", -3: "the heads"},
              "class_axis": {-1: "the classes", 0: "the covered images"},
              "norm_axis": {-1: "its features", -2: "the tokens"}}  # never across images: see _first_image



def _words(name: str) -> str:
    return WORDS.get(name, (name, 0))[0]


def _page(name: str) -> int:
    return WORDS.get(name, ("", 0))[1]


def _sentence(change: str) -> str:
    return f"Your numbers are the lecture's computation {change}."


def _fmt(value: float) -> str:
    return f"{value:.4g}"


# ---------------------------------------------------------------- the edit space

#: Functions whose earlier quantities are other functions' own (a wrong LayerNorm inside a block fails
#: the layer_norm tests, which name it): only these quantities are edited there, or put in place of another.
OWN: dict[str, set[str]] = {
    "block": {"x", "ln1", "attn", "u", "ln2", "mlp", "out", "residual_1", "residual_2"},
}


def candidates(function: str, trace: Any, every: bool = False) -> Iterator[Candidate]:
    """Every edit of the recorded computation that fits its shapes, the lecture's known moves last. With
    `every`, also the edits that rerun a whole encoder of many blocks (the fixture builder has the time)."""
    own = OWN.get(function)
    for name, role in trace.roles.items():
        if name not in WORDS or (own is not None and name not in own):
            continue
        for candidate in _ROLE_EDITS.get(role, _no_edits)(name, trace):
            source = candidate.id.split(":")[2] if candidate.id.startswith("replaced:") else None
            if own is None or source is None or source in own:
                yield candidate
    yield from _MOVES.get(function, _no_moves)()
    if function == "vit_forward":
        yield from _block_loop_moves(trace, every)


def _no_edits(name: str, trace: Any) -> Iterator[Candidate]:
    return iter(())


def _no_moves() -> Iterator[Candidate]:
    return iter(())


def _value_edits(name: str, trace: Any) -> Iterator[Candidate]:
    value, page = trace[name], _page(name)
    if not isinstance(value, np.ndarray):
        return
    yield from _replacements(name, trace)
    yield Candidate(f"sign:{name}", _sentence(f"with the sign of {_words(name)} flipped"), page, maths.times(name, -1))
    if value.ndim >= 2 and value.shape[-1] == value.shape[-2]:
        yield Candidate(f"transposed:{name}", _sentence(f"with {_words(name)} transposed (last two axes swapped)"),
                        page, _transform(name, lambda v, t: v.mT))


def _replacements(name: str, trace: Any) -> Iterator[Candidate]:
    """`name` replaced by each quantity of its shape computed before it (one of each set of equal ones)."""
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
        yield Candidate(f"replaced:{name}:{other}", _sentence(f"with {_words(other)} in place of {_words(name)}"),
                        _page(name), maths.replaced(name, other))


def _transform(name: str, transform: Callable[[Any, Any], Any]) -> Any:
    return maths.Edit((maths.Change(name, transform),))


def _term_edits(name: str, trace: Any) -> Iterator[Candidate]:
    words, page = _words(name), _page(name)
    yield Candidate(f"left_out:{name}", _sentence(f"without {words}: it is left out"), page, maths.left_out(name))
    if isinstance(trace[name], np.ndarray) and trace[name].ndim >= 2:  # a residual or a table
        yield from _replacements(name, trace)
    yield Candidate(f"subtracted:{name}", _sentence(f"with {words} subtracted instead of added"), page,
                    maths.times(name, -1))
    yield Candidate(f"twice:{name}", _sentence(f"with {words} added twice"), page, maths.times(name, 2))
    value = trace[name]
    for factor in _factors(value):
        yield Candidate(f"scaled:{name}:{_fmt(factor)}", _sentence(f"with {words} multiplied by {_fmt(factor)}"),
                        page, maths.times(name, factor))
    if isinstance(value, np.ndarray) and value.ndim == 2 and value.shape[0] > 1:  # a table of rows
        yield from _table_edits(name, words, page)


def _factors(value: Any) -> list[float]:
    """Scales a student may put on a term: a tenth, a half, ten, and √D or 1/√D of its width D."""
    width = value.shape[-1] if isinstance(value, np.ndarray) and value.ndim else 1
    return [0.1, 0.5, 10.0] + ([float(np.sqrt(width)), float(1 / np.sqrt(width))] if width > 1 else [])


def _table_edits(name: str, words: str, page: int) -> Iterator[Candidate]:
    yield Candidate(f"reversed:{name}", _sentence(f"with the rows of {words} in reverse order"), page,
                    _transform(name, lambda v, t: v[::-1]))
    for shift in (1, -1):
        yield Candidate(f"shifted:{name}:{shift}", _sentence(
            f"with the rows of {words} moved {'down' if shift > 0 else 'up'} by one, wrapping round"), page,
            _transform(name, lambda v, t, s=shift: np.roll(v, s, axis=0)))
    yield Candidate(f"mean_row:{name}", _sentence(f"with the mean row of {words} added to every row, "
                                                  "instead of each row its own"), page,
                    _transform(name, lambda v, t: v.mean(axis=0)))
    yield Candidate(f"first_row:{name}", _sentence(f"with the first row of {words} added to every row"), page,
                    _transform(name, lambda v, t: v[0]))


def _factor_edits(name: str, trace: Any) -> Iterator[Candidate]:
    words, page = _words(name), _page(name)
    yield Candidate(f"left_out:{name}", _sentence(f"without {words}: it is left out"), page, maths.left_out(name))
    yield Candidate(f"squared:{name}", _sentence(f"with {words} applied twice (squared)"), page,
                    _transform(name, lambda v, t: v * v))
    yield Candidate(f"inverted:{name}", _sentence(f"with {words} inverted (multiplied where it divides, "
                                                  "or divided where it multiplies)"), page,
                    _transform(name, lambda v, t: 1 / v))
    if isinstance(trace[name], float) and trace[name] > 1:  # a scale such as √d: its square root, too
        yield Candidate(f"root:{name}", _sentence(f"with the square root of {words}"), page,
                        _transform(name, lambda v, t: v ** 0.5))


def _constant_edits(name: str, trace: Any) -> Iterator[Candidate]:
    words, page, current = _words(name), _page(name), trace[name]
    # a fill is mid-gray, black or white, or 0.5, mid-gray of pixels in [0, 1]; eps is also tried at PyTorch's
    # default and at a negligible size
    for value in (0.0, -1.0, 1.0) + ((0.5,) if name == "fill" else ()) + ((1e-5, 1e-12) if name == "eps" else ()):
        if value != current:
            why = (": 0.5 is mid-gray of pixels in [0, 1], and these are normalized to [-1, 1], where mid-gray is 0"
                   if name == "fill" and value == 0.5 and current == 0 else "")
            yield Candidate(f"constant:{name}:{_fmt(value)}", _sentence(
                f"with {words} {_fmt(value)} instead of {_fmt(current)}{why}"), page, maths.set_to(name, value))


def _axis_edits(name: str, trace: Any) -> Iterator[Candidate]:
    names, page, current = AXIS_NAMES.get(name, {}), _page(name), trace[name]
    for axis in names:
        if axis != current:
            yield Candidate(f"axis:{name}:{axis}", _sentence(
                f"with {_words(name)} running over {names[axis]} instead of {names[current]}"), page,
                maths.set_to(name, axis))


def _order_edits(name: str, trace: Any) -> Iterator[Candidate]:
    current, page = tuple(trace[name]), _page(name)
    fixed = 1 if name in ("patch_axes", "kernel_axes") else 0  # the image / feature axis stays first
    for order in itertools.permutations(current[fixed:]):
        order = current[:fixed] + order
        if order != current:
            yield Candidate(f"order:{name}:{'-'.join(str(getattr(o, 'name', o)) for o in order)}", _sentence(
                f"with {_order_words(name, order, current)}"), page, maths.set_to(name, order))


def _order_words(name: str, order: tuple, current: tuple) -> str:
    if name == "quadrants":
        return (f"the quadrants in the order {', '.join(q.name for q in order)}; the lecture's is "
                f"{', '.join(q.name for q in current)}")
    if name == "qkv_layout":
        return (f"each row's 3D columns split as ({', '.join(order)}); they are [q | k | v], each H heads of d "
                "consecutive features")
    labels = ORDER_NAMES.get(name)
    if labels is None:
        return f"{_words(name)} as {order} instead of {current}"
    if name == "qkv_parts":
        return f"q, k and v taken from the column blocks of {', '.join(labels[i] for i in order)}"
    names = ", ".join(labels[i] for i in order)
    return f"{_words(name)} as ({names}); the lecture's is ({', '.join(labels[i] for i in current)})"


def _index_edits(name: str, trace: Any) -> Iterator[Candidate]:
    if name == "target":  # a class read off by one
        for shift in (-1, 1):
            target = int(trace[name]) + shift
            if target < 0:  # class -1 is the last one: no class before the first
                continue
            yield Candidate(f"index:target:{shift:+d}", _sentence(
                f"reading class {target} instead of the target class {int(trace[name])}: the target's column is "
                "[:, target], as given"), _page(name), maths.set_to(name, target))
        return
    for index, words in ((-1, "the last row"), (1, "row 1, the first patch")):
        yield Candidate(f"index:{name}:{index}", _sentence(f"reading {words} instead of the CLS row, row 0"),
                        _page(name), maths.set_to(name, index))


def _size_edits(name: str, trace: Any) -> Iterator[Candidate]:
    """A cover's side halved or doubled (a quadrant a quarter of the image's side)."""
    current = int(trace[name])
    if name == "cover_size":  # the slice's end one off: image[top:top + size] covers rows top..top+size-1
        for size in (current - 1, current + 1):
            yield Candidate(f"size:{name}:{size}", _sentence(
                f"covering {size}×{size} pixels where {current}×{current} are asked: image[top:top + size] covers "
                "rows top..top + size − 1"), _page(name), maths.set_to(name, size))
    for size, change in ((current // 2, f"half of {current}"), (current * 2, f"twice {current}")):
        if size > 0:
            yield Candidate(f"size:{name}:{size}", _sentence(f"with {_words(name)} {size} pixels ({change})"),
                            _page(name), maths.set_to(name, size))
    if name == "quadrant_side":  # the sizes read from image.shape[:2], (1, 3) of a (1, 3, H, W) image
        yield Candidate(f"size:{name}:0", _sentence(
            f"with nothing covered: {_words(name)} came out 0 pixels, as when the height and width are read from "
            "the wrong axes (image.shape[:2] of a (1, 3, H, W) image is (1, 3)); they are image.shape[-2:]"),
            _page(name), maths.set_to(name, 0))


_ROLE_EDITS: dict[str, Callable[[str, Any], Iterator[Candidate]]] = {
    "value": _value_edits, "term": _term_edits, "factor": _factor_edits, "constant": _constant_edits,
    "axis": _axis_edits, "order": _order_edits, "index": _index_edits, "size": _size_edits,
}


# ---------------------------------------------------------------- the lecture's moves, per function

def _ln(value: Any, t: Any, weight: str, bias: str) -> Any:
    return maths.layer_norm(value, t[weight], t[bias])


def _block_moves() -> Iterator[Candidate]:
    post_ln = maths.Edit((
        maths.Change("ln1", lambda v, t: t["x"]),
        maths.Change("u", lambda v, t: _ln(v, t, "ln1_weight", "ln1_bias")),
        maths.Change("ln2", lambda v, t: t["u"]),
        maths.Change("out", lambda v, t: _ln(v, t, "ln2_weight", "ln2_bias"))))
    yield Candidate("move:post_ln", _sentence("with each LayerNorm moved after its residual add (post-LN): the "
                                              "lecture's block is pre-LN, u = x + MSA(LN1(x))"), 34, post_ln)
    yield Candidate("move:parallel", _sentence("with the MLP reading LN2(x) of the block's input, in parallel with "
                                               "the attention; it reads LN2(u), after the attention's update"), 35,
                    _transform("ln2", lambda v, t: _ln(t["x"], t, "ln2_weight", "ln2_bias")))
    yield Candidate("move:one_norm", _sentence("with LN1's weight and bias in both LayerNorms; the MLP's LN2 has "
                                               "its own"), 36,
                    _transform("ln2", lambda v, t: _ln(t["u"], t, "ln1_weight", "ln1_bias")))
    yield Candidate("move:no_residuals", _sentence("without both residual adds: the block returns "
                                                   "MLP(LN2(MSA(LN1(x)))); the residuals keep x and u"), 34,
                    maths.left_out("residual_1") + maths.left_out("residual_2"))
    yield Candidate("move:attention_twice", _sentence(
        "with the attention sublayer run a second time where the MLP belongs: u + MSA(LN2(u)); the second "
        "sublayer is the MLP, u + MLP(LN2(u))"), 35,
        _transform("mlp", lambda v, t: maths.multi_head_attention(t["ln2"], t["params"].W_qkv, t["params"].b_qkv,
                                                                t["params"].W_o, t["params"].b_o,
                                                                t["heads_count"])))
    yield Candidate("move:residual_averaged", _sentence(
        "with each update averaged with the rows, (x + MSA(LN1(x)))/2 and (u + MLP(LN2(u)))/2: the residual adds "
        "the update, u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("u", lambda v, t: v / 2), maths.Change("out", lambda v, t: v / 2))))
    yield Candidate("move:updates_subtracted", _sentence(
        "with each update subtracted from the rows, u = x − MSA(LN1(x)) and u − MLP(LN2(u)); the residual adds "
        "it: u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("u", lambda v, t: t["x"] - t["attn"]),
                    maths.Change("out", lambda v, t: t["u"] - t["mlp"]))))
    yield Candidate("move:mlp_first", _sentence("with the MLP sublayer before the attention sublayer; the "
                                                "attention comes first: u = x + MSA(LN1(x)), then u + MLP(LN2(u))"),
                    34, _transform("out", _mlp_first))
    yield Candidate("move:residual_from_normed", _sentence(
        "with each update added to the normalized rows, LN1(x) + MSA(LN1(x)); the residual keeps the "
        "unnormalized stream: u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("residual_1", lambda v, t: t["ln1"]),
                    maths.Change("residual_2", lambda v, t: t["ln2"]))))
    yield Candidate("move:no_pre_norm", _sentence("without both LayerNorms: the sublayers read x and u as they "
                                                  "are; each reads its LayerNorm's output, MSA(LN1(x))"), 34,
                    maths.Edit((maths.Change("ln1", lambda v, t: t["x"]), maths.Change("ln2", lambda v, t: t["u"]))))
    yield Candidate("move:norm_after_sublayer", _sentence(
        "with each sublayer's output normalized instead of its input: u = x + LN1(MSA(x)), the attention reading x "
        "as it is; each sublayer reads its LayerNorm's output, u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("ln1", lambda v, t: t["x"]),
                    maths.Change("attn", lambda v, t: _ln(v, t, "ln1_weight", "ln1_bias")),
                    maths.Change("ln2", lambda v, t: t["u"]),
                    maths.Change("mlp", lambda v, t: _ln(v, t, "ln2_weight", "ln2_bias")))))
    yield Candidate("move:norm_weight_bias_swapped", _sentence(
        "with each LayerNorm's weight and bias swapped: the rows scaled by the bias and shifted by the weight, in "
        "LN1 and LN2"), 36,
        maths.Edit((maths.Change("ln1", lambda v, t: _ln(t["x"], t, "ln1_bias", "ln1_weight")),
                    maths.Change("ln2", lambda v, t: _ln(t["u"], t, "ln2_bias", "ln2_weight")))))
    yield Candidate("move:norms_swapped", _sentence("with LN2's weight and bias before the attention and LN1's "
                                                    "before the MLP; LN1 belongs to the attention"), 36,
                    maths.Edit((maths.Change("ln1", lambda v, t: _ln(t["x"], t, "ln2_weight", "ln2_bias")),
                                maths.Change("ln2", lambda v, t: _ln(t["u"], t, "ln1_weight", "ln1_bias")))))
    yield from _activation_moves()


def _mlp_first(value: Any, t: Any) -> Any:
    """The block's two sublayers swapped, each with its own LayerNorm and weights."""
    p = t["params"]
    u = t["x"] + maths.mlp(maths.layer_norm(t["x"], p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)
    heads = t["heads_count"]
    return u + maths.multi_head_attention(maths.layer_norm(u, p.ln1_weight, p.ln1_bias), p.W_qkv, p.b_qkv,
                                          p.W_o, p.b_o, heads)


#: GELU(z) = half · z · (one + erf(z / root)) with one of its three constants changed, as the lecture
#: writes it (page 35): (the constants, what was written, the lecture's).
GELU_FORMULAS = (((1.0, 1.0, np.sqrt(2)), "without the 0.5: z·(1 + erf(z/√2))", "0.5·z·(1 + erf(z/√2))"),
                 ((0.5, 0.0, np.sqrt(2)), "without the 1 +: 0.5·z·erf(z/√2)", "0.5·z·(1 + erf(z/√2))"),
                 ((0.5, 1.0, 1 / np.sqrt(2)), "with erf(z·√2)", "erf(z/√2)"),
                 ((0.5, 1.0, 2.0), "with erf(z/2)", "erf(z/√2)"),
                 ((0.5, 1.0, 1.0), "with erf(z)", "erf(z/√2)"),
                 ((1.0, 0.0, np.sqrt(2)), "as z·erf(z/√2), without the 0.5 and the 1 +", "0.5·z·(1 + erf(z/√2))"))


def _gelu_formula(half: float, one: float, root: float) -> Callable[[Any], Any]:
    erf = maths.ops_for(np.zeros(1)).erf
    return lambda t: half * t["hidden"] * (one + erf(t["hidden"] / root))


def _activation_moves() -> Iterator[Candidate]:
    ops = maths.ops_for(np.zeros(1))
    for index, (constants, written, lecture) in enumerate(GELU_FORMULAS):
        yield Candidate(f"activation:gelu_formula_{index + 1}", _sentence(
            f"with GELU written {written}; the lecture's is {lecture}"), 35,
            maths.recomputed("activated", _gelu_formula(*constants)))
    yield Candidate("activation:sigmoid_gelu", _sentence("with z·σ(1.702·z), the sigmoid approximation of GELU; "
                                                         "the lecture's GELU is the exact (erf) one"), 35,
                    maths.recomputed("activated", lambda t: t["hidden"] * _sigmoid(1.702 * t["hidden"])))
    yield Candidate("activation:tanh_gelu", _sentence("with the tanh approximation of GELU; the lecture's GELU is "
                                                      "the exact (erf) one"), 35,
                    maths.recomputed("activated", lambda t: ops.gelu(t["hidden"], approximate="tanh")))
    yield Candidate("activation:relu", _sentence("with ReLU where the MLP's activation is GELU"), 35,
                    maths.recomputed("activated", lambda t: ops.relu(t["hidden"])))
    yield Candidate("activation:sigmoid", _sentence("with a sigmoid where the MLP's activation is GELU"), 35,
                    maths.recomputed("activated", lambda t: _sigmoid(t["hidden"])))
    yield Candidate("activation:normal_cdf", _sentence("with Φ(z) alone, the normal distribution's CDF, where "
                                                       "GELU is z·Φ(z)"), 35,
                    maths.recomputed("activated", lambda t: ops.gelu(t["hidden"]) / t["hidden"]))
    yield Candidate("activation:normal_density", _sentence(
        "with z·φ(z), φ the normal distribution's density (the bell curve), where GELU is z·Φ(z), Φ its CDF"), 35,
        maths.recomputed("activated", lambda t: t["hidden"] * np.exp(-0.5 * np.square(t["hidden"]))
                         / np.sqrt(2 * np.pi)))
    yield Candidate("activation:complement_cdf", _sentence(
        "with z·(1 − Φ(z)), the sign before erf slipped: 0.5·z·(1 − erf(z/√2)); GELU is z·Φ(z) = "
        "0.5·z·(1 + erf(z/√2))"), 35, maths.recomputed("activated", lambda t: t["hidden"] - ops.gelu(t["hidden"])))
    yield Candidate("activation:silu", _sentence("with SiLU, z·σ(z), where the MLP's activation is GELU, z·Φ(z) "
                                                 "with Φ the normal distribution's CDF"), 35,
                    maths.recomputed("activated", lambda t: t["hidden"] * _sigmoid(t["hidden"])))


def _mlp_moves() -> Iterator[Candidate]:
    yield from _activation_moves()
    ops = maths.ops_for(np.zeros(1))
    yield Candidate("activation:gelu_after_output", _sentence("with GELU applied after W_2 as well; the MLP's "
                                                              "output is activated @ W_2 + b_2, no GELU after it"),
                    35, _transform("mlp", lambda v, t: ops.gelu(v)))
    yield Candidate("move:tied_contraction", _sentence(
        "with W_1 transposed where W_2 belongs (the two layers tied, W_2 = W_1ᵀ, as in tied embeddings); the MLP's "
        "contraction has weights of its own: activated @ W_2 + b_2"), 35,
        maths.recomputed("mlp", lambda t: t["activated"] @ t["call_args"][1].T + t["b_2"]))


def _layer_norm_moves() -> Iterator[Candidate]:
    yield Candidate("move:unbiased_variance", _sentence("with the unbiased variance (divided by D - 1); LayerNorm "
                                                        "divides by D"), 36,
                    _transform("var", lambda v, t: v * t["centred"].shape[t["norm_axis"]]
                               / (t["centred"].shape[t["norm_axis"]] - 1)))
    yield Candidate("move:eps_outside_root", _sentence("with eps added after the square root; it goes inside: "
                                                       "√(var + eps)"), 36,
                    maths.recomputed("std", lambda t: np.sqrt(t["var"]) + t["eps"]))
    yield Candidate("move:uncentred_variance", _sentence("with the variance taken of the uncentred rows, the mean "
                                                         "of x²; it is the mean of (x − mean)²"), 36,
                    maths.recomputed("var", lambda t: _row_mean(np.square(_uncentred(t)), t)))
    yield Candidate("move:uncentred_numerator", _sentence(
        "with the uncentred rows divided by the standard deviation, x / σ: the mean is subtracted from the rows "
        "themselves too, (x − mean) / σ, not only inside the variance"), 36,
        maths.recomputed("normalized", lambda t: _uncentred(t) / t["std"]))
    yield Candidate("move:rms_norm", _sentence("without centring: each row divided by its root mean square "
                                               "(RMSNorm); LayerNorm subtracts the row's mean first, then divides "
                                               "by the standard deviation"), 36,
                    maths.recomputed("normalized", lambda t: _root_mean_square_normalized(_uncentred(t), t)))
    yield Candidate("move:mean_over_tokens", _sentence("with each feature's mean over the tokens subtracted; "
                                                       "LayerNorm centres each token on the mean of its own "
                                                       "features"), 36,
                    maths.recomputed("normalized", lambda t: _standardized(_uncentred(t), t, mean_axis=-2)))
    yield Candidate("move:variance_over_tokens", _sentence("with each feature's variance over the tokens; "
                                                           "LayerNorm divides each token by the standard deviation "
                                                           "of its own features"), 36,
                    maths.recomputed("normalized", lambda t: _standardized(_uncentred(t), t, var_axis=-2)))
    yield Candidate("move:mean_over_images", _sentence(
        "with each feature's mean over the images of the batch subtracted (dim 0, as BatchNorm centres; with one "
        "image that mean is the row itself, and only the bias is left); LayerNorm centres each token on the mean "
        "of its own features"), 36,
        maths.recomputed("normalized", lambda t: _standardized(_uncentred(t), t, mean_axis=0)), across_images=True)
    yield Candidate("move:variance_over_everything", _sentence(
        "with one variance for the whole tensor, over every image, token and feature (the mean of (x − mean)² "
        "taken without dim=-1): each row is centred on its own mean, then divided by the standard deviation of "
        "its own features"), 36,
        _transform("var", lambda v, t: np.broadcast_to(np.square(t["centred"]).mean(), v.shape)), across_images=True)
    yield Candidate("move:global_mean", _sentence("with the mean of the whole tensor subtracted from every row; "
                                                  "LayerNorm subtracts each row's own mean"), 36,
                    _transform("centred", lambda v, t: (v + t["mean"]) - (v + t["mean"]).mean()), across_images=True)
    yield from _norm_parameter_moves()


def _row_mean(value: Any, t: Any) -> Any:
    return value.mean(axis=t["norm_axis"], keepdims=True)


def _uncentred(t: Any) -> Any:
    """LayerNorm's input rows, as the centred rows plus their mean."""
    return t["centred"] + t["mean"]


def _standardized(x: Any, t: Any, mean_axis: int | None = None, var_axis: int | None = None) -> Any:
    """LayerNorm's rows with the mean, or the variance, taken along another axis than the features."""
    centred = x - x.mean(axis=t["norm_axis"] if mean_axis is None else mean_axis, keepdims=True)
    var = np.square(centred).mean(axis=t["norm_axis"] if var_axis is None else var_axis, keepdims=True)
    return centred / np.sqrt(var + t["eps"])


def _root_mean_square_normalized(x: Any, t: Any) -> Any:
    """RMSNorm's rows: x / √(mean(x²) + eps), nothing subtracted."""
    return x / np.sqrt(_row_mean(np.square(x), t) + t["eps"])


def _norm_parameter_moves() -> Iterator[Candidate]:
    yield Candidate("move:weight_bias_swapped", _sentence("with LayerNorm's weight and bias swapped: the rows "
                                                          "scaled by the bias and shifted by the weight"), 36,
                    maths.recomputed("ln_out", lambda t: t["normalized"] * t["ln_bias"] + t["ln_weight"]))
    yield Candidate("move:weight_as_bias", _sentence("with LayerNorm's weight passed as its bias too: the rows "
                                                     "scaled by the weight, then shifted by the weight instead of "
                                                     "the bias"), 36,
                    maths.recomputed("ln_out", lambda t: t["normalized"] * t["ln_weight"] + t["ln_weight"]))
    yield Candidate("move:gain_plus_one", _sentence(
        "with the rows scaled by 1 + weight, as norms whose stored gain is an offset from 1 (initialized at 0) "
        "scale them; this checkpoint stores the gain itself: normalized · weight + bias"), 36,
        maths.recomputed("ln_out", lambda t: t["normalized"] * (1 + t["ln_weight"]) + t["ln_bias"]))


def _position_moves() -> Iterator[Candidate]:
    yield Candidate("move:multiplied", _sentence("with the position table multiplied into the tokens instead of "
                                                 "added: WHAT + WHERE"), 16,
                    maths.recomputed("with_position", lambda t: t["tokens"] * t["pos_table"]))


def _attention_moves() -> Iterator[Candidate]:
    def causal(v: Any, t: Any) -> Any:
        n = v.shape[-1]
        return v + np.triu(np.full((n, n), -np.inf), 1)
    yield Candidate("move:causal_mask", _sentence("with a causal mask on the scores; ViT attends to every pair"), 30,
                    _transform("scores", causal))
    yield Candidate("move:self_masked", _sentence(
        "with each token's score with itself masked out (the diagonal set to −∞ before the softmax), so no token "
        "attends to itself; ViT attends to every pair, each token to itself too"), 30,
        _transform("scores", lambda v, t: v + np.diag(np.full(v.shape[-1], -np.inf))))
    yield Candidate("move:softmax_twice", _sentence(
        "with the softmax applied a second time, to the weights it already gave: the weights are one softmax of "
        "the scores"), 28, _transform("A", lambda v, t: maths.ops_for(v).softmax(v, axis=-1)))
    yield Candidate("move:no_exp", _sentence("without the softmax's exponential: the shifted scores divided by "
                                             "their row's sum"), 28,
                    maths.recomputed("A", lambda t: _shifted(t["scores"], -1) / _shifted(t["scores"], -1).sum(
                        axis=-1, keepdims=True)))
    yield Candidate("move:sum_over_everything", _sentence(
        "with each row's exponentials divided by their sum over the whole tensor (every image, head and query) "
        "instead of the row's own sum: the whole tensor sums to 1 where each row should"), 28,
        maths.recomputed("A", lambda t: _all_normalized(np.exp(_shifted(t["scores"], -1)))), across_images=True)
    yield Candidate("move:softmax_over_everything", _sentence(
        "with one softmax over the whole tensor (every image, head, query and key); the softmax runs over each "
        "query's row of keys"), 28,
        maths.recomputed("A", lambda t: _all_normalized(np.exp(t["scores"] - t["scores"].max()))), across_images=True)
    yield Candidate("move:divided_by_max", _sentence(
        "with each row's scores divided by their largest score instead of having it subtracted: the softmax of "
        "rescaled scores (their order reversed in a row whose largest is negative); subtracting the largest only "
        "keeps the exponentials small, the weights stay as they are"), 28,
        maths.recomputed("A", lambda t: _row_normalized(np.exp(t["scores"] / t["scores"].max(axis=-1, keepdims=True)))))
    yield Candidate("move:max_over_queries", _sentence("with each key's (column's) largest score subtracted before "
                                                       "the exponential; the softmax subtracts each row's own"), 28,
                    maths.recomputed("A", lambda t: _row_normalized(np.exp(_shifted(t["scores"], -2)))))


def _shifted(scores: Any, axis: int) -> Any:
    return scores - scores.max(axis=axis, keepdims=True)


def _row_normalized(weights: Any) -> Any:
    return weights / weights.sum(axis=-1, keepdims=True)


def _all_normalized(weights: Any) -> Any:
    return weights / weights.sum()


def _logit_moves() -> Iterator[Candidate]:
    ops = maths.ops_for(np.zeros(1))
    yield Candidate("move:softmax", _sentence("followed by a softmax: these are probabilities; return the logits"),
                    52, _transform("logits", lambda v, t: ops.softmax(v, axis=-1)))
    yield Candidate("move:log_softmax", _sentence("followed by a log-softmax; return the raw logits"), 52,
                    _transform("logits", lambda v, t: np.log(ops.softmax(v, axis=-1))))
    yield Candidate("move:sigmoid", _sentence("followed by a sigmoid, one probability per class; return the raw "
                                              "logits"), 52, _transform("logits", lambda v, t: _sigmoid(v)))
    yield Candidate("move:unit_h", _sentence("with h scaled to length 1 before the head; the head reads h as the "
                                             "final LayerNorm left it"), 52,
                    maths.recomputed("logits",
                                     lambda t: _unit_length(_summary(t), -1) @ _head_weights(t) + t["b_head"]))
    yield Candidate("move:tanh_h", _sentence("with tanh applied to h before the head, as the pre-logits layer of the "
                                             "original ViT's fine-tuning code; this checkpoint has none, its head "
                                             "reads h as the final LayerNorm left it"), 52,
                    maths.recomputed("logits", lambda t: np.tanh(_summary(t)) @ _head_weights(t) + t["b_head"]))
    yield Candidate("move:unit_class_vectors", _sentence(
        "with every class vector w_c (a column of W_head) scaled to length 1, as a cosine classifier compares; "
        "the head's logit is h · w_c + b_c with the weights as trained"), 52,
        maths.recomputed("logits", lambda t: _summary(t) @ _unit_length(_head_weights(t), 0) + t["b_head"]))
    yield Candidate("move:negative_distance", _sentence(
        "with each class scored by minus the distance between h and its weight vector, plus the bias, as a "
        "nearest-prototype classifier scores; the head's score is the dot product, h · w_c + b_c"), 52,
        maths.recomputed("logits", lambda t: t["b_head"] - _distances(_summary(t), _head_weights(t))))


def _distances(h: Any, W: Any) -> Any:
    """(B, C): the Euclidean distance between each summary h (B, D) and each class's column of W (D, C)."""
    return np.sqrt(np.square(h[:, :, None] - W[None]).sum(axis=1))


def _summary(t: Any) -> Any:
    """h of the call: the CLS summary the ViT computed, or classify's first argument."""
    return t["h"] if "h" in t.values else t["call_args"][0]


def _unit_length(x: Any, axis: int) -> Any:
    """x with each vector along `axis` scaled to length 1 (rows: axis -1, columns: axis 0)."""
    return x / np.linalg.norm(x, axis=axis, keepdims=True)


def _head_weights(t: Any) -> Any:
    """W_head of the call: classify's second argument, or the ViT's."""
    args = t["call_args"]
    return args[1].W_head if hasattr(args[1], "W_head") else args[1]


def _read_moves() -> Iterator[Candidate]:
    yield Candidate("move:mean_pooling", _sentence("with the mean of all normalized rows (mean pooling) where the "
                                                   "lecture reads the CLS row"), 38,
                    maths.recomputed("h", lambda t: t["normed"].mean(axis=1)))
    yield Candidate("move:no_final_norm", _sentence("reading the CLS row before the final LayerNorm"), 38,
                    maths.recomputed("h", lambda t: t["encoded"][:, 0]))
    yield Candidate("move:max_pooling", _sentence("with each feature's largest value over the tokens (max pooling) "
                                                  "where the lecture reads the CLS row"), 38,
                    maths.recomputed("h", lambda t: t["normed"].max(axis=1)))
    for name, pool in (("mean", np.mean), ("max", np.max)):
        yield Candidate(f"move:{name}_pooling_before_norm", _sentence(
            f"with the final LayerNorm of each feature's {name} over the tokens ({name} pooling) where the lecture "
            "reads the CLS row"), 38,
            maths.recomputed("h", lambda t, f=pool: _final_norm(t, f(t["encoded"], axis=1))))
    yield Candidate("move:patch_mean_pooling", _sentence(
        "with the mean of the normalized patch rows, CLS left out (the average pooling of ViTs trained without a "
        "CLS token), where this checkpoint reads the CLS row"), 38,
        maths.recomputed("h", lambda t: t["normed"][:, 1:].mean(axis=1)))
    yield Candidate("move:patch_mean_pooling_before_norm", _sentence(
        "with the final LayerNorm of the patch rows' mean, CLS left out (average pooling), where this checkpoint "
        "reads the CLS row"), 38,
        maths.recomputed("h", lambda t: _final_norm(t, t["encoded"][:, 1:].mean(axis=1))))
    yield Candidate("move:cls_plus_patch_mean", _sentence(
        "with the CLS row plus the mean of the patch rows, then normalized: the summary is the CLS row alone, "
        "which attention has already filled with what the patches say"), 38,
        maths.recomputed("h", lambda t: _final_norm(t, t["encoded"][:, 0] + t["encoded"][:, 1:].mean(axis=1))))
    yield Candidate("move:summary_is_norm_bias", _sentence(
        "with every image's summary equal to the final LayerNorm's bias: the LayerNorm saw one number per image "
        "(which it normalizes to 0), as when the CLS rows taken with [:, 0] are handed on and row 0 is taken "
        "again; normalize every row over its D features, then read row 0"), 38,
        maths.recomputed("h", lambda t: np.broadcast_to(t["ln_bias"], t["encoded"][:, 0].shape).copy()))
    yield from _norm_parameter_moves()


def _projected_otherwise(project: Callable[[Any, Any, Any], Any]) -> Any:
    """project's tokens computed by `project(patches, W_E, b_E)` from the call's own arguments."""
    return maths.recomputed("tokens", lambda t: project(*t["call_args"][:3]))


def _project_moves() -> Iterator[Candidate]:
    ops = maths.ops_for(np.zeros(1))
    yield Candidate("move:tokens_normalized", _sentence(
        "with each token row normalized to mean 0 and variance 1 after the projection, a LayerNorm this "
        "checkpoint does not have there (CLIP's ln_pre); the tokens are X·W_E + b_E as they come"), 10,
        _projected_otherwise(lambda X, W_E, b_E: _plain_layer_norm(X @ W_E + b_E)))
    yield Candidate("move:pixels_scaled_again", _sentence("with the patch rows divided by 255 once more: they are "
                                                          "already normalized to [-1, 1] (page 8); project them "
                                                          "as they are"), 10,
                    _projected_otherwise(lambda X, W_E, b_E: (X / 255) @ W_E + b_E))
    yield Candidate("move:bias_multiplied", _sentence("with b_E multiplied into each token's features instead "
                                                      "of added: X·W_E + b_E adds the bias"), 10,
                    _projected_otherwise(lambda X, W_E, b_E: (X @ W_E) * b_E))
    yield Candidate("move:product_averaged", _sentence(
        "with each token's products x_k·w_kd averaged over the patch row's values instead of summed: X·W_E / K + "
        "b_E for rows of K = 3·P·P values; the projection sums them"), 10,
        _projected_otherwise(lambda X, W_E, b_E: X @ W_E / X.shape[-1] + b_E))
    yield Candidate("move:product_over_sqrt_K", _sentence(
        "with X·W_E divided by √K before the bias is added, K = 3·P·P values in a patch row: the 1/√d belongs to "
        "the attention scores (page 28); the projection is X·W_E + b_E"), 10,
        _projected_otherwise(lambda X, W_E, b_E: X @ W_E / np.sqrt(X.shape[-1]) + b_E))
    yield Candidate("move:patches_centred", _sentence(
        "with each patch row's own mean subtracted before the projection; ViT projects the patch rows as they "
        "are"), 10, _projected_otherwise(lambda X, W_E, b_E: (X - X.mean(axis=-1, keepdims=True)) @ W_E + b_E))
    yield Candidate("move:bias_in_weights", _sentence("with b_E added to every row of W_E instead of once to each "
                                                      "token: X(W_E + b_E) gives each patch b_E times the sum of "
                                                      "its values; the projection is X·W_E + b_E"), 10,
                    _projected_otherwise(lambda X, W_E, b_E: X @ (W_E + b_E)))
    yield Candidate("move:patches_normalized", _sentence(
        "with each patch row normalized to mean 0 and variance 1 before the projection, a LayerNorm on the "
        "flattened patch that this checkpoint does not have; ViT projects the patch rows as they are"), 10,
        _projected_otherwise(lambda X, W_E, b_E: _plain_layer_norm(X) @ W_E + b_E))
    for name, words, activation in (("relu", "ReLU", ops.relu), ("gelu", "GELU", ops.gelu), ("tanh", "tanh", np.tanh)):
        yield Candidate(f"move:{name}_after_projection", _sentence(
            f"followed by {words}; the patch projection is affine only"), 10,
            _transform("tokens", lambda v, t, f=activation: f(v)))


def _map_moves() -> Iterator[Candidate]:
    yield Candidate("move:absolute_change", _sentence("with the size of each change, |covered − original|; the "
                                                      "map keeps the sign: drops are negative"), 44,
                    _transform("change", lambda v, t: np.abs(v)))
    yield Candidate("move:only_drops", _sentence("with every rise set to 0 (the map clamped at 0): covering a patch "
                                                 "can raise the target's probability too, and the map keeps those "
                                                 "rises as positive values"), 44,
                    _transform("change", lambda v, t: np.minimum(v, 0)))
    # one of the two probabilities computed otherwise, the other as the lecture's
    yield Candidate("move:covers_softmax_over_batch", _sentence(
        "with the covered images' softmax taken over the batch of covers; each image's softmax runs over its "
        "classes"), 43, maths.recomputed("covered_probabilities", lambda t: _covered(t, axis=0)))
    for shift in (-1, 1):
        yield Candidate(f"move:covers_target{shift:+d}", _sentence(
            f"with the covered probabilities read for class target {'+' if shift > 0 else '-'} 1; the original's and "
            "the covered ones are both the target's"), 44,
            maths.recomputed("covered_probabilities", lambda t, s=shift: _covered(t, shift=s)))
    yield Candidate("move:covers_at_grid_index", _sentence(
        "with cover (r, c) put at pixel (r, c) of the image; the cover of patch r, c starts at pixel "
        "(r·P, c·P), P pixels on from the one before"), 44,
        maths.recomputed("covered_probabilities", lambda t: _covered(t, step=1)))
    yield Candidate("move:covers_from_one", _sentence(
        "with the grid counted from 1: cover (r, c) put on patch (r + 1, c + 1), the last row and column of covers "
        "off the image; range(side) counts 0, 1, ..., side − 1"), 44,
        maths.recomputed("covered_probabilities", lambda t: _covered(t, first=1)))
    yield Candidate("move:logit_change", _sentence(
        "with the change of the target's logit, before any softmax; the map compares probabilities, the "
        "softmax of each image's logits"), 44, maths.recomputed("change", lambda t: _target_change(t, "logit")))
    yield Candidate("move:log_probability_change", _sentence(
        "with the change of the target's log-probability (a log_softmax); the map compares the "
        "probabilities themselves"), 44, maths.recomputed("change", lambda t: _target_change(t, "log")))
    yield Candidate("move:original_logit", _sentence("with the original image's target logit subtracted, where its "
                                                     "probability goes: covered − original compares probabilities"),
                    44, maths.recomputed("original", _original_logit))


def _target_change(t: Any, scale: str) -> Any:
    """(side, side): covered minus original of the target's logit or log-probability, not its probability."""
    model, image, target = t["call_args"][:3]
    logits = np.concatenate([model(image), model(t["covers"])])  # (1 + side², classes)
    if scale == "log":
        shifted = logits - logits.max(axis=-1, keepdims=True)
        logits = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    side = round(len(t["covers"]) ** 0.5)
    return (logits[1:, target] - logits[0, target]).reshape(side, side)


def _original_logit(t: Any) -> Any:
    model, image, target = t["call_args"][:3]
    return model(image)[:, target]


def _covered(t: Any, axis: int = -1, shift: int = 0, step: int | None = None, first: int = 0) -> Any:
    """The covers' probabilities of class target + shift, the softmax over `axis`; with `step` or `first`, of
    covers placed `step` pixels apart instead of a patch apart, or counted from grid place `first`."""
    model, image, target = t["call_args"][:3]
    if target + shift < 0:
        raise IndexError("no class before the first")
    covers = t["covers"]
    if step is not None or first:
        patch_size = t["call_args"][3] if len(t["call_args"]) > 3 else 16
        covers = maths.patch_covers(image, patch_size, t["fill"], None, step, first)
    return maths.ops_for(covers).softmax(model(covers), axis=axis)[:, target + shift]


def _quadrant_moves() -> Iterator[Candidate]:
    yield Candidate("move:top_class", _sentence("with each covered image's largest probability, whatever its class; "
                                                "the target's is [:, target] of the softmax, however small"), 43,
                    maths.recomputed("probabilities", _top_class))
    yield Candidate("move:sigmoid_of_target", _sentence(
        "with the sigmoid of the target's logit alone; a class's probability is the softmax over every class's "
        "logit, its [:, target]"), 43, maths.recomputed("probabilities", _target_sigmoid))


def _top_class(t: Any) -> Any:
    """(4,): each quadrant's cover's largest class probability."""
    logits = t["cover_logits"]  # (4, classes)
    return maths.ops_for(logits).softmax(logits, axis=-1).max(axis=-1)


def _target_sigmoid(t: Any) -> Any:
    """(4,): the sigmoid of each quadrant's cover's target logit, as if the class stood alone."""
    return _sigmoid(t["cover_logits"][:, t["call_args"][2]])


def _sigmoid(v: Any) -> Any:
    """σ(v) = 1 / (1 + e^(−v)), elementwise."""
    return 1 / (1 + np.exp(-v))


def _cls_moves() -> Iterator[Candidate]:
    def concat(*parts: Any) -> Any:
        return np.concatenate(parts, axis=1)
    yield Candidate("move:cls_last", _sentence("with CLS appended after the patch rows; it goes first, at index 0"),
                    23, maths.recomputed("with_cls", lambda t: concat(t["tokens"], t["cls"])))
    yield Candidate("move:cls_zeros", _sentence("with a row of zeros where the learned CLS vector goes"), 20,
                    _transform("cls", lambda v, t: v * 0))
    yield Candidate("move:cls_added", _sentence("with CLS also added to every patch row; it is prepended as a "
                                                "row of its own"), 23,
                    maths.recomputed("with_cls", lambda t: concat(t["cls"], t["tokens"] + t["cls_token"])))


def _embed_moves() -> Iterator[Candidate]:
    yield from _cls_moves()
    yield from _position_moves()
    yield Candidate("move:cls_without_position", _sentence("with no position row added to CLS; row 0 of the "
                                                           "table belongs to it"), 23,
                    _transform("embedded", lambda v, t: np.concatenate([t["cls"], v[:, 1:]], axis=1)))
    yield Candidate("move:position_before_cls", _sentence(
        "with the position table's first N rows added to the patches before CLS is put in front: CLS gets no "
        "position and patch i the row of the token before it; CLS comes first, then the whole table is added "
        "(row 0 is CLS's)"), 23, maths.recomputed("embedded", _position_before_cls))
    yield Candidate("move:images_transposed", _sentence(
        "with each image's height and width swapped before it is cut: every patch is the transposed square of "
        "another place, the patches read column by column; the images are (B, 3, H, W), cut row by row"), 9,
        maths.recomputed("embedded", lambda t: maths.embed(np.swapaxes(t["call_args"][0], -1, -2),
                                                           t["call_args"][1])))
    yield Candidate("move:normalized_again", _sentence("with the images normalized again: embed's images are "
                                                       "already normalized to [-1, 1] (page 8); patchify them as "
                                                       "they are"), 8,
                    maths.recomputed("embedded", lambda t: maths.embed(maths.normalize(t["call_args"][0]),
                                                                        t["call_args"][1])))


def _position_before_cls(t: Any) -> Any:
    """[CLS, P1 + p_0, ..., PN + p_(N-1)]: the table's first rows added before CLS is prepended."""
    patches = t["tokens"]  # (B, N, D)
    return np.concatenate([t["cls"], patches + t["pos_table"][:patches.shape[1]]], axis=1)


def _normalize_moves() -> Iterator[Candidate]:
    def per_channel(values: tuple[float, ...]) -> Callable[[Any, Any], Any]:
        return lambda v, t: np.asarray(values).reshape(1, 3, 1, 1)
    yield Candidate("move:imagenet_stats", _sentence("with ImageNet's mean and std; this checkpoint normalizes "
                                                     "with 0.5 and 0.5"), 8,
                    maths.Edit((maths.Change("pixel_mean", per_channel((0.485, 0.456, 0.406))),
                                maths.Change("pixel_std", per_channel((0.229, 0.224, 0.225))))))
    yield Candidate("move:clipped_to_unit_range", _sentence(
        "with the result clipped to [0, 1]: every pixel darker than mid-gray comes out 0; the checkpoint's "
        "inputs span [-1, 1], 0 being mid-gray"), 8, _transform("normalized", lambda v, t: np.clip(v, 0.0, 1.0)))


def _conv_moves() -> Iterator[Candidate]:
    yield Candidate("move:reshape_no_transpose", _sentence("with the kernel reshaped straight to (3·P·P, D) "
                                                           "without transposing it"), 10,
                    _transform("W_E", lambda v, t: t["kernel"].reshape(-1, t["kernel"].shape[0])))
    yield Candidate("move:pseudo_inverse", _sentence(
        "with the pseudo-inverse of the (D, 3·P·P) kernel matrix where its transpose belongs: W_E holds the "
        "kernel's rows as its columns (the two agree only for orthonormal kernels)"), 10,
        _transform("W_E", lambda v, t: np.linalg.pinv(t["kernel_rows"])))


def _scale_by_D() -> Candidate:
    return Candidate("move:scale_by_D", _sentence("with the scores divided by √D of all heads; the scale is √d "
                                                  "of one head"), 28,
                     _transform("sqrt_d", lambda v, t: v * np.sqrt(t["q"].shape[1])))


def _weights_moves() -> Iterator[Candidate]:
    yield from _attention_moves()
    yield _scale_by_D()


def _multi_head_moves() -> Iterator[Candidate]:
    yield from _weights_moves()
    yield Candidate("move:heads_joined_without_transpose", _sentence(
        "with the heads joined without moving the head axis next to d: (B, H, N, d) must become (B, N, H, d) "
        "before the reshape"), 32, _transform("joined", lambda v, t: t["heads"].reshape(v.shape)))
    yield Candidate("move:input_normalized_again", _sentence(
        "with its input normalized once more (a LayerNorm without weight or bias) before q, k and v: the block "
        "hands attention the normalized rows LN1(x) already"), 34,
        maths.recomputed("attn", lambda t: maths.multi_head_attention(_plain_layer_norm(t["call_args"][0]),
                                                                      *t["call_args"][1:6])))
    yield Candidate("move:sum_over_receivers", _sentence(
        "with each token's own value scaled by its weights' sum over the queries, (Σ_i a_ij)·v_j: the weighted sum "
        "ran over the receivers i; query i's output mixes the values, Σ_j a_ij·v_j"), 30,
        _transform("heads", lambda v, t: t["A"].sum(axis=-2)[..., None] * t["v"]))
    yield Candidate("move:projection_of_input", _sentence(
        "with W_o applied to the input x instead of to the joined heads: the heads' messages, joined side by side, "
        "are what the output projection mixes"), 32,
        maths.recomputed("attn", lambda t: t["call_args"][0] @ t["W_o"] + t["b_o"]))
    yield Candidate("move:residual_included", _sentence("with the input x added to the update; the block adds "
                                                        "the residual, attention returns the update alone"), 34,
                    _transform("attn", lambda v, t: v + t["call_args"][0]))
    yield Candidate("move:weights_averaged_over_heads", _sentence(
        "with the attention weights averaged over the heads, every head mixing its values by that one mean "
        "pattern; each head weighs its values by its own weights A"), 31,
        _transform("heads", lambda v, t: t["A"].mean(axis=1, keepdims=True) @ t["v"]))
    yield Candidate("move:one_head", _sentence("with one head of all D features; the lecture splits them into H "
                                               "heads of d = D/H, each with its own weights A"), 32,
                    maths.recomputed("attn", lambda t: maths.multi_head_attention(*t["call_args"][:5], 1)))
    yield Candidate("move:head_size_as_count", _sentence(
        "with the features split into D/H heads of H features: the head size d = D/H passed where the number "
        "of heads goes; the lecture splits them into H heads of d = D/H"), 32,
        maths.recomputed("attn", lambda t: maths.multi_head_attention(
            *t["call_args"][:5], t["call_args"][0].shape[-1] // t["call_args"][5])))


def _add_position_moves() -> Iterator[Candidate]:
    yield from _position_moves()
    yield Candidate("activation:gelu_after_position", _sentence(
        "with GELU applied to the sum c_i + p_i: the embedding adds WHAT and WHERE and nothing more; GELU belongs "
        "to the MLP"), 16,
        maths.recomputed("with_position", lambda t: maths.ops_for(t["tokens"]).gelu(t["tokens"] + t["pos_table"])))
    yield Candidate("move:normalized_sum", _sentence("with the sum c_i + p_i normalized (a LayerNorm, as some text "
                                                     "models' embeddings do); ViT adds the table and normalizes "
                                                     "only inside the blocks"), 16,
                    maths.recomputed("with_position", lambda t: _plain_layer_norm(t["tokens"] + t["pos_table"])))
    yield Candidate("move:tokens_scaled", _sentence("with the tokens multiplied by √D before the position table "
                                                    "is added; ViT adds them as they are"), 16,
                    maths.recomputed("with_position", lambda t: t["tokens"] * np.sqrt(t["tokens"].shape[-1])
                                     + t["pos_table"]))
    yield Candidate("move:table_rows_repeated", _sentence(
        "with each row of the position table repeated once per image in a row (repeat_interleave) before it is cut "
        "into one table per image: image b's token n gets row (b·N + n) // B; every image uses the same whole "
        "table, token n its row n (expand tiles it)"), 17, maths.recomputed("with_position", _rows_repeated),
        across_images=True)


def _rows_repeated(t: Any) -> Any:
    """(B, N, D): the table's rows each repeated B times in a row (repeat_interleave), cut into B tables."""
    tokens, table = t["tokens"], t["pos_table"]
    return tokens + np.repeat(table, tokens.shape[0], axis=0).reshape(tokens.shape)


def _plain_layer_norm(x: Any) -> Any:
    """LayerNorm over the features with no weight or bias and PyTorch's default eps 1e-5."""
    ones = np.ones(x.shape[-1])
    return maths.layer_norm(x, ones, ones * 0, 1e-5)


def _head_moves() -> Iterator[Candidate]:
    """vit_forward's own quantities are the head's: how the CLS row is read, and the logits."""
    yield from _read_moves()
    yield from _logit_moves()


#: Blocks an edit of vit_forward's loop may rerun: the checkpoint's block on 197 tokens costs about 0.1 CPU-s
#: in numpy, so reversing its 12 blocks would take a third of the budget for one edit; those orders are
#: searched on small encoders only, the block left out (no rerun) and the last block alone (one) on every one.
MAX_BLOCK_RERUNS = 4


def _block_loop_moves(trace: Any, every: bool = False) -> Iterator[Candidate]:
    """vit_forward's loop over the blocks done otherwise, rerun from the correct run's block outputs."""
    count = len(trace["block_outputs"]) - 1
    for name, words, order in BLOCK_ORDERS:
        blocks = order(count)
        if len(blocks) - _shared_start(blocks) > MAX_BLOCK_RERUNS and not every:
            continue
        yield Candidate(f"move:blocks_{name}", _sentence(f"with {words}; the encoder runs blocks 1, 2, ..., L in "
                                                         "order, each on the one before's output"), 50,
                        _transform("normed", lambda v, t, b=blocks: _encoded_otherwise(t, b)))
    yield Candidate("move:final_norm_twice", _sentence("with the final LayerNorm applied twice: read_cls normalizes "
                                                       "the CLS row itself, so vit_forward passes it the blocks' "
                                                       "rows as they are"), 38,
                    _transform("normed", lambda v, t: _final_norm(t, v)))
    yield Candidate("move:final_norm_ln2", _sentence("with the last block's LN2 weight and bias in the final "
                                                     "LayerNorm; the encoder's final norm has its own"), 52,
                    _transform("normed", lambda v, t: _final_norm(t, t["encoded"], "ln2")))
    if count > MAX_BLOCK_RERUNS and not every:
        return
    yield Candidate("move:encoder_one_head", _sentence("with every block's attention run as one head of all D "
                                                       "features; each block splits them into H heads of d = D/H"),
                    32, _transform("normed", lambda v, t: _encoder_rerun(t, heads=1)))
    params = trace["call_args"][1]
    if params.num_heads != 12 and trace["encoded"].shape[-1] % 12 == 0:
        yield Candidate("move:encoder_twelve_heads", _sentence(
            "with every block's attention split into 12 heads (ViT-Base's count, or the encoder's 12 blocks); "
            f"this model's blocks have {params.num_heads} heads each, params.num_heads"), 32,
            _transform("normed", lambda v, t: _encoder_rerun(t, heads=12)))
    if params.num_heads != HEADS and trace["encoded"].shape[-1] % HEADS == 0:
        yield Candidate("move:encoder_lecture_heads", _sentence(
            f"with every block's attention split into {HEADS} heads, the lecture's ViT-Ti count, written in; this "
            f"model's blocks have {params.num_heads} heads each: read them from params.num_heads"), 32,
            _transform("normed", lambda v, t: _encoder_rerun(t, heads=HEADS)))
    yield Candidate("move:norm_after_every_block", _sentence(
        "with the final LayerNorm applied after every block: each block after the first reads normalized rows, and "
        "read_cls normalizes the last block's once more; the loop is x = block(x), the final norm comes once, "
        "after the last block"), 52,
        _transform("normed", lambda v, t: _encoder_rerun(t, norm_each=True)))
    yield Candidate("move:final_norm_first", _sentence(
        "with the final LayerNorm applied to the embedded rows before the blocks too (an ln_pre, as CLIP's image "
        "encoder has); this ViT's final norm comes once, after the last block"), 52,
        _transform("normed", lambda v, t: _encoder_rerun(t, norm_first=True)))
    yield Candidate("move:encoder_without_cls", _sentence(
        "with the blocks run on the patch rows alone, CLS left out, so that row 0 read at the end is P1's: CLS "
        "goes through every block with the patches, gathering what they say"), 50,
        _transform("normed", lambda v, t: _encoder_rerun(t, without_cls=True)))
    yield Candidate("move:each_block_twice", _sentence(
        "with every block applied twice in a row, block 1, block 1, block 2, block 2, ...: one block is both "
        "updates, attention then MLP, so the encoder's loop applies each block once"), 34,
        _transform("normed", lambda v, t: _encoder_rerun(t, twice=True)))
    yield Candidate("move:block_residual_again", _sentence(
        "with each block applied as x + block(x): the block already adds its residuals, so the encoder's "
        "loop is x = block(x)"), 34, _transform("normed", lambda v, t: _encoder_rerun(t, residual=True)))


def _final_norm(t: Any, x: Any, which: str | None = None) -> Any:
    """The final LayerNorm of x, with its own weight and bias (as the trace recorded them, in read_cls
    and in vit_forward alike) or with the last block's LN1 or LN2 (vit_forward)."""
    if which is None:
        return maths.layer_norm(x, t["ln_weight"], t["ln_bias"])
    last = t["call_args"][1].blocks[-1]
    return maths.layer_norm(x, getattr(last, f"{which}_weight"), getattr(last, f"{which}_bias"))


def _encoder_rerun(t: Any, heads: int | None = None, residual: bool = False, norm_each: bool = False,
                   without_cls: bool = False, norm_first: bool = False, twice: bool = False) -> Any:
    """The final LayerNorm after every block rerun from the embedded rows, with other heads, each block's
    output added to its input, each block's output (or the embedded rows) normalized by the final
    LayerNorm, CLS left out, or each block applied twice."""
    params = t["call_args"][1]
    x = t["block_outputs"][0][:, 1:] if without_cls else t["block_outputs"][0]
    x = _final_norm(t, x) if norm_first else x
    for p in params.blocks:
        out = maths.block(x, p, heads or params.num_heads)
        out = maths.block(out, p, heads or params.num_heads) if twice else out
        x = x + out if residual else out
        x = _final_norm(t, x) if norm_each else x
    return _final_norm(t, x)


#: The encoder's loop over its L blocks done otherwise: (name, words, the blocks run, from the embedded rows).
BLOCK_ORDERS: tuple[tuple[str, str, Callable[[int], list[int]]], ...] = (
    ("none", "every block left out: the head reads the embedded rows", lambda n: []),
    ("last_skipped", "the last block left out", lambda n: list(range(n - 1))),
    ("first_skipped", "the first block left out", lambda n: list(range(1, n))),
    ("reversed", "the blocks run from the last to the first", lambda n: list(range(n))[::-1]),
    ("first_repeated", "the first block's parameters in every block", lambda n: [0] * n),
    ("last_only", "every block reading the embedded rows: only the last block's output is left", lambda n: [n - 1]),
)


def _shared_start(blocks: list[int]) -> int:
    """How many of `blocks` run as the correct loop starts (0, 1, 2, ...): their output is already known."""
    return next((i for i, block in enumerate(blocks) if block != i), len(blocks))


def _encoded_otherwise(t: Any, blocks: list[int]) -> Any:
    """The final LayerNorm of the rows `blocks` give, run in that order from the embedded rows."""
    params = t["call_args"][1]
    start = _shared_start(blocks)
    x = t["block_outputs"][start]
    for index in blocks[start:]:
        x = maths.block(x, params.blocks[index], params.num_heads)
    return _final_norm(t, x)


def _covered_otherwise(write: Callable[[Any, tuple[slice, slice], Any], None]) -> Any:
    """cover's result as a fresh copy of the call's images with `write(copy, (rows, columns), fill)`
    done to its square."""
    def compute(t: Any) -> Any:
        images, top, left = t["call_args"][:3]
        covered, size = images.copy(), t["cover_size"]
        write(covered, (slice(top, top + size), slice(left, left + size)), t["fill"])
        return covered
    return maths.recomputed("covered", compute)


def _add_nonzero(covered: Any, square: tuple[slice, slice], fill: float) -> None:
    if fill == 0:  # adding 0 leaves the images as they were: the numbers of covering nothing
        raise ValueError("a fill of 0 added tells nothing apart")
    covered[(..., *square)] += fill


def _cover_moves() -> Iterator[Candidate]:
    def red_only(covered: Any, square: tuple[slice, slice], fill: float) -> None:
        covered[(slice(None), 0, *square)] = fill
    yield Candidate("move:first_channel_only", _sentence(
        "with the square set to the value in the first channel (R) only: images[:, 0, ...] indexes the channel "
        "axis; a cover sets the square in every channel, images[..., rows, columns]"), 42, _covered_otherwise(red_only))
    yield Candidate("move:value_added", _sentence(
        "with the value added to the square's pixels instead of put in their place (+= for =): a cover hides "
        "what was there, so with the default 0.0 yours covers nothing"), 42, _covered_otherwise(_add_nonzero))


_MOVES: dict[str, Callable[[], Iterator[Candidate]]] = {
    "block": _block_moves, "mlp": _mlp_moves, "layer_norm": _layer_norm_moves,
    "add_position": _add_position_moves, "embed": _embed_moves, "prepend_cls": _cls_moves,
    "normalize": _normalize_moves, "conv_to_linear": _conv_moves, "attention_weights": _weights_moves,
    "multi_head_attention": _multi_head_moves, "classify": _logit_moves, "vit_forward": _head_moves,
    "read_cls": _read_moves, "project": _project_moves, "occlusion_map": _map_moves,
    "quadrant_probabilities": _quadrant_moves, "cover": _cover_moves,
}


# ---------------------------------------------------------------- the call, rebuilt in numpy

def arguments(case: Any) -> list[Any]:
    """The case's arguments as numpy values, in call order; the probe model as `Probe`."""
    return numpy_arguments(case, {"probe": Probe})


class Probe:
    """The occlusion cases' stand-in classifier (grader.worker.probe_model.ProbeModel) in numpy: each 16x16
    patch's mean per channel, then a fixed linear map to class logits. It is cheap, so the search reruns
    the model-taking functions with it; the ViT itself is never rerun inside the judge."""

    def __init__(self, weights: np.ndarray, patch_size: int = 16) -> None:
        self.weights, self.patch_size = weights, patch_size  # (3 * 14 * 14, classes)

    def __call__(self, images: np.ndarray) -> np.ndarray:
        B, C, H, W = images.shape
        P = self.patch_size
        means = images.reshape(B, C, H // P, P, W // P, P).mean(axis=(3, 5))  # (B, 3, 14, 14)
        return means.reshape(B, -1) @ self.weights  # (B, classes)


# ---------------------------------------------------------------- every edit, for the fixtures

def edit_outputs(case: Any) -> list[tuple[Finding, Any]]:
    """Every edit of the lecture's computation that changes the case's output (beyond its tolerance),
    one per distinct result, each with the finding that names it, as `find_edit` would name it. The
    fixture builder stores them as fingerprints, so that `check` names a mistake on a visible case by
    lookup, with no maths of its own; empty where the call cannot be rebuilt.

    The output is the call's whole result (a tuple for qkv_heads), as float64."""
    function = getattr(maths, case.function, None)
    if function is None:
        return []
    close = numerics.Closeness(numerics.case_tolerance(case.extra))
    try:
        call = _Call(case, function, arguments(case), None)
    except Exception:  # noqa: BLE001 - a call the lecture maths cannot rebuild has no edits to store
        return []
    correct = _whole(maths.run(call.function, call.args)[0])
    groups: list[_Group] = []
    for candidate in candidates(case.function, call.trace, every=True):
        output = _try(call.function, call.args, candidate, call.trace)
        output = None if output is None else _whole(output)
        if output is None or not _fits(output, correct) or all(map(close, _parts(output), _parts(correct))) \
                or not all(np.isfinite(o).all() for o in _parts(output)):
            continue
        group = next((g for g in groups if g.holds(output)), None)
        if group is None:
            groups.append(_Group([candidate], output))
        else:
            group.spellings.append(candidate)
    return [(_named(group.spellings, case.function), group.output) for group in groups]


class _Group:
    """The edits that give one output (`_same_numbers`), the tolerance of each of its parts computed
    once: a case has hundreds of edits, each compared with every group before it."""

    SAMPLED = 16  # values of each part compared first: two different outputs nearly always differ there

    def __init__(self, spellings: list[Candidate], output: Any) -> None:
        self.spellings, self.output = spellings, output
        self.tolerances = [_same_numbers_tolerance(part) for part in _parts(output)]
        self.samples = [self._sample(part) for part in _parts(output)]

    def holds(self, output: Any) -> bool:
        """`output` gives this group's numbers, part for part (its structure is the group's: `_fits`)."""
        parts, mine = _parts(output), _parts(self.output)
        return all(_same_numbers(self._sample(part), sample, tolerance)
                   for part, sample, tolerance in zip(parts, self.samples, self.tolerances)) \
            and all(_same_numbers(part, own, tolerance) for part, own, tolerance in zip(parts, mine, self.tolerances))

    @classmethod
    def _sample(cls, part: np.ndarray) -> np.ndarray:
        flat = part.reshape(-1)
        return flat[::max(1, flat.size // cls.SAMPLED)]


def _whole(output: Any) -> Any:
    return tuple(np.asarray(o, np.float64) for o in output) if isinstance(output, tuple) \
        else np.asarray(output, np.float64)


def _parts(output: Any) -> tuple[np.ndarray, ...]:
    return output if isinstance(output, tuple) else (output,)


def _fits(output: Any, correct: Any) -> bool:
    """The output has the correct one's structure: as many parts, each of its shape."""
    return len(_parts(output)) == len(_parts(correct)) and all(
        o.shape == c.shape for o, c in zip(_parts(output), _parts(correct)))


# ---------------------------------------------------------------- the search

def find_edit(case: Any, expected: np.ndarray, got: np.ndarray, tolerance: numerics.Tolerance,
              part: int | None = None, budget: float | None = None) -> Finding | None:
    """The one edit of the lecture's computation that reproduces `got`, as a finding (id `edit.<edit>`);
    None when no edit does, several different ones do, or the call cannot be rebuilt.

    Every edit is tried on the first image alone (each image's numbers depend on that image only),
    then the edits that fit it are confirmed on all images.

    Args:
        case: the failing fixture case (function, argument specs, input tensors, checkpoint path).
        expected, got: the expected and the student's array (for several outputs, output `part`'s).
        tolerance: (absolute, relative), as the test compared.
        part: which output, for functions returning several (qkv_heads).
        budget: CPU seconds the search may take (BUDGETS, or BUDGET_SECONDS); a search that would
            overrun finds nothing.
    """
    function = getattr(maths, case.function, None)
    if function is None or not np.isfinite(got).all():
        return None
    if budget is None:
        budget = BUDGETS.get(case.function, BUDGET_SECONDS)
    deadline = time.process_time() + budget
    close = numerics.Closeness(tolerance)
    try:
        call = _Call(case, function, arguments(case), part)
        first = call.first_image()
    except Exception:  # noqa: BLE001 - a call the lecture maths cannot rebuild is one the search cannot explain
        return None
    if not close(call.correct, expected):  # the rebuilt call must give the expected output
        return None
    got_first, expected_first = first.of_first_image(got), first.of_first_image(expected)
    fitting = []
    for candidate in candidates(case.function, first.trace):
        if time.process_time() > deadline:
            return None
        output = first.of_first_image(call.edited(candidate)) if candidate.across_images else first.edited(candidate)
        if output is not None and output.shape == got_first.shape and close(got_first, output) \
                and not close(output, expected_first):
            fitting.append(candidate)
    matches = [(c, output) for c in fitting for output in [call.edited(c)]
               if output is not None and output.shape == got.shape and close(got, output)]
    return _single(matches, case.function)


class _Call:
    """The case's call rebuilt in numpy: its arguments, its correct output and trace."""

    def __init__(self, case: Any, function: Callable[..., Any], args: list[Any], part: int | None) -> None:
        outputs = None
        if case.function == "vit_forward":  # its own quantities follow the encoder: run that once
            outputs = _block_outputs(maths.embed(*args), args[1])
            function, args = maths.vit_head, [outputs[-1], args[1]]
        self.case, self.function, self.args, self.part = case, function, args, part
        correct, self.trace = maths.run(function, args)
        self.correct = _part(correct, part)
        self.trace.values["params"], self.trace.values["heads_count"] = _block_context(case.function, args)
        self.trace.values.update(call_args=args, block_outputs=outputs)

    def first_image(self) -> _Call:
        """The same call on the first image alone, where the output's first axis is the images'."""
        if not self.case.axes or self.case.axes[0] != "image" or self.correct.shape[0] < 2:
            return self
        names = [spec["name"] for spec in self.case.args]
        if self.case.function == "vit_forward":
            names = ["x", "params"]
        args = [a[:1] if name in BATCHED and isinstance(a, np.ndarray) else a for name, a in zip(names, self.args)]
        first = _Call.__new__(_Call)
        first.case, first.function, first.args, first.part = self.case, self.function, args, self.part
        correct, first.trace = maths.run(self.function, args)
        first.correct = _part(correct, self.part)
        outputs = self.trace.values["block_outputs"]
        first.trace.values.update(params=self.trace.values["params"], heads_count=self.trace.values["heads_count"],
                                  call_args=args, block_outputs=None if outputs is None else [x[:1] for x in outputs])
        return first

    def of_first_image(self, array: np.ndarray | None) -> np.ndarray | None:
        return array[:self.correct.shape[0]] if self.correct.ndim and array is not None else array

    def edited(self, candidate: Candidate) -> np.ndarray | None:
        output = _try(self.function, self.args, candidate, self.trace)
        return None if output is None else _part(output, self.part)


def _block_outputs(embedded: np.ndarray, params: Any) -> list[np.ndarray]:
    """The embedded rows, then each block's output in order (maths.encode after its embed)."""
    outputs = [embedded]
    for p in params.blocks:
        outputs.append(maths.block(outputs[-1], p, params.num_heads))
    return outputs


#: Arguments whose first axis is the images (by their names in the exercises' signatures).
BATCHED = {"pixels", "images", "image", "patches", "tokens", "x", "q", "k", "h"}


def _block_context(function: str, args: list[Any]) -> tuple[Any, Any]:
    """The block's parameters and heads, for the moves that recompute whole sublayers."""
    return (args[1], args[2]) if function == "block" else (None, None)


def _try(function: Callable[..., Any], args: list[Any], candidate: Candidate, correct: Any) -> Any:
    """The edited call's output, or None when the edit does not fit (shapes) or changes nothing."""
    trace = maths.Trace(candidate.edit, reuse=correct)
    trace.values.update({name: correct.values[name] for name in ("params", "heads_count", "call_args",
                                                                 "block_outputs")})
    try:
        with np.errstate(all="ignore"):
            output = function(*args, trace=trace)
    except (ValueError, IndexError, KeyError, TypeError, ZeroDivisionError, np.linalg.LinAlgError):
        return None
    if not trace.used:
        return None
    return output


def _part(output: Any, part: int | None) -> np.ndarray:
    return np.asarray(output[part] if part is not None else output, np.float64)


def _single(matches: list[tuple[Candidate, np.ndarray]], function: str) -> Finding | None:
    """The finding when every matching edit gives the same numbers (one mistake, however spelled)."""
    if not matches:
        return None
    first, output = matches[0]
    if any(not _same_numbers(other, output) for _, other in matches[1:]):
        return None
    return _named([c for c, _ in matches], function)


def _named(spellings: list[Candidate], function: str) -> Finding:
    """The finding for edits that all give the same numbers: one mistake, however spelled. Two of the
    lecture's named moves that coincide on this case (with two blocks, the first left out and every
    block reading the embedded rows) are both said: the numbers cannot tell them apart."""
    # the lecture's named move says it best, then one quantity in place of another (for one output of
    # several, it claims nothing about the others), else the first edit
    first = spellings[0]
    for prefixes in (("move:", "activation:"), ("replaced:",)):
        first = next((c for c in spellings if c.id.startswith(prefixes)), first)
        if first.id.startswith(prefixes):
            break
    for candidate in spellings:  # a catalogued mistake keeps its own id and title wherever it is found
        if (known := mistakes.known_by_edit(candidate.edit.key, function)) is not None:
            return Finding(f"known.{known.id}", known.title, f"{first.sentence} (page {first.page})", known.page)
    named_move = first.id.startswith("move:")
    alike = [c for c in spellings if named_move and c.id.startswith("move:") and c.id != first.id]
    moves = [first, *alike]
    if not alike:
        return Finding(f"edit.{first.id}", first.sentence, f"{first.sentence} (page {first.page})", first.page)
    sentence = " This case gives the same numbers for another mistake: ".join(
        f"{c.sentence} (page {c.page})" for c in moves)
    return Finding("edit." + "|".join(c.id for c in moves), first.sentence, sentence, first.page)


def _same_numbers(a: np.ndarray, b: np.ndarray, tolerance: numerics.Tolerance | None = None) -> bool:
    """Two edits give the same numbers (one mistake, spelled twice): they agree to float64 rounding.
    Two different mistakes that merely agree within the test's float32 tolerance on this case are two
    edits: the search cannot tell which one the student made, and names neither. `tolerance`: b's
    `_same_numbers_tolerance`, where the caller compares many outputs with one b."""
    return numerics.close(a, b, _same_numbers_tolerance(b) if tolerance is None else tolerance)


def _same_numbers_tolerance(b: np.ndarray) -> numerics.Tolerance:
    """`_same_numbers`' tolerance for numbers compared with `b`: float64 rounding at b's scale."""
    return numerics.at_scale(numerics.SAME_NUMBERS, b)


