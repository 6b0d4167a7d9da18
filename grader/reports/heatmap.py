"""Expected and actual 14x14 maps side by side: where an attention or occlusion check differs.

On a colour terminal each cell is two coloured blanks on a symmetric diverging scale (red below
zero, white near it, blue above); without colour each cell is a glyph and a blank (`=` `-` `·` `+`
`#` from strongly negative to strongly positive), so the same picture survives a log file.
"""
from __future__ import annotations

import math
from io import StringIO
from typing import Any

import numpy as np
from rich.color import Color
from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

_NEGATIVE = np.array((178, 24, 43))  # red end of the ColorBrewer RdBu scale
_ZERO = np.array((247, 247, 247))  # near white, so a zero cell still reads as a cell
_POSITIVE = np.array((33, 102, 172))  # blue end
_NAN_STYLE = Style(color="black", bgcolor="yellow", bold=True)
_LEGEND_STEPS = (-1.0, -0.5, 0.0, 0.5, 1.0)
# Plain cells: (upper bound of value / scale, glyph, legend), checked in order.
_GLYPHS = ((-0.5, "=", "< {:.3g}"), (-0.1, "-", "< {:.3g}"), (0.1, "·", "≈ 0"),
           (0.5, "+", "> {:.3g}"), (math.inf, "#", "> {:.3g}"))
_NAN_GLYPH = "?"


def maps_view(maps: dict[str, Any], *, plain: bool) -> RenderableType:
    """The title, the expected and actual maps side by side, and a legend of the scale.

    Args:
        maps: `{"expected", "actual"}` nested lists of numbers, optional `"title"` and `"scale"`
            (the value drawn at full colour; the largest finite magnitude of both maps if absent).
        plain: Draw glyphs instead of background colours, for consoles without colour.

    Returns:
        A renderable for `Console.print`.
    """
    expected = np.atleast_2d(np.asarray(maps["expected"], dtype=float))
    actual = np.atleast_2d(np.asarray(maps["actual"], dtype=float))
    scale = scale_of(maps.get("scale"), expected, actual)
    grid = Table.grid(padding=(0, 3))
    for _ in range(3):
        grid.add_column(no_wrap=True)
    grid.add_row(Text(""), Text("expected", style="bold"), Text("actual", style="bold"))
    rows, columns = max(expected.shape[0], actual.shape[0]), expected.shape[1]
    grid.add_row(_row_labels(rows, columns), _cells(expected, scale, plain),
                 _cells(actual, scale, plain))
    has_nan = bool(np.isnan(expected).any() or np.isnan(actual).any())
    title = Text(str(maps.get("title", "")), style="bold")
    return Group(title, grid, _legend(scale, plain, has_nan))


def maps_text(maps: dict[str, Any], width: int = 100) -> str:
    """The plain drawing of `maps_view` as a string, for reports that hold text only."""
    console = Console(file=StringIO(), width=width, force_terminal=False, no_color=True)
    console.print(maps_view(maps, plain=True))
    return "\n".join(line.rstrip() for line in console.file.getvalue().splitlines())


def scale_of(given: Any, *grids: np.ndarray) -> float:
    """The magnitude drawn at full colour: the given one, else the largest finite value shown."""
    if isinstance(given, (int, float)) and math.isfinite(given) and given > 0:
        return float(given)
    finite = np.concatenate([np.abs(g[np.isfinite(g)]) for g in grids])
    largest = float(finite.max()) if finite.size else 0.0
    return largest if largest > 0 else 1.0


def _row_labels(rows: int, columns: int) -> Text:
    """The lecture's name of each row's first patch (P1, P15, …); patches go row by row."""
    return Text("\n".join(f"P{r * columns + 1}" for r in range(rows)), style="dim")


def _cells(grid: np.ndarray, scale: float, plain: bool) -> Text:
    """One map as lines of two-character cells."""
    text = Text()
    for r, row in enumerate(grid):
        if r:
            text.append("\n")
        for value in row:
            text.append(*_cell(float(value), scale, plain))
    return text


def _cell(value: float, scale: float, plain: bool) -> tuple[str, Style | str]:
    """The two characters and the style of one value."""
    if math.isnan(value):
        return (_NAN_GLYPH + " ", "") if plain else ("??", _NAN_STYLE)
    if plain:
        t = max(-1.0, min(1.0, value / scale))
        return next(glyph for bound, glyph, _ in _GLYPHS if t <= bound) + " ", ""
    return "  ", Style(bgcolor=Color.from_rgb(*cell_rgb(value, scale)))


def cell_rgb(value: float, scale: float) -> tuple[int, int, int]:
    """The colour of a finite value on the diverging scale: red below zero, near white at it, blue above."""
    t = max(-1.0, min(1.0, value / scale))
    end = _NEGATIVE if t < 0 else _POSITIVE
    r, g, b = (int(round(c)) for c in _ZERO + abs(t) * (end - _ZERO))
    return r, g, b


def _legend(scale: float, plain: bool, has_nan: bool) -> Text:
    """What the cells mean: sample colours from −scale to +scale, or the glyph bands."""
    legend = Text()  # no base style: a dim base would dim the sample colours too
    legend.append(f"scale ±{scale:.3g}: ", style="dim")
    if plain:
        # A band is named by the bound nearer zero: `+` lies above 0.1, `#` above 0.5 (x scale).
        nearer_zero = (-0.5, -0.1, 0.0, 0.1, 0.5)
        for (_, glyph, words), bound in zip(_GLYPHS, nearer_zero):
            legend.append(f"{glyph} {words.format(bound * scale)}  ", style="dim")
    else:
        for step in _LEGEND_STEPS:
            legend.append(*_cell(step * scale, scale, plain))
            legend.append(f" {step * scale:.3g}  ", style="dim")
        legend.append("(red < 0 < blue)", style="dim")
    if has_nan:
        legend.append("  ")
        legend.append(*((_NAN_GLYPH, "") if plain else ("??", _NAN_STYLE)))
        legend.append(" not a number", style="dim")
    return legend
