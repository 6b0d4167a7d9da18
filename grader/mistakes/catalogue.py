"""Known mistakes of each step, each one small edit of the lecture's computation (grader.lecture_maths).

A mistake names the quantities it changes (`replaced("v", "k")`: the values V replaced by the keys
K); everything else is the correct computation. Pages are those of the lecture (vision1.pdf) that
warn against or explain the convention.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from grader import lecture_maths as maths
from grader.lecture_layout import QUADRANTS
from grader.lecture_maths import Edit, Trace, left_out, recomputed, replaced, set_to, times

Array = Any


@dataclass(frozen=True)
class Mistake:
    """One recognisable wrong answer."""

    id: str
    """Stable identifier, e.g. `pixel_major`; also the suffix of its fixture tensors."""
    function: str
    """The student function it imitates."""
    title: str
    """What the student did, in one sentence addressed to them."""
    page: int
    """The lecture page that explains the right convention."""
    edit: Edit | Callable[..., Edit]
    """The edit of the lecture's computation, or, where it needs them, a function of the call's arguments
    returning it (a residual that adds the input x)."""

    def compute(self, *args: Any) -> Any:
        """What the wrong implementation returns for these arguments."""
        edit = self.edit if isinstance(self.edit, Edit) else self.edit(*args)
        return maths.run(getattr(maths, self.function), args, edit)[0]


CATALOGUE: dict[str, list[Mistake]] = {}


def mistake(function: str, id: str, title: str, page: int, edit: Edit | Callable[..., Edit]) -> None:
    CATALOGUE.setdefault(function, []).append(Mistake(id, function, title, page, edit))


def known_by_edit(key: tuple | None, function: str) -> Mistake | None:
    """The catalogued mistake made by the edit with this key (`Edit.key`), `function`'s own first,
    else None: a mistake the diagnosis search finds in another function (the softmax over the
    queries inside multi_head_attention) is then the same mistake as the catalogue's, in reports too."""
    try:
        found = _by_edit().get(key, []) if key is not None else []
    except TypeError:  # a value without a hash (an array) is in no catalogued key
        return None
    return next((known for known in found if known.function == function), found[0] if found else None)


@functools.cache
def _by_edit() -> dict[tuple, list[Mistake]]:
    """Every catalogued mistake made by a fixed edit (not one built from the call's arguments), by key."""
    index: dict[tuple, list[Mistake]] = {}
    for mistakes in CATALOGUE.values():
        for known in mistakes:
            if isinstance(known.edit, Edit) and known.edit.key is not None:
                index.setdefault(known.edit.key, []).append(known)
    return index


# ---------------------------------------------------------------- edits shared by several functions

def _layer_norm(x: Array, weight: Array, bias: Array) -> Array:
    return maths.layer_norm(x, weight, bias)


def _concat_rows(t: Trace, *names: str) -> Array:
    return maths.ops_for(t[names[0]]).concat([t[n] for n in names], axis=1)


CLS_LAST = recomputed("with_cls", lambda t: _concat_rows(t, "tokens", "cls"))
IMAGENET_MEAN, IMAGENET_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


def _per_channel(values: tuple[float, ...]) -> Callable[[Array, Trace], Array]:
    return lambda value, t: maths.ops_for(t["scaled"]).asarray(values).reshape(1, 3, 1, 1)


def _causal_mask(scores: Array) -> Array:
    """−∞ above the diagonal: query i may not see keys after i."""
    n = scores.shape[-1]
    return maths.ops_for(scores).asarray(np.triu(np.full((n, n), -np.inf), 1).tolist())


def _unbiased(var: Array, t: Trace) -> Array:
    n = t["centred"].shape[t["norm_axis"]]
    return var * n / (n - 1)


# ---------------------------------------------------------------- 01 flatten (pages 7-9, 42)

mistake("normalize", "no_255", "You subtracted 0.5 and divided by 0.5 without first scaling to [0, 1] (/255).", 8,
        left_out("pixel_range"))
