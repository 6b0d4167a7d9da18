"""The checkpoint's timm names mapped to the lecture's, once: every other module reads `ViTParams`.

As timm's `checkpoint_filter_fn` maps a foreign checkpoint's names to its own, `lecture_params` maps
timm's names of ViT-Ti/16's tensors (`patch_embed.proj.weight`, `blocks.3.attn.qkv.weight`, ...) to
the fields of `ViTParams` and `BlockParams` (grader/params.py), in the lecture's row-vector layout
(`x @ W + b`, W shaped (in, out), page 10): PyTorch's Linear stores (out, in), so those weights are
transposed here, once. The same mapping serves torch tensors (the checkpoint, the workers) and numpy
arrays (the judge's search and diagnosis, which never import torch).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from grader.checkpoint import HEADS
from grader.params import BlockParams, ViTParams

#: Each BlockParams field: its timm name inside `blocks.N.`, and whether it is a Linear weight (stored
#: (out, in), transposed) rather than a vector.
BLOCK_NAMES: dict[str, tuple[str, bool]] = {
    "ln1_weight": ("norm1.weight", False), "ln1_bias": ("norm1.bias", False),
    "W_qkv": ("attn.qkv.weight", True), "b_qkv": ("attn.qkv.bias", False),
    "W_o": ("attn.proj.weight", True), "b_o": ("attn.proj.bias", False),
    "ln2_weight": ("norm2.weight", False), "ln2_bias": ("norm2.bias", False),
    "W_1": ("mlp.fc1.weight", True), "b_1": ("mlp.fc1.bias", False),
    "W_2": ("mlp.fc2.weight", True), "b_2": ("mlp.fc2.bias", False),
}
#: The ViTParams fields that are one timm tensor each, as BLOCK_NAMES; the patch kernel, its W_E and
#: the position table are read by `lecture_params` itself.
VIT_NAMES: dict[str, tuple[str, bool]] = {
    "b_E": ("patch_embed.proj.bias", False), "cls_token": ("cls_token", False),
    "norm_weight": ("norm.weight", False), "norm_bias": ("norm.bias", False),
    "W_head": ("head.weight", True), "b_head": ("head.bias", False),
}
PATCH_KERNEL, POSITIONS, BLOCKS = "patch_embed.proj.weight", "pos_embed", "blocks"


def _float32(tensor: Any) -> Any:
    return tensor.float().contiguous()


def lecture_params(state: Mapping[str, Any], array: Callable[[Any], Any] = _float32,
                   num_heads: int = HEADS) -> ViTParams:
    """A timm `VisionTransformer` state dict as the lecture's ViTParams.

    Args:
        state: timm's names -> torch tensors or numpy arrays.
        array: makes each of the lecture's tensors from its view of the state's (by default torch
            float32, contiguous; the judge passes numpy float64).
        num_heads: H, which the state's shapes do not say.
    """
    def read(name: str, transposed: bool) -> Any:  # a Linear weight (out, in) -> (in, out); a vector (D,)
        return array(state[name].T if transposed else state[name].reshape(-1))

    kernel = array(state[PATCH_KERNEL])  # (D, 3, P, P)
    D = kernel.shape[0]
    depth = 1 + max(int(name.split(".")[1]) for name in state if name.startswith(BLOCKS + "."))
    blocks = tuple(BlockParams(**{field: read(f"{BLOCKS}.{i}.{name}", transposed)
                                  for field, (name, transposed) in BLOCK_NAMES.items()}) for i in range(depth))
    return ViTParams(conv_weight=kernel, W_E=array(kernel.reshape(kernel.shape[0], -1).T),  # channel-major rows
                     pos_table=array(state[POSITIONS].reshape(-1, D)),  # (1+N, D)
                     blocks=blocks, patch_size=kernel.shape[-1], num_heads=num_heads,
                     **{field: read(name, transposed) for field, (name, transposed) in VIT_NAMES.items()})
