"""The diagnosis search: one edit of the lecture's computation named when exactly one reproduces a wrong
answer, nothing named for a right one or for numbers no single edit explains, and within its budget.

The wrong answers here are written independently in torch, as a student would, not by the lecture
maths module that the search edits."""
from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from grader.expected.arguments import TorchReader, read
from grader.expected.store import Case, load_manifest, load_cases
from grader.paths import FIXTURES
from grader import numerics, search
from grader.suites import findings
from grader.worker.serving import Context
from grader.numerics import DEFAULT_TOLERANCE

CHECKPOINT = str(FIXTURES / load_manifest()["checkpoint"]["file"])


def _case(step: str, visibility: str, name: str) -> Case:
    case = next(c for c in load_cases(step, visibility) if c.name == name)
    case.extra["checkpoint"] = CHECKPOINT  # as the grader sets it
    return case


@functools.cache
def _context() -> Context:
    return Context(CHECKPOINT)  # the workers' checkpoint


def _torch_args(case: Case) -> list[Any]:
    """The case's arguments as a student's function receives them: read as the worker reads them."""
    return [read(spec, case.tensors, TorchReader(_context())) for spec in case.args]


def _heads_from_keys(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1)
    return (A @ k).transpose(1, 2).reshape(B, N, D) @ W_o + b_o  # A·K: the values are never used


def _table_reversed(tokens, pos_table):
    return tokens + pos_table.flip(0)


def _eps_outside_the_root(x, weight, bias):
    mean = x.mean(-1, keepdim=True)
    std = (x - mean).pow(2).mean(-1, keepdim=True).sqrt() + 1e-6
    return (x - mean) / std * weight + bias


def _post_ln(x, p, H):
    def attention(z):
        return _heads_from_values(z, p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)
    u = F.layer_norm(x + attention(x), (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6)
    mlp = F.gelu(u @ p.W_1 + p.b_1) @ p.W_2 + p.b_2
    return F.layer_norm(u + mlp, (x.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6)


def _heads_from_values(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1)
    return (A @ v).transpose(1, 2).reshape(B, N, D) @ W_o + b_o


def _softmax_over_queries(q, k):
    return (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).softmax(-2)


def _heads_softmax_over_queries(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-2)  # columns sum to 1
    return (A @ v).transpose(1, 2).reshape(B, N, D) @ W_o + b_o


def _uncentred_variance(x, weight, bias):
    mean = x.mean(-1, keepdim=True)
    return (x - mean) / (x.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt() * weight + bias  # RMS, not std


def _embed_position_before_cls(images, vit):
    x = F.conv2d(images, vit.conv_weight, vit.b_E, stride=vit.patch_size).flatten(2).transpose(1, 2)
    x = x + vit.pos_table[:x.shape[1]]  # the table's first N rows on the patches, CLS left without one
    return torch.cat([vit.cls_token.expand(x.shape[0], 1, -1), x], 1)


def _patches_scaled_again(patches, W_E, b_E):
    return (patches / 255) @ W_E + b_E  # normalized rows divided by 255 once more


def _bias_multiplied(patches, W_E, b_E):
    return torch.einsum("bnk,kd,d->bnd", patches, W_E, b_E)  # the bias a third factor of the product


def _position_then_layer_norm(tokens, pos_table):
    return F.layer_norm(tokens + pos_table, tokens.shape[-1:])  # as a text model's embeddings


def _embedded(images, vit):
    """The lecture's embedding, written with torch's own operators: [CLS, patches] + the position table."""
    x = F.conv2d(images, vit.conv_weight, vit.b_E, stride=vit.patch_size).flatten(2).transpose(1, 2)
    return torch.cat([vit.cls_token.expand(x.shape[0], 1, -1), x], 1) + vit.pos_table


def _vit_final_norm_twice(images, vit):
    x = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    for _ in range(2):  # page 52's norm, then read_cls's own
        x = F.layer_norm(x, (x.shape[-1],), vit.norm_weight, vit.norm_bias, 1e-6)
    return x[:, 0] @ vit.W_head + vit.b_head


def _centred_over_tokens(x, weight, bias):
    centred = x - x.mean(-2, keepdim=True)  # each feature's mean over the tokens
    return centred / (centred.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt() * weight + bias


def _rms_norm(x, weight, bias):
    return x / (x.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt() * weight + bias  # no centring at all


def _bias_in_weights(patches, W_E, b_E):
    return patches @ (W_E + b_E)  # b_E folded into every row of W_E


def _block_with(x, p, H, gelu=F.gelu):
    u = x + _heads_from_values(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6),
                               p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)
    z = F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6) @ p.W_1 + p.b_1
    return u + gelu(z) @ p.W_2 + p.b_2


def _head_logits(x, vit):
    """The ViT's logits from the last block's rows: the final LayerNorm, row 0, the head."""
    h = F.layer_norm(x, (x.shape[-1],), vit.norm_weight, vit.norm_bias, 1e-6)[:, 0]
    return h @ vit.W_head + vit.b_head



def _block_norms_weight_bias_swapped(x, p, H):
    swapped = replace(p, ln1_weight=p.ln1_bias, ln1_bias=p.ln1_weight, ln2_weight=p.ln2_bias, ln2_bias=p.ln2_weight)
    return _block_with(x, swapped, H)


def _block_gelu_without_half(x, p, H):
    return _block_with(x, p, H, lambda z: z * (1 + torch.erf(z / 2 ** 0.5)))


def _heads_projected_by_W_o_transposed(x, W_qkv, b_qkv, W_o, b_o, H):
    return _heads_from_values(x, W_qkv, b_qkv, W_o.T, b_o, H)


def _weights_without_exp(q, k):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    shifted = scores - scores.amax(-1, keepdim=True)
    return shifted / shifted.sum(-1, keepdim=True)


def _sigmoid_logits(h, W_head, b_head):
    return torch.sigmoid(h @ W_head + b_head)


def _max_pooled_then_normed(x, weight, bias):
    return F.layer_norm(x.amax(1), (x.shape[-1],), weight, bias, 1e-6)


def _vit_without_last_block(images, vit):
    x = _embedded(images, vit)
    for p in vit.blocks[:-1]:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x, vit)


def _embed_normalized_again(images, vit):
    images = (images / 255 - 0.5) / 0.5  # step 01's normalize, on images it has already normalized
    return _embedded(images, vit)


def _vit_blocks_on_the_embedding(images, vit):
    x = _embedded(images, vit)
    rows = x
    for p in vit.blocks:
        rows = _block_with(x, p, vit.num_heads)  # every block reads the embedded rows
    h = F.layer_norm(rows, (x.shape[-1],), vit.norm_weight, vit.norm_bias, 1e-6)[:, 0]
    return h @ vit.W_head + vit.b_head


def _products_averaged(patches, W_E, b_E):
    return (patches.unsqueeze(-1) * W_E).mean(dim=2) + b_E  # the products' mean over the inputs, not their sum


def _patches_centred(patches, W_E, b_E):
    return (patches - patches.mean(-1, keepdim=True)) @ W_E + b_E


def _embed_images_transposed(images, vit):
    images = images.transpose(-2, -1)  # (B, 3, W, H): width and height swapped
    return _embedded(images, vit)


def _weights_over_the_whole_tensor(q, k):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    weights = (scores - scores.amax(-1, keepdim=True)).exp()
    return weights / weights.sum()  # every image, head and row at once


def _one_softmax_over_everything(q, k):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    return scores.flatten().softmax(0).view_as(scores)


def _centred_over_images(x, weight, bias):
    centred = x - x.mean(0, keepdim=True)  # each feature's mean over the batch, as BatchNorm
    return centred / (centred.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt() * weight + bias


def _block_norm_after_sublayer(x, p, H):
    def norm(z, weight, bias):
        return F.layer_norm(z, (z.shape[-1],), weight, bias, 1e-6)
    u = x + norm(_heads_from_values(x, p.W_qkv, p.b_qkv, p.W_o, p.b_o, H), p.ln1_weight, p.ln1_bias)
    return u + norm(F.gelu(u @ p.W_1 + p.b_1) @ p.W_2 + p.b_2, p.ln2_weight, p.ln2_bias)


def _tanh_logits(h, W_head, b_head):
    return h.tanh() @ W_head + b_head  # the pre-logits tanh of the ViT paper's fine-tuning


def _vit_norm_weight_as_bias(images, vit):
    x = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    h = F.layer_norm(x, (x.shape[-1],), vit.norm_weight, vit.norm_weight, 1e-6)[:, 0]
    return h @ vit.W_head + vit.b_head


def _product_over_root_K(patches, W_E, b_E):
    return patches @ W_E / patches.shape[-1] ** 0.5 + b_E  # attention's 1/√d carried over to the projection


def _table_repeat_interleaved(tokens, pos_table):
    B, N, D = tokens.shape
    return tokens + pos_table.repeat_interleave(B, dim=0).view(B, N, D)  # p0, p0, p1, p1, ... for two images


def _weights_scores_divided_by_max(q, k):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    weights = (scores / scores.amax(-1, keepdim=True)).exp()  # "normalized by the maximum"
    return weights / weights.sum(-1, keepdim=True)


def _heads_count_as_size(x, W_qkv, b_qkv, W_o, b_o, H):
    return _heads_from_values(x, W_qkv, b_qkv, W_o, b_o, x.shape[-1] // H)  # D/H heads of H features


def _vit_norm_after_every_block(images, vit):
    x = _embedded(images, vit)
    for p in vit.blocks:
        x = F.layer_norm(_block_with(x, p, vit.num_heads), (x.shape[-1],), vit.norm_weight, vit.norm_bias, 1e-6)
    return _head_logits(x, vit)


def _tokens_normalized(patches, W_E, b_E):
    tokens = patches @ W_E + b_E
    return F.layer_norm(tokens, tokens.shape[-1:])  # CLIP's ln_pre, without weight or bias


def _cls_plus_patch_mean(x, weight, bias):
    return F.layer_norm(x[:, 0] + x[:, 1:].mean(1), (x.shape[-1],), weight, bias, 1e-6)


def _patch_mean_pooled(x, weight, bias):
    return F.layer_norm(x, (x.shape[-1],), weight, bias, 1e-6)[:, 1:].mean(1)  # average pooling, no CLS


def _vit_cls_taken_twice(images, vit):
    x = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    cls = x[:, 0]  # (B, D), handed to a read_cls that takes row 0 again: (B, 1), one number per image
    h = F.layer_norm(cls[:, :1], (1,), None, None, 1e-6) * vit.norm_weight + vit.norm_bias
    return h @ vit.W_head + vit.b_head


def _weights_self_masked(q, k):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    return scores.masked_fill(torch.eye(scores.shape[-1], dtype=torch.bool), float("-inf")).softmax(-1)


def _heads_softmax_twice(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1).softmax(-1)
    return (A @ v).transpose(1, 2).reshape(B, N, D) @ W_o + b_o


def _heads_projection_of_input(x, W_qkv, b_qkv, W_o, b_o, H):
    return x @ W_o + b_o  # the heads computed, then W_o applied to the input


def _uncentred_numerator(x, weight, bias):
    centred = x - x.mean(-1, keepdim=True)
    return x / (centred.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt() * weight + bias


def _block_attention_twice(x, p, H):
    u = x + _heads_from_values(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6),
                               p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)
    return u + _heads_from_values(F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6),
                                  p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)


def _vit_encoder_without_cls(images, vit):
    x = _embedded(images, vit)[:, 1:]
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x, vit)  # row 0 is P1's


def _position_activated(tokens, pos_table):
    return F.gelu(tokens + pos_table)  # the embedding ended with the MLP's nonlinearity


def _heads_input_normalized_again(x, W_qkv, b_qkv, W_o, b_o, H):
    return _heads_from_values(F.layer_norm(x, x.shape[-1:]), W_qkv, b_qkv, W_o, b_o, H)


def _heads_summed_over_receivers(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1)
    heads = torch.einsum("bhij,bhjd->bhjd", A, v)  # "bhjd" written for "bhid": a sum over the queries
    return heads.transpose(1, 2).reshape(B, N, D) @ W_o + b_o


def _mlp_tied(x, W_1, b_1, W_2, b_2):
    return F.gelu(x @ W_1 + b_1) @ W_1.T + b_2  # W_2 = W_1ᵀ


def _gain_plus_one(x, weight, bias):
    return F.layer_norm(x, x.shape[-1:], None, None, 1e-6) * (1 + weight) + bias


def _block_residuals_averaged(x, p, H):
    u = (x + _heads_from_values(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6),
                                p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)) / 2
    z = F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6) @ p.W_1 + p.b_1
    return (u + F.gelu(z) @ p.W_2 + p.b_2) / 2


