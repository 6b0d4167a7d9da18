"""Step 3 — tell each token where its patch came from (pages 15-17).

The shared projection has no position index (page 15). A learned table holds one vector per
token position, and each token gets its row added: e_i = c_i + p_i (page 16). Adding keeps the
width at 192; concatenating would not.
"""
from __future__ import annotations

import torch
from torch import Tensor


def add_position(tokens: Tensor, pos_table: Tensor) -> Tensor:
    """Add row i of the position table to token i of every image (pages 16-17).

    Args:
        tokens: (B, N, D).
        pos_table: (N, D), the same learned table for every image.

    Returns:
        (B, N, D): WHAT + WHERE, same shape as `tokens`.

    Raises:
        ValueError: `pos_table` is not (N, D), the shape of one image's tokens.

    Example:
        >>> add_position(torch.zeros(2, 197, 192), torch.ones(197, 192)).shape
        torch.Size([2, 197, 192])
    """
    if pos_table.shape != tokens.shape[-2:]:  # a (1, N, D) table would broadcast too, and hide it
        raise ValueError(f"pos_table must be (N, D) = {tuple(tokens.shape[-2:])}, one row per token "
                         f"(page 17); got {tuple(pos_table.shape)}")
    return tokens + pos_table  # (N, D) broadcasts over the batch: (B, N, D)
