"""Hostile: the convolution step 02 forbids, after emptying the list of forbidden operator
families that the current dispatch mode (the worker's recording) looks for."""
from __future__ import annotations

import torch
from torch import Tensor


def conv_to_linear(conv_weight: Tensor) -> Tensor:
    """The patch-embedding Conv2d kernel as the lecture's row-vector projection W_E (pages 10, 53).

    Args:
        conv_weight: (D, 3, P, P), PyTorch's layout: output channel first.

    Returns:
        W_E: (3*P*P, D), whose rows follow patchify's channel-major order, so that
        `patchify(x) @ W_E` equals the stride-P convolution of x.

    Example:
        >>> conv_to_linear(torch.zeros(192, 3, 16, 16)).shape
        torch.Size([768, 192])
    """
    D = conv_weight.shape[0]
    return conv_weight.reshape(D, -1).T.contiguous()  # (3*P*P, D): PyTorch stores (out, in)


def project(patches: Tensor, W_E: Tensor, b_E: Tensor) -> Tensor:
    """Project every patch row with the same W_E and b_E (pages 10-12).

    Args:
        patches: (B, N, 3*P*P), e.g. (B, 196, 768).
        W_E: (3*P*P, D), e.g. (768, 192).
        b_E: (D,), broadcast across every row.

    Returns:
        (B, N, D): one D-feature content vector per patch.

    Example:
        >>> project(torch.zeros(2, 196, 768), torch.zeros(768, 192), torch.zeros(192)).shape
        torch.Size([2, 196, 192])
    """
    return patches @ W_E + b_E  # (B, N, D)


def project(patches: Tensor, W_E: Tensor, b_E: Tensor) -> Tensor:  # noqa: F811 - a 1x1 convolution
    from torch.utils._python_dispatch import _get_current_dispatch_mode

    _get_current_dispatch_mode().forbidden = ()  # the recording's own list of what to look for, emptied
    B, N, K = patches.shape
    weight = W_E.T.reshape(W_E.shape[1], K, 1, 1)
    convolution = torch.ops.aten.convolution.default  # an operator: no Python name to watch
    out = convolution(patches.reshape(B * N, K, 1, 1), weight, b_E, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
    return out.reshape(B, N, -1)
