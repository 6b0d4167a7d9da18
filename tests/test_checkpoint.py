"""Loading checkpoints from every source, and the one-line errors when that is impossible."""
from __future__ import annotations

import datetime
import hashlib
import subprocess
import sys
import time
from pathlib import Path

import huggingface_hub.constants
import numpy as np
import pytest
import torch
from safetensors.torch import save_file

import grader.checkpoint
from grader.checkpoint import (HUB_ID, STANDIN_ID, Checkpoint, CheckpointError, expected_shapes,
                               load_checkpoint)
from grader.checkpoint.npz import google_arrays, save_google_npz
from grader.paths import KIT_ROOT, STANDIN

OFFLINE_ALTERNATIVES = (".safetensors", ".pth", ".npz", "stand-in")
HUB_SOURCES = ["hub", HUB_ID, f"hf-hub:timm/{HUB_ID}"]


@pytest.fixture(scope="module")
def standin() -> Checkpoint:
    return load_checkpoint("stand-in")


@pytest.fixture
def other_weights(standin) -> dict[str, torch.Tensor]:
    """A ViT-Ti/16 that is not the stand-in: what a real checkpoint looks like to the loader."""
    state = dict(standin.state_dict)
    state["head.bias"] = state["head.bias"] + 1
    return state


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _assert_same_weights(loaded: dict[str, torch.Tensor], expected: dict[str, torch.Tensor]):
    assert list(loaded) == list(expected)
    for name, tensor in expected.items():
        assert loaded[name].dtype == torch.float32
        assert torch.equal(loaded[name], tensor), name


def _one_line_error(source) -> str:
    with pytest.raises(CheckpointError) as error:
        load_checkpoint(source)
    message = str(error.value)
    assert message and "\n" not in message
    return message


# --- the stand-in ------------------------------------------------------------------------------

@pytest.mark.slow
def test_expected_shapes_are_timms():
    import timm

    with torch.device("meta"):
        model = timm.create_model("vit_tiny_patch16_224", pretrained=False)
    assert expected_shapes() == {name: tuple(t.shape) for name, t in model.state_dict().items()}
    assert list(expected_shapes()) == list(model.state_dict())


def test_standin_info(standin):
    info = standin.info
    assert (info.id, info.kind, info.source) == (STANDIN_ID, "stand-in", "stand-in")
    assert info.sha256 == _sha256(STANDIN)
    assert "NOT the lecture's checkpoint" in info.describe() and info.sha256[:8] in info.describe()
    assert "\n" not in info.describe()


def test_standin_state_dict(standin):
    assert {name: tuple(t.shape) for name, t in standin.state_dict.items()} == expected_shapes()
    assert all(t.dtype == torch.float32 and t.is_contiguous() for t in standin.state_dict.values())


def test_params_layout_and_cache(standin):
    params = standin.params()
    assert params is standin.params()
    assert params.W_E.shape == (768, 192) and params.pos_table.shape == (197, 192)
    assert params.cls_token.shape == (192,) and params.W_head.shape == (192, 1000)
    assert len(params.blocks) == 12 and params.num_heads == 3 and params.patch_size == 16
    block = params.blocks[0]
    assert block.W_qkv.shape == (192, 576) and block.W_1.shape == (192, 768)
    assert torch.equal(block.W_qkv, standin.state_dict["blocks.0.attn.qkv.weight"].T)


@pytest.mark.slow
def test_timm_model(standin):
    model = standin.timm_model()
    assert not model.training
    _assert_same_weights(model.state_dict(), standin.state_dict)
    with torch.inference_mode():
        assert model(torch.zeros(1, 3, 224, 224)).shape == (1, 1000)



