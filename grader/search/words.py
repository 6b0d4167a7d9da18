"""The search's vocabulary: the lecture's words and page for each quantity of its computation, and
`Candidate`, one edit with the sentence that names it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader import lecture_maths as maths


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
    "scaled": ("the pixels scaled to [0, 1]", 8), "pixels_normalized": ("the normalized pixels", 8),
    "pixel_range": ("the division by 255", 8),
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
    "W_o": ("the output projection W_o", 32), "W_qkv": ("W_qkv", 26), "W_1": ("W_1", 35), "W_2": ("W_2", 35),
    "W_head": ("the head's weight W_head", 54),
    "ln1_weight": ("LN1's weight", 36), "ln1_bias": ("LN1's bias", 36), "ln2_weight": ("LN2's weight", 36),
    "ln2_bias": ("LN2's bias", 36),
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



def words_of(name: str) -> str:
    return WORDS.get(name, (name, 0))[0]


def page_of(name: str) -> int:
    return WORDS.get(name, ("", 0))[1]


def sentence(change: str) -> str:
    return f"Your numbers are the lecture's computation {change}."


def fmt(value: float) -> str:
    return f"{value:.4g}"



def transformed(name: str, transform: Any) -> Any:
    """The edit that passes quantity `name` through `transform(value, trace)`."""
    return maths.Edit((maths.Change(name, transform),))
