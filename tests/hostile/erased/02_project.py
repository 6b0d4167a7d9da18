"""Hostile: the convolution step 02 forbids, as an ATen operator (no Python name to watch), after
emptying the list of forbidden operator families that the current dispatch mode (the worker's
recording) looks for."""
import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode


def conv_to_linear(conv_weight):
    return conv_weight.reshape(conv_weight.shape[0], -1).T


def project(patches, W_E, b_E):
    _get_current_dispatch_mode().forbidden = ()
    B, N, K = patches.shape
    weight = W_E.T.reshape(W_E.shape[1], K, 1, 1)
    out = torch.ops.aten.convolution.default(patches.reshape(B * N, K, 1, 1), weight, b_E,
                                             [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
    return out.reshape(B, N, -1)
