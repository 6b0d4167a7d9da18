"""Where the kit's folders are (the kit runs from its checkout, `pip install -e .`), and how the
kit writes a file it must never leave half-written."""
from __future__ import annotations

import os
from pathlib import Path

#: The checkout: `VITGRADE_ROOT` if set, else the folder that holds the `grader` package.
KIT_ROOT = Path(os.environ.get("VITGRADE_ROOT") or Path(__file__).resolve().parent.parent)
EXERCISES = KIT_ROOT / "exercises"
SOLUTIONS = KIT_ROOT / "solutions"
FIXTURES = KIT_ROOT / "fixtures"
PHOTOS = FIXTURES / "photos"
STANDIN = FIXTURES / "checkpoint" / "standin.safetensors"
MANIFEST = "manifest.json"


def step_file(folder: Path, step_id: str) -> Path:
    """The file of one step inside a submission, exercises or solutions folder."""
    return Path(folder) / f"{step_id}.py"


def write_whole(path: Path, text: str) -> None:
    """Written whole or not at all (UTF-8): a rename, so a run stopped while writing never leaves
    half a gradebook or result behind, only the file as it was before. A link, a device or a pipe
    (`--output /dev/stdout`) is written through instead: a rename would replace it."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        path.write_text(text, encoding="utf-8")
        return
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
