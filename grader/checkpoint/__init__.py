"""Load the lecture's checkpoint, from the hub or a local file, or the committed stand-in.

Every source ends as the same thing: a timm `vit_tiny_patch16_224` state dict in float32, checked
against ViT-Ti/16's names and shapes, plus a record of what it is (`CheckpointInfo`) for manifests
and reports. Problems become a one-line `CheckpointError`, never a traceback from a library.

torch, timm, safetensors and huggingface_hub are imported inside the functions that need them.
"""
from __future__ import annotations

import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Mapping

from grader.params import ViTParams
from grader.paths import STANDIN

if TYPE_CHECKING:
    import torch

HUB_ID = "vit_tiny_patch16_224.augreg_in21k_ft_in1k"
STANDIN_ID = "vitgrade-standin-vit-tiny-patch16-224"
#: The timm architecture of both the real checkpoint and the stand-in.
ARCHITECTURE = "vit_tiny_patch16_224"

# ViT-Ti/16: width, blocks, heads, MLP width, classes, patch side, tokens (CLS + 14 x 14 patches).
DIM, DEPTH, HEADS, MLP_DIM, CLASSES, PATCH, TOKENS = 192, 12, 3, 768, 1000, 16, 197

_HUB_SOURCES = frozenset({"hub", HUB_ID, f"timm/{HUB_ID}", f"hf-hub:timm/{HUB_ID}"})
#: Files timm may have put in the Hugging Face cache for HUB_ID, in the order timm prefers them.
_HUB_FILES = ("model.safetensors", "pytorch_model.bin")
#: Seconds to wait for the hub to answer, so that an offline machine fails at once.
_HUB_ANSWER_TIMEOUT = 5.0
_OFFLINE_HINT = "offline, pass a local .safetensors, .pth or .npz file of it, or 'stand-in'"


@dataclass(frozen=True)
class CheckpointInfo:
    """What a loaded checkpoint is, as manifests and reports record it."""

    id: str
    """HUB_ID for the lecture's checkpoint (from the hub or a local file), STANDIN_ID for the stand-in."""
    kind: str
    """Either "real" or "stand-in"."""
    sha256: str
    """sha256 of the file the weights were read from."""
    source: str
    """What the user passed: a hub id, a path, or "stand-in"."""

    def describe(self) -> str:
        """One line for people, e.g. in a report header."""
        digest = f"sha256 {self.sha256[:8]}…"
        if self.kind == "stand-in":
            return (f"stand-in ViT-Ti/16 (seeded; NOT the lecture's checkpoint — its numbers are "
                    f"not the lecture's) {digest}")
        return f"{self.id} (the lecture's checkpoint, from {self.source}) {digest}"


class CheckpointError(Exception):
    """A checkpoint that cannot be loaded; the message is one line for people."""


@dataclass(eq=False)
class Checkpoint:
    """A loaded ViT-Ti/16: its timm state dict and what it is."""

    info: CheckpointInfo
    state_dict: dict[str, torch.Tensor]
    """timm names, float32, exactly the keys and shapes of `vit_tiny_patch16_224`."""
    _params: ViTParams | None = field(default=None, init=False, repr=False)

    def params(self) -> ViTParams:
        """The weights in the lecture's row-vector layout, built once."""
        if self._params is None:
            from grader.checkpoint.timm_names import lecture_params

            self._params = lecture_params(self.state_dict)
        return self._params

    def timm_model(self) -> torch.nn.Module:
        """A fresh timm `vit_tiny_patch16_224` holding these weights, in eval mode."""
        model = empty_timm_model()
        model.load_state_dict(self.state_dict, strict=True)
        return model.eval()


def load_checkpoint(source: str | os.PathLike = "stand-in") -> Checkpoint:
    """Load a ViT-Ti/16 checkpoint.

    Args:
        source: "stand-in" (the committed seeded stand-in); "hub", HUB_ID or "hf-hub:timm/<HUB_ID>"
            (timm downloads the lecture's checkpoint once, then reads it from its cache); or the
            path of a timm `.safetensors`, a `.pth` (a state dict, or one under "state_dict" or
            "model") or Google's original augreg `.npz`.

    Returns:
        The checkpoint, with its state dict validated against ViT-Ti/16.

    Raises:
        CheckpointError: The source is unknown, missing, unreadable, not ViT-Ti/16, or needs the
            hub and the hub cannot be reached.
    """
    text = os.fspath(source)
    if text == "stand-in":
        if not STANDIN.is_file():
            raise CheckpointError(f"the committed stand-in is missing: {STANDIN} (restore it from git)")
        return _from_file(STANDIN, text)
    if text in _HUB_SOURCES:
        return _from_hub(text)
    return _from_file(Path(text), text)


