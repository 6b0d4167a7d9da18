"""Hostile: a syntax error on line 8."""
import torch


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    total = tokens + pos_table

    return total +* 2
