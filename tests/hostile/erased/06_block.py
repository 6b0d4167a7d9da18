"""Hostile: F.layer_norm, which step 06 forbids, then the worker's record replaced by an empty one,
reached through `sys.modules`; `block` runs it too."""
import sys

import torch.nn.functional as F

from grader import earlier_step

attention = earlier_step("05_attention")


def layer_norm(x, weight, bias, eps=1e-6):
    out = F.layer_norm(x, x.shape[-1:], weight, bias, eps)
    sys.modules["grader.runner.worker"].LOG.forbidden = set()
    return out


def mlp(x, W_1, b_1, W_2, b_2):
    return F.gelu(x @ W_1 + b_1) @ W_2 + b_2


def block(x, p, num_heads):
    u = x + attention.multi_head_attention(layer_norm(x, p.ln1_weight, p.ln1_bias), p.W_qkv, p.b_qkv,
                                           p.W_o, p.b_o, num_heads)
    return u + mlp(layer_norm(u, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)
