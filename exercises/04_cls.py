"""Step 4 — prepend CLS and build the sequence the encoder reads (pages 18-23).

Every image starts with the same learned CLS vector at index 0 (pages 19-20); after CLS is in
place, each of the 197 rows gets its position vector (page 23). `embed` chains steps 1-4 through
your own earlier functions, e.g. `flatten.patchify(...)`.
Check your work with `vitgrade check 04_cls`.
"""
from __future__ import annotations

import torch
from torch import Tensor

from grader import ViTParams, earlier_step

flatten = earlier_step("01_flatten")
projection = earlier_step("02_project")
position = earlier_step("03_position")


def prepend_cls(tokens: Tensor, cls_token: Tensor) -> Tensor:
    """Put the learned starting CLS vector in front of every image's patch tokens (pages 18-20).

    Hint: one CLS vector is shared by the whole batch; every image gets its own copy at index 0.

    Args:
        tokens: (B, N, D) patch tokens, e.g. (B, 196, 192).
        cls_token: (D,).

    Returns:
        (B, 1+N, D): row 0 is CLS, rows 1..N are P1..PN.

    Example:
        >>> prepend_cls(torch.zeros(2, 196, 192), torch.ones(192)).shape
        torch.Size([2, 197, 192])
    """
    raise NotImplementedError("prepend_cls")


def embed(images: Tensor, params: ViTParams) -> Tensor:
    """Images to the encoder's input: patchify, project, prepend CLS, add position (page 23).

    Hint: the checkpoint has 197 position vectors, one for the CLS slot (page 17), so CLS must be
    in place before position is added.

    Args:
        images: (B, 3, H, W), normalized; (B, 3, 224, 224) in the lecture.
        params: the checkpoint's `ViTParams`; this function reads
            params.patch_size: P, the side of a patch (16 in the lecture);
            params.W_E: (3*P*P, D) and params.b_E: (D,): the patch projection (step 2);
            params.cls_token: (D,): the learned CLS vector;
            params.pos_table: (1+N, D), row 0 for CLS, rows 1..N for P1..PN (page 17).

    Returns:
        (B, 1+N, D) with N = (H/P) * (W/P): (B, 197, 192) for ViT-Ti/16.

    Example:
        >>> embed(torch.zeros(2, 3, 224, 224), params).shape  # params: see docs/students.md
        torch.Size([2, 197, 192])
    """
    raise NotImplementedError("embed")
