"""Step 1 — from pixels to patch rows (lecture pages 6-9, 48-49).

The encoder reads a sequence of vectors, not a pixel grid (page 4). In this step you normalize the
pixels, cut the 224 x 224 image into 196 patches of 16 x 16 and flatten each into 768 numbers, and
count how many tokens a grid gives. Nothing here is learned: flattening only rearranges values
(page 9). Check your work with `vitgrade check 01_flatten`.
"""
from __future__ import annotations

import torch
from torch import Tensor


def normalize(pixels: Tensor) -> Tensor:
    """The checkpoint's normalization: RGB to [0, 1], minus 0.5, divided by 0.5 (page 8).

    Hint: the result lies in [-1, 1], and normalized 0 is mid-gray, not black (page 42).
    Integer arithmetic on uint8 wraps around; convert to float32 first.

    Args:
        pixels: uint8 values 0..255, any shape, e.g. (B, 3, 224, 224).

    Returns:
        float32, same shape, in [-1, 1].

    Example:
        >>> normalize(torch.tensor([0, 255], dtype=torch.uint8)).tolist()
        [-1.0, 1.0]
    """
    raise NotImplementedError("normalize")


def patchify(images: Tensor, patch_size: int = 16) -> Tensor:
    """Cut images into non-overlapping patches and flatten each one (pages 7-9).

    Patches are numbered row by row (P1 top-left, P14 top-right, P196 bottom-right). Each patch is
    flattened channel-major: all R values row by row, then all G, then all B (page 9).

    Hint: think of each image as a grid of rows x cols patches, each patch 3 x P x P; the only
    question is the order in which the axes are read out. Don't use F.unfold: this step is it.

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
    raise NotImplementedError("patchify")


def count_tokens(image_size: int, patch_size: int, cls: bool = True) -> int:
    """How many tokens the encoder reads for a square image (pages 6, 48-49).

    Hint: page 48 gives 49, 196 and 784 patch tokens for 32, 16 and 8-pixel patches; this
    architecture adds one CLS token.

    Args:
        image_size: side of the square image in pixels, e.g. 224.
        patch_size: side of a square patch in pixels, e.g. 16.
        cls: whether to count the CLS token too.

    Returns:
        The number of tokens.

    Raises:
        ValueError: if `image_size` is not divisible by `patch_size`.

    Example:
        >>> count_tokens(224, 16)
        197
    """
    raise NotImplementedError("count_tokens")
