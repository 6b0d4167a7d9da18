"""Step 7 — read the final CLS, score 1,000 classes, and the whole ViT (pages 38-40, 50-52, 54).

After the last block, the final LayerNorm normalizes every row and only row 0, CLS, is read
(page 38); a linear head turns its 192 features into 1,000 logits (pages 39, 54). `vit_forward`
is the six lines of page 52, built from your steps 4 and 6 (`embedding.embed`, `encoder.block`,
`encoder.layer_norm`). When it works, `vitgrade predict photo.jpg --impl exercises` runs your ViT.
Check your work with `vitgrade check 07_head`.
"""
from __future__ import annotations

import torch
from torch import Tensor

from grader import ViTParams, earlier_step

embedding = earlier_step("04_cls")
encoder = earlier_step("06_block")


def read_cls(x: Tensor, norm_weight: Tensor, norm_bias: Tensor) -> Tensor:
    """The final LayerNorm, then token 0: the image summary (page 38).

    Hint: CLS sits at index 0 of every image's sequence (page 52: `norm(x)[:, 0]`).

    Args:
        x: (B, 1+N, D), the rows after the last block, e.g. (B, 197, 192).
        norm_weight: (D,), norm_bias: (D,): the final LayerNorm.

    Returns:
        (B, D): the final CLS of every image.

    Example:
        >>> read_cls(torch.randn(2, 197, 192), torch.ones(192), torch.zeros(192)).shape
        torch.Size([2, 192])
    """
    raise NotImplementedError("read_cls")


def classify(h: Tensor, W_head: Tensor, b_head: Tensor) -> Tensor:
    """One score per class: s_c = h · w_c + b_c for all C classes at once (pages 39, 54).

    Hint: page 54 writes h as a column vector; here h is a row per image, as on page 10.
    Return logits: no softmax (page 52).

    Args:
        h: (B, D), the final CLS.
        W_head: (D, C), column c is class c's learned vector; C = 1000 ImageNet classes in the lecture.
        b_head: (C,).

    Returns:
        (B, C) logits.

    Example:
        >>> classify(torch.zeros(2, 192), torch.zeros(192, 1000), torch.zeros(1000)).shape
        torch.Size([2, 1000])
    """
    raise NotImplementedError("classify")


def vit_forward(images: Tensor, params: ViTParams) -> Tensor:
    """The whole ViT in six lines (page 52): embed, every block, read CLS, classify.

    Hint: the blocks run one after another, each with its own parameters (page 36). The tests also
    use a smaller ViT (fewer blocks, heads and classes): read every size from `params`.

    Args:
        images: (B, 3, H, W), normalized; (B, 3, 224, 224) in the lecture.
        params: the checkpoint's `ViTParams`; besides the fields `embed` reads (step 4):
            params.blocks: one `BlockParams` per block, in order: len(params.blocks) of them (12 in
            ViT-Ti/16);
            params.num_heads: H (3 in the lecture);
            params.norm_weight, params.norm_bias: (D,) each: the final LayerNorm;
            params.W_head: (D, C) and params.b_head: (C,): the head, C classes (1000 in the lecture).

    Returns:
        (B, C) logits, e.g. (B, 1000).

    Example:
        >>> vit_forward(torch.zeros(2, 3, 224, 224), params).shape  # params: see docs/students.md
        torch.Size([2, 1000])
    """
    raise NotImplementedError("vit_forward")
