"""Hostile: graded inside a class folder, looks for its siblings' work, the kit's own tests (the
mutant catalogue spells out the solutions), the solutions, and the grader's correct computations."""
import importlib
from pathlib import Path

from grader.paths import KIT_ROOT, SOLUTIONS

HERE = Path(__file__).resolve().parent


def _found(path: Path):
    """What reading `path` gives: a folder's names, a file's size, or `absent`."""
    try:
        return sorted(p.name for p in path.iterdir()) if path.is_dir() else len(path.read_bytes())
    except OSError:
        return "absent"


def _importable(module: str) -> str:
    try:
        importlib.import_module(module)
        return "imported"
    except ImportError:
        return "absent"


def normalize(pixels):
    raise RuntimeError(repr({
        "class folder": _found(HERE.parent),
        "sibling": _found(HERE.parent / "bob" / "01_flatten.py"),
        "tests": _found(KIT_ROOT / "tests"),
        "catalogue": _found(KIT_ROOT / "tests" / "mutants" / "catalogue.py"),
        "solutions": _found(SOLUTIONS / "01_flatten.py"),
        "grader/mistakes": _found(KIT_ROOT / "grader" / "mistakes"),
        "grader.mistakes.catalogue": _importable("grader.mistakes.catalogue"),
        "grader.expected.build": _importable("grader.expected.build"),
        "grader.checkpoint.standin": _importable("grader.checkpoint.standin"),
    }))