def _scores_by_distance(h, W_head, b_head):
    return b_head - torch.cdist(h, W_head.T)


def _vit_final_norm_first(images, vit):
    x = _embedded(images, vit)
    x = F.layer_norm(x, (x.shape[-1],), vit.norm_weight, vit.norm_bias, 1e-6)  # an ln_pre, with the final norm
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x, vit)


def _vit_each_block_twice(images, vit):
    x = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(_block_with(x, p, vit.num_heads), p, vit.num_heads)
    return _head_logits(x, vit)


def _variance_over_everything(x, weight, bias):
    centred = x - x.mean(-1, keepdim=True)
    return centred / torch.sqrt(centred.pow(2).mean() + 1e-6) * weight + bias  # .mean() without dim=-1


def _cover_red_only(images, top, left, size, value=0.0):
    covered = images.clone()
    covered[:, 0, top:top + size, left:left + size] = value  # the 0 meant for "image 0" lands on the channels
    return covered


def _cover_value_added(images, top, left, size, value=0.0):
    covered = images.clone()
    covered[..., top:top + size, left:left + size] += value
    return covered


def _heads_weights_averaged(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1).mean(dim=1, keepdim=True)  # one pattern
    return (A @ v).transpose(1, 2).reshape(B, N, D) @ W_o + b_o


def _block_updates_subtracted(x, p, H):
    u = x - _heads_from_values(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6),
                               p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)
    z = F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6) @ p.W_1 + p.b_1
    return u - (F.gelu(z) @ p.W_2 + p.b_2)


def _block_on_standardized_input(x, p, H):
    x = F.layer_norm(x, (x.shape[-1],))  # the rows normalized once more as they come in, at PyTorch's eps
    u = x + _heads_from_values(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6),
                               p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)
    z = F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6) @ p.W_1 + p.b_1
    return u + (F.gelu(z) @ p.W_2 + p.b_2)


def _heads_values_from_input(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, _ = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    v = x.reshape(B, N, H, D // H).transpose(1, 2)  # the input itself as the values
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1)
    return (A @ v).transpose(1, 2).reshape(B, N, D) @ W_o + b_o


def _heads_first_value_shared(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1)
    return (A @ v[:, :1].expand_as(v)).transpose(1, 2).reshape(B, N, D) @ W_o + b_o  # head 1's values everywhere


def _heads_own_value_added(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    A = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1)
    return (A @ v + v).transpose(1, 2).reshape(B, N, D) @ W_o + b_o  # each receiver's own value added


def _vit_position_each_block(images, vit):
    x = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x + vit.pos_table, p, vit.num_heads)
    return _head_logits(x, vit)


def _vit_cls_reset_each_block(images, vit):
    x = _embedded(images, vit)
    start = x[:, :1]
    for p in vit.blocks:
        x = _block_with(torch.cat([start, x[:, 1:]], 1), p, vit.num_heads)
    return _head_logits(x, vit)


def _normalized_sigmoid_weights(q, k):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    weights = torch.sigmoid(scores - scores.amax(-1, keepdim=True))  # the sigmoid where exp belongs
    return weights / weights.sum(-1, keepdim=True)


def _vit_images_normalized_twice(images, vit):
    x = _embedded(2 * images - 1, vit)  # page 8's 2x - 1 once more, on images normalized already
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x, vit)


def _vit_embedding_added_to_output(images, vit):
    x = embedded = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x + embedded, vit)


def _block_norms_without_parameters(x, p, H):
    ones, zeros = torch.ones_like(p.ln1_weight), torch.zeros_like(p.ln1_bias)
    plain = replace(p, ln1_weight=ones, ln1_bias=zeros, ln2_weight=ones, ln2_bias=zeros)
    return _block_with(x, plain, H)  # F.layer_norm(x, shape) alone, at eps 1e-6 here; the move's 1e-5 fits too


def _cover_diagonal_only(images, top, left, size, value=0.0):
    covered = images.clone()
    steps = torch.arange(size)
    covered[..., top + steps, left + steps] = value  # two index tensors pair up, they do not cross
    return covered


def _vit_cls_only_updated(images, vit):
    x = embedded = _embedded(images, vit)
    for p in vit.blocks:
        x = torch.cat([_block_with(x, p, vit.num_heads)[:, :1], embedded[:, 1:]], 1)  # the patch rows never move
    return _head_logits(x, vit)


