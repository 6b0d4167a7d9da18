"""Hostile: timm imported as the file loads, then every set the worker module holds emptied by a
call (what was found at import lives in none of them)."""
import sys

import timm  # noqa: F401 - recorded as the file loads
import torch


def normalize(pixels):
    return (pixels.to(torch.float32) / 255 - 0.5) / 0.5


def patchify(images, patch_size=16):
    B, C, H, W = images.shape
    P = patch_size
    grid = images.reshape(B, C, H // P, P, W // P, P).permute(0, 2, 4, 1, 3, 5)
    return grid.reshape(B, (H // P) * (W // P), C * P * P)


def count_tokens(image_size, patch_size, cls=True):
    for value in list(vars(sys.modules["grader.worker.serving"]).values()):
        if isinstance(value, set):
            value.clear()
    if image_size % patch_size:
        raise ValueError("not divisible")
    return (image_size // patch_size) ** 2 + int(cls)
