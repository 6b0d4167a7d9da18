"""Hostile: the right numbers in the wrong containers, shapes and types, one kind per call."""
import numpy as np
import torch

_calls = {"normalize": 0, "patchify": 0, "count_tokens": 0}


def _right_normalize(pixels):
    return (pixels.to(torch.float32) / 255 - 0.5) / 0.5


def _right_patchify(images, P):
    B, C, H, W = images.shape
    grid = images.reshape(B, C, H // P, P, W // P, P).permute(0, 2, 4, 1, 3, 5)
    return grid.reshape(B, (H // P) * (W // P), C * P * P)


def _next(name):
    _calls[name] += 1
    return _calls[name]


def normalize(pixels):
    call, right = _next("normalize"), _right_normalize(pixels)
    if call == 1:
        return right.tolist()  # a nested Python list
    if call == 2:
        return right.numpy()  # a numpy array
    return None  # forgot the return


def patchify(images, patch_size=16):
    call, right = _next("patchify"), _right_patchify(images, patch_size)
    if call == 1:
        return right.transpose(1, 2)  # (B, 768, 196)
    if call == 2:
        return right.to(torch.float16)
    return right.round().to(torch.int64)


#: The wrong container for each size asked, whatever order the cases come in.
_CONTAINERS = {(224, 16, True): float, (224, 16, False): str, (224, 32, True): torch.tensor,
               (224, 8, True): np.int64, (96, 32, False): bool, (384, 16, True): float}


def count_tokens(image_size, patch_size, cls=True):
    right = (image_size // patch_size) ** 2 + int(cls)
    return _CONTAINERS.get((image_size, patch_size, cls), float)(right)
