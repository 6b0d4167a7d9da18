"""The checkpoint's tensors in the lecture's row-vector layout (`x @ W + b`, `W` shaped (in, out)).

PyTorch's Linear stores `weight` as (out, in); `from_state_dict` transposes once, here, so that
every student function reads like the lecture's equations (page 10).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from collections.abc import Mapping

if TYPE_CHECKING:  # the judge process never imports torch
    import torch


@dataclass(frozen=True)
class BlockParams:
    """One encoder block (pages 34-37), shapes for ViT-Ti/16 (D=192)."""

    ln1_weight: torch.Tensor  # (D,)    LayerNorm before attention
    ln1_bias: torch.Tensor  # (D,)
    W_qkv: torch.Tensor  # (D, 3D)  output columns are [q | k | v], each split into H heads of d
    b_qkv: torch.Tensor  # (3D,)
    W_o: torch.Tensor  # (D, D)   output projection of the joined heads
    b_o: torch.Tensor  # (D,)
    ln2_weight: torch.Tensor  # (D,)    LayerNorm before the MLP
    ln2_bias: torch.Tensor  # (D,)
    W_1: torch.Tensor  # (D, 4D)  MLP expansion, followed by exact GELU
    b_1: torch.Tensor  # (4D,)
    W_2: torch.Tensor  # (4D, D)  MLP contraction
    b_2: torch.Tensor  # (D,)


@dataclass(frozen=True)
class ViTParams:
    """The whole ViT-Ti/16 (pages 50-52)."""

    conv_weight: torch.Tensor  # (D, 3, P, P) the checkpoint's patch-embedding Conv2d kernel
    W_E: torch.Tensor  # (3*P*P, D)  the same kernel as a row-vector projection (page 10)
    b_E: torch.Tensor  # (D,)
    cls_token: torch.Tensor  # (D,)        the learned starting CLS (page 20)
    pos_table: torch.Tensor  # (1+N, D)    row 0 belongs to CLS, rows 1..N to P1..PN (page 17)
    blocks: tuple[BlockParams, ...]  # 12 blocks
    norm_weight: torch.Tensor  # (D,)  final LayerNorm
    norm_bias: torch.Tensor  # (D,)
    W_head: torch.Tensor  # (D, 1000)
    b_head: torch.Tensor  # (1000,)
    patch_size: int = 16
    num_heads: int = 3

    @classmethod
    def from_state_dict(cls, state: Mapping[str, torch.Tensor], num_heads: int = 3) -> ViTParams:
        """Build from a timm `VisionTransformer` state dict (names as in `vit_tiny_patch16_224`)."""
        conv = state["patch_embed.proj.weight"].float().contiguous()  # (D, 3, P, P)
        depth = 1 + max(int(k.split(".")[1]) for k in state if k.startswith("blocks."))
        return cls(
            conv_weight=conv,
            W_E=conv.reshape(conv.shape[0], -1).T.contiguous(),  # (3*P*P, D), channel-major rows
            b_E=_vec(state["patch_embed.proj.bias"]),
            cls_token=_vec(state["cls_token"]),
            pos_table=state["pos_embed"].float().reshape(-1, conv.shape[0]).contiguous(),
            blocks=tuple(_block(state, f"blocks.{i}.") for i in range(depth)),
            norm_weight=_vec(state["norm.weight"]),
            norm_bias=_vec(state["norm.bias"]),
            W_head=_linear(state["head.weight"]),
            b_head=_vec(state["head.bias"]),
            patch_size=conv.shape[-1],
            num_heads=num_heads,
        )


def _vec(t: torch.Tensor) -> torch.Tensor:
    return t.float().reshape(-1).contiguous()


def _linear(weight: torch.Tensor) -> torch.Tensor:
    """PyTorch (out, in) -> lecture (in, out)."""
    return weight.float().T.contiguous()


def _block(state: Mapping[str, torch.Tensor], p: str) -> BlockParams:
    return BlockParams(
        ln1_weight=_vec(state[p + "norm1.weight"]),
        ln1_bias=_vec(state[p + "norm1.bias"]),
        W_qkv=_linear(state[p + "attn.qkv.weight"]),
        b_qkv=_vec(state[p + "attn.qkv.bias"]),
        W_o=_linear(state[p + "attn.proj.weight"]),
        b_o=_vec(state[p + "attn.proj.bias"]),
        ln2_weight=_vec(state[p + "norm2.weight"]),
        ln2_bias=_vec(state[p + "norm2.bias"]),
        W_1=_linear(state[p + "mlp.fc1.weight"]),
        b_1=_vec(state[p + "mlp.fc1.bias"]),
        W_2=_linear(state[p + "mlp.fc2.weight"]),
        b_2=_vec(state[p + "mlp.fc2.bias"]),
    )
