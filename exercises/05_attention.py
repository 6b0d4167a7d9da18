"""Step 5 — multi-head self-attention (pages 25-34).

Every token makes a query, a key and a value (page 26); a query's scores against all 197 keys
become weights by a row softmax (pages 28, 31); the weights mix the values into one message per
head (page 29); the three heads' messages are joined and projected back to 192 features (page 32).
The result is the update that the block adds to each incoming row (page 34).
Check your work with `vitgrade check 05_attention`.
"""
from __future__ import annotations

import torch
from torch import Tensor


def qkv_heads(x: Tensor, W_qkv: Tensor, b_qkv: Tensor,
              num_heads: int) -> tuple[Tensor, Tensor, Tensor]:
    """Project every token to its query, key and value, split into heads (pages 25-26, 32).

    Hint: one matrix product gives all three: the first D output columns are q, the next D are k,
    the last D are v, and within each, head 1 owns the first d = D/H columns.

    Args:
        x: (B, N, D), the normalized token rows.
        W_qkv: (D, 3D), output columns [q | k | v].
        b_qkv: (3D,).
        num_heads: H, e.g. 3.

    Returns:
        q, k, v: each (B, H, N, d) with d = D/H, e.g. (B, 3, 197, 64).

    Example:
        >>> x = torch.zeros(2, 197, 192)
        >>> q, k, v = qkv_heads(x, torch.zeros(192, 576), torch.zeros(576), 3)
        >>> q.shape
        torch.Size([2, 3, 197, 64])
    """
    raise NotImplementedError("qkv_heads")


def attention_weights(q: Tensor, k: Tensor) -> Tensor:
    """Each query's weights over all keys: softmax of q·k / √d, no mask (pages 28-31).

    Hint: each row is one receiver, each column one source; the softmax runs along a row, so each
    receiver's weights sum to one (page 31). ViT uses full attention: no causal mask (page 30).

    Args:
        q: (B, H, N, d).
        k: (B, H, N, d).

    Returns:
        (B, H, N, N): row i holds receiver i's weights over the N sources.

    Example:
        >>> attention_weights(torch.zeros(1, 1, 3, 64), torch.zeros(1, 1, 3, 64))[0, 0, 0].tolist()
        [0.3333333432674408, 0.3333333432674408, 0.3333333432674408]
    """
    raise NotImplementedError("attention_weights")


def multi_head_attention(
    x: Tensor, W_qkv: Tensor, b_qkv: Tensor, W_o: Tensor, b_o: Tensor, num_heads: int
) -> Tensor:
    """The attention update of every row: heads, weighted values, joined, projected (pages 32-34).

    Hint: each head's message is a weighted sum of value rows (page 29); join each row's H
    messages side by side, head 1 first, then apply the output projection (page 32). Do not add
    x here: the residual add belongs to the block (step 6).

    Args:
        x: (B, N, D), the normalized token rows.
        W_qkv: (D, 3D), output columns [q | k | v].
        b_qkv: (3D,).
        W_o: (D, D), the output projection of the joined heads.
        b_o: (D,).
        num_heads: H.

    Returns:
        (B, N, D): the update, before the residual add.

    Example:
        >>> x = torch.zeros(2, 197, 192)
        >>> multi_head_attention(x, torch.zeros(192, 576), torch.zeros(576),
        ...                      torch.zeros(192, 192), torch.zeros(192), 3).shape
        torch.Size([2, 197, 192])
    """
    raise NotImplementedError("multi_head_attention")
