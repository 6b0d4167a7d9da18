"""Hostile: changes, at import, what every later computation in its interpreter gives: torch.cat
zeroes what it joins and tensors default to float64. Its own add_position shows the patch works
(it comes out wrong); a later step served by a fresh interpreter must not notice any of it."""
import torch

_join = torch.cat
torch.cat = lambda tensors, dim=0, **kwargs: _join(tensors, dim=dim, **kwargs) * 0
torch.set_default_dtype(torch.float64)


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    return torch.cat([tokens], dim=0) + pos_table