def expected_shapes() -> dict[str, tuple[int, ...]]:
    """Names and shapes of timm's `vit_tiny_patch16_224` state dict, in timm's order."""
    shapes: dict[str, tuple[int, ...]] = {
        "cls_token": (1, 1, DIM),
        "pos_embed": (1, TOKENS, DIM),
        "patch_embed.proj.weight": (DIM, 3, PATCH, PATCH),
        "patch_embed.proj.bias": (DIM,),
    }
    for i in range(DEPTH):
        p = f"blocks.{i}."
        shapes |= {
            p + "norm1.weight": (DIM,), p + "norm1.bias": (DIM,),
            p + "attn.qkv.weight": (3 * DIM, DIM), p + "attn.qkv.bias": (3 * DIM,),
            p + "attn.proj.weight": (DIM, DIM), p + "attn.proj.bias": (DIM,),
            p + "norm2.weight": (DIM,), p + "norm2.bias": (DIM,),
            p + "mlp.fc1.weight": (MLP_DIM, DIM), p + "mlp.fc1.bias": (MLP_DIM,),
            p + "mlp.fc2.weight": (DIM, MLP_DIM), p + "mlp.fc2.bias": (DIM,),
        }
    shapes |= {
        "norm.weight": (DIM,), "norm.bias": (DIM,),
        "head.weight": (CLASSES, DIM), "head.bias": (CLASSES,),
    }
    return shapes


def empty_timm_model() -> torch.nn.Module:
    """A timm `vit_tiny_patch16_224` with uninitialised weights, to load a checkpoint into.

    timm's random initialisation takes over a second on two cores, only to be overwritten.
    """
    import timm
    import torch

    with torch.device("meta"):
        model = timm.create_model(ARCHITECTURE, pretrained=False)
    return model.to_empty(device="cpu")


def _from_file(path: Path, source: str) -> Checkpoint:
    """Read, validate and label a local checkpoint file."""
    from grader.expected.store import sha256_of  # the hash the fixture manifest records

    if not path.is_file():
        raise CheckpointError(
            f"no such checkpoint file: {path} (expected 'stand-in', 'hub', {HUB_ID}, "
            "or a .safetensors, .pth or .npz file)")
    reader = _READERS.get(path.suffix.lower())
    if reader is None:
        raise CheckpointError(
            f"unsupported checkpoint file type '{path.suffix}': {path} "
            "(use timm's .safetensors or .pth, or Google's original .npz)")
    tensors, metadata = reader(path)
    state = _validated(tensors, path)
    standin = metadata.get("vitgrade") == "stand-in" or _equals_committed_standin(state)
    info = CheckpointInfo(
        id=STANDIN_ID if standin else HUB_ID,
        kind="stand-in" if standin else "real",
        sha256=sha256_of(path),
        source=source,
    )
    return Checkpoint(info=info, state_dict=state)


def _read_safetensors(path: Path) -> tuple[Mapping[str, Any], dict[str, str]]:
    from safetensors import safe_open

    try:
        with safe_open(os.fspath(path), framework="pt") as file:
            return {name: file.get_tensor(name) for name in file.keys()}, file.metadata() or {}
    except Exception as error:  # safetensors raises its own types, and OSError; all mean unreadable
        raise CheckpointError(f"not a readable .safetensors file: {path} ({_one_line(error)})") from None


def _read_torch(path: Path) -> tuple[Mapping[str, Any], dict[str, str]]:
    import torch

    unreadable = f"not a readable PyTorch checkpoint: {path}"
    try:
        # weights_only: a checkpoint file must never be able to run code.
        loaded = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        # torch's own message suggests weights_only=False, which is exactly what must not be done.
        raise CheckpointError(f"{unreadable} (a weights-only load refuses it: it is damaged, "
                              "or holds Python objects besides tensors)") from None
    except Exception as error:  # torch.load raises many types on garbage; all mean unreadable
        raise CheckpointError(f"{unreadable} ({_one_line(error)})") from None
    if isinstance(loaded, Mapping):
        for wrapper in ("state_dict", "model"):  # training scripts nest the weights under these
            if isinstance(loaded.get(wrapper), Mapping):
                return loaded[wrapper], {}
        return loaded, {}
    raise CheckpointError(f"{path} holds a {type(loaded).__name__}, not a state dict")


def _read_npz(path: Path) -> tuple[Mapping[str, Any], dict[str, str]]:
    from grader.checkpoint.npz import load_google_npz

    return load_google_npz(path), {}


_READERS: dict[str, Callable[[Path], tuple[Mapping[str, Any], dict[str, str]]]] = {
    ".safetensors": _read_safetensors,
    ".pth": _read_torch,
    ".pt": _read_torch,
    ".bin": _read_torch,  # the hub's pytorch_model.bin is a torch.save file
    ".npz": _read_npz,
}


