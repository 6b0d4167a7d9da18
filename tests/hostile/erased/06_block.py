"""Hostile: F.layer_norm, which step 06 forbids, then the worker's record replaced by an empty one,
reached through `sys.modules`. No `block`: its tests fail as missing."""
import sys

import torch.nn.functional as F


def layer_norm(x, weight, bias, eps=1e-6):
    out = F.layer_norm(x, x.shape[-1:], weight, bias, eps)
    sys.modules["grader.worker.serving"].LOG.forbidden = set()
    return out


def mlp(x, W_1, b_1, W_2, b_2):
    return F.gelu(x @ W_1 + b_1) @ W_2 + b_2
