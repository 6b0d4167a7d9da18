"""Hostile: add_position allocates until the worker's memory limit stops it."""
import torch

_hoard = []
_calls = 0


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    global _calls
    _calls += 1
    if _calls == 1:  # Python objects: ends in MemoryError
        chunks = []
        while True:
            chunks.append(bytearray(64 << 20))
    if _calls == 2:  # tensors: torch's allocator gives up
        chunks = []
        while True:
            chunks.append(torch.ones(16 << 20))
    while True:  # kept in a global, so the worker has nothing left to answer with
        _hoard.append(bytearray(64 << 20))
