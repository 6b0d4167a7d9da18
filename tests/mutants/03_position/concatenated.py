"""Mutant of 03_position (concatenated): one realistic mistake the grader must catch.

add_position concatenates the position table to the features (width 2D) instead of adding it. WHAT
and WHERE are added coordinate by coordinate; the width stays 192 (page 16).
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
    return torch.cat([tokens, pos_table.expand(tokens.shape[0], -1, -1)], dim=-1)  # (B, N, 2D)