mistake("normalize", "only_255", "You scaled to [0, 1] but did not then subtract 0.5 and divide by 0.5.", 8,
        left_out("pixel_mean") + left_out("pixel_std"))
mistake("normalize", "imagenet_stats", "You used ImageNet's mean/std; this checkpoint normalizes with 0.5/0.5.", 8,
        Edit((maths.Change("pixel_mean", _per_channel(IMAGENET_MEAN)),
              maths.Change("pixel_std", _per_channel(IMAGENET_STD)))))

mistake("patchify", "pixel_major", "Each patch is flattened pixel-major (RGB, RGB, ...); the lecture flattens "
        "channel-major: all R, then G, then B.", 9, set_to("patch_axes", (0, 2, 4, 3, 5, 1)))
mistake("patchify", "column_order", "Patches are ordered column by column; P1...P196 run row by row.", 7,
        set_to("patch_axes", (0, 4, 2, 1, 3, 5)))
mistake("patchify", "transposed_patch", "Inside each channel you read the patch column by column; read it row by row.",
        9, set_to("patch_axes", (0, 2, 4, 1, 5, 3)))
mistake("patchify", "naive_reshape", "You reshaped the image straight to (B, N, 3*P*P) without cutting out patches "
        "first.", 9, maths.Edit((maths.Change("patches", lambda value, t: t["images"].reshape(value.shape)),)))

mistake("count_tokens", "forgot_cls", "You counted the patches but not the CLS token.", 48, left_out("cls_count"))
mistake("count_tokens", "per_side", "You counted patches along one side only; the grid has side x side patches.", 7,
        replaced("patch_count", "side"))

# ---------------------------------------------------------------- 02 project (pages 9-13, 53)

mistake("conv_to_linear", "reshape_no_transpose", "You reshaped the (D, 3·P·P) kernel straight to (3·P·P, D) "
        "without transposing it (the lecture's (192, 768) to (768, 192)).", 10,
        recomputed("W_E", lambda t: t["kernel"].reshape(-1, t["kernel"].shape[0])))
mistake("conv_to_linear", "pixel_major", "Your W_E rows are pixel-major; they must follow the channel-major patch "
        "order (R, then G, then B).", 9, set_to("kernel_axes", (0, 2, 3, 1)))
mistake("conv_to_linear", "transposed_kernel", "You swapped the kernel's rows and columns; read each channel row by "
        "row.", 9, set_to("kernel_axes", (0, 1, 3, 2)))

mistake("project", "no_bias", "You left out the bias b_E.", 10, left_out("b_E"))
mistake("project", "activation", "You applied an activation after the projection; the patch layer is affine only.",
        10, Edit((maths.Change("tokens", lambda value, t: maths.ops_for(value).relu(value)),)))
mistake("project", "gelu", "You applied GELU after the projection; the patch layer is affine only.", 10,
        Edit((maths.Change("tokens", lambda value, t: maths.ops_for(value).gelu(value)),)))

# ---------------------------------------------------------------- 03 position (pages 15-17)

mistake("add_position", "unchanged", "You returned the tokens without adding the position table.", 16,
        left_out("pos_table"))
mistake("add_position", "scaled", "You scaled the tokens by sqrt(D) before adding position; ViT adds them as they "
        "are.", 16, recomputed("with_position", lambda t: t["tokens"] * math.sqrt(t["tokens"].shape[-1])
                               + t["pos_table"]))
mistake("add_position", "first_row", "You added the same position row to every token; each row gets its own.", 17,
        Edit((maths.Change("pos_table", lambda value, t: value[0]),)))
mistake("add_position", "subtracted", "You subtracted the position table; add WHAT and WHERE.", 16,
        times("pos_table", -1))

# ---------------------------------------------------------------- 04 cls (pages 18-23)

