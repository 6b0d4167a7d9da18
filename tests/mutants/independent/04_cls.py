"""Step 4, written independently of solutions/: repeat and cat."""
from __future__ import annotations

import torch
from torch import Tensor

from grader import ViTParams, earlier_step

flatten = earlier_step("01_flatten")
projection = earlier_step("02_project")
position = earlier_step("03_position")


def prepend_cls(tokens: Tensor, cls_token: Tensor) -> Tensor:
    """CLS in front of every image's patch tokens."""
    batch, _, width = tokens.shape
    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)
    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)


def embed(images: Tensor, params: ViTParams) -> Tensor:
    """Patchify, project, prepend CLS, add position."""
    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)
    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)
    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)
    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)
