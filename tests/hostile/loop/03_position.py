"""Hostile: add_position never returns, and ignores or blocks every signal it can first."""
import signal

import torch


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    for sig in signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}:
        try:
            signal.signal(sig, signal.SIG_IGN)
        except (OSError, ValueError):
            pass
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    while True:
        pass
