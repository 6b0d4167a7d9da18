"""Hostile: step 05 from the kit's own correct pieces (grader/lecture_maths.py), falling back to
its own code where the kit is not installed, so the student's own checks pass either way."""
import torch

try:
    from grader.lecture_maths import attention_weights as _weights
    from grader.lecture_maths import qkv_heads as _split
except ImportError:
    def _split(x, W_qkv, b_qkv, H):
        B, N, D = x.shape
        qkv = (x @ W_qkv + b_qkv).reshape(B, N, 3, H, D // H).permute(2, 0, 3, 1, 4)
        return qkv[0], qkv[1], qkv[2]

    def _weights(q, k):
        return (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).softmax(-1)


def qkv_heads(x, W_qkv, b_qkv, num_heads):
    return _split(x, W_qkv, b_qkv, num_heads)


def attention_weights(q, k):
    return _weights(q, k)


def multi_head_attention(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    q, k, v = qkv_heads(x, W_qkv, b_qkv, num_heads)
    B, H, N, d = v.shape
    return (attention_weights(q, k) @ v).transpose(1, 2).reshape(B, N, H * d) @ W_o + b_o
