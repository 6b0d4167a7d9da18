"""Step 2 — one shared projection turns 768 pixel values into 192 features (pages 10-13).

Every patch row goes through the same affine map c_i = x_i W_E + b_E (pages 10-11); stacked, all
patches at once: C = X W_E + b_E (page 12). The checkpoint stores W_E as a Conv2d kernel; the
implementation lab (page 53) shows that the convolution and this projection are the same map.
Check your work with `vitgrade check 02_project`.
"""
from __future__ import annotations

import torch
from torch import Tensor


def conv_to_linear(conv_weight: Tensor) -> Tensor:
    """The patch-embedding Conv2d kernel as the lecture's row-vector projection W_E (pages 10, 53).

    A stride-P convolution with a P x P kernel computes, for each patch and each output channel d,
    the sum of the patch's 768 pixel values times kernel d's 768 weights. W_E must hold the same
    weights so that `patchify(x) @ W_E` gives the same numbers.

    Hint: column d of W_E is kernel d, read in the same channel-major order as patchify's rows.
    PyTorch keeps the output axis first (page 10); the lecture keeps it last.

    Args:
        conv_weight: (D, 3, P, P), PyTorch's layout: output channel first.

    Returns:
        W_E: (3*P*P, D), in conv_weight's dtype: the same weights, rearranged.

    Example:
        >>> conv_to_linear(torch.zeros(192, 3, 16, 16)).shape
        torch.Size([768, 192])
    """
    raise NotImplementedError("conv_to_linear")


def project(patches: Tensor, W_E: Tensor, b_E: Tensor) -> Tensor:
    """Project every patch row with the same W_E and b_E (pages 10-12).

    Hint: no activation follows this projection (page 10), and the same bias goes to every row
    (page 12).

    Args:
        patches: (B, N, 3*P*P), e.g. (B, 196, 768).
        W_E: (3*P*P, D), e.g. (768, 192).
        b_E: (D,).

    Returns:
        (B, N, D): one D-feature content vector per patch.

    Example:
        >>> project(torch.zeros(2, 196, 768), torch.zeros(768, 192), torch.zeros(192)).shape
        torch.Size([2, 196, 192])
    """
    raise NotImplementedError("project")