def _block_ln2_twice(x, p, H):
    u = x + _heads_from_values(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6),
                               p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)
    once = F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6)
    twice = F.layer_norm(once, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6)  # the MLP normalizes its input again
    return u + F.gelu(twice @ p.W_1 + p.b_1) @ p.W_2 + p.b_2


def _layer_norm_about_median(x, w, b):
    centred = x - x.median(dim=-1, keepdim=True).values  # torch's median: the lower middle value of 16
    return centred / (centred.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt() * w + b


def _heads_first_rows_of_W_o(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    heads = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1) @ v  # (B, H, N, d)
    return sum(heads[:, h] @ W_o[:D // H] for h in range(H)) + b_o  # head 1's rows for every head


def _heads_joined_feature_major(x, W_qkv, b_qkv, W_o, b_o, H):
    B, N, D = x.shape
    q, k, v = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
    heads = (q @ k.transpose(-2, -1) / (D // H) ** 0.5).softmax(-1) @ v  # (B, H, N, d)
    return heads.transpose(-2, -1).reshape(B, N, D) @ W_o + b_o  # (B, H, d, N) read as (B, N, D)


def _vit_embedding_after_every_block(images, vit):
    x = embedded = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads) + embedded
    return _head_logits(x, vit)


def _vit_last_block_again(images, vit):
    x = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(_block_with(x, p, vit.num_heads), vit)  # the loop variable, left over


def _cover_square_mean(images, top, left, size, value=0.0):
    covered = images.clone()
    square = covered[..., top:top + size, left:left + size]
    covered[..., top:top + size, left:left + size] = square.mean(dim=(-2, -1), keepdim=True)
    return covered


def _block_mlp_twice(x, p, H):
    def mlp(rows):
        return F.gelu(rows @ p.W_1 + p.b_1) @ p.W_2 + p.b_2
    u = x + mlp(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6))  # no attention at all
    return u + mlp(F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6))


def _block_attention_across_images(x, p, H):
    rows = F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6).transpose(0, 1)  # (N, B, D)
    u = x + _heads_from_values(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, H).transpose(0, 1)
    z = F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6) @ p.W_1 + p.b_1
    return u + F.gelu(z) @ p.W_2 + p.b_2


def _vit_last_block_everywhere(images, vit):
    x = _embedded(images, vit)
    for _ in vit.blocks:
        x = _block_with(x, vit.blocks[-1], vit.num_heads)
    return _head_logits(x, vit)


def _vit_embedding_scaled(images, vit):
    x = _embedded(images, vit) * vit.W_E.shape[1] ** 0.5
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x, vit)


def _layer_norm_squared_in_place(x, w, b):
    centred = x - x.mean(-1, keepdim=True)
    std = (centred.pow_(2).mean(-1, keepdim=True) + 1e-6).sqrt()  # pow_ squares `centred` itself
    return centred / std * w + b


def _block_mlp_reads_attention(x, p, H):
    u = x + _heads_from_values(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6),
                               p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)
    rows = _heads_from_values(F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6),
                              p.W_qkv, p.b_qkv, p.W_o, p.b_o, H)  # the attention again, fed to the MLP
    return u + F.gelu(rows @ p.W_1 + p.b_1) @ p.W_2 + p.b_2


def _vit_updates_in_parallel(images, vit):
    x = embedded = _embedded(images, vit)
    for p in vit.blocks:
        x = x + _block_with(embedded, p, vit.num_heads) - embedded  # every block reads the embedding
    return _head_logits(x, vit)


def _cover_blended(images, top, left, size, value=0.0):
    covered = images.clone()
    covered[..., top:top + size, left:left + size] = (covered[..., top:top + size, left:left + size] + value) / 2
    return covered


def _cover_grayscale(images, top, left, size, value=0.0):
    covered = images.clone()
    square = covered[..., top:top + size, left:left + size]
    covered[..., top:top + size, left:left + size] = square.mean(dim=-3, keepdim=True)  # the channels' mean
    return covered


def _vit_change_read(images, vit):
    x = embedded = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x - embedded, vit)  # what the blocks added, not the rows they made


def _block_pre_and_post_norm(x, p, H):
    u = F.layer_norm(x + _heads_from_values(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6),
                                            p.W_qkv, p.b_qkv, p.W_o, p.b_o, H), (x.shape[-1],), p.ln1_weight,
                     p.ln1_bias, 1e-6)  # add & norm kept after the pre-norm
    z = F.layer_norm(u, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6) @ p.W_1 + p.b_1
    return F.layer_norm(u + F.gelu(z) @ p.W_2 + p.b_2, (u.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6)


def _vit_position_again(images, vit):
    x = _embedded(images, vit) + vit.pos_table  # embed added it already
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x, vit)


def _vit_first_block_doubled(images, vit):
    x = _block_with(_embedded(images, vit), vit.blocks[0], vit.num_heads)
    for p in vit.blocks:
        x = _block_with(x, p, vit.num_heads)
    return _head_logits(x, vit)


def _cover_value_multiplied(images, top, left, size, value=0.0):
    covered = images.clone()
    covered[..., top:top + size, left:left + size] *= value
    return covered


