"""Google's original ViT checkpoint format: the `.npz` files of google-research/vision_transformer.

The lecture's checkpoint was released in this format first (the "augreg" release); timm's hub copy
is a conversion of it.

Reading is timm's own loader, `timm.models.vision_transformer._load_weights`, so a file is read
exactly as timm reads the upstream release. `save_google_npz` is its inverse, so that tests can
make such a file from any timm state dict.

The two layouts differ in three ways: Flax kernels are (in, out) where PyTorch stores (out, in);
the patch convolution is HWIO instead of OIHW; and attention keeps heads as an axis, with q, k
and v as separate kernels of shape (D, H, d) and the output kernel as (H, d, D).
"""
from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Mapping

from grader.checkpoint import DEPTH, HEADS, CheckpointError, _one_line, empty_timm_model, expected_shapes

if TYPE_CHECKING:
    import numpy as np
    import torch


def save_google_npz(state_dict: Mapping[str, torch.Tensor], path: str | os.PathLike) -> None:
    """Write a timm ViT-Ti/16 state dict as a Google-format `.npz`.

    Args:
        state_dict: timm `vit_tiny_patch16_224` names and shapes.
        path: Where to write; used as given (numpy would otherwise append `.npz`).
    """
    import numpy as np

    with open(path, "wb") as file:
        np.savez(file, **google_arrays(state_dict))


def google_arrays(state: Mapping[str, torch.Tensor]) -> dict[str, np.ndarray]:
    """The state dict under Google's names and layouts, as float32 numpy arrays."""
    tensors = _google_tensors(state)
    return {name: tensor.detach().float().contiguous().numpy() for name, tensor in tensors.items()}


def _google_tensors(state: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Google's names and layouts, still as torch tensors (so that meta tensors work too)."""
    tensors = {
        "embedding/kernel": state["patch_embed.proj.weight"].permute(2, 3, 1, 0),  # OIHW -> HWIO
        "embedding/bias": state["patch_embed.proj.bias"],
        "cls": state["cls_token"],  # (1, 1, D) in both
        "Transformer/posembed_input/pos_embedding": state["pos_embed"],  # (1, 197, D) in both
        "Transformer/encoder_norm/scale": state["norm.weight"],
        "Transformer/encoder_norm/bias": state["norm.bias"],
        "head/kernel": state["head.weight"].T,  # (D, classes)
        "head/bias": state["head.bias"],
    }
    for i in range(DEPTH):
        tensors |= _block_tensors(state, f"blocks.{i}.", f"Transformer/encoderblock_{i}/")
    return tensors


def _block_tensors(state: Mapping[str, torch.Tensor], t: str, g: str) -> dict[str, torch.Tensor]:
    """One encoder block: timm prefix `t` to Google prefix `g`."""
    dim = state[t + "attn.proj.weight"].shape[0]
    head_dim = dim // HEADS
    mha = g + "MultiHeadDotProductAttention_1/"
    tensors = {
        g + "LayerNorm_0/scale": state[t + "norm1.weight"],
        g + "LayerNorm_0/bias": state[t + "norm1.bias"],
        # timm's proj is (D_out, H*d); Flax's out kernel is (H, d, D_out).
        mha + "out/kernel": state[t + "attn.proj.weight"].T.reshape(HEADS, head_dim, dim),
        mha + "out/bias": state[t + "attn.proj.bias"],
        g + "LayerNorm_2/scale": state[t + "norm2.weight"],
        g + "LayerNorm_2/bias": state[t + "norm2.bias"],
        g + "MlpBlock_3/Dense_0/kernel": state[t + "mlp.fc1.weight"].T,  # (D, 4D)
        g + "MlpBlock_3/Dense_0/bias": state[t + "mlp.fc1.bias"],
        g + "MlpBlock_3/Dense_1/kernel": state[t + "mlp.fc2.weight"].T,  # (4D, D)
        g + "MlpBlock_3/Dense_1/bias": state[t + "mlp.fc2.bias"],
    }
    # timm's qkv rows are [q | k | v], each (H*d, D); Flax keeps three (D, H, d) kernels.
    weights = state[t + "attn.qkv.weight"].chunk(3)
    biases = state[t + "attn.qkv.bias"].chunk(3)
    for name, weight, bias in zip(("query", "key", "value"), weights, biases):
        tensors[mha + f"{name}/kernel"] = weight.T.reshape(dim, HEADS, head_dim)
        tensors[mha + f"{name}/bias"] = bias.reshape(HEADS, head_dim)
    return tensors


def load_google_npz(path: str | os.PathLike) -> dict[str, torch.Tensor]:
    """Read a Google-format ViT-Ti/16 `.npz` into a timm state dict.

    The names and shapes are checked first, because timm's loader silently skips a head of
    another size and resamples position tables and patch kernels of other sizes.

    Raises:
        CheckpointError: Unreadable, or not ViT-Ti/16 in the augreg layout.
    """
    from timm.models.vision_transformer import _load_weights

    path = Path(path)
    _check_layout(path)
    model = empty_timm_model()
    try:
        _load_weights(model, os.fspath(path))  # writes every parameter of ViT-Ti/16
    except Exception as error:  # the layout is checked, so this is damage inside the arrays
        raise CheckpointError(f"timm could not read {path} ({_one_line(error)})") from None
    return {name: tensor.detach().clone() for name, tensor in model.state_dict().items()}


def _check_layout(path: Path) -> None:
    """Compare the file's names and shapes with those of a ViT-Ti/16 written by `save_google_npz`."""
    import torch

    template = {name: torch.empty(shape, device="meta") for name, shape in expected_shapes().items()}
    expected = {name: tuple(tensor.shape) for name, tensor in _google_tensors(template).items()}
    found = _array_shapes(path)
    not_vit_tiny = f"{path} is not a ViT-Ti/16 checkpoint in Google's augreg .npz layout"
    missing = [name for name in expected if name not in found]
    if missing:
        raise CheckpointError(f"{not_vit_tiny}: {len(missing)} arrays missing, e.g. '{missing[0]}'")
    for name, shape in expected.items():
        if found[name] != shape:
            raise CheckpointError(f"{not_vit_tiny}: '{name}' has shape {found[name]}, expected {shape}")


def _array_shapes(path: Path) -> dict[str, tuple[int, ...]]:
    """Names and shapes of the arrays in an .npz archive, or a one-line CheckpointError."""
    import numpy as np

    unreadable = f"not a readable .npz archive: {path}"
    if not zipfile.is_zipfile(path):  # numpy would guess a pickle and say so, misleadingly
        raise CheckpointError(f"{unreadable} (not a zip file)")
    try:
        # allow_pickle=False: a checkpoint file must never be able to run code.
        with np.load(path, allow_pickle=False) as npz:
            return {name: npz[name].shape for name in npz.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise CheckpointError(f"{unreadable} ({_one_line(error)})") from None
