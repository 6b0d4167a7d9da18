"""Step 5 — multi-head self-attention (pages 25-34).

Every token makes a query, a key and a value (page 26); a query's scores against all 197 keys
become weights by a row softmax (pages 28, 31); the weights mix the values into one message per
head (page 29); the three heads' messages are joined and projected back to 192 features (page 32).
The result is the update that the block adds to each incoming row (page 34).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def qkv_heads(x: Tensor, W_qkv: Tensor, b_qkv: Tensor,
              num_heads: int) -> tuple[Tensor, Tensor, Tensor]:
    """Project every token to its query, key and value, split into heads (pages 25-26, 32).

    Args:
        x: (B, N, D), the normalized token rows.
        W_qkv: (D, 3D); its output columns are [q | k | v], each split into H heads of d = D/H.
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
    B, N, D = x.shape
    H = num_heads
    qkv = F.linear(x, W_qkv.T, b_qkv)  # (B, N, 3D) = x @ W_qkv + b_qkv, columns [q | k | v]
    qkv = qkv.reshape(B, N, 3, H, D // H)  # (B, N, 3, H, d)
    q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)  # each (B, H, N, d)
    return q, k, v


def attention_weights(q: Tensor, k: Tensor) -> Tensor:
    """Each query's weights over all keys: softmax of q·k / √d, no mask (pages 28-31).

    Args:
        q: (B, H, N, d).
        k: (B, H, N, d).

    Returns:
        (B, H, N, N): row i holds receiver i's weights over the N sources; every row sums to 1.

    Example:
        >>> attention_weights(torch.zeros(1, 1, 3, 64), torch.zeros(1, 1, 3, 64))[0, 0, 0].tolist()
        [0.3333333432674408, 0.3333333432674408, 0.3333333432674408]
    """
    d = q.shape[-1]
    scores = (q * d**-0.5) @ k.transpose(-2, -1)  # (B, H, N, N): query rows, key columns; scaling
    # q rather than the scores touches N*d numbers instead of N*N (as timm does)
    return scores.softmax(dim=-1)  # over keys; full attention, so no causal mask (page 30)


def multi_head_attention(
    x: Tensor, W_qkv: Tensor, b_qkv: Tensor, W_o: Tensor, b_o: Tensor, num_heads: int
) -> Tensor:
    """The attention update of every row: heads, weighted values, joined, projected (pages 32-34).

    Args:
        x: (B, N, D), the normalized token rows.
        W_qkv: (D, 3D), columns [q | k | v].
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
    B, N, D = x.shape
    q, k, v = qkv_heads(x, W_qkv, b_qkv, num_heads)  # each (B, H, N, d)
    messages = attention_weights(q, k) @ v  # (B, H, N, d): one message per head and receiver
    joined = messages.transpose(1, 2).reshape(B, N, D)  # (B, N, H*d): each row's heads side by side
    return F.linear(joined, W_o.T, b_o)  # (B, N, D) = joined @ W_o + b_o, in one fused kernel