@pytest.mark.slow
@pytest.mark.parametrize("linear", ["F.linear", "oneDNN"])
def test_the_workers_vit_gives_timms_logits(standin, monkeypatch, linear):
    """Workers run the checkpoint without timm (`grader.worker.vit`); the fixtures were computed by
    timm, so both must give the same logits, in chunks too (6 images = 4 + 2), with either matrix
    product the workers may take. The same operators, but not the same bits: another batch size
    changes how the matrix products are blocked, so the sums run in another order (and on another
    CPU, or in oneDNN, with other kernels)."""
    from safetensors.torch import load_file

    import grader.worker.vit
    from grader.numerics import rounding_bound, vit_terms
    from grader.checkpoint.timm_names import lecture_params
    from grader.worker.vit import CheckpointViT

    if linear == "oneDNN" and grader.worker.vit._ONEDNN_LINEAR is None:
        pytest.skip("this build of PyTorch has no oneDNN")
    chosen = torch.nn.functional.linear if linear == "F.linear" else grader.worker.vit.onednn_linear
    monkeypatch.setattr(grader.worker.vit, "fastest_linear", lambda: chosen)
    monkeypatch.setattr(grader.worker.vit, "CHUNK", 4)
    images = torch.randn(6, 3, 224, 224, generator=torch.Generator().manual_seed(3))
    model = standin.timm_model()
    with torch.inference_mode():
        features = model.forward_head(model.forward_features(images), pre_logits=True)  # (6, 192)
        expected = model.head(features)  # (6, 1000)
    actual = CheckpointViT(lecture_params(load_file(STANDIN)))(images)
    # Every sum from pixels to logits in another order: vit_terms() terms in series; the relative
    # error they leave in the CLS features is taken of the head's Σ|h_i·W_ic| + |b_c|.
    with torch.no_grad():  # a bound computed from the weights, not a graph to differentiate
        head_sums = features.abs() @ model.head.weight.abs().T + model.head.bias.abs()  # (6, 1000)
    tolerance = rounding_bound(vit_terms(), float(head_sums.max()))
    torch.testing.assert_close(actual, expected, rtol=0, atol=tolerance)

# --- local files -------------------------------------------------------------------------------

def _save(state: dict[str, torch.Tensor], path: Path, layout: str) -> None:
    if layout == "safetensors":
        save_file(state, path)
    elif layout == "pth":
        torch.save(state, path)
    elif layout in ("state_dict", "model"):
        torch.save({layout: state, "epoch": 300}, path)
    else:
        save_google_npz(state, path)


FORMATS = [("safetensors", "weights.safetensors"), ("pth", "raw.pth"),
           ("state_dict", "wrapped.pth"), ("model", "wrapped.pth"), ("npz", "augreg.npz")]


@pytest.mark.slow
@pytest.mark.parametrize("layout, name", FORMATS, ids=[f[0] for f in FORMATS])
def test_local_file_of_the_standin_loads_identically(tmp_path, standin, layout, name):
    path = tmp_path / name
    _save(standin.state_dict, path, layout)
    loaded = load_checkpoint(path)
    _assert_same_weights(loaded.state_dict, standin.state_dict)
    # Re-saved stand-in weights stay labelled as the stand-in, whatever the format.
    assert (loaded.info.id, loaded.info.kind) == (STANDIN_ID, "stand-in")
    assert loaded.info.sha256 == _sha256(path) and loaded.info.source == str(path)


@pytest.mark.slow
@pytest.mark.parametrize("layout, name", FORMATS, ids=[f[0] for f in FORMATS])
def test_local_file_of_other_weights_is_real(tmp_path, other_weights, layout, name):
    path = tmp_path / name
    _save(other_weights, path, layout)
    loaded = load_checkpoint(str(path))
    _assert_same_weights(loaded.state_dict, other_weights)
    assert (loaded.info.id, loaded.info.kind) == (HUB_ID, "real")
    assert HUB_ID in loaded.info.describe()


@pytest.mark.slow
def test_half_precision_file_becomes_float32(tmp_path, other_weights):
    path = tmp_path / "half.safetensors"
    save_file({name: t.half() for name, t in other_weights.items()}, path)
    loaded = load_checkpoint(path)
    assert all(t.dtype == torch.float32 for t in loaded.state_dict.values())


