"""Mutant of 03_position (in_place): one realistic mistake the grader must catch.

add_position adds the table into `tokens` in place (+=) and returns the same tensor. The values are
right, but the caller's tokens are overwritten.
Not in the known-mistake catalogue: the grader must still take points.
"""
from __future__ import annotations

import torch
from torch import Tensor

CATALOGUE_ID = None


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
    tokens += pos_table  # (N, D) broadcasts over the batch: (B, N, D)
    return tokens
