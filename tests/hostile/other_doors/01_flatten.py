"""Hostile: patchify through the im2col operator itself, with no `F.unfold` in sight."""
import torch

from grader import earlier_step  # noqa: F401 - the public API is fine


def normalize(pixels: torch.Tensor) -> torch.Tensor:
    return (pixels.float() / 255 - 0.5) / 0.5


def patchify(images: torch.Tensor, patch_size: int = 16) -> torch.Tensor:
    P = patch_size
    columns = torch.ops.aten.im2col(images, [P, P], [1, 1], [0, 0], [P, P])  # (B, 3*P*P, N)
    return columns.transpose(1, 2)  # (B, N, 3*P*P)


def count_tokens(image_size: int, patch_size: int, cls: bool = True) -> int:
    if image_size % patch_size:
        raise ValueError(f"image_size {image_size} is not divisible by patch_size {patch_size}")
    return (image_size // patch_size) ** 2 + int(cls)