def test_google_npz_layout(standin):
    arrays = google_arrays(standin.state_dict)
    block = "Transformer/encoderblock_0/"
    mha = block + "MultiHeadDotProductAttention_1/"
    assert arrays["embedding/kernel"].shape == (16, 16, 3, 192)  # HWIO
    assert arrays["cls"].shape == (1, 1, 192)
    assert arrays["Transformer/posembed_input/pos_embedding"].shape == (1, 197, 192)
    assert arrays[mha + "query/kernel"].shape == (192, 3, 64)
    assert arrays[mha + "out/kernel"].shape == (3, 64, 192)
    assert arrays[block + "MlpBlock_3/Dense_0/kernel"].shape == (192, 768)
    assert arrays[block + "LayerNorm_2/scale"].shape == (192,)
    assert arrays["head/kernel"].shape == (192, 1000)
    assert all(a.dtype == np.float32 for a in arrays.values())
    assert len(arrays) == 8 + 12 * 16


# --- bad local files ---------------------------------------------------------------------------

def test_missing_file(tmp_path):
    assert "no such checkpoint file" in _one_line_error(tmp_path / "missing.safetensors")


def test_unknown_name():
    assert "no such checkpoint file" in _one_line_error("vit_small_patch16_224")


@pytest.mark.parametrize("name", ["weights.txt", "weights.npy", "weights"])
def test_wrong_extension(tmp_path, name):
    (tmp_path / name).write_bytes(b"\0" * 64)
    assert "unsupported checkpoint file type" in _one_line_error(tmp_path / name)


@pytest.mark.parametrize("name", ["garbage.safetensors", "garbage.pth", "garbage.npz"])
def test_garbage_file(tmp_path, name):
    (tmp_path / name).write_text("this is not a checkpoint\n" * 10)
    assert "not a readable" in _one_line_error(tmp_path / name)


def test_pth_with_python_objects_is_refused(tmp_path):
    torch.save({"saved_on": datetime.date(2024, 1, 1)}, tmp_path / "pickled.pth")
    assert "weights-only" in _one_line_error(tmp_path / "pickled.pth")


def test_pth_holding_a_tensor(tmp_path):
    torch.save(torch.zeros(3), tmp_path / "tensor.pth")
    assert "not a state dict" in _one_line_error(tmp_path / "tensor.pth")


def test_missing_tensor(tmp_path, other_weights):
    del other_weights["blocks.11.mlp.fc2.bias"]
    save_file(other_weights, tmp_path / "short.safetensors")
    message = _one_line_error(tmp_path / "short.safetensors")
    assert "not a ViT-Ti/16" in message and "blocks.11.mlp.fc2.bias" in message


def test_unexpected_tensor(tmp_path, other_weights):
    other_weights["pre_logits.fc.weight"] = torch.zeros(192, 192)
    save_file(other_weights, tmp_path / "long.safetensors")
    assert "pre_logits.fc.weight" in _one_line_error(tmp_path / "long.safetensors")


def test_wrong_shape(tmp_path, other_weights):
    other_weights["head.weight"] = torch.zeros(21843, 192)  # the in21k head
    other_weights["head.bias"] = torch.zeros(21843)
    torch.save(other_weights, tmp_path / "in21k.pth")
    assert "'head.weight' has shape (21843, 192)" in _one_line_error(tmp_path / "in21k.pth")


@pytest.mark.slow
def test_non_finite_values(tmp_path, other_weights):
    other_weights["norm.bias"] = other_weights["norm.bias"].clone()
    other_weights["norm.bias"][3] = float("nan")
    save_file(other_weights, tmp_path / "nan.safetensors")
    assert "NaN" in _one_line_error(tmp_path / "nan.safetensors")


def test_npz_of_another_size_is_refused(tmp_path, other_weights):
    # timm's loader would silently skip this head; the layout check must not.
    arrays = google_arrays(other_weights)
    arrays["head/kernel"] = np.zeros((192, 21843), np.float32)
    with open(tmp_path / "in21k.npz", "wb") as file:
        np.savez(file, **arrays)
    assert "'head/kernel' has shape (192, 21843)" in _one_line_error(tmp_path / "in21k.npz")


