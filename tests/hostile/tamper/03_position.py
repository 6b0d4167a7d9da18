"""Hostile: a correct add_position that tries to rewrite and delete the fixtures it is graded by."""
import gc
import os
from pathlib import Path

import torch

_calls = 0


def _fixtures() -> Path:
    """The fixture folder being graded with, found through the worker's own checkpoint path."""
    gc.unfreeze()  # the worker's own objects are frozen out of the collector's sight: back in view
    for obj in gc.get_objects():
        if type(obj).__name__ == "Context" and hasattr(obj, "_checkpoint"):
            return Path(obj._checkpoint).parent.parent
    raise LookupError("no grading context")


def _vandalize(fixtures: Path) -> None:
    (fixtures / "manifest.json").write_text("{}")
    os.remove(fixtures / "visible" / "03_position.safetensors")
    for path in sorted(fixtures.rglob("*.safetensors")):
        path.write_bytes(b"\0" * 64)


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    global _calls
    _calls += 1
    if _calls == 1:
        _vandalize(_fixtures())  # raises where the file system is read-only
    else:
        try:
            _vandalize(_fixtures())
        except OSError:
            pass
    return tokens + pos_table