mistake("prepend_cls", "appended", "You put CLS last; it goes first, at index 0.", 23, CLS_LAST)
mistake("prepend_cls", "zeros", "You prepended a row of zeros; prepend the learned CLS vector.", 20, times("cls", 0))
mistake("prepend_cls", "added", "You added CLS to every token instead of prepending a new row.", 23,
        recomputed("with_cls", lambda t: maths.ops_for(t["cls"]).concat([t["cls"], t["tokens"] + t["cls_token"]],
                                                                         axis=1)))

mistake("embed", "cls_last", "CLS ended up last; prepend it at index 0, then add position.", 23, CLS_LAST)
mistake("embed", "cls_without_position", "CLS got no position vector; prepend CLS first, then add all 197 rows.", 23,
        Edit((maths.Change("embedded", lambda value, t: maths.ops_for(value).concat(
            [t["cls"], value[:, 1:]], axis=1)),)))
mistake("embed", "position_rows_shifted", "Position rows are shifted by one: row 0 of the table belongs to CLS.", 17,
        Edit((maths.Change("pos_table", lambda value, t: maths.ops_for(value).concat(
            [value[-1:], value[:-1]], axis=0)),)))
mistake("embed", "no_position", "You forgot to add the position table.", 23, left_out("pos_table"))

# ---------------------------------------------------------------- 05 attention (pages 25-34)

mistake("qkv_heads", "heads_interleaved", "You split the 3D columns per head first; they are [q | k | v], each split "
        "into H heads.", 32, set_to("qkv_layout", ("head", "qkv", "feature")))
mistake("qkv_heads", "head_dim_swapped", "You split each 192 features as (d, H); they are H heads of d consecutive "
        "features.", 32, set_to("qkv_layout", ("qkv", "feature", "head")))
mistake("qkv_heads", "no_bias", "You left out the qkv bias; the checkpoint has one.", 26, left_out("b_qkv"))
mistake("qkv_heads", "qk_swapped", "You swapped q and k.", 26, set_to("qkv_parts", (1, 0, 2)))

mistake("attention_weights", "no_scale", "You forgot to divide the scores by sqrt(d) = 8.", 28, left_out("sqrt_d"))
mistake("attention_weights", "scale_by_D", "You divided by sqrt(D); the scale is sqrt(d) of one head (sqrt(64) = 8).",
        28, Edit((maths.Change("sqrt_d", lambda value, t: value * math.sqrt(t["q"].shape[1])),)))
mistake("attention_weights", "softmax_over_queries", "Your softmax runs over queries (columns sum to 1); each query's "
        "row must sum to 1.", 28, set_to("softmax_axis", -2))
mistake("attention_weights", "causal_mask", "You applied a causal mask; ViT uses full attention, every pair allowed.",
        30, Edit((maths.Change("scores", lambda value, t: value + _causal_mask(value)),)))
mistake("attention_weights", "k_q_order", "You computed k·qᵀ: rows are queries, columns are keys.", 30,
        Edit((maths.Change("scores", lambda value, t: value.mT),)))


def _residual_included(x: Array, *rest: Any) -> Edit:
    return Edit((maths.Change("attn", lambda value, t: x + value),))


mistake("multi_head_attention", "no_output_projection", "You skipped the output projection W_o, b_o after joining "
        "the heads.", 32, replaced("attn", "joined"))
mistake("multi_head_attention", "residual_included", "You returned x + update; return only the update (the block "
        "adds the residual).", 34, _residual_included)
mistake("multi_head_attention", "heads_joined_wrong", "You joined the heads without moving the head axis next to d; "
        "transpose (B, H, N, d) to (B, N, H, d) first.", 32,
        Edit((maths.Change("joined", lambda value, t: t["heads"].reshape(value.shape)),)))
mistake("multi_head_attention", "no_scale", "You forgot to divide the scores by sqrt(d).", 28, left_out("sqrt_d"))

