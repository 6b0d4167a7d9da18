"""The one module of correct lecture maths: the same numbers on torch and numpy, timm's numbers on the
checkpoint, and never in the worker's view or the student release."""
from __future__ import annotations

import math
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from grader import lecture_maths as maths
from grader.params import BlockParams, ViTParams

#: float64 rounding: every output below is a chain of at most 8 sums of at most 48 products (K·depth
#: roundings of 2^-53 each, about 4e-14 relative); 1e-12 of the largest magnitude bounds it with room
#: for the softmax's exp and LayerNorm's division by a standard deviation near 1.
FLOAT64_RELATIVE = 1e-12
#: numpy's GELU uses Abramowitz & Stegun's erf (lecture_maths._erf): its error is below 1.5e-7.
ERF_ERROR = 1.5e-7


def _randn(generator: torch.Generator, *shape: int, scale: float = 1.0) -> torch.Tensor:
    return torch.randn(*shape, generator=generator, dtype=torch.float64) * scale


def _block_params(g: torch.Generator, D: int) -> BlockParams:
    return BlockParams(ln1_weight=_randn(g, D) * 0.5 + 1, ln1_bias=_randn(g, D) * 0.3,
                       W_qkv=_randn(g, D, 3 * D, scale=0.4), b_qkv=_randn(g, 3 * D, scale=0.3),
                       W_o=_randn(g, D, D, scale=0.3), b_o=_randn(g, D, scale=0.3),
                       ln2_weight=_randn(g, D) * 0.5 + 1, ln2_bias=_randn(g, D) * 0.3,
                       W_1=_randn(g, D, 4 * D, scale=0.4), b_1=_randn(g, 4 * D, scale=0.3),
                       W_2=_randn(g, 4 * D, D, scale=0.3), b_2=_randn(g, D, scale=0.3))


def _small_vit(g: torch.Generator) -> ViTParams:
    D, P, N = 8, 4, 4
    conv = _randn(g, D, 3, P, P, scale=0.2)
    return ViTParams(conv_weight=conv, W_E=conv.reshape(D, -1).T.contiguous(), b_E=_randn(g, D, scale=0.3),
                     cls_token=_randn(g, D), pos_table=_randn(g, 1 + N, D), blocks=(_block_params(g, D),) * 2,
                     norm_weight=_randn(g, D) * 0.5 + 1, norm_bias=_randn(g, D) * 0.3, W_head=_randn(g, D, 5),
                     b_head=_randn(g, 5), patch_size=P, num_heads=2)


def _calls() -> dict[str, tuple]:
    """Each lecture function's arguments: 2 images of 8x8 pixels, 4 patches of 4x4, D = 8, 2 heads."""
    g = torch.Generator().manual_seed(7)
    x, p, vit = _randn(g, 2, 5, 8), _block_params(g, 8), _small_vit(g)
    q, k = _randn(g, 2, 2, 5, 4), _randn(g, 2, 2, 5, 4)
    images = _randn(g, 2, 3, 8, 8)
    return {
        "patchify": (images, 4), "conv_to_linear": (vit.conv_weight,),
        "project": (_randn(g, 2, 4, 48), vit.W_E, vit.b_E), "add_position": (x, _randn(g, 5, 8)),
        "prepend_cls": (x, vit.cls_token), "embed": (images, vit),
        "qkv_heads": (x, p.W_qkv, p.b_qkv, 2), "attention_weights": (q, k),
        "multi_head_attention": (x, p.W_qkv, p.b_qkv, p.W_o, p.b_o, 2),
        "layer_norm": (x, p.ln1_weight, p.ln1_bias), "mlp": (x, p.W_1, p.b_1, p.W_2, p.b_2),
        "block": (x, p, 2), "read_cls": (x, vit.norm_weight, vit.norm_bias),
        "classify": (x[:, 0], vit.W_head, vit.b_head), "vit_forward": (images, vit),
        "cover": (images, 2, 3, 4, -0.5),
    }


