"""The checkpoint's ViT as the worker's occlusion tests call it: timm's forward, op for op, without timm.

Importing timm and building its model costs a worker more than all of its other work for a step
(about 1.5 s of a 4 s grade on the build machine), and a worker without timm can count any timm
import during a student's call as the student's. The operators are timm's own (fused attention,
`native_layer_norm`, a strided convolution), so the logits equal timm's within float32 rounding: not
bit for bit, since the batch split and the CPU's kernels change the order of the sums
(`tests/test_checkpoint.py`, docs/numerics.md). The MLP's linear layers take oneDNN's matrix product
instead of the BLAS library's where this CPU runs it clearly faster (`fastest_linear`): another
order of the same sums, as another CPU would take.

It is not built from `grader.lecture_maths`, on purpose: that module is the answer to every exercise, so
the worker's view and the student release leave it out, while this model runs inside the view and ships
with the release. For the same reason nothing here spells out what a step asks students to write:
attention is PyTorch's `multi_head_attention_forward` on the packed weights (the split into heads is
step 05's exercise). The two agree to float32 rounding (`tests/test_lecture_maths.py`).
"""
from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import NamedTuple

import torch
import torch.nn.functional as F
from torch import Tensor

from grader.params import ViTParams

#: Images per forward. A worker is a fresh process, so every page its activations reach for the first
#: time is a page fault (about 2 us each on the build machine): 49 images at once touched 190 MB
#: (48,500 faults, 0.1 s of a 1.7 s step), 8 images 40 MB, and a warm forward costs the same per image
#: either way (27.4-28.6 ms on one thread for 4 to 49 images).
CHUNK = 8


#: oneDNN's linear layer, where this build of PyTorch has oneDNN (its compiled graphs call it): looked up
#: as the module loads, before any student code runs in a worker.
_ONEDNN_LINEAR = getattr(getattr(torch.ops, "mkldnn", None), "_linear_pointwise", None) \
    if torch.backends.mkldnn.is_available() else None


@functools.cache
def fastest_linear() -> Callable[[Tensor, Tensor, Tensor], Tensor]:
    """`F.linear`, or oneDNN's where it takes at most 0.8 of its time on this CPU: one image's
    largest product (197 tokens, 192 -> 768 features), the best of three runs each, timed once per
    process. Where the BLAS library takes a slower path (on an AMD EPYC core MKL's float32 product
    ran at 92 GFLOP/s, oneDNN's at 208) the workers' forwards cost about 40 % less; where the two are
    alike nothing changes."""
    if _ONEDNN_LINEAR is None:
        return F.linear
    seeded = torch.Generator().manual_seed(0)  # the process's own random stream stays untouched
    x, weight, bias = (torch.randn(*shape, generator=seeded) for shape in ((197, 192), (768, 192), (768,)))
    try:
        seconds = {linear: _best_time(linear, x, weight, bias) for linear in (F.linear, onednn_linear)}
    except RuntimeError:  # oneDNN present but refusing this CPU or these tensors
        return F.linear
    return onednn_linear if seconds[onednn_linear] <= 0.8 * seconds[F.linear] else F.linear


