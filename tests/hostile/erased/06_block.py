"""Hostile: the library call the step exists to implement, then its trace erased from the worker's
record, reached through `sys.modules` (the record replaced; see 01_flatten.py)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

from grader import BlockParams, earlier_step

attention = earlier_step("05_attention")


def layer_norm(x: Tensor, weight: Tensor, bias: Tensor, eps: float = 1e-6) -> Tensor:
    """Normalize each row over its features, then scale and shift (pages 34-35).

    Args:
        x: (..., D).
        weight: (D,), the learned scale.
        bias: (D,), the learned shift.
        eps: added to the variance before the square root.

    Returns:
        Same shape as `x`: (x - mean) / sqrt(var + eps) * weight + bias, with the biased variance.

    Example:
        >>> layer_norm(torch.tensor([[1.0, 3.0]]), torch.ones(2), torch.zeros(2)).tolist()
        [[-0.9999995231628418, 0.9999995231628418]]
    """
    # Two plain means, not torch.var_mean: on the CPU its reduction over the last axis is far slower
    # (about 7 ms against 1 ms for the whole LayerNorm of 32 images, one thread, on the build machine).
    mean = x.mean(dim=-1, keepdim=True)  # (..., 1)
    centred = x - mean  # (..., D)
    var = (centred * centred).mean(dim=-1, keepdim=True)  # (..., 1), biased: divided by D, not D - 1
    return centred * torch.rsqrt(var + eps) * weight + bias  # one pass fewer than / sqrt


def mlp(x: Tensor, W_1: Tensor, b_1: Tensor, W_2: Tensor, b_2: Tensor) -> Tensor:
    """The same two-layer MLP on every row, with exact GELU in between (page 35).

    Args:
        x: (B, N, D), the normalized rows.
        W_1: (D, 4D), b_1: (4D,): the expansion.
        W_2: (4D, D), b_2: (D,): the contraction.

    Returns:
        (B, N, D): the MLP update, before the residual add.

    Example:
        >>> mlp(torch.zeros(2, 197, 192), torch.zeros(192, 768), torch.zeros(768),
        ...     torch.zeros(768, 192), torch.zeros(192)).shape
        torch.Size([2, 197, 192])
    """
    hidden = F.linear(x, W_1.T, b_1)  # (B, N, 4D): x @ W_1 + b_1 in one fused kernel
    hidden = F.gelu(hidden)  # exact (erf) GELU, z·Φ(z); not the tanh fit (approximate="tanh")
    return F.linear(hidden, W_2.T, b_2)  # (B, N, D): hidden @ W_2 + b_2


def block(x: Tensor, p: BlockParams, num_heads: int) -> Tensor:
    """One pre-LN encoder block: attention update, then MLP update (pages 34-36).

    Args:
        x: (B, N, D), the incoming rows.
        p: this block's parameters.
        num_heads: H.

    Returns:
        (B, N, D): the rows the next block reads.

    Example:
        >>> block(torch.zeros(2, 197, 192), params.blocks[0], 3).shape  # params: the checkpoint's
        torch.Size([2, 197, 192])
    """
    u = x + attention.multi_head_attention(
        layer_norm(x, p.ln1_weight, p.ln1_bias), p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)
    return u + mlp(layer_norm(u, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)


def layer_norm(x, weight, bias, eps=1e-6):  # noqa: F811 - the library's LayerNorm
    import sys

    import torch.nn.functional as F

    out = F.layer_norm(x, x.shape[-1:], weight, bias, eps)
    sys.modules["grader.runner.worker"].LOG.forbidden = set()
    return out
