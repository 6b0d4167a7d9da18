"""Step 2 — one shared projection turns 768 pixel values into 192 features (pages 10-13).

Every patch row goes through the same affine map c_i = x_i W_E + b_E (pages 10-11); stacked, all
patches at once: C = X W_E + b_E (page 12). The checkpoint stores W_E as a Conv2d kernel; the
implementation lab (page 53) shows that the convolution and this projection are the same map.
"""
from __future__ import annotations

import torch
from torch import Tensor


def conv_to_linear(conv_weight: Tensor) -> Tensor:
    """The patch-embedding Conv2d kernel as the lecture's row-vector projection W_E (pages 10, 53).

    Args:
        conv_weight: (D, 3, P, P), PyTorch's layout: output channel first.

    Returns:
        W_E: (3*P*P, D), in conv_weight's dtype, whose rows follow patchify's channel-major
        order, so that `patchify(x) @ W_E` equals the stride-P convolution of x.

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
