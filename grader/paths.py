"""Where the kit's folders are. The kit runs from its checkout (`pip install -e .`)."""
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
