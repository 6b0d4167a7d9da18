"""Step 5, written independently of solutions/: addmm, indexing, einsum, a hand-written softmax."""
from __future__ import annotations

import math

import torch
from torch import Tensor


def qkv_heads(x: Tensor, W_qkv: Tensor, b_qkv: Tensor,
              num_heads: int) -> tuple[Tensor, Tensor, Tensor]:
    """One product for q, k and v, then H heads of d features each."""
    batch, count, width = x.shape
    head_dim = width // num_heads
    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv)  # (B*N, 3D)
    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)
    q = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)
    k = mixed[:, :, 1].transpose(1, 2)  # (B, H, N, d)
    v = mixed[:, :, 2].transpose(1, 2)  # (B, H, N, d)
    return q, k, v


def attention_weights(q: Tensor, k: Tensor) -> Tensor:
    """Row softmax of q·k / √d."""
    head_dim = q.shape[-1]
    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)
    scores = scores - scores.amax(dim=-1, keepdim=True)  # each row's largest score becomes 0
    weights = scores.exp()  # (B, H, N, N)
    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1


def multi_head_attention(
    x: Tensor, W_qkv: Tensor, b_qkv: Tensor, W_o: Tensor, b_o: Tensor, num_heads: int
) -> Tensor:
    """Weighted values per head, joined side by side, projected."""
    batch, count, width = x.shape
    q, k, v = qkv_heads(x, W_qkv, b_qkv, num_heads)  # each (B, H, N, d)
    weights = attention_weights(q, k)  # (B, H, N, N)
    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values
    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)
    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)