# ---------------------------------------------------------------- 06 block (pages 34-37)

TANH_GELU = recomputed("activated", lambda t: maths.ops_for(t["hidden"]).gelu(t["hidden"], approximate="tanh"))

mistake("layer_norm", "unbiased_variance", "You used the unbiased variance (N-1); LayerNorm divides by N.", 36,
        Edit((maths.Change("var", _unbiased),)))
mistake("layer_norm", "eps_1e5", "You used eps = 1e-5 (PyTorch's default); this checkpoint's LayerNorm uses 1e-6.", 36,
        set_to("eps", 1e-5))
mistake("layer_norm", "no_affine", "You left out the learned weight and bias.", 36,
        left_out("ln_weight") + left_out("ln_bias"))
mistake("layer_norm", "wrong_axis", "You normalized over tokens; LayerNorm normalizes each token over its features.",
        36, set_to("norm_axis", -2))
mistake("layer_norm", "std_not_var", "You divided by the variance instead of its square root.", 36,
        recomputed("std", lambda t: t["var"] + t["eps"]))

mistake("mlp", "tanh_gelu", "You used the tanh approximation of GELU; this checkpoint uses the exact (erf) GELU.", 35,
        TANH_GELU)
mistake("mlp", "relu", "You used ReLU; the MLP's activation is GELU.", 35,
        recomputed("activated", lambda t: maths.ops_for(t["hidden"]).relu(t["hidden"])))
mistake("mlp", "no_activation", "You left out the GELU between the two layers.", 35, replaced("activated", "hidden"))


def _normed_by(weight: str, bias: str) -> Callable[[Array, Trace], Array]:
    """A block quantity passed through one of the block's LayerNorms."""
    return lambda value, t: _layer_norm(value, t[weight], t[bias])


#: Post-LN: each LayerNorm moved from a sublayer's input to after its residual add.
POST_LN = Edit((maths.Change("ln1", lambda value, t: t["x"]), maths.Change("u", _normed_by("ln1_weight", "ln1_bias")),
                maths.Change("ln2", lambda value, t: t["u"]),
                maths.Change("out", _normed_by("ln2_weight", "ln2_bias"))))

mistake("block", "post_ln", "You normalized after each residual add (post-LN); this checkpoint is pre-LN: "
        "u = x + MSA(LN1(x)).", 34, POST_LN)
mistake("block", "mlp_residual_to_input", "You added the MLP update to the block's input x; add it to u, the "
        "attention-updated rows.", 35, replaced("residual_2", "x"))
mistake("block", "no_residual", "You returned the updates without the residual additions.", 34,
        left_out("residual_1") + left_out("residual_2"))
mistake("block", "one_norm", "You used LN1 for both sublayers; the MLP has its own LN2.", 36,
        Edit((maths.Change("ln2", lambda value, t: _layer_norm(t["u"], t["ln1_weight"], t["ln1_bias"])),)))
mistake("block", "tanh_gelu", "Your MLP uses the tanh approximation of GELU; use the exact (erf) GELU.", 35,
        TANH_GELU)

# ---------------------------------------------------------------- 07 head (pages 38-40, 50-52)

MEAN_POOLING = recomputed("h", lambda t: t["normed"].mean(1))
NO_FINAL_NORM = recomputed("h", lambda t: t["encoded"][:, 0])
SOFTMAX = Edit((maths.Change("logits", lambda value, t: maths.ops_for(value).softmax(value, axis=-1)),))

mistake("read_cls", "mean_pooling", "You averaged the tokens (mean pooling); this checkpoint reads the CLS row.", 18,
        MEAN_POOLING)
mistake("read_cls", "no_final_norm", "You read CLS without the final LayerNorm.", 38, NO_FINAL_NORM)
mistake("read_cls", "last_token", "You read the last row; CLS is row 0.", 38, set_to("cls_row", -1))

