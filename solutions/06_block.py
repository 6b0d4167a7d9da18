"""Step 6 — LayerNorm, the MLP and one pre-LN encoder block (pages 34-37).

A block adds two updates to every row: attention first, U = E + MSA(LN(E)) (page 34), then the
MLP, E_next = U + MLP(LN(U)) (page 35). The MLP works on each row alone: 192 → 768 → 192,
with GELU between.
"""
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
        p: this block's `BlockParams` (e.g. `params.blocks[0]`), in the row-vector layout x @ W + b:
            p.ln1_weight, p.ln1_bias: (D,) each: LN1, before attention;
            p.W_qkv: (D, 3D), p.b_qkv: (3D,), p.W_o: (D, D), p.b_o: (D,): the attention (step 5);
            p.ln2_weight, p.ln2_bias: (D,) each: LN2, before the MLP;
            p.W_1: (D, 4D), p.b_1: (4D,), p.W_2: (4D, D), p.b_2: (D,): the MLP.
        num_heads: H, e.g. 3.

    Returns:
        (B, N, D): the rows the next block reads.

    Example:
        >>> block(torch.zeros(2, 197, 192), params.blocks[0], 3).shape  # params: see docs/students.md
        torch.Size([2, 197, 192])
    """
    u = x + attention.multi_head_attention(
        layer_norm(x, p.ln1_weight, p.ln1_bias), p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)
    return u + mlp(layer_norm(u, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)
