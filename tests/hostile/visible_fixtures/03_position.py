"""Hostile: looks its answers up in the fixture files instead of computing them."""
from pathlib import Path

import torch
from safetensors.torch import load_file

import grader

# Found without importing grader.paths (the worker reports that import).
FIXTURES = Path(grader.__file__).resolve().parent.parent / "fixtures"


def _answers() -> list[tuple[torch.Tensor, torch.Tensor]]:
    """(input tokens, expected output) of every case whose file can be read."""
    found = []
    for visibility in ("visible", "hidden"):
        try:
            tensors = load_file(FIXTURES / visibility / "03_position.safetensors")
        except OSError:
            continue  # not in the full sandbox's view
        for name, tokens in tensors.items():
            if name.endswith("/in/tokens"):
                found.append((tokens, tensors[name.split("/")[0] + "/out"]))
    return found


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    for known, expected in _answers():
        if known.shape == tokens.shape and torch.equal(known, tokens):
            return expected
    return torch.zeros_like(tokens)
