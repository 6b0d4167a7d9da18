"""Hostile: writes garbage into every inherited file descriptor, then answers correctly."""
import os

import torch


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    for fd in range(3, 21):
        try:
            os.write(fd, b"\xff" * 64 + b"not a message\n")
        except OSError:
            pass
    return tokens + pos_table