def _validated(tensors: Mapping[str, Any], path: Path) -> dict[str, torch.Tensor]:
    """Check names, shapes and values against ViT-Ti/16; return float32 tensors in timm's order."""
    import torch

    expected = expected_shapes()
    not_vit_tiny = f"{path} is not a ViT-Ti/16 ({ARCHITECTURE}) checkpoint"
    missing = [name for name in expected if name not in tensors]
    if missing:
        raise CheckpointError(f"{not_vit_tiny}: {len(missing)} tensors missing, e.g. '{missing[0]}'")
    unexpected = sorted(str(name) for name in tensors if name not in expected)
    if unexpected:
        raise CheckpointError(
            f"{not_vit_tiny}: {len(unexpected)} unexpected tensors, e.g. '{unexpected[0]}'")
    state = {}
    for name, shape in expected.items():
        tensor = tensors[name]
        if not isinstance(tensor, torch.Tensor) or not tensor.is_floating_point():
            raise CheckpointError(f"{not_vit_tiny}: '{name}' is not a floating-point tensor")
        if tuple(tensor.shape) != shape:
            raise CheckpointError(
                f"{not_vit_tiny}: '{name}' has shape {tuple(tensor.shape)}, expected {shape}")
        state[name] = tensor.detach().to(device="cpu", dtype=torch.float32).contiguous()
    # One check over all values: 152 separate ones cost more in call overhead than in arithmetic.
    if not torch.isfinite(torch.cat([tensor.reshape(-1) for tensor in state.values()])).all():
        bad = next(name for name, tensor in state.items() if not torch.isfinite(tensor).all())
        raise CheckpointError(f"{path}: '{bad}' contains NaN or infinite values")
    return state


def _equals_committed_standin(state: Mapping[str, torch.Tensor]) -> bool:
    """Whether these are the stand-in's weights, re-saved in another format.

    Without this, a copy of the stand-in converted to .pth or .npz would be labelled the real
    checkpoint, and the lecture-fact tests would run against it.
    """
    import torch
    from safetensors.torch import load_file

    if not STANDIN.is_file():
        return False
    standin = load_file(os.fspath(STANDIN))
    return all(torch.equal(state[name], tensor) for name, tensor in standin.items())


def _from_hub(source: str) -> Checkpoint:
    """The lecture's checkpoint from the Hugging Face cache, downloaded by timm if not there yet."""
    cached = _hub_file_in_cache()
    if cached is None:
        _require_hub()
        _download_with_timm()
        cached = _hub_file_in_cache()
        if cached is None:
            raise CheckpointError(f"timm loaded {HUB_ID} but left no weights file in the Hugging Face cache")
    return _from_file(cached, source)


def _hub_file_in_cache() -> Path | None:
    from huggingface_hub import try_to_load_from_cache

    for filename in _HUB_FILES:
        found = try_to_load_from_cache(repo_id=f"timm/{HUB_ID}", filename=filename)
        if isinstance(found, str):  # other results mean "not cached" or "known not to exist"
            return Path(found)
    return None


def _require_hub() -> None:
    """Fail at once, in one line, when the hub cannot be reached.

    huggingface_hub retries an unreachable hub for most of a minute per file before giving up;
    one short request first turns that wait into an immediate, clear error.
    """
    if os.environ.get("HF_HUB_OFFLINE", "").upper() in {"1", "ON", "YES", "TRUE"}:
        raise CheckpointError(
            f"{HUB_ID} is not in the local Hugging Face cache and HF_HUB_OFFLINE is set; {_OFFLINE_HINT}")
    from huggingface_hub import constants

    import urllib.error  # here: the workers read the checkpoint's names through this package, never the hub
    import urllib.request

    request = urllib.request.Request(constants.ENDPOINT, method="HEAD")
    try:
        with urllib.request.urlopen(request, timeout=_HUB_ANSWER_TIMEOUT):
            pass
    except urllib.error.HTTPError:
        return  # the hub answered, if only with an error status: it is reachable
    except OSError as error:  # URLError, timeouts and refused connections are all OSErrors
        raise CheckpointError(
            f"cannot reach the Hugging Face hub ({constants.ENDPOINT}) to download {HUB_ID} "
            f"({_one_line(getattr(error, 'reason', error))}); {_OFFLINE_HINT}") from None


def _download_with_timm() -> None:
    """Let timm fetch the lecture's checkpoint into the Hugging Face cache, as it would for any user."""
    import timm

    try:
        timm.create_model(HUB_ID, pretrained=True)
    except Exception as error:  # network and hub errors come in many types; all mean "not downloaded"
        raise CheckpointError(f"could not download {HUB_ID}: {_one_line(error)}; {_OFFLINE_HINT}") from None


def _one_line(error: object) -> str:
    """The first line of an error message, so that CheckpointError stays one line."""
    lines = str(error).strip().splitlines()
    text = lines[0].strip() if lines else ""
    if isinstance(error, BaseException):  # the type often says more than the text, e.g. KeyError: 101
        return f"{type(error).__name__}: {text}" if text else type(error).__name__
    return text
