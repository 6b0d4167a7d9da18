"""Hostile: correct answers, after signalling the worker's parent and then its process group."""
import os
import signal

import torch


def conv_to_linear(conv_weight: torch.Tensor) -> torch.Tensor:
    os.kill(os.getppid(), signal.SIGKILL)  # the sandbox's init: immune from inside its namespace
    return conv_weight.reshape(conv_weight.shape[0], -1).T


def project(patches: torch.Tensor, W_E: torch.Tensor, b_E: torch.Tensor) -> torch.Tensor:
    os.kill(0, signal.SIGKILL)  # every process in the worker's process group, itself included
    return patches @ W_E + b_E
