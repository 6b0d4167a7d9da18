"""The checkpoint's tensors in the lecture's row-vector layout (`x @ W + b`, `W` shaped (in, out)).

PyTorch's Linear stores `weight` as (out, in); the checkpoint's loader transposes once
(grader/checkpoint/timm_names.py), so that every student function reads like the lecture's
equations (page 10).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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
