"""Step 6, written independently of solutions/: explicit moments, erf GELU, a loop over sublayers."""
from __future__ import annotations

import math

import torch
from torch import Tensor

from grader import BlockParams, earlier_step

attention = earlier_step("05_attention")


def layer_norm(x: Tensor, weight: Tensor, bias: Tensor, eps: float = 1e-6) -> Tensor:
    """Each row centred and divided by its standard deviation, then scaled and shifted."""
    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)
    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance
    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)


def mlp(x: Tensor, W_1: Tensor, b_1: Tensor, W_2: Tensor, b_2: Tensor) -> Tensor:
    """Expand, exact GELU, contract."""
    hidden = x @ W_1 + b_1  # (B, N, 4D)
    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)
    return hidden @ W_2 + b_2  # (B, N, D)


def block(x: Tensor, p: BlockParams, num_heads: int) -> Tensor:
    """Two pre-LN residual updates: attention, then the MLP."""
    def attend(rows: Tensor) -> Tensor:
        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)

    def feed(rows: Tensor) -> Tensor:
        return mlp(rows, p.W_1, p.b_1, p.W_2, p.b_2)

    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]
    stream = x  # (B, N, D)
    for update, weight, bias in sublayers:
        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)
    return stream
