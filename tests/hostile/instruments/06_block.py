"""Hostile: LayerNorm as the ATen operator, run with the grader's operator recording switched off,
every name that reaches the instruments assembled at run time."""
import importlib

import torch
import torch.nn.functional as F

from grader import BlockParams, earlier_step

attention = earlier_step("05_attention")

_dispatch = importlib.import_module("torch.utils." + "_python" + "_dispatch")
_switch_off = getattr(_dispatch, "_disable" + "_current" + "_modes")
_C = getattr(torch, "_" + "C")


def _library_norm(x, weight, bias, eps):
    operator = getattr(getattr(torch.ops, "at" + "en"), "native_" + "layer" + "_norm")
    return operator(x, [x.shape[-1]], weight, bias, eps)[0]


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    with _switch_off():
        return _library_norm(x, weight, bias, eps)


def _norm_past_python_key(x, weight, bias):
    """The same work, the Python dispatch key excluded instead of the modes popped."""
    keys = getattr(_C, "DispatchKey" + "Set")(getattr(_C, "DispatchKey").Python)
    with getattr(_C, "_Exclude" + "DispatchKeyGuard")(keys):
        return _library_norm(x, weight, bias, 1e-6)


def mlp(x, W_1, b_1, W_2, b_2):
    return F.gelu(x @ W_1 + b_1) @ W_2 + b_2


def block(x: torch.Tensor, p: BlockParams, num_heads: int) -> torch.Tensor:
    u = x + attention.multi_head_attention(_norm_past_python_key(x, p.ln1_weight, p.ln1_bias), p.W_qkv,
                                           p.b_qkv, p.W_o, p.b_o, num_heads)
    return u + mlp(_norm_past_python_key(u, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)
