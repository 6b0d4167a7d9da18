"""Step 6 — LayerNorm, the MLP and one pre-LN encoder block (pages 34-37).

A block adds two updates to every row: attention first, U = E + MSA(LN(E)) (page 34), then the
MLP, E_next = U + MLP(LN(U)) (page 35). The MLP works on each row alone: 192 → 768 → 192,
with GELU between.
`block` uses your attention from step 5 as `attention.multi_head_attention(...)`.
Check your work with `vitgrade check 06_block`.
"""
from __future__ import annotations

import torch
from torch import Tensor

from grader import BlockParams, earlier_step

attention = earlier_step("05_attention")


def layer_norm(x: Tensor, weight: Tensor, bias: Tensor, eps: float = 1e-6) -> Tensor:
    """Normalize each row over its features, then scale and shift (pages 34-35).

    Hint: mean and variance are taken over the last axis, one pair per token; the variance is the
    biased one (divide by D, not D - 1), and eps goes inside the square root.
    Don't call F.layer_norm: this step is it.

    Args:
        x: (..., D).
        weight: (D,), the learned scale.
        bias: (D,), the learned shift.
        eps: added to the variance before the square root.

    Returns:
        Same shape as `x`.

    Example:
        >>> layer_norm(torch.tensor([[1.0, 3.0]]), torch.ones(2), torch.zeros(2)).tolist()
        [[-0.9999995231628418, 0.9999995231628418]]
    """
    raise NotImplementedError("layer_norm")


def mlp(x: Tensor, W_1: Tensor, b_1: Tensor, W_2: Tensor, b_2: Tensor) -> Tensor:
    """The same two-layer MLP on every row, with exact GELU in between (page 35).

    Hint: exact GELU is GELU(z) = z · Φ(z), where Φ is the standard normal CDF. torch.erf is not Φ
    itself: Φ(z) = (1 + erf(z / √2)) / 2. The tanh approximation is close but not close enough.

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
    raise NotImplementedError("mlp")


def block(x: Tensor, p: BlockParams, num_heads: int) -> Tensor:
    """One pre-LN encoder block: attention update, then MLP update (pages 34-36).

    Hint: the MLP's update is added to the attention-updated rows, not to the block's input
    (page 35). Each LayerNorm has its own parameters (ln1 before attention, ln2 before the MLP).

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
    raise NotImplementedError("block")
