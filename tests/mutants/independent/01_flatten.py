"""Step 1, written independently of solutions/: scaling by 2x - 1, Tensor.unfold, a guard clause."""
from __future__ import annotations

from torch import Tensor


def normalize(pixels: Tensor) -> Tensor:
    """(x / 255 - 0.5) / 0.5, written as 2 * (x / 255) - 1."""
    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic
    return scaled * 2.0 - 1.0  # [-1, 1]


def patchify(images: Tensor, patch_size: int = 16) -> Tensor:
    """Patches row by row, each flattened channel-major."""
    B, C, H, W = images.shape
    P = patch_size
    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)
    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)
    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)


def count_tokens(image_size: int, patch_size: int, cls: bool = True) -> int:
    """Patches of a square grid, plus CLS when asked."""
    if image_size % patch_size:
        raise ValueError(f"{image_size} is not divisible by {patch_size}")
    per_side = image_size // patch_size
    return per_side * per_side + (1 if cls else 0)