mistake("classify", "softmax", "You returned probabilities; classify returns the logits (no softmax, page 52).", 52,
        SOFTMAX)
mistake("classify", "no_bias", "You left out the head's bias.", 54, left_out("b_head"))

mistake("vit_forward", "mean_pooling", "You pooled the mean of all tokens; this checkpoint reads CLS.", 18,
        MEAN_POOLING)
mistake("vit_forward", "no_final_norm", "You skipped the final LayerNorm before reading CLS.", 52, NO_FINAL_NORM)
mistake("vit_forward", "softmax", "You returned probabilities; vit_forward returns logits.", 52, SOFTMAX)

# ---------------------------------------------------------------- 08 occlusion (pages 41-44)

BLACK = set_to("fill", -1.0)


def _swapped_axes(images: Array, top: int, left: int, size: int, value: float = 0.0) -> Edit:
    return recomputed("covered", lambda t: maths.cover(images, left, top, size, t["fill"]))


def _ignored_value(images: Array, top: int, left: int, size: int, value: float = 0.0) -> Edit:
    return set_to("fill", 0.0)


def _accumulated(model: Callable[[Array], Array], image: Array, target: int) -> Edit:
    """Each quadrant covered on the previous quadrant's covered image."""
    def compute(t: Trace) -> Array:
        covered, out, half = image, [], t["quadrant_side"]  # H/2, as the lecture's computation took it
        for q in t["quadrants"]:
            covered = maths.cover(covered, q.row * half, q.column * half, half, t["fill"])
            out.append(maths.target_probability(model, covered, target))
        return maths.ops_for(image).concat(out, axis=0)
    return recomputed("probabilities", compute)


def _drops(model: Callable[[Array], Array], image: Array, target: int) -> Edit:
    return Edit((maths.Change("probabilities", lambda value, t: value - maths.target_probability(model, image, target)),))


def _logits(model: Callable[[Array], Array], image: Array, target: int, patch_size: int = 16) -> Edit:
    """The target's logit where the lecture reads its probability, for the original and every cover."""
    return Edit((maths.Change("original", lambda value, t: model(image)[:, target]),
                 maths.Change("covered_probabilities", lambda value, t: model(t["covers"])[:, target])))


mistake("cover", "swapped_axes", "You swapped top and left: top counts rows (height), left counts columns.", 42,
        _swapped_axes)
mistake("cover", "black", "You covered with black (-1 after normalization); normalized 0 is mid-gray.", 42, BLACK)
mistake("cover", "ignored_value", "You ignored the `value` argument.", 42, _ignored_value)

mistake("quadrant_probabilities", "black", "You covered with black (-1); normalized 0 is mid-gray.", 42, BLACK)
mistake("quadrant_probabilities", "accumulated", "Your covers accumulate on one image; use a fresh copy for each "
        "quadrant.", 42, _accumulated)
mistake("quadrant_probabilities", "column_order", "Your quadrants are in the order TL, BL, TR, BR; the lecture's is "
        "TL, TR, BL, BR.", 43, set_to("quadrants", tuple(QUADRANTS[i] for i in (0, 2, 1, 3))))
mistake("quadrant_probabilities", "drops", "You returned the drops (covered - original); return the covered "
        "probabilities.", 43, _drops)

mistake("occlusion_map", "sign", "Your map is original - covered; the lecture's is covered - original (drops are "
        "negative).", 44, times("change", -1))
mistake("occlusion_map", "points", "You returned percentage points; return the change in probability (a fraction).",
        44, times("change", 100))
mistake("occlusion_map", "transposed", "Your map is transposed: row r, column c must be patch P(14r + c + 1).", 44,
        Edit((maths.Change("change", lambda value, t: value.mT),)))
mistake("occlusion_map", "black", "You covered with black (-1); normalized 0 is mid-gray.", 44, BLACK)
mistake("occlusion_map", "logits", "You measured the change of the target logit; measure its probability.", 44,
        _logits)
