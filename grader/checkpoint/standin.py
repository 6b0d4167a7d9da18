"""The stand-in: a seeded ViT-Ti/16 with timm's exact parameter names, for machines without the hub.

It is NOT the lecture's checkpoint and predicts nothing meaningful. Its one job is to make every
common student mistake visibly wrong, so its scales are chosen for that, not drawn from a default
initialisation (which would make LayerNorm weights 1, biases 0 and attention nearly uniform, where
many mistakes change nothing):

- LayerNorm weights in [0.5, 1.8], biases of std 0.2 or more: dropping either is far off.
- Query and key weights large enough that attention is peaked: forgetting 1/sqrt(d), taking the
  softmax over queries or adding a causal mask moves the attention update a lot.
- MLP pre-activations of a few units, where tanh-GELU and exact GELU differ.
- Position table and CLS as large as the patch features: forgetting position, or putting CLS last,
  is far off.
- The class head rescaled (by bisection on the sample photograph) so that the top class of the
  sample photograph is neither ~0 % nor ~100 %.

`tests/test_standin.py` measures each of these on the committed file.
"""
from __future__ import annotations

import json
import math
import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING

from grader.checkpoint import CLASSES, DEPTH, DIM, MLP_DIM, PATCH, TOKENS, empty_timm_model

if TYPE_CHECKING:
    import torch

#: Head scale is chosen so that the sample photograph's top class gets this probability.
TARGET_TOP1 = 0.5

# Gains are relative to the weight scale that keeps a layer's outputs at unit std.
_PATCH_GAIN = 2.0  # normalized pixels have std <= 0.5, so patch features get std ~0.7-1
_POS_STD = 0.8  # position rows as large as patch features
_CLS_STD = 1.0
_QK_GAIN = 1.6  # q, k entries of std 1.6: q.k/sqrt(d) has std ~1.6^2, so attention is peaked
_MLP_IN_GAIN = 2.0  # fc1 pre-activations of std ~2, the range where the two GELUs differ
_ATTN_OUT_GAIN = 0.7  # attention update ~ this std: the residual stream grows, but stays bounded
_MLP_OUT_GAIN = 2.5  # larger, so the tanh-GELU mistake shows after fc2
_BIAS_STD = 0.2
_LN_LOW, _LN_HIGH = 0.5, 1.8


def build_standin(seed: int = 0) -> dict[str, torch.Tensor]:
    """Build the stand-in's state dict, deterministically from `seed`.

    Args:
        seed: Seed of the torch generator that draws every tensor.

    Returns:
        timm `vit_tiny_patch16_224` names and shapes, float32 values that float16 holds exactly.
    """
    import torch

    generator = torch.Generator().manual_seed(seed)
    state = _embedding(generator)
    for i in range(DEPTH):
        state |= _block(generator, f"blocks.{i}.")
    state |= _final(generator)
    scale = calibrate_head_scale(state)
    state["head.weight"] = state["head.weight"] * scale
    state["head.bias"] = state["head.bias"] * scale
    # Round to float16 precision: the file stores halves (11 MB instead of 23 MB, so fixtures/
    # stays small), and these float32 values are exactly what loading it gives back.
    return {name: tensor.half().float() for name, tensor in state.items()}


def write_standin(path: str | os.PathLike, seed: int = 0) -> None:
    """Build the stand-in and save it as safetensors, with a header saying what it is.

    The same seed always gives the same bytes, so the committed file can be checked by rebuilding.
    """
    from safetensors.torch import save

    metadata = {"vitgrade": "stand-in", "seed": str(seed), "note": "NOT the lecture checkpoint"}
    halves = {name: tensor.half() for name, tensor in build_standin(seed).items()}
    Path(path).write_bytes(_sorted_metadata(save(halves, metadata=metadata)))


def _sorted_metadata(data: bytes) -> bytes:
    """Rewrite the safetensors header with its metadata keys sorted.

    safetensors writes metadata in hash-map order, which changes from run to run; the tensors
    themselves are already in a fixed order. The header keeps its length, so offsets stay valid.
    """
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    header["__metadata__"] = dict(sorted(header["__metadata__"].items()))
    text = json.dumps(header, separators=(",", ":")).encode().ljust(length)
    if len(text) != length:
        raise RuntimeError("safetensors header changed length")
    return data[:8] + text + data[8 + length :]


