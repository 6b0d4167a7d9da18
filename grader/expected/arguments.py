"""A fixture case's arguments: how the builder writes them, and how they are read back.

Each argument is one JSON spec in the fixture file's case list, beside the file's tensors (by key):

    {"tensor": key}                         a tensor of the case
    {"value": v}                            a Python value
    {"pixels": key}                         a photograph's uint8 pixels, normalized as the checkpoint's
    {"pixels": key, "patch_size": P}        transform does, and cut into P x P patches
    {"param": "blocks.3.W_o"}               one of the checkpoint's parameters, by its ViTParams path
    {"params": "vit"}, {"params": 3}        the checkpoint's ViTParams, or its block 3
    {"block_params": {field: key}}          a BlockParams of the case's own tensors
    {"vit_params": {field: key | number, "blocks": [{field: key}, ...]}}   a ViTParams of its own
    {"model": "probe", "weights": key}      the probe model with these weights
    {"model": "vit"}                        the checkpoint's ViT

each with the argument's "name". The builder writes them (`encode`); the judge sends them to the worker
as they are, with the tensors they read (`tensor_keys`); `read` builds the argument from a spec, as torch
values in the worker, which calls student code with them (`TorchReader`), or as float64 numpy values in
the judge's diagnosis and search, which never import torch (`NumpyReader`).
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from grader.params import BlockParams, ViTParams


class Unreadable(Exception):
    """An argument this side cannot build (a model, a checkpoint or the lecture maths it lacks)."""


# ---------------------------------------------------------------- writing

def encode(name: str, value: Any, spec: dict[str, Any] | None, key: str, put: Callable[[Any, str], str],
           shared: Mapping[str, Any]) -> dict[str, Any]:
    """One argument of case `key` as its spec, its tensors stored by `put(tensor, key) -> stored key`.

    Args:
        name: the argument's name in the function's signature.
        value: a tensor or a Python value; for a spec, the value it stands for (a ViTParams, ...).
        spec: what the reader builds itself (`{"pixels": key}`, `{"params": "vit"}`, ...); None for a
            tensor or a plain value. A `block_params` or `vit_params` spec has its tensors stored.
        shared: tensors several cases read by the keys their specs name (pixels, the probe's weights).
    """
    import torch

    if spec is None:
        if isinstance(value, torch.Tensor):
            return {"name": name, "tensor": put(value, f"{key}/in/{name}")}
        return {"name": name, "value": value}
    encoded = {"name": name, **spec}
    for own in ("vit_params", "block_params"):
        if own in spec:  # a small parameter set of the case's own: its tensors travel
            encoded[own] = _encode_params(value, f"{key}/in/{name}", put)
    for reads in ("pixels", "weights"):
        if reads in spec:
            encoded[reads] = put(shared[spec[reads]], spec[reads])
    return encoded


def _encode_params(params: Any, key: str, put: Callable[[Any, str], str]) -> dict[str, Any]:
    """A ViTParams/BlockParams as {field: tensor key | number | [nested blocks]}."""
    encoded: dict[str, Any] = {}
    for field in dataclasses.fields(params):
        value = getattr(params, field.name)
        if isinstance(value, tuple):
            encoded[field.name] = [_encode_params(v, f"{key}.{field.name}.{i}", put) for i, v in enumerate(value)]
        elif isinstance(value, int):
            encoded[field.name] = value
        else:
            encoded[field.name] = put(value, f"{key}.{field.name}")
    return encoded


def tensor_keys(spec: dict[str, Any]) -> list[str]:
    """The keys of the file's tensors an argument's spec reads, in the order it names them."""
    keys = [spec[kind] for kind in ("tensor", "pixels", "weights") if kind in spec]
    if "block_params" in spec:
        keys += list(spec["block_params"].values())
    if "vit_params" in spec:
        for value in spec["vit_params"].values():
            if isinstance(value, str):
                keys.append(value)
            elif isinstance(value, list):
                keys += [k for block in value for k in block.values()]
    return keys


# ---------------------------------------------------------------- reading

class Reader(Protocol):
    """Builds what a spec stands for on one side: torch in the worker, numpy in the judge."""

    def tensor(self, array: np.ndarray) -> Any: ...

    def pixels(self, pixels: np.ndarray, patch_size: int | None) -> Any: ...

    def checkpoint_part(self, spec: dict[str, Any]) -> Any: ...

    def model(self, name: str, weights: np.ndarray | None) -> Any: ...


def read(spec: dict[str, Any], tensors: Mapping[str, np.ndarray], reader: Reader) -> Any:
    """The argument a spec stands for, built by `reader` from the file's `tensors`."""
    if "tensor" in spec:
        return reader.tensor(tensors[spec["tensor"]])
    if "value" in spec:
        return spec["value"]
    if "pixels" in spec:
        return reader.pixels(tensors[spec["pixels"]], spec.get("patch_size"))
    if "param" in spec or "params" in spec:
        return reader.checkpoint_part(spec)
    if "block_params" in spec:
        return BlockParams(**{field: reader.tensor(tensors[k]) for field, k in spec["block_params"].items()})
    if "vit_params" in spec:
        return ViTParams(**{field: tuple(BlockParams(**{f: reader.tensor(tensors[k]) for f, k in block.items()})
                                         for block in value) if field == "blocks"
                            else reader.tensor(tensors[value]) if isinstance(value, str) else int(value)
                            for field, value in spec["vit_params"].items()})
    if "model" in spec:
        return reader.model(spec["model"], tensors.get(spec.get("weights", "")))
    raise ValueError(f"unknown argument {spec!r}")


def checkpoint_part(spec: dict[str, Any], params: ViTParams) -> Any:
    """The part of the checkpoint's parameters a `param` or `params` spec names."""
    if "params" in spec:
        return params if spec["params"] == "vit" else params.blocks[int(spec["params"])]
    value: Any = params
    for part in spec["param"].split("."):
        value = value[int(part)] if part.isdigit() else getattr(value, part)
    return value


class TorchReader:
    """The worker's arguments: fresh torch tensors, so that an in-place edit reaches no later call.

    Args:
        checkpoint: the worker's checkpoint, with `params()` (ViTParams) and `model(name, weights)`.
    """

    def __init__(self, checkpoint: Any) -> None:
        self.checkpoint = checkpoint

    def tensor(self, array: np.ndarray) -> Any:
        import torch

        return torch.from_numpy(array.copy())

    def pixels(self, pixels: np.ndarray, patch_size: int | None) -> Any:
        import torch

        from grader.photos import normalize_pixels

        images = normalize_pixels(torch.from_numpy(pixels.copy()))
        if patch_size is None:
            return images
        P = int(patch_size)  # the photograph's channel-major patches (page 9), cut by PyTorch
        return torch.nn.functional.unfold(images, P, stride=P).transpose(1, 2).contiguous()

    def checkpoint_part(self, spec: dict[str, Any]) -> Any:
        """A copy: the checkpoint's own tensors are never handed to a student as they are."""
        part = checkpoint_part(spec, self.checkpoint.params())
        return part.clone() if "param" in spec else with_arrays(part, lambda tensor: tensor.clone())

    def model(self, name: str, weights: np.ndarray | None) -> Any:
        return self.checkpoint.model(name, weights)


def with_arrays(params: Any, array: Callable[[Any], Any]) -> Any:
    """A ViTParams or BlockParams with `array` applied to each of its tensors (its blocks' included)."""
    changes = {}
    for field in dataclasses.fields(params):
        value = getattr(params, field.name)
        if isinstance(value, tuple):
            changes[field.name] = tuple(with_arrays(v, array) for v in value)
        elif not isinstance(value, int):
            changes[field.name] = array(value)
    return dataclasses.replace(params, **changes)


#: (256,) float64: the level the checkpoint's transform gives each pixel value, 0 -> -1 ... 255 -> 1
#: (page 8), as grader/photos.py looks them up for the workers.
_LEVELS = np.linspace(-1.0, 1.0, 256)


class NumpyReader:
    """The judge's arguments, in float64 (pixels stay uint8: `normalize` reads them).

    Args:
        checkpoint: the checkpoint file the case's parameters come from, if any.
        models: the models this side can build, by name (the search's numpy probe).
    """

    def __init__(self, checkpoint: str | None, models: Mapping[str, Callable[[np.ndarray], Any]] | None = None) -> None:
        self.checkpoint, self.models = checkpoint, models or {}

    def tensor(self, array: np.ndarray) -> np.ndarray:
        return array if array.dtype == np.uint8 else np.asarray(array, np.float64)

    def pixels(self, pixels: np.ndarray, patch_size: int | None) -> np.ndarray:
        """A photograph's uint8 pixels as the normalized images, or their patch rows. Images by a
        lookup of each pixel value's level, in both the kit and the release (the same numbers on both
        sides, and not `normalize`'s arithmetic, which students write); patch rows only where the
        lecture maths ships (the instructor's kit): cutting patches is step 01's exercise."""
        images = _LEVELS[pixels]  # (..., 3, H, W) float64
        if patch_size is None:
            return images
        try:
            from grader import lecture_maths as maths
        except ImportError:
            raise Unreadable("pixels") from None
        return maths.patchify(images, patch_size)

    def checkpoint_part(self, spec: dict[str, Any]) -> Any:
        if not self.checkpoint:
            raise Unreadable("checkpoint")
        if "params" in spec:
            return checkpoint_part(spec, float64_params(self.checkpoint))
        return np.asarray(checkpoint_part(spec, _float32_params(self.checkpoint)), np.float64)

    def model(self, name: str, weights: np.ndarray | None) -> Any:
        if name not in self.models:
            raise Unreadable(name)
        return self.models[name](self.tensor(weights))


@functools.lru_cache(maxsize=2)
def _float32_params(path: str) -> ViTParams:
    """The checkpoint file's parameters in the lecture's layout, as numpy views of its float32 tensors."""
    from safetensors.numpy import load_file

    from grader.checkpoint.timm_names import lecture_params

    try:
        return lecture_params(load_file(path), array=lambda view: view)
    except (OSError, ValueError) as error:  # unreadable: the judge's side says less
        raise Unreadable(str(error)) from None


@functools.lru_cache(maxsize=2)
def float64_params(path: str) -> ViTParams:
    """The checkpoint file's parameters in the lecture's layout, in float64 (the judge's maths)."""
    return with_arrays(_float32_params(path), lambda view: np.asarray(view, np.float64))


def numpy_arguments(case: Any, models: Mapping[str, Callable[[np.ndarray], Any]] | None = None) -> list[Any]:
    """A case's arguments as the judge's numpy values, in call order."""
    reader = NumpyReader(case.extra.get("checkpoint"), models)
    return [read(spec, case.tensors, reader) for spec in case.args]


def numpy_array(case: Any, name: str) -> np.ndarray | None:
    """The argument called `name` where it is one array (a tensor, a photograph, a checkpoint parameter),
    as the judge's numpy value; None where the case has no such argument or this side cannot build it."""
    spec = next((spec for spec in getattr(case, "args", []) if spec.get("name") == name), None)
    if spec is None or not any(kind in spec for kind in ("tensor", "pixels", "param")):
        return None
    try:
        return read(spec, case.tensors, NumpyReader(getattr(case, "extra", {}).get("checkpoint")))
    except (Unreadable, KeyError):
        return None
