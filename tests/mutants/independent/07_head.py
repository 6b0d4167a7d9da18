"""Step 7, written independently of solutions/: CLS cut out first, addmm, a loop over blocks."""
from __future__ import annotations

import torch
from torch import Tensor

from grader import ViTParams, earlier_step

embedding = earlier_step("04_cls")
encoder = earlier_step("06_block")


def read_cls(x: Tensor, norm_weight: Tensor, norm_bias: Tensor) -> Tensor:
    """The final LayerNorm of row 0: it works row by row, so the other rows can be left out."""
    summary = x[:, :1]  # (B, 1, D): CLS only
    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)


def classify(h: Tensor, W_head: Tensor, b_head: Tensor) -> Tensor:
    """s = h W_head + b_head."""
    return torch.addmm(b_head, h, W_head)  # (B, 1000)


def vit_forward(images: Tensor, params: ViTParams) -> Tensor:
    """Embed, twelve blocks, CLS, head."""
    x = embedding.embed(images, params)  # (B, 197, D)
    rows = x
    for layer in params.blocks:
        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)
    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)
    return classify(summary, params.W_head, params.b_head)  # (B, 1000)
