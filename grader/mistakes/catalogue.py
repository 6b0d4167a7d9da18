"""Known mistakes of each step, as functions with the same arguments as the function they imitate.

Pages are those of the lecture (vision1.pdf) that warn against or explain the convention.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Callable

import torch
import torch.nn.functional as F

from grader.lecture_layout import QUADRANT_SIDE, QUADRANTS
from grader.params import BlockParams, ViTParams


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
    compute: Callable[..., torch.Tensor]


CATALOGUE: dict[str, list[Mistake]] = {}


def mistake(function: str, id: str, title: str, page: int):
    def register(compute: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
        CATALOGUE.setdefault(function, []).append(Mistake(id, function, title, page, compute))
        return compute

    return register


# ---------------------------------------------------------------- shared correct pieces

def _grid(images: torch.Tensor, P: int) -> torch.Tensor:
    B, C, H, W = images.shape
    return images.reshape(B, C, H // P, P, W // P, P)  # (B, C, rows, P, cols, P)


def _ln(x, w, b, eps=1e-6):
    return F.layer_norm(x, x.shape[-1:], w, b, eps)


def _split(x, W_qkv, b_qkv, H):
    B, N, D = x.shape
    qkv = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    return qkv[0], qkv[1], qkv[2]  # each (B, H, N, d)


def _weights(q, k):
    return (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).softmax(-1)


def _join(a, v, W_o, b_o):
    B, H, N, d = v.shape
    return (a @ v).transpose(1, 2).reshape(B, N, H * d) @ W_o + b_o


def _mha(x, W_qkv, b_qkv, W_o, b_o, H, weights=_weights):
    q, k, v = _split(x, W_qkv, b_qkv, H)
    return _join(weights(q, k), v, W_o, b_o)


def _mlp(x, W_1, b_1, W_2, b_2, approximate="none"):
    return F.gelu(x @ W_1 + b_1, approximate=approximate) @ W_2 + b_2


def _block_parts(p: BlockParams, H: int):
    attn = lambda z: _mha(z, p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)  # noqa: E731
    mlp = lambda z: _mlp(z, p.W_1, p.b_1, p.W_2, p.b_2)  # noqa: E731
    return attn, mlp


def _embed(images, params: ViTParams, order="cls_first"):
    P = params.patch_size
    B = images.shape[0]
    patches = _grid(images, P).permute(0, 2, 4, 1, 3, 5).reshape(B, -1, 3 * P * P)
    tokens = patches @ params.W_E + params.b_E  # (B, N, D)
    cls = params.cls_token.expand(B, 1, -1)
    if order == "cls_last":
        return torch.cat([tokens, cls], 1) + params.pos_table
    if order == "cls_without_position":
        return torch.cat([cls, tokens + params.pos_table[1:]], 1)
    if order == "position_rows_shifted":
        return torch.cat([cls + params.pos_table[-1:], tokens + params.pos_table[:-1]], 1)
    if order == "no_position":
        return torch.cat([cls, tokens], 1)
    return torch.cat([cls, tokens], 1) + params.pos_table


def _encode(images, params: ViTParams):
    x = _embed(images, params)
    for p in params.blocks:
        attn, mlp = _block_parts(p, params.num_heads)
        u = x + attn(_ln(x, p.ln1_weight, p.ln1_bias))
        x = u + mlp(_ln(u, p.ln2_weight, p.ln2_bias))
    return x


# ---------------------------------------------------------------- 01 flatten (pages 7-9, 42)

@mistake("normalize", "no_255", "You subtracted 0.5 and divided by 0.5 without first scaling to [0, 1] (/255).", 8)
def _(pixels):
    return (pixels.float() - 0.5) / 0.5


@mistake("normalize", "only_255", "You scaled to [0, 1] but did not then subtract 0.5 and divide by 0.5.", 8)
def _(pixels):
    return pixels.float() / 255


@mistake("normalize", "imagenet_stats", "You used ImageNet's mean/std; this checkpoint normalizes with 0.5/0.5.", 8)
def _(pixels):
    mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
    return (pixels.float() / 255 - mean) / std


@mistake("patchify", "pixel_major", "Each patch is flattened pixel-major (RGB, RGB, ...); the lecture flattens channel-major: all R, then G, then B.", 9)
def _(images, patch_size=16):
    B, C = images.shape[:2]
    return _grid(images, patch_size).permute(0, 2, 4, 3, 5, 1).reshape(B, -1, C * patch_size**2)


@mistake("patchify", "column_order", "Patches are ordered column by column; P1...P196 run row by row.", 7)
def _(images, patch_size=16):
    B, C = images.shape[:2]
    return _grid(images, patch_size).permute(0, 4, 2, 1, 3, 5).reshape(B, -1, C * patch_size**2)


@mistake("patchify", "transposed_patch", "Inside each channel you read the patch column by column; read it row by row.", 9)
def _(images, patch_size=16):
    B, C = images.shape[:2]
    return _grid(images, patch_size).permute(0, 2, 4, 1, 5, 3).reshape(B, -1, C * patch_size**2)


@mistake("patchify", "naive_reshape", "You reshaped the image straight to (B, N, 3*P*P) without cutting out patches first.", 9)
def _(images, patch_size=16):
    B, C = images.shape[:2]
    return images.reshape(B, -1, C * patch_size**2)


@mistake("count_tokens", "forgot_cls", "You counted the patches but not the CLS token.", 48)
def _(image_size, patch_size, cls=True):
    return (image_size // patch_size) ** 2


@mistake("count_tokens", "per_side", "You counted patches along one side only; the grid has side x side patches.", 7)
def _(image_size, patch_size, cls=True):
    return image_size // patch_size + int(cls)


# ---------------------------------------------------------------- 02 project (pages 9-13, 53)

@mistake("conv_to_linear", "reshape_no_transpose", "You reshaped the (192, 768) kernel to (768, 192) without transposing it.", 10)
def _(conv_weight):
    D = conv_weight.shape[0]
    return conv_weight.reshape(-1, D)


@mistake("conv_to_linear", "pixel_major", "Your W_E rows are pixel-major; they must follow the channel-major patch order (R, then G, then B).", 9)
def _(conv_weight):
    D = conv_weight.shape[0]
    return conv_weight.permute(0, 2, 3, 1).reshape(D, -1).T


@mistake("conv_to_linear", "transposed_kernel", "You swapped the kernel's rows and columns; read each channel row by row.", 9)
def _(conv_weight):
    D = conv_weight.shape[0]
    return conv_weight.transpose(2, 3).reshape(D, -1).T


@mistake("project", "no_bias", "You left out the bias b_E.", 10)
def _(patches, W_E, b_E):
    return patches @ W_E


@mistake("project", "activation", "You applied an activation after the projection; the patch layer is affine only.", 10)
def _(patches, W_E, b_E):
    return torch.relu(patches @ W_E + b_E)


@mistake("project", "gelu", "You applied GELU after the projection; the patch layer is affine only.", 10)
def _(patches, W_E, b_E):
    return F.gelu(patches @ W_E + b_E)


# ---------------------------------------------------------------- 03 position (pages 15-17)

@mistake("add_position", "unchanged", "You returned the tokens without adding the position table.", 16)
def _(tokens, pos_table):
    return tokens.clone()


@mistake("add_position", "scaled", "You scaled the tokens by sqrt(D) before adding position; ViT adds them as they are.", 16)
def _(tokens, pos_table):
    return tokens * math.sqrt(tokens.shape[-1]) + pos_table


@mistake("add_position", "first_row", "You added the same position row to every token; each row gets its own.", 17)
def _(tokens, pos_table):
    return tokens + pos_table[0]


@mistake("add_position", "subtracted", "You subtracted the position table; add WHAT and WHERE.", 16)
def _(tokens, pos_table):
    return tokens - pos_table


# ---------------------------------------------------------------- 04 cls (pages 18-23)

@mistake("prepend_cls", "appended", "You put CLS last; it goes first, at index 0.", 23)
def _(tokens, cls_token):
    return torch.cat([tokens, cls_token.expand(tokens.shape[0], 1, -1)], 1)


@mistake("prepend_cls", "zeros", "You prepended a row of zeros; prepend the learned CLS vector.", 20)
def _(tokens, cls_token):
    return torch.cat([torch.zeros_like(tokens[:, :1]), tokens], 1)


@mistake("prepend_cls", "added", "You added CLS to every token instead of prepending a new row.", 23)
def _(tokens, cls_token):
    return torch.cat([cls_token.expand(tokens.shape[0], 1, -1), tokens + cls_token], 1)


@mistake("embed", "cls_last", "CLS ended up last; prepend it at index 0, then add position.", 23)
def _(images, params):
    return _embed(images, params, "cls_last")


@mistake("embed", "cls_without_position", "CLS got no position vector; prepend CLS first, then add all 197 rows.", 23)
def _(images, params):
    return _embed(images, params, "cls_without_position")


@mistake("embed", "position_rows_shifted", "Position rows are shifted by one: row 0 of the table belongs to CLS.", 17)
def _(images, params):
    return _embed(images, params, "position_rows_shifted")


@mistake("embed", "no_position", "You forgot to add the position table.", 23)
def _(images, params):
    return _embed(images, params, "no_position")


# ---------------------------------------------------------------- 05 attention (pages 25-34)

@mistake("qkv_heads", "heads_interleaved", "You split the 3D columns per head first; they are [q | k | v], each split into H heads.", 32)
def _(x, W_qkv, b_qkv, num_heads):
    B, N, D = x.shape
    qkv = (x @ W_qkv + b_qkv).reshape(B, N, num_heads, 3, D // num_heads).permute(3, 0, 2, 1, 4)
    return qkv[0], qkv[1], qkv[2]


@mistake("qkv_heads", "head_dim_swapped", "You split each 192 features as (d, H); they are H heads of d consecutive features.", 32)
def _(x, W_qkv, b_qkv, num_heads):
    B, N, D = x.shape
    qkv = (x @ W_qkv + b_qkv).reshape(B, N, 3, D // num_heads, num_heads).permute(2, 0, 4, 1, 3)
    return qkv[0], qkv[1], qkv[2]


@mistake("qkv_heads", "no_bias", "You left out the qkv bias; the checkpoint has one.", 26)
def _(x, W_qkv, b_qkv, num_heads):
    return _split(x, W_qkv, torch.zeros_like(b_qkv), num_heads)


@mistake("qkv_heads", "qk_swapped", "You swapped q and k.", 26)
def _(x, W_qkv, b_qkv, num_heads):
    q, k, v = _split(x, W_qkv, b_qkv, num_heads)
    return k, q, v


@mistake("attention_weights", "no_scale", "You forgot to divide the scores by sqrt(d) = 8.", 28)
def _(q, k):
    return (q @ k.transpose(-2, -1)).softmax(-1)


@mistake("attention_weights", "scale_by_D", "You divided by sqrt(D); the scale is sqrt(d) of one head (sqrt(64) = 8).", 28)
def _(q, k):
    return (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1] * q.shape[1])).softmax(-1)


@mistake("attention_weights", "softmax_over_queries", "Your softmax runs over queries (columns sum to 1); each query's row must sum to 1.", 28)
def _(q, k):
    return (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).softmax(-2)


@mistake("attention_weights", "causal_mask", "You applied a causal mask; ViT uses full attention, every pair allowed.", 30)
def _(q, k):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    N = scores.shape[-1]
    mask = torch.ones(N, N, dtype=torch.bool).triu(1)
    return scores.masked_fill(mask, float("-inf")).softmax(-1)


@mistake("attention_weights", "k_q_order", "You computed k·qᵀ: rows are queries, columns are keys.", 30)
def _(q, k):
    return (k @ q.transpose(-2, -1) / math.sqrt(q.shape[-1])).softmax(-1)


@mistake("multi_head_attention", "no_output_projection", "You skipped the output projection W_o, b_o after joining the heads.", 32)
def _(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    q, k, v = _split(x, W_qkv, b_qkv, num_heads)
    B, H, N, d = v.shape
    return (_weights(q, k) @ v).transpose(1, 2).reshape(B, N, H * d)


@mistake("multi_head_attention", "residual_included", "You returned x + update; return only the update (the block adds the residual).", 34)
def _(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    return x + _mha(x, W_qkv, b_qkv, W_o, b_o, num_heads)


@mistake("multi_head_attention", "heads_joined_wrong", "You joined the heads without moving the head axis next to d; transpose (B, H, N, d) to (B, N, H, d) first.", 32)
def _(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    q, k, v = _split(x, W_qkv, b_qkv, num_heads)
    B, H, N, d = v.shape
    return (_weights(q, k) @ v).reshape(B, N, H * d) @ W_o + b_o


@mistake("multi_head_attention", "no_scale", "You forgot to divide the scores by sqrt(d).", 28)
def _(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    return _mha(x, W_qkv, b_qkv, W_o, b_o, num_heads,
                weights=lambda q, k: (q @ k.transpose(-2, -1)).softmax(-1))


# ---------------------------------------------------------------- 06 block (pages 34-37)

@mistake("layer_norm", "unbiased_variance", "You used the unbiased variance (N-1); LayerNorm divides by N.", 36)
def _(x, weight, bias, eps=1e-6):
    mean, var = x.mean(-1, keepdim=True), x.var(-1, keepdim=True, unbiased=True)
    return (x - mean) / torch.sqrt(var + eps) * weight + bias


@mistake("layer_norm", "eps_1e5", "You used eps = 1e-5 (PyTorch's default); this checkpoint's LayerNorm uses 1e-6.", 36)
def _(x, weight, bias, eps=1e-6):
    return _ln(x, weight, bias, 1e-5)


@mistake("layer_norm", "no_affine", "You left out the learned weight and bias.", 36)
def _(x, weight, bias, eps=1e-6):
    return _ln(x, None, None, eps)


@mistake("layer_norm", "wrong_axis", "You normalized over tokens; LayerNorm normalizes each token over its features.", 36)
def _(x, weight, bias, eps=1e-6):
    mean, var = x.mean(-2, keepdim=True), x.var(-2, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps) * weight + bias


@mistake("layer_norm", "std_not_var", "You divided by the variance instead of its square root.", 36)
def _(x, weight, bias, eps=1e-6):
    mean, var = x.mean(-1, keepdim=True), x.var(-1, keepdim=True, unbiased=False)
    return (x - mean) / (var + eps) * weight + bias


@mistake("mlp", "tanh_gelu", "You used the tanh approximation of GELU; this checkpoint uses the exact (erf) GELU.", 35)
def _(x, W_1, b_1, W_2, b_2):
    return _mlp(x, W_1, b_1, W_2, b_2, approximate="tanh")


@mistake("mlp", "relu", "You used ReLU; the MLP's activation is GELU.", 35)
def _(x, W_1, b_1, W_2, b_2):
    return torch.relu(x @ W_1 + b_1) @ W_2 + b_2


@mistake("mlp", "no_activation", "You left out the GELU between the two layers.", 35)
def _(x, W_1, b_1, W_2, b_2):
    return (x @ W_1 + b_1) @ W_2 + b_2


@mistake("block", "post_ln", "You normalized after each residual add (post-LN); this checkpoint is pre-LN: u = x + MSA(LN1(x)).", 34)
def _(x, p, num_heads):
    attn, mlp = _block_parts(p, num_heads)
    u = _ln(x + attn(x), p.ln1_weight, p.ln1_bias)
    return _ln(u + mlp(u), p.ln2_weight, p.ln2_bias)


@mistake("block", "mlp_residual_to_input", "You added the MLP update to the block's input x; add it to u, the attention-updated rows.", 35)
def _(x, p, num_heads):
    attn, mlp = _block_parts(p, num_heads)
    u = x + attn(_ln(x, p.ln1_weight, p.ln1_bias))
    return x + mlp(_ln(u, p.ln2_weight, p.ln2_bias))


@mistake("block", "no_residual", "You returned the updates without the residual additions.", 34)
def _(x, p, num_heads):
    attn, mlp = _block_parts(p, num_heads)
    u = attn(_ln(x, p.ln1_weight, p.ln1_bias))
    return mlp(_ln(u, p.ln2_weight, p.ln2_bias))


@mistake("block", "one_norm", "You used LN1 for both sublayers; the MLP has its own LN2.", 36)
def _(x, p, num_heads):
    attn, mlp = _block_parts(p, num_heads)
    u = x + attn(_ln(x, p.ln1_weight, p.ln1_bias))
    return u + mlp(_ln(u, p.ln1_weight, p.ln1_bias))


@mistake("block", "tanh_gelu", "Your MLP uses the tanh approximation of GELU; use the exact (erf) GELU.", 35)
def _(x, p, num_heads):
    attn, _ = _block_parts(p, num_heads)
    u = x + attn(_ln(x, p.ln1_weight, p.ln1_bias))
    return u + _mlp(_ln(u, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2, "tanh")


# ---------------------------------------------------------------- 07 head (pages 38-40, 50-52)

@mistake("read_cls", "mean_pooling", "You averaged the tokens (mean pooling); this checkpoint reads the CLS row.", 18)
def _(x, norm_weight, norm_bias):
    return _ln(x, norm_weight, norm_bias).mean(1)


@mistake("read_cls", "no_final_norm", "You read CLS without the final LayerNorm.", 38)
def _(x, norm_weight, norm_bias):
    return x[:, 0]


@mistake("read_cls", "last_token", "You read the last row; CLS is row 0.", 38)
def _(x, norm_weight, norm_bias):
    return _ln(x, norm_weight, norm_bias)[:, -1]


@mistake("classify", "softmax", "You returned probabilities; classify returns the logits (no softmax, page 52).", 52)
def _(h, W_head, b_head):
    return (h @ W_head + b_head).softmax(-1)


@mistake("classify", "no_bias", "You left out the head's bias.", 54)
def _(h, W_head, b_head):
    return h @ W_head


@mistake("vit_forward", "mean_pooling", "You pooled the mean of all tokens; this checkpoint reads CLS.", 18)
def _(images, params):
    return _ln(_encode(images, params), params.norm_weight, params.norm_bias).mean(1) @ params.W_head + params.b_head


@mistake("vit_forward", "no_final_norm", "You skipped the final LayerNorm before reading CLS.", 52)
def _(images, params):
    return _encode(images, params)[:, 0] @ params.W_head + params.b_head


@mistake("vit_forward", "softmax", "You returned probabilities; vit_forward returns logits.", 52)
def _(images, params):
    h = _ln(_encode(images, params), params.norm_weight, params.norm_bias)[:, 0]
    return (h @ params.W_head + params.b_head).softmax(-1)


# ---------------------------------------------------------------- 08 occlusion (pages 41-44)

def _cover(images, top, left, size, value=0.0):
    covered = images.clone()
    covered[:, :, top:top + size, left:left + size] = value
    return covered


def _target_probability(model, images, target):
    return model(images).softmax(-1)[:, target]


@mistake("cover", "swapped_axes", "You swapped top and left: top counts rows (height), left counts columns.", 42)
def _(images, top, left, size, value=0.0):
    return _cover(images, left, top, size, value)


@mistake("cover", "black", "You covered with black (-1 after normalization); normalized 0 is mid-gray.", 42)
def _(images, top, left, size, value=0.0):
    return _cover(images, top, left, size, -1.0)


@mistake("cover", "ignored_value", "You ignored the `value` argument.", 42)
def _(images, top, left, size, value=0.0):
    return _cover(images, top, left, size, 0.0)


@mistake("quadrant_probabilities", "black", "You covered with black (-1); normalized 0 is mid-gray.", 42)
def _(model, image, target):
    return torch.cat([_target_probability(model, _cover(image, q.top, q.left, QUADRANT_SIDE, -1.0), target)
                      for q in QUADRANTS])


@mistake("quadrant_probabilities", "accumulated", "Your covers accumulate on one image; use a fresh copy for each quadrant.", 42)
def _(model, image, target):
    covered, out = image.clone(), []
    for q in QUADRANTS:
        covered[:, :, q.top:q.top + QUADRANT_SIDE, q.left:q.left + QUADRANT_SIDE] = 0
        out.append(_target_probability(model, covered, target))
    return torch.cat(out)


@mistake("quadrant_probabilities", "column_order", "Your quadrants are in the order TL, BL, TR, BR; the lecture's is TL, TR, BL, BR.", 43)
def _(model, image, target):
    order = [QUADRANTS[i] for i in (0, 2, 1, 3)]  # TL, BL, TR, BR
    return torch.cat([_target_probability(model, _cover(image, q.top, q.left, QUADRANT_SIDE), target) for q in order])


@mistake("quadrant_probabilities", "drops", "You returned the drops (covered - original); return the covered probabilities.", 43)
def _(model, image, target):
    base = _target_probability(model, image, target)
    return torch.cat([_target_probability(model, _cover(image, q.top, q.left, QUADRANT_SIDE), target)
                      for q in QUADRANTS]) - base


def _patch_covers(image, P, value=0.0):
    side = image.shape[-1] // P
    return torch.cat([_cover(image, r * P, c * P, P, value) for r in range(side) for c in range(side)])


def _map(model, image, target, P, value=0.0):
    side = image.shape[-1] // P
    base = _target_probability(model, image, target)
    return (_target_probability(model, _patch_covers(image, P, value), target) - base).reshape(side, side)


@mistake("occlusion_map", "sign", "Your map is original - covered; the lecture's is covered - original (drops are negative).", 44)
def _(model, image, target, patch_size=16):
    return -_map(model, image, target, patch_size)


@mistake("occlusion_map", "points", "You returned percentage points; return the change in probability (a fraction).", 44)
def _(model, image, target, patch_size=16):
    return 100 * _map(model, image, target, patch_size)


@mistake("occlusion_map", "transposed", "Your map is transposed: row r, column c must be patch P(14r + c + 1).", 44)
def _(model, image, target, patch_size=16):
    return _map(model, image, target, patch_size).T


@mistake("occlusion_map", "black", "You covered with black (-1); normalized 0 is mid-gray.", 44)
def _(model, image, target, patch_size=16):
    return _map(model, image, target, patch_size, -1.0)


@mistake("occlusion_map", "logits", "You measured the change of the target logit; measure its probability.", 44)
def _(model, image, target, patch_size=16):
    side = image.shape[-1] // patch_size
    base = model(image)[:, target]
    return (model(_patch_covers(image, patch_size))[:, target] - base).reshape(side, side)