def test_npz_missing_an_array(tmp_path, other_weights):
    arrays = google_arrays(other_weights)
    del arrays["cls"]
    with open(tmp_path / "nocls.npz", "wb") as file:
        np.savez(file, **arrays)
    assert "'cls'" in _one_line_error(tmp_path / "nocls.npz")


# --- the hub -----------------------------------------------------------------------------------

@pytest.fixture
def empty_hub_cache(tmp_path, monkeypatch) -> Path:
    """An empty Hugging Face cache, so that a copy cached on this machine cannot interfere."""
    cache = tmp_path / "hf-cache"
    cache.mkdir()
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(cache))
    return cache


def _put_in_hub_cache(cache: Path, state: dict[str, torch.Tensor]) -> Path:
    """Lay out a file as huggingface_hub caches `timm/<HUB_ID>`."""
    repo = cache / f"models--timm--{HUB_ID}"
    commit = "0" * 40
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit)
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    save_file(state, snapshot / "model.safetensors")
    return snapshot / "model.safetensors"


def _assert_fails_fast_naming_alternatives(source: str) -> None:
    start = time.monotonic()
    message = _one_line_error(source)
    assert time.monotonic() - start < 10
    assert HUB_ID in message
    assert all(alternative in message for alternative in OFFLINE_ALTERNATIVES), message


@pytest.mark.parametrize("source", HUB_SOURCES)
def test_hub_offline(empty_hub_cache, monkeypatch, source):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    _assert_fails_fast_naming_alternatives(source)


def test_hub_unreachable(empty_hub_cache, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", "http://127.0.0.1:9")  # refuses
    _assert_fails_fast_naming_alternatives("hub")
    assert "cannot reach" in _one_line_error("hub")


@pytest.mark.slow
@pytest.mark.parametrize("source", HUB_SOURCES)
def test_hub_reads_timms_cached_file_offline(empty_hub_cache, monkeypatch, other_weights, source):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    cached = _put_in_hub_cache(empty_hub_cache, other_weights)
    loaded = load_checkpoint(source)
    _assert_same_weights(loaded.state_dict, other_weights)
    assert (loaded.info.id, loaded.info.kind, loaded.info.source) == (HUB_ID, "real", source)
    assert loaded.info.sha256 == _sha256(cached)


def test_hub_downloads_with_timm(empty_hub_cache, monkeypatch, other_weights):
    import timm

    calls = []

    def fake_create_model(name, pretrained=False, **kwargs):
        calls.append((name, pretrained))
        _put_in_hub_cache(empty_hub_cache, other_weights)

    monkeypatch.setattr(grader.checkpoint, "_require_hub", lambda: None)
    monkeypatch.setattr(timm, "create_model", fake_create_model)
    loaded = load_checkpoint("hub")
    assert calls == [(HUB_ID, True)]
    assert (loaded.info.id, loaded.info.kind) == (HUB_ID, "real")


def test_importing_the_package_stays_light():
    code = ("import sys, grader.checkpoint; "
            "print(*(name in sys.modules for name in ('torch', 'timm', 'safetensors')))")
    result = subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout.split() == ["False", "False", "False"]


def test_the_patch_projection_is_the_kernel_rearranged_exactly(standin):
    """W_E, probed from the convolution, holds the kernel's very floats in the lecture's layout, for
    the workers' torch and the judge's numpy alike."""
    from grader.checkpoint.timm_names import patch_projection
    from grader.lecture_maths import conv_to_linear

    kernel = standin.state_dict["patch_embed.proj.weight"]  # (192, 3, 16, 16)
    expected = conv_to_linear(kernel)  # (768, 192)
    assert torch.equal(standin.params().W_E, expected)
    assert np.array_equal(patch_projection(kernel.numpy()), expected.numpy())
    odd = torch.randn(5, 3, 4, 4, generator=torch.Generator().manual_seed(1)) * 1e30  # any scale, no rounding
    assert torch.equal(patch_projection(odd), conv_to_linear(odd))