def _as_numpy(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.numpy()
    if isinstance(value, (BlockParams, ViTParams)):
        return replace(value, **{f.name: _as_numpy(getattr(value, f.name)) for f in fields(value)})
    if isinstance(value, tuple):
        return tuple(_as_numpy(v) for v in value)
    return value


CALLS = _calls()


@pytest.fixture
def exact_erf(monkeypatch):
    """numpy's GELU with Python's exact erf, so that both paths differ by float64 rounding alone."""
    monkeypatch.setattr(maths, "_erf", lambda x: np.vectorize(math.erf, otypes=[np.float64])(x))


@pytest.mark.parametrize("function", sorted(CALLS))
def test_numpy_and_torch_compute_the_same_maths(function: str, exact_erf):
    args = CALLS[function]
    expected, torch_trace = maths.run(getattr(maths, function), args)
    got, numpy_trace = maths.run(getattr(maths, function), _as_numpy(args))
    pairs = zip(expected, got) if isinstance(expected, tuple) else [(expected, got)]
    for e, n in pairs:
        e = e.numpy()
        assert isinstance(n, np.ndarray) and n.shape == e.shape
        allowed = FLOAT64_RELATIVE * max(1.0, float(np.abs(e).max()))
        assert (np.abs(n - e) <= allowed).all(), f"{function}: {np.abs(n - e).max():.3g}"
    assert numpy_trace.values.keys() == torch_trace.values.keys()


def test_numpys_erf_is_within_its_stated_error():
    x = np.linspace(-6, 6, 100001)
    exact = np.vectorize(math.erf, otypes=[np.float64])(x)
    assert np.abs(maths._erf(x) - exact).max() <= ERF_ERROR


def test_normalize_on_numpy_is_the_float32_normalization():
    """float32 rounds (p/255 - 0.5)/0.5 to within 2 ulps of 1 (two roundings); numpy keeps float64."""
    pixels = torch.arange(256, dtype=torch.uint8).reshape(1, 1, 16, 16)
    expected = maths.normalize(pixels).numpy().astype(np.float64)
    got = maths.normalize(pixels.numpy())
    assert np.abs(got - expected).max() <= 2 * np.finfo(np.float32).eps


def test_lecture_vit_gives_the_checkpoints_logits():
    """The lecture maths, float32 on the stand-in checkpoint, against the workers' timm-exact ViT, within
    the tolerance the vit_forward tests grant a correct student (case extra: 1e-3 absolute, 1e-4 relative)."""
    from safetensors.torch import load_file

    from grader.checkpoint import load_checkpoint
    from grader.paths import STANDIN
    from grader.checkpoint.timm_names import lecture_params
    from grader.worker.vit import CheckpointViT

    images = torch.randn(2, 3, 224, 224, generator=torch.Generator().manual_seed(3))
    expected = CheckpointViT(lecture_params(load_file(STANDIN)))(images)
    with torch.inference_mode():
        got = maths.vit_forward(images, load_checkpoint("stand-in").params())
    torch.testing.assert_close(got, expected, atol=1e-3, rtol=1e-4)


def test_edit_changes_only_its_quantity():
    """V replaced by K: the heads become A·K, while q, k and the weights stay as they were."""
    args = CALLS["multi_head_attention"]
    _, correct = maths.run(maths.multi_head_attention, args)
    _, edited = maths.run(maths.multi_head_attention, args, maths.replaced("v", "k"))
    for name in ("q", "k", "A"):
        assert torch.equal(edited[name], correct[name])
    assert torch.equal(edited["heads"], correct["A"] @ correct["k"])
    assert edited.used == {"v"}


@pytest.mark.parametrize("edit", [maths.replaced("residual_2", "x"), maths.replaced("v", "k"),
                                  maths.replaced("u", "attn"), maths.left_out("b_2")])
def test_a_run_reusing_the_correct_one_computes_what_a_fresh_run_does(edit):
    """The search reuses the sub-computations an edit cannot reach; the numbers must not change."""
    args = _as_numpy(CALLS["block"])
    _, correct = maths.run(maths.block, args)
    fresh, _ = maths.run(maths.block, args, edit)
    reused, trace = maths.run(maths.block, args, edit, reuse=correct)
    assert np.array_equal(fresh, reused)
    assert any(mine is theirs for mine, theirs in zip(trace.calls, correct.calls))  # LN1 at least was reused


def test_lecture_maths_stays_out_of_the_workers_view_and_the_release():
    from grader.cli.release import _ships
    from grader.launch.view import grader_files

    assert str(Path(maths.__file__).absolute()) not in grader_files()  # imported here, still hidden
    assert not _ships(Path("lecture_maths.py"))
