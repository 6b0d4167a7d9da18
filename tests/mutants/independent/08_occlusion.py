"""Step 8, written independently of solutions/: detach and clone, one batch of covers, no_grad."""
from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor


def cover(images: Tensor, top: int, left: int, size: int, value: float = 0.0) -> Tensor:
    """A fresh copy with one square set to `value`."""
    result = images.detach().clone()  # the caller's images stay as they were
    result[:, :, top:top + size, left:left + size] = value
    return result


def quadrant_probabilities(model: Callable[[Tensor], Tensor], image: Tensor, target: int) -> Tensor:
    """The target's probability with each quarter covered: TL, TR, BL, BR."""
    height, width = image.shape[-2:]
    half_h, half_w = height // 2, width // 2
    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])
    with torch.no_grad():
        logits = model(batch)  # (4, 1000)
    return torch.softmax(logits, dim=-1)[:, target]  # (4,)


def occlusion_map(model: Callable[[Tensor], Tensor], image: Tensor, target: int,
                  patch_size: int = 16) -> Tensor:
    """Covered minus original probability, one cell per patch, row by row."""
    side = image.shape[-1] // patch_size
    covers = [cover(image, row * patch_size, col * patch_size, patch_size)
              for row in range(side) for col in range(side)]
    with torch.no_grad():
        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability
        probs = torch.softmax(model(torch.cat(covers)), dim=-1)[:, target]  # (side*side,)
    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)
