"""Mutant of 03_position (scaled): one realistic mistake the grader must catch.

add_position scales the tokens by sqrt(D) first, as some text transformers scale embeddings. ViT
adds content and position as they are (page 16).
Known mistake `scaled` (grader/mistakes/catalogue.py): the feedback must name it.
"""
from __future__ import annotations

import torch
from torch import Tensor

CATALOGUE_ID = "scaled"


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
    return tokens * tokens.shape[-1] ** 0.5 + pos_table  # (B, N, D)
