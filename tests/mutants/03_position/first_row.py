"""Mutant of 03_position (first_row): one realistic mistake the grader must catch.

add_position adds row 0 of the table to every token. Each token gets its own row of the table (page
17).
Known mistake `first_row` (grader/mistakes/catalogue.py): the feedback must name it.
"""
from __future__ import annotations

import torch
from torch import Tensor

CATALOGUE_ID = "first_row"


def add_position(tokens: Tensor, pos_table: Tensor) -> Tensor:
    """Add row i of the position table to token i of every image (pages 16-17).

    Args:
        tokens: (B, N, D).
        pos_table: (N, D), the same learned table for every image.

    Returns:
        (B, N, D): WHAT + WHERE, same shape as `tokens`.

    Example:
        >>> add_position(torch.zeros(2, 197, 192), torch.ones(197, 192)).shape
        torch.Size([2, 197, 192])
    """
    return tokens + pos_table[0]  # (D,) broadcasts over the batch: (B, N, D)
