"""Honest: patchify with the `Tensor.unfold` view (not F.unfold's im2col), count_tokens by a loop."""
import torch


def normalize(pixels: torch.Tensor) -> torch.Tensor:
    return pixels.to(torch.float32).div(255).sub(0.5).div(0.5)


def patchify(images: torch.Tensor, patch_size: int = 16) -> torch.Tensor:
    B, C, H, W = images.shape
    P = patch_size
    windows = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P), a view
    return windows.permute(0, 2, 3, 1, 4, 5).reshape(B, (H // P) * (W // P), C * P * P)


def count_tokens(image_size: int, patch_size: int, cls: bool = True) -> int:
    if image_size % patch_size:
        raise ValueError(f"image_size {image_size} is not divisible by patch_size {patch_size}")
    count = 1 if cls else 0
    for _ in range(0, image_size - patch_size + 1, patch_size):
        for _ in range(0, image_size - patch_size + 1, patch_size):
            count += 1
    return count
