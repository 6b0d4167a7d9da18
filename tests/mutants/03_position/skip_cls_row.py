"""Mutant of 03_position (skip_cls_row): one realistic mistake the grader must catch.

add_position skips row 0 of the table, believing it always belongs to CLS (off by one). The
function receives exactly one row per token; here row 0 is the first token's.
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
    return tokens + pos_table[1:]  # row 0 is CLS's
