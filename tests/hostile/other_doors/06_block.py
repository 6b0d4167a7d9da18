"""Hostile: layer_norm as the ATen operator LayerNorm runs (no `F.layer_norm` name to catch)."""
import torch
import torch.nn.functional as F

from grader import BlockParams, earlier_step

attention = earlier_step("05_attention")


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return torch.ops.aten.native_layer_norm(x, [x.shape[-1]], weight, bias, eps)[0]


def mlp(x, W_1, b_1, W_2, b_2):
    return F.gelu(x @ W_1 + b_1) @ W_2 + b_2


def block(x: torch.Tensor, p: BlockParams, num_heads: int) -> torch.Tensor:
    u = x + attention.multi_head_attention(layer_norm(x, p.ln1_weight, p.ln1_bias), p.W_qkv, p.b_qkv,
                                           p.W_o, p.b_o, num_heads)
    return u + mlp(layer_norm(u, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)
