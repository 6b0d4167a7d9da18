"""Honest: einsum, a loop over heads, and softmax."""
import torch


def qkv_heads(x, W_qkv, b_qkv, num_heads):
    B, N, D = x.shape
    d = D // num_heads
    qkv = torch.einsum("bnd,de->bne", x, W_qkv) + b_qkv  # (B, N, 3D)
    q, k, v = (torch.stack([qkv[..., part * D + h * d: part * D + (h + 1) * d] for h in range(num_heads)], dim=1)
               for part in range(3))  # each (B, H, N, d)
    return q, k, v


def attention_weights(q, k):
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / q.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1)


def multi_head_attention(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    q, k, v = qkv_heads(x, W_qkv, b_qkv, num_heads)
    heads = torch.einsum("bhqk,bhkd->bqhd", attention_weights(q, k), v)  # (B, N, H, d)
    return heads.flatten(2) @ W_o + b_o
