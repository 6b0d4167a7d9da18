"""Exact feedback: where a student's array first goes wrong, by how much, and which known mistake
it equals. Indices are named as the lecture names them: P1...P196 row by row, CLS, heads and blocks
from 1 (pages 32, 36), with the zero-based index beside them for the student's code."""
from __future__ import annotations

from typing import Any

import numpy as np

from grader.lecture_layout import QUADRANTS
from grader.numerics import DEFAULT_TOLERANCE, Tolerance, outside, stated
from grader.results import Finding

CHANNELS = ("R", "G", "B")
#: How the worker labels a door past its operator recording that student code opened (worker/instruments.py).
INSTRUMENTS = "reaching into the grader's operator recording"


class Feedback(AssertionError):
    """A failed check, with the message the student reads and the status it earns."""

    def __init__(self, message: str, status: str = "failed", maps: dict[str, Any] | None = None,
                 finding: Finding | None = None) -> None:
        super().__init__(message)
        self.message, self.status, self.maps, self.finding = message, status, maps, finding


def patch_name(index: int, grid: int | None) -> str:
    """`P63 (row 5, col 7)` for zero-based patch index 62 on a 14-wide grid (page 15)."""
    if grid:
        row, col = divmod(index, grid)
        return f"P{index + 1} (row {row + 1}, col {col + 1})"
    return f"P{index + 1}"


def name_index(axes: list[str], index: tuple[int, ...], grid: int | None) -> str:
    """Name a position of an array by its axes, e.g. `image 1, head 2, query CLS, key P60`."""
    parts = []
    for axis, i in zip(axes, index):
        if axis == "image":
            parts.append(f"image {i + 1}")
        elif axis == "patch":
            parts.append(f"patch {patch_name(i, grid)} [index {i}]")
        elif axis in ("token", "query", "key"):
            label = "CLS" if i == 0 else patch_name(i - 1, grid)
            parts.append(f"{axis} {label} [index {i}]")
        elif axis == "head":
            parts.append(f"head {i + 1} [index {i}]")
        elif axis in ("row", "col"):
            parts.append(f"{axis} {i + 1}")
        elif axis == "quadrant":
            parts.append(QUADRANTS[i].name if i < len(QUADRANTS) else f"entry {i}")
        elif axis == "channel":
            parts.append(CHANNELS[i] if i < 3 else f"channel {i}")
        elif axis in ("y", "x"):
            parts.append(f"{axis}={i}")
        else:
            parts.append(f"{axis} {i + 1} [index {i}]")
    named = ", ".join(parts) if parts else "the value"
    if axes[-2:] == ["row", "col"] and grid:  # the map's cell, then what it covers: "row 5, col 7 = patch P63"
        named += " " + _map_cell(index[-2], index[-1], grid)
    return named


PATCH_GRID, IMAGE_SIDE = 14, 224  # the lecture's 16-pixel patches of a 224-pixel image (page 8)


def _map_cell(row: int, col: int, grid: int) -> str:
    """An occlusion map's cell: a lecture patch on the 14x14 grid; on a coarser grid a larger cover,
    named by its pixels (its cell number is no patch name of the lecture)."""
    if grid == PATCH_GRID:
        return f"= patch {patch_name(row * grid + col, grid)}"
    size = IMAGE_SIDE // grid
    return (f"= the {size}x{size} cover over pixels y {row * size}-{(row + 1) * size - 1}, "
            f"x {col * size}-{(col + 1) * size - 1}")


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def compare(actual: np.ndarray, expected: np.ndarray, axes: list[str], grid: int | None,
            tolerance: Tolerance = DEFAULT_TOLERANCE) -> str | None:
    """None when `actual` is within tolerance everywhere; else the lines that say where and how far."""
    a = np.asarray(actual, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    error = np.abs(a - e)
    bad = outside(a, e, tolerance)  # NaN counts as wrong
    if not bad.any():
        return None
    first = np.unravel_index(int(np.argmax(bad)), bad.shape)
    finite = np.where(np.isfinite(error), error, np.inf)
    worst = np.unravel_index(int(np.argmax(finite)), finite.shape)
    relative = float(finite[worst] / max(abs(float(e[worst])), 1e-12))
    lines = [
        f"first wrong at {name_index(axes, first, grid)}: got {_fmt(a[first])}, expected {_fmt(e[first])}",
        f"largest error {_fmt(float(finite[worst]))} (relative {relative:.3g}) at {name_index(axes, worst, grid)}",
        f"{int(bad.sum())} of {bad.size} values wrong; tolerance {stated(tolerance)}",
    ]
    if np.isnan(a).any():
        lines.insert(0, f"your output contains {int(np.isnan(a).sum())} NaN values")
    return "\n".join(lines)


def shape_text(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"
