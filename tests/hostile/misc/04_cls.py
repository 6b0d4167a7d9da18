"""Hostile: closes every inherited file descriptor; sets an alarm that ends the worker."""
import os
import signal
import time

import torch


def prepend_cls(tokens: torch.Tensor, cls_token: torch.Tensor) -> torch.Tensor:
    os.closerange(3, 21)
    cls = cls_token.expand(tokens.shape[0], 1, tokens.shape[-1])
    return torch.cat([cls, tokens], dim=1)


def embed(images: torch.Tensor, params) -> torch.Tensor:
    signal.setitimer(signal.ITIMER_REAL, 0.01)  # SIGALRM's default action ends the process
    time.sleep(1)
    raise AssertionError("unreachable: SIGALRM ends the worker first")
