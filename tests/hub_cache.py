"""A Hugging Face cache holding a ViT-Ti/16 in the real checkpoint's format, for tests that run the
instructor's commands with the lecture's hub id where the hub cannot be reached.

The cache is laid out as huggingface_hub lays it out (`HF_HOME/hub/models--timm--<id>/` with
blobs, refs/main and a snapshot symlink) and holds weights made here, close in scale to the
stand-in but not it: timm itself must load them from there, so the layout is the one timm looks up.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import torch
from safetensors.torch import save_file

from grader import paths
from grader.checkpoint import HUB_ID, load_checkpoint

REVISION = "4f8a5b1c9d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60"  # any commit hash: refs/main names the snapshot


def make_hub_home(home: Path) -> Path:
    """Lay out timm/<HUB_ID> at REVISION under `home`; the blob the snapshot links to."""
    state = load_checkpoint("stand-in").state_dict
    generator = torch.Generator().manual_seed(12)
    weights = {name: tensor + 0.01 * tensor.std().nan_to_num(0.0) * torch.randn(tensor.shape, generator=generator)
               for name, tensor in state.items()}  # a checkpoint of its own, close in scale to the stand-in
    repo = home / "hub" / f"models--timm--{HUB_ID}"
    home.mkdir(parents=True, exist_ok=True)
    made = home / "model.safetensors"
    save_file(weights, made)
    blob = repo / "blobs" / hashlib.sha256(made.read_bytes()).hexdigest()  # LFS files are stored under their sha256
    blob.parent.mkdir(parents=True)
    made.rename(blob)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(REVISION)
    snapshot = repo / "snapshots" / REVISION
    snapshot.mkdir(parents=True)
    (snapshot / "model.safetensors").symlink_to(Path("..") / ".." / "blobs" / blob.name)
    return blob


def offline_environment(home: Path, kit: Path = paths.KIT_ROOT) -> dict[str, str]:
    """The environment of a command that finds the checkpoint in `home`'s cache, never on the hub."""
    return {**os.environ, "HF_HOME": str(home), "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(kit)}
