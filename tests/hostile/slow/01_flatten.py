"""Hostile only to the clock: a correct step 1 that visits every element in pure Python."""
import torch


def normalize(pixels: torch.Tensor) -> torch.Tensor:
    flat = [(value / 255 - 0.5) / 0.5 for value in pixels.reshape(-1).tolist()]
    return torch.tensor(flat, dtype=torch.float32).reshape(pixels.shape)


def patchify(images: torch.Tensor, patch_size: int = 16) -> torch.Tensor:
    B, C, H, W = images.shape
    P = patch_size
    rows = []
    for b in range(B):
        for top in range(0, H, P):
            for left in range(0, W, P):
                patch = []
                for c in range(C):
                    for y in range(top, top + P):
                        for x in range(left, left + P):
                            patch.append(images[b, c, y, x].item())  # one tensor index per element
                rows.append(patch)
    return torch.tensor(rows, dtype=torch.float32).reshape(B, (H // P) * (W // P), C * P * P)


def count_tokens(image_size: int, patch_size: int, cls: bool = True) -> int:
    if image_size % patch_size:
        raise ValueError(f"image_size {image_size} is not divisible by patch_size {patch_size}")
    count = 0
    for _ in range(0, image_size, patch_size):
        for _ in range(0, image_size, patch_size):
            count += 1
    return count + (1 if cls else 0)
