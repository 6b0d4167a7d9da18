"""Hostile: a correct add_position that floods stdout and stderr with 20 MB on its first call."""
import sys

import torch

_calls = 0


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    global _calls
    _calls += 1
    if _calls == 1:
        line = "debug " + "x" * 1017 + "\n"  # 1 KiB a line
        for _ in range(10 * 1024):
            sys.stdout.write(line)
            sys.stderr.write(line)
        sys.stdout.flush()
        sys.stderr.flush()
    return tokens + pos_table
