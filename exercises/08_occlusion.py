"""Step 8 — occlusion: cover pixels, run the same model again, compare (pages 41-44).

Covering replaces pixels with normalized 0, which is mid-gray (page 42), in a fresh copy each time
so that covers never accumulate. Four quadrant covers (page 43) and 196 single-patch covers
(page 44) measure how the target class's probability changes. This is a probability-change map,
not attention (page 44). `model` is any callable from normalized images (B, 3, H, W) to
logits (B, C), e.g. `lambda x: vit_forward(x, params)`.
Check your work with `vitgrade check 08_occlusion`.
"""
from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor


def cover(images: Tensor, top: int, left: int, size: int, value: float = 0.0) -> Tensor:
    """A fresh copy of the images with one square set to `value` (page 42).

    Hint: the page's code starts with `x.clone()`; writing into `images` itself would change the
    caller's photograph, and the next cover would pile onto this one.

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
    raise NotImplementedError("cover")


def quadrant_probabilities(model: Callable[[Tensor], Tensor], image: Tensor, target: int) -> Tensor:
    """The target class's probability with each quarter covered in turn (page 43).

    Hint: each quarter is covered on a fresh copy of the original, never on the previous cover;
    probabilities are the softmax over the C classes of the logits, read at `target` (page 42).

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
    raise NotImplementedError("quadrant_probabilities")


def occlusion_map(model: Callable[[Tensor], Tensor], image: Tensor, target: int,
                  patch_size: int = 16) -> Tensor:
    """Change of the target probability when each single patch is covered (page 44).

    Hint: one model call per cover is slow (196 of them for the lecture's image); stack the covered
    copies into one batch and call the model once on it, plus once on the original. Patches are
    numbered row by row.

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
    raise NotImplementedError("occlusion_map")