def calibrate_head_scale(state: dict[str, torch.Tensor], target: float = TARGET_TOP1) -> float:
    """The factor on the class head that gives the sample photograph's top class `target` probability.

    The top-1 probability of softmax(s * logits) grows monotonically with s, so bisection finds s.
    It is rounded to three significant digits so that tiny floating-point differences between
    machines cannot change the committed bytes.
    """
    import torch

    logits = _sample_logits(state).double()  # (1000,)
    low, high = 1e-3, 1e3
    for _ in range(60):
        mid = math.sqrt(low * high)  # bisect on a log scale: s spans orders of magnitude
        top1 = torch.softmax(mid * logits, dim=-1).max().item()
        low, high = (mid, high) if top1 < target else (low, mid)
    return float(f"{math.sqrt(low * high):.3g}")


def _sample_logits(state: dict[str, torch.Tensor]) -> torch.Tensor:
    """The logits of the sample photograph through timm's forward, before any head rescaling."""
    import torch

    from grader.photos import SAMPLE, load_image

    model = empty_timm_model()
    model.load_state_dict(state, strict=True)
    model.eval()
    with torch.inference_mode():
        return model(load_image(SAMPLE.path))[0]


def _normal(generator: torch.Generator, *shape: int, std: float) -> torch.Tensor:
    import torch

    return torch.randn(*shape, generator=generator) * std


def _ln(generator: torch.Generator, prefix: str) -> dict[str, torch.Tensor]:
    """A LayerNorm far from the identity: weights in [0.5, 1.8], biases of std 0.2."""
    import torch

    weight = _LN_LOW + (_LN_HIGH - _LN_LOW) * torch.rand(DIM, generator=generator)
    return {prefix + "weight": weight, prefix + "bias": _normal(generator, DIM, std=_BIAS_STD)}


def _embedding(generator: torch.Generator) -> dict[str, torch.Tensor]:
    """CLS, position table and patch projection."""
    fan_in = 3 * PATCH * PATCH
    return {
        "cls_token": _normal(generator, 1, 1, DIM, std=_CLS_STD),
        "pos_embed": _normal(generator, 1, TOKENS, DIM, std=_POS_STD),
        "patch_embed.proj.weight": _normal(generator, DIM, 3, PATCH, PATCH,
                                           std=_PATCH_GAIN / math.sqrt(fan_in)),
        "patch_embed.proj.bias": _normal(generator, DIM, std=_BIAS_STD),
    }


def _block(generator: torch.Generator, p: str) -> dict[str, torch.Tensor]:
    """One encoder block, timm prefix `p`."""
    import torch

    # LayerNorm outputs have the rms of its weights (~1.25 for U(0.5, 1.8)), not 1.
    ln_rms = math.sqrt((_LN_LOW**2 + _LN_LOW * _LN_HIGH + _LN_HIGH**2) / 3)
    unit = 1 / (ln_rms * math.sqrt(DIM))  # weight std that maps a LayerNorm output to unit std
    qk = _normal(generator, 2 * DIM, DIM, std=_QK_GAIN * unit)  # rows [q | k] of timm's (3D, D)
    v = _normal(generator, DIM, DIM, std=unit)
    state = _ln(generator, p + "norm1.")
    state |= {
        p + "attn.qkv.weight": torch.cat([qk, v]),  # (3D, D), output rows [q | k | v]
        p + "attn.qkv.bias": _normal(generator, 3 * DIM, std=_BIAS_STD),
        p + "attn.proj.weight": _normal(generator, DIM, DIM, std=_ATTN_OUT_GAIN / math.sqrt(DIM)),
        p + "attn.proj.bias": _normal(generator, DIM, std=_BIAS_STD),
    }
    state |= _ln(generator, p + "norm2.")
    state |= {
        p + "mlp.fc1.weight": _normal(generator, MLP_DIM, DIM, std=_MLP_IN_GAIN * unit),
        p + "mlp.fc1.bias": _normal(generator, MLP_DIM, std=2 * _BIAS_STD),
        p + "mlp.fc2.weight": _normal(generator, DIM, MLP_DIM, std=_MLP_OUT_GAIN / math.sqrt(MLP_DIM)),
        p + "mlp.fc2.bias": _normal(generator, DIM, std=_BIAS_STD),
    }
    return state


def _final(generator: torch.Generator) -> dict[str, torch.Tensor]:
    """Final LayerNorm and the class head, before the head is rescaled."""
    state = _ln(generator, "norm.")
    state |= {
        "head.weight": _normal(generator, CLASSES, DIM, std=1 / math.sqrt(DIM)),
        "head.bias": _normal(generator, CLASSES, std=_BIAS_STD),
    }
    return state
