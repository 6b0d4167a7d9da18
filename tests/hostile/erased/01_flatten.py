"""Hostile: timm imported as the file loads, then every set the worker module holds emptied by a
call (what was found at import lives in none of them).

05: the record emptied after the fused attention kernel; 06: the record replaced after F.layer_norm,
both reached through `sys.modules`."""
from __future__ import annotations

import sys

import timm  # noqa: F401 - recorded as the file loads
import torch
from torch import Tensor


def normalize(pixels: Tensor) -> Tensor:
    """The checkpoint's normalization: RGB to [0, 1], minus 0.5, divided by 0.5 (page 8).

    Args:
        pixels: uint8 values 0..255, any shape, e.g. (B, 3, 224, 224).

    Returns:
        float32, same shape, in [-1, 1]; 0 is mid-gray (page 42).

    Example:
        >>> normalize(torch.tensor([0, 255], dtype=torch.uint8)).tolist()
        [-1.0, 1.0]
    """
    return (pixels.to(torch.float32) / 255 - 0.5) / 0.5


def patchify(images: Tensor, patch_size: int = 16) -> Tensor:
    """Cut images into non-overlapping patches and flatten each one (pages 7-9).

    Patches are numbered row by row (P1 top-left, P14 top-right, P196 bottom-right). Each patch is
    flattened channel-major: all R values row by row, then all G, then all B (page 9).

    Args:
        images: (B, 3, H, W), H and W divisible by `patch_size`.
        patch_size: P, the side of a square patch.

    Returns:
        (B, N, 3*P*P) with N = (H/P) * (W/P): (B, 196, 768) for ViT-Ti/16.

    Example:
        >>> image = torch.arange(48.0).reshape(1, 3, 4, 4)
        >>> patchify(image, patch_size=2)[0, 0].tolist()  # P1: its R rows, then G, then B
        [0.0, 1.0, 4.0, 5.0, 16.0, 17.0, 20.0, 21.0, 32.0, 33.0, 36.0, 37.0]
    """
    B, C, H, W = images.shape
    P = patch_size
    grid = images.reshape(B, C, H // P, P, W // P, P)  # (B, C, rows, P, cols, P)
    grid = grid.permute(0, 2, 4, 1, 3, 5)  # (B, rows, cols, C, P, P): channel-major inside a patch
    return grid.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P), patches row by row


def count_tokens(image_size: int, patch_size: int, cls: bool = True) -> int:
    """How many tokens the encoder reads for a square image (pages 6, 48-49).

    Args:
        image_size: side of the square image in pixels, e.g. 224.
        patch_size: side of a square patch in pixels, e.g. 16.
        cls: whether to count the CLS token too.

    Returns:
        (image_size / patch_size)² patch tokens, plus one if `cls`.

    Raises:
        ValueError: if `image_size` is not divisible by `patch_size`.

    Example:
        >>> count_tokens(224, 16)
        197
    """
    if image_size % patch_size:
        raise ValueError(f"image_size {image_size} is not divisible by patch_size {patch_size}")
    return (image_size // patch_size) ** 2 + int(cls)


_count_tokens = count_tokens


def count_tokens(image_size: int, patch_size: int, cls: bool = True) -> int:  # noqa: F811
    worker = sys.modules["grader.runner.worker"]
    for value in list(vars(worker).values()):  # whatever the worker holds in a set at module level
        if isinstance(value, set):
            value.clear()
    return _count_tokens(image_size, patch_size, cls)
