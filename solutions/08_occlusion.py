"""Step 8 — occlusion: cover pixels, run the same model again, compare (pages 41-44).

Covering replaces pixels with normalized 0, which is mid-gray (page 42), in a fresh copy each time
so that covers never accumulate. Four quadrant covers (page 43) and 196 single-patch covers
(page 44) measure how the target class's probability changes. This is a probability-change map,
not attention (page 44).
"""
from __future__ import annotations

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
    """The target class's probability with each quarter covered in turn (page 43).

    Args:
        model: maps normalized images (B, 3, H, W) to logits (B, C).
        image: (1, 3, H, H), square and normalized, e.g. (1, 3, 224, 224).
        target: the class index to follow, e.g. 256 (Newfoundland).

    Returns:
        (4,): probabilities for the top-left, top-right, bottom-left, bottom-right quarter covered,
        each quarter H/2 x H/2, a square as `cover` draws (112 x 112 for the lecture's 224 x 224).

    Example:
        >>> quadrant_probabilities(model, image, 256).shape  # model, image: see docs/students.md
        torch.Size([4])
    """
    half = image.shape[-1] // 2
    corners = [(0, 0), (0, half), (half, 0), (half, half)]  # TL, TR, BL, BR as (top, left)
    covered = torch.cat([cover(image, top, left, half) for top, left in corners])  # (4, 3, H, W)
    return _target_probability(model, covered, target)  # (4,)


def occlusion_map(model: Callable[[Tensor], Tensor], image: Tensor, target: int,
                  patch_size: int = 16) -> Tensor:
    """Change of the target probability when each single patch is covered (page 44).

    Args:
        model: maps normalized images (B, 3, H, W) to logits (B, C).
        image: (1, 3, H, W), normalized, e.g. (1, 3, 224, 224).
        target: the class index to follow.
        patch_size: P, the side of each square cover (16, one patch, in the lecture).

    Returns:
        (H/P, W/P), e.g. (14, 14): covered minus original probability (probability units, not
        percentage points); row r, column c is the cover whose top-left pixel is (r*P, c*P), patch
        P(r*W/P + c + 1). Negative where covering hurts the target.

    Example:
        >>> occlusion_map(model, image, 256).shape  # model, image: see docs/students.md
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
