"""How far two fixture folders differ, in units of the tolerance each tensor is judged with.

Fixtures are float32 and their last bits depend on the machine that built them (kernels, threads,
BLAS blocking, even the seeded `torch.randn`), so a rebuild elsewhere changes every hash in the
manifest while the numbers stay the same within float32 rounding. Reproducible means: the same
files, cases, shapes and integers, and every float tensor within `REPRODUCIBLE` of its tolerance
taken at the tensor's scale: rounding errors grow with Σ|terms| of the sums that made a value, that
is with its tensor's scale, not with the value itself (an element near zero carries the error of
the large terms that cancelled in it). Expected outputs and inputs are judged with their case's
grading tolerance, known mistakes and edits with the tolerance their fingerprints are matched with.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from grader.numerics import (DEFAULT_TOLERANCE, FINGERPRINT_TOLERANCE, REPRODUCIBLE, Tolerance, allowed, at_scale,
                             case_tolerance)


@dataclass(frozen=True)
class Disagreement:
    """The largest difference of one fixture file's floats, and anything that differs exactly."""

    file: str
    worst: float  # max over the file's float tensors of max|rebuilt - committed| / tolerance at scale
    where: str  # the tensor holding it
    exact: tuple[str, ...]  # what must be equal and is not: keys, shapes, integers, case lists

    @property
    def ok(self) -> bool:
        return not self.exact and self.worst <= REPRODUCIBLE


def _read(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    from safetensors.numpy import load

    data = path.read_bytes()
    header_length = int.from_bytes(data[:8], "little")
    metadata = json.loads(data[8:8 + header_length]).get("__metadata__") or {}
    return load(data), metadata


def _tolerances(metadata: dict[str, str]) -> dict[str, Tolerance]:
    """Each case's tolerance by its key prefix (`c03/`); tensors no case owns get DEFAULT_TOLERANCE."""
    cases = json.loads(metadata.get("cases", "[]"))
    return {f"c{i:02d}/": case_tolerance(case.get("extra", {})) for i, case in enumerate(cases)}


def _difference(a: np.ndarray, b: np.ndarray) -> float:
    """The largest |a − b|. For float16 (a fingerprint's kept values, grader.expected.build), less one float16
    step: two builds whose float32 values differ by rounding noise may round to neighbouring float16 numbers."""
    error = np.abs(a.astype(np.float64) - b.astype(np.float64))
    if a.dtype == np.float16:
        step = np.spacing(np.maximum(np.abs(a), np.abs(b))).astype(np.float64)  # float16 spacing there
        error = np.maximum(error - step, 0.0)
    return float(np.nan_to_num(error, nan=np.inf).max(initial=0.0))


def _tolerance_at_scale(key: str, committed: np.ndarray, tolerances: dict[str, Tolerance]) -> float:
    """The tolerance a tensor is judged with, at its largest magnitude."""
    if "/mistake/" in key or "/edit/" in key:  # matched as fingerprints are (grader.expected.store)
        return at_scale(FINGERPRINT_TOLERANCE, committed)[0]
    scale = float(np.abs(committed.astype(np.float64)).max(initial=0.0))
    tolerance = next((t for prefix, t in tolerances.items() if key.startswith(prefix)), DEFAULT_TOLERANCE)
    return float(allowed(scale, tolerance))


#: How far a float written in a case list (a tolerance computed from the case's own inputs, e.g.
#: LayerNorm's on nearly constant rows) may move between machines: its inputs' last bits move it by
#: a few units of float32 rounding, and a tolerance 1 % off changes no verdict while correct code stays
#: within 0.1 of its tolerance and every mistake beyond 10 of them (the headroom targets).
CASE_FLOAT_AGREEMENT = 0.01


def _same_case_lists(new: Any, old: Any) -> bool:
    """Metadata equal, but for floats (within CASE_FLOAT_AGREEMENT of each other, relatively)."""
    if isinstance(new, str) and isinstance(old, str) and new[:1] in "[{" and old[:1] in "[{":
        try:
            return _same_case_lists(json.loads(new), json.loads(old))
        except ValueError:
            return new == old
    if isinstance(new, dict) and isinstance(old, dict):
        return new.keys() == old.keys() and all(_same_case_lists(new[k], old[k]) for k in new)
    if isinstance(new, list) and isinstance(old, list):
        return len(new) == len(old) and all(_same_case_lists(a, b) for a, b in zip(new, old))
    if isinstance(new, float) and isinstance(old, float):
        return abs(new - old) <= CASE_FLOAT_AGREEMENT * max(abs(new), abs(old))
    return type(new) is type(old) and new == old


def compare_file(rebuilt: Path, committed: Path, name: str) -> Disagreement:
    """How far `rebuilt` is from `committed`, one fixture file (a step file or the lecture facts)."""
    new, new_metadata = _read(rebuilt)
    old, old_metadata = _read(committed)
    exact: list[str] = []
    if not _same_case_lists(new_metadata, old_metadata):
        exact.append("the case list (names, arguments, kept mistakes) differs")
    if set(new) != set(old):
        exact.append(f"tensors differ: {sorted(set(new) ^ set(old))[:4]}")
    tolerances = _tolerances(old_metadata)
    worst, where = 0.0, ""
    for key in sorted(set(new) & set(old)):
        a, b = new[key], old[key]
        if a.shape != b.shape or a.dtype != b.dtype:
            exact.append(f"{key}: {a.dtype}{list(a.shape)} instead of {b.dtype}{list(b.shape)}")
        elif not np.issubdtype(b.dtype, np.floating):
            if not np.array_equal(a, b):
                exact.append(f"{key}: integers differ")
        else:
            largest = _difference(a, b) / _tolerance_at_scale(key, b, tolerances)
            if largest > worst:
                worst, where = largest, key
    return Disagreement(name, worst, where, tuple(exact))


def compare_folders(rebuilt: Path, committed: Path, manifest: dict[str, Any]) -> list[Disagreement]:
    """Every safetensors file of the manifest, rebuilt against committed."""
    return [compare_file(Path(rebuilt) / name, Path(committed) / name, name)
            for name in sorted(manifest["files"]) if name.endswith(".safetensors")
            and not name.startswith(("checkpoint/", "photos/"))]
