"""Hostile: imports a module that does not exist (line 4)."""
import torch

import vitgrade_no_such_module  # noqa: F401


def prepend_cls(tokens: torch.Tensor, cls_token: torch.Tensor) -> torch.Tensor:
    return tokens


def embed(images, params):
    return images
