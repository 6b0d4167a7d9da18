"""Step 3 — tell each token where its patch came from (pages 15-17).

The shared projection has no position index (page 15). A learned table holds one vector per
token position, and each token gets its row: e_i = c_i + p_i (page 16).
Check your work with `vitgrade check 03_position`.
"""
from __future__ import annotations

import torch
from torch import Tensor


def add_position(tokens: Tensor, pos_table: Tensor) -> Tensor:
    """Give token i of every image row i of the position table (pages 16-17).

    Hint: WHAT and WHERE are added coordinate by coordinate, not concatenated: the width stays D
    (page 16). Every image uses the same table (page 17).

    Args:
        tokens: (B, N, D).
        pos_table: (N, D).

    Returns:
        (B, N, D), same shape as `tokens`.

    Example:
        >>> add_position(torch.zeros(2, 197, 192), torch.ones(197, 192)).shape
        torch.Size([2, 197, 192])
    """
    raise NotImplementedError("add_position")