#: (step, case, the student's wrong function, the edit the search must name, words its sentence holds)
WRONG: list[tuple[str, str, Callable[..., torch.Tensor], str, str]] = [
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_from_keys,
     "edit.replaced:v:k", "the keys k in place of the values v"),
    ("03_position", "add_position · random 7 tokens x 5 features", _table_reversed,
     "edit.reversed:pos_table", "reverse order"),
    ("06_block", "layer_norm · nearly constant rows (variance ~1e-5)", _eps_outside_the_root,
     "edit.move:eps_outside_root", "eps"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _post_ln, "edit.move:post_ln", "post-LN"),
    # a catalogued mistake found by the search keeps the catalogue's id, in its own function and in
    # another: the class report counts it once
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8", _softmax_over_queries,
     "known.softmax_over_queries", "the queries"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_softmax_over_queries,
     "known.softmax_over_queries", "the queries"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8", _weights_without_exp,
     "edit.move:no_exp", "without the softmax's exponential"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_projected_by_W_o_transposed,
     "edit.transposed_weight:W_o", "W_o transposed"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _uncentred_variance,
     "edit.move:uncentred_variance", "uncentred"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_gelu_without_half,
     "edit.activation:gelu_formula_1", "without the 0.5"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _rms_norm, "edit.move:rms_norm", "RMSNorm"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _centred_over_tokens, "edit.move:mean_over_tokens",
     "mean over the tokens"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, p, H, lambda z: z * torch.sigmoid(z)), "edit.activation:silu", "SiLU"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, p, H, lambda z: 0.5 * (1 + torch.erf(z / 2 ** 0.5))),
     "edit.activation:normal_cdf", "Φ(z) alone"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, p, H, lambda z: z * torch.exp(-z * z / 2) / (2 * torch.pi) ** 0.5),
     "edit.activation:normal_density", "density"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_norms_weight_bias_swapped,
     "edit.move:norm_weight_bias_swapped", "scaled by the bias and shifted by the weight, in LN1 and LN2"),
    ("04_cls", "embed · tiny ViT: 32x32 images, 8px patches, 16 features", _embed_position_before_cls,
     "edit.move:position_before_cls", "before CLS is put in front"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", _bias_multiplied, "edit.move:bias_multiplied",
     "multiplied into each token's features"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", _patches_scaled_again,
     "edit.move:pixels_scaled_again", "divided by 255 once more"),
    ("03_position", "add_position · random 7 tokens x 5 features", _position_then_layer_norm,
     "edit.move:normalized_sum", "normalized"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_final_norm_twice,
     "edit.move:final_norm_twice", "applied twice"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", _bias_in_weights, "edit.move:bias_in_weights",
     "b_E added to every row of W_E"),
    ("07_head", "classify · two random images", _sigmoid_logits, "edit.move:sigmoid", "sigmoid"),
    ("07_head", "read_cls · two random images", _max_pooled_then_normed, "edit.move:max_pooling_before_norm",
     "max pooling"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_without_last_block,
     "edit.move:blocks_last_skipped", "the last block left out"),
    ("04_cls", "embed · tiny ViT: 32x32 images, 8px patches, 16 features", _embed_normalized_again,
     "edit.move:normalized_again", "normalized again"),
    # with two blocks, every block reading the embedded rows is the first left out: both are said
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_blocks_on_the_embedding,
     "edit.move:blocks_first_skipped|move:blocks_last_only", "every block reading the embedded rows"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", _products_averaged, "edit.move:product_averaged",
     "averaged over the patch row's values"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", _patches_centred, "edit.move:patches_centred",
     "own mean subtracted before the projection"),
    # the same numbers as the patches cut column by column, each flattened transposed: the move is said
    ("04_cls", "embed · tiny ViT: 32x32 images, 8px patches, 16 features", _embed_images_transposed,
     "edit.move:images_transposed", "height and width swapped"),
    # two images: a sum over the batch is tried on the whole call, not on the first image alone
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8", _weights_over_the_whole_tensor,
     "edit.move:sum_over_everything", "sum over the whole tensor"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8", _one_softmax_over_everything,
     "edit.move:softmax_over_everything", "one softmax over the whole tensor"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _centred_over_images, "edit.move:mean_over_images",
     "mean over the images of the batch"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_norm_after_sublayer,
     "edit.move:norm_after_sublayer", "each sublayer's output normalized"),
    ("07_head", "classify · two random images", _tanh_logits, "edit.move:tanh_h", "tanh"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_norm_weight_as_bias,
     "edit.move:weight_as_bias", "weight passed as its bias"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", _product_over_root_K,
     "edit.move:product_over_sqrt_K", "divided by √K"),
    # two images: the rows repeated in a row are tried on the whole call, not on the first image alone
    ("03_position", "add_position · random 7 tokens x 5 features", _table_repeat_interleaved,
     "edit.move:table_rows_repeated", "repeat_interleave"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8", _weights_scores_divided_by_max,
     "edit.move:divided_by_max", "divided by their largest score"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_count_as_size,
     "edit.move:head_size_as_count", "D/H heads of H features"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_norm_after_every_block,
     "edit.move:norm_after_every_block", "after every block"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", _tokens_normalized, "edit.move:tokens_normalized",
     "normalized to mean 0 and variance 1 after the projection"),
    ("07_head", "read_cls · two random images", _cls_plus_patch_mean, "edit.move:cls_plus_patch_mean",
     "the CLS row plus the mean of the patch rows"),
    ("07_head", "read_cls · two random images", _patch_mean_pooled, "edit.move:patch_mean_pooling", "CLS left out"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_cls_taken_twice,
     "edit.move:summary_is_norm_bias", "the final LayerNorm's bias"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8", _weights_self_masked,
     "edit.move:self_masked", "no token attends to itself"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_softmax_twice,
     "edit.move:softmax_twice", "a second time"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_projection_of_input,
     "edit.move:projection_of_input", "W_o applied to the input x"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _uncentred_numerator,
     "edit.move:uncentred_numerator", "x / σ"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_attention_twice,
     "edit.move:attention_twice", "where the MLP belongs"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_encoder_without_cls,
     "edit.move:encoder_without_cls", "CLS left out"),
    ("03_position", "add_position · random 7 tokens x 5 features", _position_activated,
     "edit.activation:gelu_after_position", "GELU applied to the sum"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_input_normalized_again,
     "edit.move:input_normalized_again", "normalized once more"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_summed_over_receivers,
     "edit.move:sum_over_receivers", "over the receivers"),
    ("06_block", "mlp · second photo, block 4", _mlp_tied, "edit.move:tied_contraction", "W_2 = W_1ᵀ"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _gain_plus_one, "edit.move:gain_plus_one",
     "1 + weight"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_residuals_averaged,
     "edit.move:residual_averaged", "averaged with the rows"),
    ("07_head", "classify · two random images", _scores_by_distance, "edit.move:negative_distance",
     "minus the distance"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_final_norm_first,
     "edit.move:final_norm_first", "before the blocks too"),
    ("01_flatten", "normalize · random pixels", lambda pixels: (pixels.float() / 255 * 2 - 1).clamp(0, 1),
     "edit.move:clipped_to_unit_range", "clipped to [0, 1]"),
    ("02_project", "project · random 5 patches, 12 -> 6 features",
     lambda X, W_E, b_E: F.layer_norm(X, X.shape[-1:]) @ W_E + b_E, "edit.move:patches_normalized",
     "before the projection"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", lambda X, W_E, b_E: torch.tanh(X @ W_E + b_E),
     "edit.move:tanh_after_projection", "followed by tanh"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: z - F.gelu(z))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:complement_cdf", "1 − Φ(z)"),
    ("07_head", "classify · two random images", lambda h, W_head, b_head: h @ F.normalize(W_head, dim=0) + b_head,
     "edit.move:unit_class_vectors", "scaled to length 1"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_each_block_twice,
     "edit.move:each_block_twice", "applied twice in a row"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _variance_over_everything,
     "edit.move:variance_over_everything", "one variance for the whole tensor"),
    ("08_occlusion", "cover · second photo, 40px at (100, 20), value -0.25", _cover_red_only,
     "edit.move:first_channel_only", "first channel (R) only"),
    ("02_project", "conv_to_linear · random 8x3x4x4 kernel",
     lambda kernel: torch.linalg.pinv(kernel.reshape(kernel.shape[0], -1)), "edit.move:pseudo_inverse",
     "pseudo-inverse"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_weights_averaged,
     "edit.move:weights_averaged_over_heads", "averaged over the heads"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: z * torch.erf(z / 2 ** 0.5))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:gelu_formula_6", "z·erf(z/√2)"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_updates_subtracted,
     "edit.move:updates_subtracted", "subtracted from the rows"),
    ("08_occlusion", "cover · second photo, 40px at (100, 20), value -0.25", _cover_value_added,
     "edit.move:value_added", "added to the square's pixels"),
    # an operation applied where the lecture applies none, to any quantity or argument
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: F.relu(F.gelu(x @ W_1 + b_1) @ W_2 + b_2), "edit.applied:mlp:relu",
     "the MLP update with every negative value set to 0"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8",
     lambda *args: torch.tanh(_heads_from_values(*args)), "edit.applied:attn:tanh", "tanh applied to the attention"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_on_standardized_input,
     "edit.applied_to_input:x:standardized", "before anything else is computed with it"),
    ("03_position", "add_position · random 7 tokens x 5 features",
     lambda tokens, table: F.layer_norm(tokens, tokens.shape[-1:]) + table,
     "edit.applied_to_input:tokens:standardized", "each row of the token rows normalized"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1) / q.shape[-1] ** 0.5)
     .softmax(-1), "edit.move:cosine_scores", "cosine"),
    ("06_block", "layer_norm · random 5 tokens x 16 features",
     lambda x, w, b: ((x - x.mean(-1, keepdim=True)) * w + b) / (x.var(-1, unbiased=False, keepdim=True)
                                                                  + 1e-6).sqrt(),
     "edit.move:bias_over_std", "bias divided by the standard deviation"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: 0.5 * z * (1 + torch.erf(z) / 2 ** 0.5))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:gelu_formula_7", "erf(z)/√2"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_values_from_input,
     "edit.move:values_from_input", "taken from the input rows x"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_own_value_added,
     "edit.added_to:heads:v", "the values v added to the heads"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8", _normalized_sigmoid_weights,
     "edit.move:normalized_sigmoid", "the sigmoid of the scores"),
    ("06_block", "layer_norm · random 5 tokens x 16 features",
     lambda x, w, b: x / x.norm(dim=-1, keepdim=True) * w + b, "edit.move:unit_length_rows", "divided by its length"),
    ("06_block", "layer_norm · nearly constant rows (variance ~1e-5)",
     lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, 1e-3), "edit.constant:eps:0.001", "eps 0.001"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, replace(p, ln1_bias=p.ln1_weight), H), "edit.move:ln1_weight_as_bias",
     "LN1's weight passed as its bias too"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, replace(p, W_o=p.W_o * 0.1, b_o=p.b_o * 0.1, W_2=p.W_2 * 0.1, b_2=p.b_2 * 0.1), H),
     "edit.move:layer_scale_0.1", "both updates scaled by 0.1"),
    ("07_head", "read_cls · two random images",
     lambda x, weight, bias: F.layer_norm(x[:, :2].mean(1), (x.shape[-1],), weight, bias, 1e-6),
     "edit.move:cls_and_first_patch_averaged", "(CLS + P1) / 2"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_position_each_block,
     "edit.move:position_each_block", "added to the rows entering every block"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_cls_reset_each_block,
     "edit.move:cls_reset_each_block", "put back in row 0 before every block"),
    ("08_occlusion", "cover · second photo, 40px at (100, 20), value -0.25", _cover_value_multiplied,
     "edit.move:value_multiplied", "multiplied by the value"),
    # a matrix's numbers read into its shape in another order, a patch row regrouped, one head shared
    ("02_project", "project · random 5 patches, 12 -> 6 features", lambda X, W_E, b_E: X @ W_E.T.reshape(W_E.shape)
     + b_E, "edit.applied_to_input:W_E:transpose_read_in_order", "read back row by row"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", lambda X, W_E, b_E: X @ W_E.reshape(
        W_E.shape[1], W_E.shape[0]).T + b_E, "edit.applied_to_input:W_E:storage_read_transposed", "transposed back"),
    ("02_project", "project · random 5 patches, 12 -> 6 features",
     lambda X, W_E, b_E: X.unflatten(-1, (3, -1)).transpose(-2, -1).flatten(-2) @ W_E + b_E,
     "edit.move:patches_pixel_major", "pixel-major"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_first_value_shared,
     "edit.move:first_head_v", "head 1's v used by every head"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).index_fill(-1, torch.tensor([0]), -torch.inf)
     .softmax(-1), "edit.move:first_source_masked", "masked out as a source"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (-torch.cdist(q, k) / q.shape[-1] ** 0.5).softmax(-1), "edit.move:negative_distance_scores",
     "minus the distance"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: 0.5 * z + torch.erf(z / 2 ** 0.5))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:gelu_brackets_dropped", "the brackets round 1 + erf dropped"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: F.layer_norm(_block_with(x, p, H), (x.shape[-1],), p.ln2_weight, p.ln2_bias, 1e-6),
     "edit.move:output_normalized_ln2", "normalized by LN2"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_norms_without_parameters,
     "edit.move:norms_without_parameters", "without their weight and bias"),
    ("03_position", "add_position · random 7 tokens x 5 features", torch.maximum,
     "edit.move:coordinatewise_maximum", "the larger of c_i and p_i"),
    ("02_project", "project · random 5 patches, 12 -> 6 features", lambda X, W_E, b_E: F.normalize(X) @ W_E + b_E,
     "edit.applied_to_input:patches:unit_dim1", "F.normalize does with its default dim=1"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_images_normalized_twice,
     "edit.move:images_normalized_twice", "2x − 1"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes",
     _vit_embedding_added_to_output, "edit.move:embedding_added_to_output", "the embedding added"),
    ("08_occlusion", "cover · second photo, 40px at (100, 20), value -0.25", _cover_diagonal_only,
     "edit.move:diagonal_only", "diagonal pixels"),
    ("02_project", "conv_to_linear · random 8x3x4x4 kernel",
     lambda kernel: kernel[:, :1].expand(-1, 3, -1, -1).reshape(kernel.shape[0], -1).T,
     "edit.move:first_channel_kernel", "channel R's kernel for all three channels"),
    ("02_project", "project · random 5 patches, 12 -> 6 features",
     lambda X, W_E, b_E: (X - X.mean(1, keepdim=True)) @ W_E + b_E, "edit.applied_to_input:patches:centred_dim1",
     "centred along axis 1"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (lambda s: s.exp2() / s.exp2().sum(-1, keepdim=True))(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5),
     "edit.move:exp2", "2^s"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: 0.5 * z * (1 + torch.tanh(z / 2 ** 0.5)))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:tanh_for_erf", "tanh where GELU has erf"),
    ("07_head", "classify · two random images",
     lambda h, W, b: ((h - h.mean(-1, keepdim=True)) / (h.var(-1, unbiased=False, keepdim=True) + 1e-5).sqrt()) @ W
     + b, "edit.applied_to_input:h:standardized", "each row of the CLS summary h normalized"),
    # a weight picked or passed wrongly, GELU's and LayerNorm's variants, a norm twice, the head size as count
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, replace(p, W_o=p.W_o.T), H), "edit.transposed_weight:W_o", "W_o transposed"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, replace(p, ln2_bias=p.ln1_bias), H), "edit.replaced:ln2_bias:ln1_bias",
     "LN1's bias in place of LN2's bias"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_ln2_twice, "edit.move:ln2_twice",
     "LN2 applied twice"),
    ("02_project", "project · random 5 patches, 12 -> 6 features",
     lambda X, W_E, b_E: X @ F.normalize(W_E, dim=0) + b_E, "edit.applied_to_input:W_E:unit_columns",
     "each column of W_E scaled to length 1"),
    ("07_head", "classify · two random images",
     lambda h, W, b: h @ W.reshape(W.shape[1], W.shape[0]).T + b,
     "edit.applied_to_input:W_head:storage_read_transposed", "transposed back"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _layer_norm_about_median, "edit.move:median_centred",
     "median"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: 0.5 * z * (1 + torch.tanh((2 / torch.pi) ** 0.5 * z)))(x @ W_1 + b_1)
     @ W_2 + b_2, "edit.activation:tanh_gelu_without_cubic", "without its cubic term"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: 0.5 * z * (1 + torch.erf(z / 2 ** 1 / 2)))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:gelu_formula_8", "erf(z/4)"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes",
     lambda images, vit: _vit_with_heads(images, vit, vit.W_E.shape[1] // vit.num_heads),
     "edit.move:encoder_head_size_as_count", "the head size D / H passed where the head count goes"),
    # a row divided by its sum, a table centred, a norm's statistics or weights in the wrong place, a weight averaged
    ("03_position", "add_position · random 7 tokens x 5 features",
     lambda tokens, table: tokens + table - table.mean(-1, keepdim=True), "edit.applied_to_input:pos_table:centred",
     "each row of the position table centred"),
    ("04_cls", "embed · tiny ViT: 32x32 images, 8px patches, 16 features",
     lambda images, vit: F.layer_norm(_embedded(images, vit), (vit.W_E.shape[1],), vit.norm_weight, vit.norm_bias,
                                      1e-6), "edit.move:embedded_normalized", "CLIP's ln_pre"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (torch.einsum("bhid,bhje->bhij", q, k) / q.shape[-1] ** 0.5).softmax(-1),
     "edit.move:summed_features_product", "(Σ_d q_d)·(Σ_e k_e)"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_first_rows_of_W_o,
     "edit.move:first_head_W_o", "W_o's first d rows"),
    ("05_attention", "multi_head_attention · random 6 tokens, 2 heads of 8", _heads_joined_feature_major,
     "edit.move:heads_joined_from_feature_major", "(B, H, d, N) read as (B, N, D)"),
    ("06_block", "layer_norm · random 5 tokens x 16 features",
     lambda x, w, b: (lambda c: c / (c.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt() * w + b)(
         x - x.mean((-2, -1), keepdim=True)), "edit.move:mean_over_image", "dim=(-2, -1)"),
    ("06_block", "layer_norm · random 5 tokens x 16 features",
     lambda x, w, b: (lambda c: c / (c.pow(2).mean((-2, -1), keepdim=True) + 1e-6).sqrt() * w + b)(
         x - x.mean(-1, keepdim=True)), "edit.move:variance_over_image", "one variance for each image"),
    ("07_head", "read_cls · two random images",
     lambda x, w, b: F.layer_norm(x[:, 0] * w + b, (x.shape[-1],), eps=1e-6),
     "edit.move:affine_before_normalizing", "before the normalization"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: 0.5 * z * (1 + torch.erf(z // 2 ** 0.5)))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:floor_inside_erf", "z // √2"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: z * (0.5 + torch.erf(z / 2 ** 0.5)))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:gelu_formula_9", "the 0.5 multiplying the 1 alone"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, replace(p, ln1_weight=p.ln2_weight, ln1_bias=p.ln2_bias), H),
     "edit.move:one_norm_ln2", "LN2's weight and bias in both"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, replace(p, b_o=p.b_2), H), "edit.replaced:b_o:b_2",
     "the bias b_2 in place of the output bias b_o"),
    ("07_head", "classify · two random images", lambda h, W, b: (h[..., None] * W).mean(1) + b,
     "edit.averaged:W_head", "averaged"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes",
     _vit_embedding_after_every_block, "edit.move:embedding_after_every_block", "block(x) + embedded"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_last_block_again,
     "edit.move:blocks_last_repeated", "the last block run once more"),
    ("08_occlusion", "cover · second photo, 40px at (100, 20), value -0.25", _cover_square_mean,
     "edit.move:square_mean_colour", "its own mean colour"),
    # habits of other code: exponentials taken twice, a batch-first mix-up, √D scalings, sums for means
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (lambda s: (s - s.amax(-1)[:, :, None]).exp() / (s - s.amax(-1)[:, :, None]).exp().sum(
         -1, keepdim=True))(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5), "edit.move:row_maxima_along_columns",
     "put back on the wrong axis"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (lambda s: (s - s.amax(-1, keepdim=True)).exp().softmax(-1))(q @ k.transpose(-2, -1)
                                                                                / q.shape[-1] ** 0.5),
     "edit.move:softmax_of_exponentials", "softmax(exp(s − max))"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_mlp_twice, "edit.move:mlp_twice",
     "MLP sublayer run in the attention's place"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_attention_across_images,
     "edit.move:attention_across_images", "without batch_first"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(x, replace(p, ln2_weight=p.ln2_bias, ln2_bias=p.ln2_weight), H),
     "edit.move:ln2_weight_bias_swapped", "scaled by ln2_bias"),
    ("06_block", "layer_norm · random 5 tokens x 16 features",
     lambda x, w, b: (lambda c: c / (c.pow(2).mean(-1, keepdim=True) + 1e-6).sqrt() * w + b)(
         x - x.sum(-1, keepdim=True)), "edit.move:sum_for_mean", "each row's sum"),
    ("06_block", "layer_norm · random 5 tokens x 16 features", _layer_norm_squared_in_place,
     "edit.move:centred_squared_in_place", "pow_ for pow"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: 0.5 * z * (1 + torch.erf(z / (2 * torch.pi) ** 0.5)))(x @ W_1 + b_1)
     @ W_2 + b_2, "edit.activation:gelu_formula_10", "erf(z/√(2π))"),
    ("03_position", "add_position · random 7 tokens x 5 features",
     lambda tokens, table: tokens / tokens.shape[-1] ** 0.5 + table, "edit.scaled:tokens:0.4472", "divided by √D"),
    ("07_head", "classify · two random images", lambda h, W, b: h[:, 1:] @ W[1:] + b,
     "edit.first_term_left_out:W_head", "x[..., 1:] @ W[1:]"),
    ("07_head", "classify · two random images",
     lambda h, W, b: F.cosine_similarity(h[..., None], W[None], dim=1) + b, "edit.move:cosine_logits",
     "the cosine of h and its weight vector"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_last_block_everywhere,
     "edit.move:blocks_last_for_every", "params.blocks[-1] for each"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_embedding_scaled,
     "edit.move:embedded_scaled", "multiplied by √D before the blocks"),
    # what the lecture's ideas are mistaken for: symmetric or hard attention, a stream of normalized rows
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (lambda s: ((s + s.transpose(-2, -1)) / 2).softmax(-1))(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5),
     "edit.move:scores_symmetrized", "symmetric"),
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: F.one_hot((q @ k.transpose(-2, -1)).argmax(-1), k.shape[-2]).double(), "edit.move:hard_attention",
     "one-hot of the argmax"),
    ("06_block", "layer_norm · random 5 tokens x 16 features",
     lambda x, w, b: (lambda c: c / (c.pow(2).mean(0, keepdim=True) + 1e-6).sqrt() * w + b)(
         x - x.mean(-1, keepdim=True)), "edit.move:variance_over_images", "over the images of the batch"),
    ("06_block", "mlp · second photo, block 4", lambda x, W_1, b_1, W_2, b_2: F.elu(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:elu", "ELU"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_mlp_reads_attention,
     "edit.move:mlp_reads_attention", "MLP(MSA(LN2(u)))"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads",
     lambda x, p, H: _block_with(F.layer_norm(x, (x.shape[-1],), p.ln1_weight, p.ln1_bias, 1e-6), p, H),
     "edit.move:stream_starts_normalized", "started from LN1(x)"),
    ("04_cls", "embed · tiny ViT: 32x32 images, 8px patches, 16 features",
     lambda images, vit: F.layer_norm(_embedded(images, vit), (vit.W_E.shape[1],), vit.blocks[0].ln1_weight,
                                      vit.blocks[0].ln1_bias, 1e-6), "edit.move:embedded_normalized_ln1",
     "the first block's LN1"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_updates_in_parallel,
     "edit.move:updates_in_parallel", "x + Σ (block(x) − x)"),
    ("08_occlusion", "cover · second photo, 40px at (100, 20), value -0.25", _cover_blended, "edit.move:translucent",
     "blended half and half"),
    ("08_occlusion", "cover · second photo, 40px at (100, 20), value -0.25", _cover_grayscale,
     "edit.move:square_grayscale", "gray-scale"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_change_read,
     "edit.move:change_read", "the blocks' change read"),
    # habits kept from other models: a causal mask's tril, add & norm, a variance over D twice
    ("05_attention", "attention_weights · random 6 tokens, 2 heads of 8",
     lambda q, k: (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).tril().softmax(-1), "edit.move:upper_scores_zeroed",
     ".tril()"),
    ("06_block", "layer_norm · random 5 tokens x 16 features",
     lambda x, w, b: (lambda c: c / (c.pow(2).mean(-1, keepdim=True) / x.shape[-1] + 1e-6).sqrt() * w + b)(
         x - x.mean(-1, keepdim=True)), "edit.move:variance_over_D_again", "divided by D once more"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: 0.5 * z * (1 + torch.erf(z)) / 2 ** 0.5)(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:gelu_formula_12", "the √2 dividing the whole GELU"),
    ("06_block", "mlp · second photo, block 4",
     lambda x, W_1, b_1, W_2, b_2: (lambda z: z * torch.erf(z))(x @ W_1 + b_1) @ W_2 + b_2,
     "edit.activation:gelu_formula_13", "erf taken for Φ itself"),
    ("06_block", "block · random 6 tokens, 16 features, 2 heads", _block_pre_and_post_norm,
     "edit.move:pre_and_post_norm", "add & norm"),
    ("07_head", "read_cls · two random images",
     lambda x, w, b: F.layer_norm(x[:, 0], (x.shape[-1],), w, b, 1e-6) * w + b, "edit.move:affine_twice",
     "applied twice"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_position_again,
     "edit.move:position_again", "its position twice"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_first_block_doubled,
     "edit.move:blocks_first_doubled", "run once before the loop"),
    ("07_head", "vit_forward · tiny ViT: 8px patches, 2 blocks of 2 heads, 10 classes", _vit_cls_only_updated,
     "edit.move:cls_only_updated", "only the CLS row taken"),
]


#: Each case by the finding it expects, and by the function too where two expect the same one.
WRONG_IDS = [w[3] if [x[3] for x in WRONG].count(w[3]) == 1 else f"{w[3]} in {w[1].split(' ·')[0]}" for w in WRONG]


@pytest.mark.parametrize("step, name, wrong, edit, words", WRONG, ids=WRONG_IDS)
def test_the_search_names_the_one_edit_that_gives_a_wrong_answer(step, name, wrong, edit, words):
    case = _case(step, "hidden", name)
    with torch.inference_mode():
        got = wrong(*_torch_args(case)).double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == edit, found
    assert words in found.sentence and f"page {found.page}" in found.sentence


def test_the_lecture_s_three_heads_written_into_vit_forward_are_named_on_the_visible_tiny_vit():
    """The visible tiny ViT's 12 features split into 3 heads give numbers, not a shape error."""
    from grader.expected.build import VISIBLE_TINY

    case = _case("07_head", "visible", f"vit_forward · {VISIBLE_TINY}")
    images, vit = _torch_args(case)
    with torch.inference_mode():
        got = _vit_with_heads(images, vit, 3).double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.move:encoder_lecture_heads", found
    assert "split into 3 heads" in found.sentence and "2 heads each" in found.sentence


def _vit_with_heads(images, vit, heads):
    x = _embedded(images, vit)
    for p in vit.blocks:
        x = _block_with(x, p, heads)
    return _head_logits(x, vit)


def test_the_probe_model_is_rebuilt_and_the_softmax_over_the_covered_images_named():
    """Model-taking functions rerun with the cases' cheap probe model (never the ViT)."""
    from grader.worker.probe_model import ProbeModel

    case = _case("08_occlusion", "hidden", "quadrant_probabilities · second photo, probe model, class 6")
    model = ProbeModel(torch.from_numpy(case.tensors["probe_weights"]))
    _, image, target = _torch_args(case)
    side = image.shape[-1] // 2
    covers = []
    for top, left in ((0, 0), (0, side), (side, 0), (side, side)):
        covered = image.clone()
        covered[:, :, top:top + side, left:left + side] = 0.0
        covers.append(covered)
    got = model(torch.cat(covers)).softmax(0)[:, target].double().numpy()  # over the images, not the classes
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.axis:class_axis:0", found


def test_a_floor_near_its_steps_is_named_from_the_students_numbers_but_never_stored():
    """floor(z / √2) inside erf on a photo's MLP (WRONG above names it from the student's numbers): of its
    ~150,000 values some lie within the default tolerance of a whole number, which another CPU's rounding
    could floor the other way, so no fingerprint of it is stored. A floor of values exactly on their steps
    (pixels of 0 or 255, normalized) is exact arithmetic and is stored."""
    photo = _case("06_block", "visible", "mlp · sample photo, block 1")
    assert "edit.activation:floor_inside_erf" not in {finding.id for finding, _ in photo.edits}
    pixels = _case("01_flatten", "visible", "normalize · sample photo")
    assert "edit.applied:pixels_normalized:floor" in {finding.id for finding, _ in pixels.edits}
    assert numerics.near_a_step(np.array([0.5, 3.0 - 1e-5]), np.array([0.0, 3.0]))
    assert not numerics.near_a_step(np.array([0.5, 3.0, -1.0]), np.round([0.5, 3.0, -1.0]))
    assert numerics.near_a_step(np.array([2e-5, 1.0]), 0.0)  # the sign's step


#: The probe model's map of 7 x 7 covers: the search's occlusion moves run there in a fifth of the time
#: of the 14 x 14 map, on the same code.
SMALLEST_MAP = "occlusion_map · sample photo, probe model, class 11, 32-pixel covers"


def _covered(image, squares, fill=0.0):
    """Copies of `image`, each with one (top, left, size) square set to `fill` (mid-gray 0)."""
    covers = []
    for top, left, size in squares:
        covered = image.clone()
        covered[:, :, top:top + size, left:left + size] = fill
        covers.append(covered)
    return torch.cat(covers)


def test_quadrants_of_the_wrong_size_are_named_by_the_side_they_have():
    """Quadrants a quarter of the image's side (56-pixel squares at 56-pixel offsets), as a student
    who divides by 4 for "a quarter" computes them: named by the side of the covers."""
    from grader.worker.probe_model import ProbeModel

    case = _case("08_occlusion", "hidden", "quadrant_probabilities · second photo, probe model, class 6")
    model = ProbeModel(torch.from_numpy(case.tensors["probe_weights"]))
    _, image, target = _torch_args(case)
    quarter = image.shape[-1] // 4
    covers = _covered(image, [(r * quarter, c * quarter, quarter) for r in (0, 1) for c in (0, 1)])
    got = model(covers).softmax(-1)[:, target].double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.size:quadrant_side:56", found
    assert "each quadrant's side 56 pixels (half of 112)" in found.sentence


def test_covers_placed_at_the_grid_index_counted_from_one_or_doubled_are_named():
    """Cover (r, c) at pixel (r, c), the patch's index taken for its corner: every cover overlaps the first."""
    from grader.worker.probe_model import ProbeModel

    case = _case("08_occlusion", "visible", SMALLEST_MAP)
    model = ProbeModel(torch.from_numpy(case.tensors["probe_weights"]))
    _, image, target, patch = _torch_args(case)
    side = image.shape[-1] // patch
    covers = _covered(image, [(r, c, patch) for r in range(side) for c in range(side)])
    with torch.inference_mode():
        original = model(image).softmax(-1)[0, target]
        got = (model(covers).softmax(-1)[:, target] - original).reshape(side, side).double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.move:covers_at_grid_index", found
    assert "(r·P, c·P)" in found.sentence
    from_one = _covered(image, [((r + 1) * patch, (c + 1) * patch, patch) for r in range(side) for c in range(side)])
    with torch.inference_mode():
        got = (model(from_one).softmax(-1)[:, target] - original).reshape(side, side).double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.move:covers_from_one", found  # range(1, side + 1)
    doubled = _covered(image, [(r * patch, c * patch, 2 * patch) for r in range(side) for c in range(side)])
    with torch.inference_mode():
        got = (model(doubled).softmax(-1)[:, target] - original).reshape(side, side).double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == f"edit.size:cover_side:{2 * patch}", found  # twice the patch
    for squares, edit in (([(r * patch, r * patch, patch) for r in range(side) for c in range(side)],
                           "edit.move:covers_on_row_diagonal"),  # the row's index written for the column too
                          ([(r * patch, c * patch, side) for r in range(side) for c in range(side)],
                           "edit.move:cover_side_grid_count")):  # the grid's count of patches for the side
        with torch.inference_mode():
            got = (model(_covered(image, squares)).softmax(-1)[:, target] - original).reshape(side, side)
        found = search.find_edit(case, case.expected, got.double().numpy(), DEFAULT_TOLERANCE)
        assert found is not None and found.id == edit, found


def test_covers_piled_up_and_a_map_of_signs_are_named():
    """Each cover drawn on the one before (the original measured on the last, all gray), and a map reduced
    to its signs."""
    from grader.worker.probe_model import ProbeModel

    case = _case("08_occlusion", "visible", SMALLEST_MAP)
    model = ProbeModel(torch.from_numpy(case.tensors["probe_weights"]))
    _, image, target, patch = _torch_args(case)
    side = image.shape[-1] // patch
    piled, covers = image.clone(), []
    for r in range(side):
        for c in range(side):
            piled = piled.clone()
            piled[..., r * patch:(r + 1) * patch, c * patch:(c + 1) * patch] = 0
            covers.append(piled)
    with torch.inference_mode():
        probabilities = model(torch.cat(covers)).softmax(-1)[:, target]
        signs = (model(_covered(image, [(r * patch, c * patch, patch) for r in range(side) for c in range(side)]))
                 .softmax(-1)[:, target] - model(image).softmax(-1)[0, target]).sign()
    for got, edit in (((probabilities - probabilities[-1]).reshape(side, side), "edit.move:covers_accumulate"),
                      (signs.reshape(side, side), "edit.applied:change:sign")):
        found = search.find_edit(case, case.expected, got.double().numpy(), DEFAULT_TOLERANCE)
        assert found is not None and found.id == edit, found


def test_the_top_class_probability_and_a_cover_of_half_are_named():
    """Each quadrant's largest probability, whatever its class, or the predicted class's, quadrant covers of
    the image's whole side, and map covers filled with 0.5, mid-gray of pixels in [0, 1] but light gray of
    normalized ones, with the image's mean, one pixel short, stepped by the grid's count, keeping the patch
    alone, or starting at the patches' centres."""
    from grader.worker.probe_model import ProbeModel

    case = _case("08_occlusion", "hidden", "quadrant_probabilities · second photo, probe model, class 6")
    model = ProbeModel(torch.from_numpy(case.tensors["probe_weights"]))
    _, image, target = _torch_args(case)
    half = image.shape[-1] // 2
    covers = _covered(image, [(r * half, c * half, half) for r in (0, 1) for c in (0, 1)])
    got = model(covers).softmax(-1).amax(-1).double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.move:top_class", found
    predicted = int(model(image).argmax())  # the class the model predicts, not the runner-up asked
    full_side = _covered(image, [(r * half, c * half, 2 * half) for r in (0, 1) for c in (0, 1)])
    short = _covered(image, [(r * (half - 1), c * (half - 1), half - 1) for r in (0, 1) for c in (0, 1)])
    for got, edit in ((model(covers).softmax(-1)[:, predicted], "edit.move:predicted_class"),
                      (model(short).softmax(-1)[:, target], f"edit.size:quadrant_side:{half - 1}"),
                      (model(full_side).softmax(-1)[:, target], "edit.move:quadrant_covers_full_side"),
                      ((model(covers).exp() / model(covers).exp().sum())[:, target],
                       "edit.move:quadrants_softmax_over_everything")):
        found = search.find_edit(case, case.expected, got.double().numpy(), DEFAULT_TOLERANCE)
        assert found is not None and found.id == edit, found
    case = _case("08_occlusion", "visible", SMALLEST_MAP)
    model = ProbeModel(torch.from_numpy(case.tensors["probe_weights"]))
    _, image, target, patch = _torch_args(case)
    side = image.shape[-1] // patch
    covers = _covered(image, [(r * patch, c * patch, patch) for r in range(side) for c in range(side)], 0.5)
    with torch.inference_mode():
        got = (model(covers).softmax(-1)[:, target] - model(image).softmax(-1)[0, target]).reshape(side, side)
    found = search.find_edit(case, case.expected, got.double().numpy(), DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.constant:fill:0.5", found
    assert "mid-gray is 0" in found.sentence
    one_short = _covered(image, [(r * patch, c * patch, patch - 1) for r in range(side) for c in range(side)])
    mean_filled = _covered(image, [(r * patch, c * patch, patch) for r in range(side) for c in range(side)],
                           image.mean().item())
    grid_steps = _covered(image, [(r * side, c * side, patch) for r in range(side) for c in range(side)])
    patch_alone = image - _covered(image, [(r * patch, c * patch, patch) for r in range(side) for c in range(side)])
    with torch.inference_mode():
        got = (model(_covered(image, [(r * patch, c * patch, patch) for r in range(side) for c in range(side)]))
               [:, target] - model(image).softmax(-1)[0, target]).reshape(side, side)  # logits less a probability
    found = search.find_edit(case, case.expected, got.double().numpy(), DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.move:covered_logits", found
    for covers, edit in ((one_short, f"edit.size:cover_side:{patch - 1}"),
                         (mean_filled, "edit.constant:fill:image_mean"),
                         (grid_steps, "edit.move:covers_at_grid_count_steps"),
                         (patch_alone, "edit.move:only_the_patch_shown"),
                         (_covered(image, [(r * patch + patch // 2, c * patch + patch // 2, patch) for r in range(side)
                                           for c in range(side)]), "edit.move:covers_at_patch_centres")):
        with torch.inference_mode():
            got = (model(covers).softmax(-1)[:, target] - model(image).softmax(-1)[0, target]).reshape(side, side)
        found = search.find_edit(case, case.expected, got.double().numpy(), DEFAULT_TOLERANCE)
        assert found is not None and found.id == edit, found


def test_the_sigmoid_of_the_target_logit_is_named():
    """Each quadrant's target logit through a sigmoid, as if the class stood alone: a blind mistake
    the measure showed as 'one value everywhere' (the sigmoids of large logits are all near 1)."""
    from grader.worker.probe_model import ProbeModel

    for visibility, name in (("hidden", "quadrant_probabilities · second photo, probe model, class 6"),
                             ("visible", "quadrant_probabilities · sample photo, probe model, class 70")):
        case = _case("08_occlusion", visibility, name)
        model = ProbeModel(torch.from_numpy(case.tensors["probe_weights"]))
        _, image, target = _torch_args(case)
        half = image.shape[-1] // 2
        covers = _covered(image, [(r * half, c * half, half) for r in (0, 1) for c in (0, 1)])
        got = model(covers)[:, target].sigmoid().double().numpy()
        found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
        assert found is not None and found.id == "edit.move:sigmoid_of_target", (name, found)
        assert "softmax over every class's logit" in found.sentence


def _probe_covers():
    """The smallest probe-model occlusion case and every patch-sized cover of its image, in grid order:
    (case, model, image, target, side, covers)."""
    from grader.worker.probe_model import ProbeModel

    case = _case("08_occlusion", "visible", SMALLEST_MAP)
    model = ProbeModel(torch.from_numpy(case.tensors["probe_weights"]))
    _, image, target, patch = _torch_args(case)
    side = image.shape[-1] // patch
    covers = _covered(image, [(r * patch, c * patch, patch) for r in range(side) for c in range(side)])
    return case, model, image, target, side, covers


def test_an_occlusion_map_of_logits_is_named():
    """The change of the target's logit, the softmax left out of both sides."""
    case, model, image, target, side, covers = _probe_covers()
    with torch.inference_mode():
        got = (model(covers)[:, target] - model(image)[0, target]).reshape(side, side).double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.move:logit_change", found


def test_an_occlusion_map_clamped_at_zero_is_named():
    """Every rise of the target's probability set to 0, as if covering could only lower it."""
    case, model, image, target, side, covers = _probe_covers()
    with torch.inference_mode():
        change = model(covers).softmax(-1)[:, target] - model(image).softmax(-1)[0, target]
    got = change.reshape(side, side).clamp(max=0).double().numpy()
    assert (change > 1e-3).any()  # the case has rises to lose
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.move:only_drops", found


def test_two_different_edits_that_fit_within_the_tolerance_name_nothing():
    """On rows of variance ~1e-5 around a positive mean, the uncentred variance gives √(mean² + var) ≈ mean:
    dividing by the mean (another edit) fits as well within the case's tolerance, though the two differ
    far beyond float64 rounding. Either could be the student's: the search names neither."""
    case = _case("06_block", "hidden", "layer_norm · nearly constant rows (variance ~1e-5)")
    tolerance = tuple(case.extra["tolerance"])
    with torch.inference_mode():
        got = _uncentred_variance(*_torch_args(case)).double().numpy()
    assert search.find_edit(case, case.expected, got, tolerance) is None


def test_a_right_answer_in_float32_rounding_names_nothing():
    """The solution's numbers differ from the checkpoint's by float32 rounding: a relative 2^-23 step
    per value here, far inside the test's tolerance, and no edit may claim them."""
    case = _case("06_block", "hidden", "block · random 6 tokens, 16 features, 2 heads")
    expected = case.expected.astype(np.float64)
    got = expected * (1 + np.float64(2.0 ** -23))
    assert search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE) is None
    assert search.find_edit(case, case.expected, expected, DEFAULT_TOLERANCE) is None


def test_numbers_no_single_edit_explains_name_nothing():
    case = _case("05_attention", "hidden", "multi_head_attention · random 6 tokens, 2 heads of 8")
    noise = np.random.default_rng(0).normal(size=case.expected.shape)
    assert search.find_edit(case, case.expected, case.expected + noise, DEFAULT_TOLERANCE) is None


@pytest.mark.slow
def test_the_search_stays_inside_its_budget_on_a_vit_sized_block():
    """The checkpoint's block on the sample photograph: 197 tokens of 192 features, 3 heads. The search
    checks its budget between edits, so it may overrun by one edit at most (a block's run here)."""
    case = _case("06_block", "visible", "block · sample photo, block 1")
    got = _post_ln(*_torch_args(case)).double().numpy()
    start = time.process_time()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    spent = time.process_time() - start
    assert found is not None and found.id == "edit.move:post_ln"
    args = search.arguments(case)
    one_run_start = time.process_time()
    search.maths.block(*args)
    one_run = time.process_time() - one_run_start
    assert spent <= search.BUDGET_SECONDS + one_run, f"{spent:.2f} s of CPU"
    assert search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE, budget=0.0) is None  # cut short


def _smallest_cases() -> list[Case]:
    """Each function's case with the fewest expected values (cheap to rebuild), model-taking ones left out."""
    from grader.steps import STEP_IDS

    smallest: dict[str, Case] = {}
    for step in STEP_IDS:
        for case in load_cases(step, "visible") + load_cases(step, "hidden"):
            if not isinstance(case.expected, np.ndarray) or any("model" in spec for spec in case.args):
                continue
            if case.function not in smallest or case.expected.size < smallest[case.function].expected.size:
                smallest[case.function] = case
    return list(smallest.values())


def test_every_edit_the_search_can_name_claims_kinds_of_structure():
    """The kit's measure reads what an edit claims from its id: an edit without kinds would count as
    naming nothing, or, unregistered, could not be held to the mistake's real structure."""
    unclaimed, tried = set(), set()
    for case in _smallest_cases():
        case.extra["checkpoint"] = CHECKPOINT
        function = getattr(search.maths, case.function, None)
        if function is None:
            continue
        call = search._Call(case, function, search.arguments(case), 0 if case.function == "qkv_heads" else None)
        ids = {c.id for c in search.candidates(case.function, call.trace)}
        tried |= ids
        unclaimed |= {i for i in ids if not findings.edit_kinds(f"edit.{i}")}
    assert not unclaimed, sorted(unclaimed)
    assert {"move:post_ln", "replaced:v:k", "axis:softmax_axis:-2"} <= tried  # the search's edits were read


def test_kernel_rows_over_their_sums_are_named_where_every_sum_is_a_number():
    """The visible random kernel: no row of it sums to rounding (the hidden one has such a row)."""
    case = _case("02_project", "visible", "conv_to_linear · random 5x3x4x4 kernel")
    (kernel,) = _torch_args(case)
    rows = kernel.reshape(kernel.shape[0], -1)
    got = (rows / rows.sum(1, keepdim=True)).T.double().numpy()
    found = search.find_edit(case, case.expected, got, DEFAULT_TOLERANCE)
    assert found is not None and found.id == "edit.applied:kernel_rows:sum_divided", found
    assert "divided by its sum" in found.sentence


def test_rows_over_their_sum_are_not_tried_where_a_sum_is_rounding():
    """Centred rows sum to 0 but for rounding: their quotient differs between CPUs, so no edit divides by it."""
    from grader.search.edits import APPLIED

    over_sum = next(operation for kind, _, operation, _ in APPLIED if kind == "sum_divided")
    rows = np.random.default_rng(0).normal(size=(4, 16)).astype(np.float32)
    assert np.allclose(over_sum(np.abs(rows)).sum(-1), 1)  # rows of one sign: a sum that is a number
    with pytest.raises(ValueError, match="rounding"):
        over_sum(rows - rows.mean(-1, keepdims=True))


def test_the_weights_replaced_by_their_scores_claim_the_softmax_left_out():
    """A with the scores it is the softmax of in its place is A without its softmax: a left-out
    nonlinearity as well as another quantity read."""
    assert {"activation", "term"} <= findings.edit_kinds("edit.replaced:A:scores")
    assert "activation" not in findings.edit_kinds("edit.replaced:v:k")