def onednn_linear(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
    """`F.linear` computed by oneDNN (float32 only; where `_ONEDNN_LINEAR` is not None)."""
    return _ONEDNN_LINEAR(x, weight, bias, "none", [], "")


def _best_time(linear: Callable, *args: Tensor, runs: int = 3) -> float:
    linear(*args)  # the first call builds (and for oneDNN compiles) the kernel
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        linear(*args)
        best = min(best, time.perf_counter() - started)
    return best


class CheckpointViT:
    """Normalized images (B, 3, 224, 224) -> logits (B, classes) with the checkpoint's `ViTParams`.

    The parameters arrive in the lecture's layout (grader/checkpoint/timm_names.py made them); the
    model keeps its own copies in the layout PyTorch's functions take, Linear weights as (out, in),
    so that nothing a student's call does to the parameters it was given reaches the model.
    """

    def __init__(self, params: ViTParams, dtype: torch.dtype = torch.float32, eps: float = 1e-6) -> None:
        def own(t: Tensor, transposed: bool = False) -> Tensor:  # (in, out) -> (out, in) where transposed
            return (t.T if transposed else t).to(dtype).contiguous().clone()

        self.kernel, self.kernel_bias = own(params.conv_weight), own(params.b_E)  # (D, 3, P, P), (D,)
        self.cls, self.positions = own(params.cls_token), own(params.pos_table)  # (D,), (1+N, D)
        self.blocks = [_Block(*(own(getattr(b, name), name.startswith("W_")) for name in _Block._fields))
                       for b in params.blocks]
        self.norm = own(params.norm_weight), own(params.norm_bias)
        self.head = own(params.W_head, True), own(params.b_head)  # (classes, D), (classes,)
        self.num_heads, self.eps = params.num_heads, eps
        self._fast_linear = fastest_linear()

    def __call__(self, images: Tensor) -> Tensor:
        with torch.inference_mode():
            return torch.cat([self._forward(chunk) for chunk in images.split(CHUNK)])

    def _forward(self, images: Tensor) -> Tensor:
        x = F.conv2d(images, self.kernel, self.kernel_bias, stride=self.kernel.shape[-1])  # (B, D, 14, 14)
        x = x.flatten(2).transpose(1, 2)  # (B, N, D), patches row by row
        x = torch.cat([self.cls.expand(x.shape[0], 1, -1), x], dim=1)  # (B, 1+N, D)
        x = x + self.positions  # CLS first, then add position, as timm does
        for block in self.blocks:
            x = self._block(x, block)
        x = self._norm(x, self.norm)
        return self._linear(x[:, 0], self.head)  # (B, classes)

    def _block(self, x: Tensor, b: _Block) -> Tensor:
        x = x + self._attention(self._norm(x, (b.ln1_weight, b.ln1_bias)), b)
        hidden = F.gelu(self._linear(self._norm(x, (b.ln2_weight, b.ln2_bias)), (b.W_1, b.b_1)))
        return x + self._linear(hidden, (b.W_2, b.b_2))

    def _attention(self, x: Tensor, b: _Block) -> Tensor:
        """Multi-head self-attention, projection included, by PyTorch's own function: it reads the
        packed [q | k | v] weights as they are and takes the same fused attention kernel."""
        # (N, B, D): the function wants the sequence first, and laid out so: on a transposed view its
        # input projection is a batched matmul, twice the time of one matrix product
        rows = x.transpose(0, 1).contiguous()
        update, _ = F.multi_head_attention_forward(
            rows, rows, rows, x.shape[-1], self.num_heads, b.W_qkv, b.b_qkv,
            None, None, False, 0.0, b.W_o, b.b_o, training=False, need_weights=False)  # (N, B, D)
        return update.transpose(0, 1)  # (B, N, D)

    def _linear(self, x: Tensor, weight_bias: tuple[Tensor, Tensor]) -> Tensor:
        weight, bias = weight_bias  # (out, in), (out,)
        linear = self._fast_linear if x.dtype == weight.dtype == torch.float32 else F.linear  # oneDNN: float32
        return linear(x, weight, bias)

    def _norm(self, x: Tensor, weight_bias: tuple[Tensor, Tensor]) -> Tensor:
        return F.layer_norm(x, x.shape[-1:], *weight_bias, self.eps)


class _Block(NamedTuple):
    """One block's parameters as the model keeps them: BlockParams' fields, Linear weights (out, in)."""
    ln1_weight: Tensor
    ln1_bias: Tensor
    W_qkv: Tensor  # (3D, D)
    b_qkv: Tensor
    W_o: Tensor  # (D, D)
    b_o: Tensor
    ln2_weight: Tensor
    ln2_bias: Tensor
    W_1: Tensor  # (MLP, D)
    b_1: Tensor
    W_2: Tensor  # (D, MLP)
    b_2: Tensor
