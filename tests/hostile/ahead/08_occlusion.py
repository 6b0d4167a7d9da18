"""Hostile: step 08 as the solutions write it, except `quadrant_probabilities`, which exits."""
from __future__ import annotations

import os
from collections.abc import Callable

import torch
from torch import Tensor


def cover(images: Tensor, top: int, left: int, size: int, value: float = 0.0) -> Tensor:
    """A fresh copy of the images with one square set to `value` (page 42).

    Args:
        images: (B, 3, H, W), normalized; left untouched.
        top, left: the square's top-left pixel (row, column), from 0.
        size: the square's side in pixels.
        value: the fill in normalized units; 0.0 is mid-gray, not black.

    Returns:
        (B, 3, H, W): a copy with `[:, :, top:top+size, left:left+size] = value`.

    Example:
        >>> cover(torch.ones(1, 3, 224, 224), 0, 0, 112)[0, 0, 111, 111:113].tolist()
        [0.0, 1.0]
    """
    covered = images.clone()
    covered[:, :, top:top + size, left:left + size] = value
    return covered


def quadrant_probabilities(model: Callable[[Tensor], Tensor], image: Tensor, target: int) -> Tensor:
    """Ends its worker on every call: the step run ahead loses its worker at its first call."""
    os._exit(5)


def occlusion_map(model: Callable[[Tensor], Tensor], image: Tensor, target: int,
                  patch_size: int = 16) -> Tensor:
    """Change of the target probability when each single patch is covered (page 44).

    Args:
        model: maps normalized images (B, 3, 224, 224) to logits (B, 1000).
        image: (1, 3, 224, 224), normalized.
        target: the class index to follow.
        patch_size: the side of each cover, one patch.

    Returns:
        (14, 14): covered minus original probability (probability units, not percentage points);
        row r, column c is patch P(14r + c + 1). Negative where covering hurts the target.

    Example:
        >>> occlusion_map(model, image, 256).shape  # model, image: e.g. the ViT, a photo
        torch.Size([14, 14])
    """
    P = patch_size
    rows, cols = image.shape[-2] // P, image.shape[-1] // P
    covered = torch.cat([cover(image, r * P, c * P, P)
                         for r in range(rows) for c in range(cols)])  # (rows*cols, 3, H, W)
    change = _target_probability(model, covered, target) - _target_probability(model, image, target)
    return change.reshape(rows, cols)  # (rows, cols), patches row by row


def _target_probability(model: Callable[[Tensor], Tensor], images: Tensor, target: int) -> Tensor:
    """P(target) for each image, as on page 42: a frozen model, softmax over classes."""
    with torch.inference_mode():
        return model(images).softmax(dim=-1)[:, target]  # (B,)
