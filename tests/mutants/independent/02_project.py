"""Step 2, written independently of solutions/: flatten and transpose, einsum."""
from __future__ import annotations

import torch
from torch import Tensor


def conv_to_linear(conv_weight: Tensor) -> Tensor:
    """Kernel d, read channel-major, becomes column d of W_E."""
    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify
    return flat.transpose(0, 1).clone()  # (3*P*P, D)


def project(patches: Tensor, W_E: Tensor, b_E: Tensor) -> Tensor:
    """C = X W_E + b_E for every image."""
    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)
