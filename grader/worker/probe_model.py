"""A cheap, location-sensitive stand-in classifier for grading occlusion code quickly.

Occlusion functions take any `model` from normalized images to logits (the step table's contract). The visible
occlusion tests use this probe instead of the ViT, so `vitgrade check 08_occlusion` costs
milliseconds per forward instead of seconds; hidden tests also use the ViT itself.
"""
from __future__ import annotations

import torch


class ProbeModel:
    """Mean of each 16x16 patch and channel, then a fixed linear map to class logits."""

    def __init__(self, weights: torch.Tensor, patch_size: int = 16) -> None:
        self.weights = weights  # (3 * 14 * 14, classes)
        self.patch_size = patch_size

    def __call__(self, images: torch.Tensor) -> torch.Tensor:
        P = self.patch_size
        means = images.unfold(2, P, P).unfold(3, P, P).mean(dim=(-2, -1))  # (B, 3, 14, 14): each patch's mean
        return means.flatten(1) @ self.weights  # (B, classes)


PROBE_CLASSES = 100  # any number of classes will do for occlusion; fewer keeps fixtures small


def probe_weights(seed: int = 0, patches: int = 196, classes: int = PROBE_CLASSES) -> torch.Tensor:
    """Seeded weights, large enough that covering one patch moves the probabilities visibly."""
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(3 * patches, classes, generator=generator) * 0.5
