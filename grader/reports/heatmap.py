"""Expected and actual 14x14 maps side by side: where an attention or occlusion check differs.

Two scales, as the numbers need. A change (the occlusion map) is drawn on a symmetric diverging scale:
red below zero, white near it, blue above. Probabilities (attention weights, `"kind": "probability"`)
are drawn on a sequential scale from white at 0 to dark blue at the larger maximum of the two maps,
darkening with the square root of the value, so that a flat map and the weights beside a peak both
show; a value below 0, which no probability has, is red. On a colour terminal each cell is two
coloured blanks; without colour each cell is a glyph and a blank (`=` `-` `·` `+` `#` from strongly
negative to strongly positive; for probabilities `·` `+` `#` rising from 0 and `-` below it), so the
same picture survives a log file.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from io import StringIO
from typing import Any

import numpy as np
from rich.color import Color
from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from grader.results import PROBABILITY_MAP

_NEGATIVE = np.array((178, 24, 43))  # red end of the ColorBrewer RdBu scale
_ZERO = np.array((247, 247, 247))  # near white, so a zero cell still reads as a cell
_POSITIVE = np.array((33, 102, 172))  # blue end
_DARKEST = np.array((8, 48, 107))  # the full end of the ColorBrewer Blues scale, for probabilities
_NAN_STYLE = Style(color="black", bgcolor="yellow", bold=True)
# Plain cells: (upper bound of value / scale, glyph, legend, the bound the legend names / scale),
# checked in order; a band is named by its bound nearer zero (`+` lies above 0.1, `#` above 0.5).
_GLYPHS = ((-0.5, "=", "< {:.3g}", -0.5), (-0.1, "-", "< {:.3g}", -0.1), (0.1, "·", "≈ 0", 0.0),
           (0.5, "+", "> {:.3g}", 0.1), (math.inf, "#", "> {:.3g}", 0.5))
# Probabilities rise from 0 by the square root, as the colours do: `·` up to 0.01, `+` up to 0.25
# (x scale: a tenth and half of the colour), `#` above; `-` is no probability.
_PROBABILITY_GLYPHS = ((-math.ulp(0.0), "-", "< 0", 0.0), (0.01, "·", "≤ {:.3g}", 0.01),
                       (0.25, "+", "≤ {:.3g}", 0.25), (math.inf, "#", "> {:.3g}", 0.25))
_NAN_GLYPH = "?"


@dataclass(frozen=True)
class MapScale:
    """How one pair of maps turns values into colours."""

    top: float
    """The value drawn at full colour (and -top at full red on the diverging scale)."""
    probability: bool
    """Sequential from 0 (probabilities), else diverging around 0."""

    @property
    def bottom(self) -> float:
        """The value at the scale's other end: 0 for probabilities, -top otherwise."""
        return 0.0 if self.probability else -self.top

    @property
    def words(self) -> str:
        """What the colours mean, for a legend."""
        if self.probability:
            return "white at 0, dark blue at the larger maximum of the two maps, by the square root; red below 0"
        return "red below zero, blue above"

    def rgb(self, value: float) -> tuple[int, int, int]:
        """The colour of a finite value."""
        if not self.probability:
            return cell_rgb(value, self.top)
        if value < 0:
            return tuple(int(c) for c in _NEGATIVE)
        t = math.sqrt(min(1.0, value / self.top))  # a weight a tenth of the peak still shows, a third dark
        r, g, b = (int(round(c)) for c in _ZERO + t * (_DARKEST - _ZERO))
        return r, g, b

    def glyph(self, value: float) -> str:
        """The plain cell's glyph of a finite value."""
        t = max(-1.0, min(1.0, value / self.top))
        return next(glyph for bound, glyph, _, _ in self.glyphs() if t <= bound)

    def glyphs(self) -> tuple[tuple[float, str, str, float], ...]:
        """The plain cells' bands: (upper bound / top, glyph, legend words, legend bound / top)."""
        return _PROBABILITY_GLYPHS if self.probability else _GLYPHS


def map_scale(maps: dict[str, Any], *grids: np.ndarray) -> MapScale:
    """The scale of a pair of maps: for probabilities from 0 to the larger maximum of the two (or the
    given `"scale"`), for changes ± the given `"scale"` or the largest finite magnitude."""
    if maps.get("kind") != PROBABILITY_MAP:
        return MapScale(scale_of(maps.get("scale"), *grids), probability=False)
    given = maps.get("scale")
    if isinstance(given, (int, float)) and math.isfinite(given) and given > 0:
        return MapScale(float(given), probability=True)
    finite = np.concatenate([g[np.isfinite(g)] for g in grids])
    largest = float(finite.max()) if finite.size else 0.0
    return MapScale(largest if largest > 0 else 1.0, probability=True)


def maps_view(maps: dict[str, Any], *, plain: bool) -> RenderableType:
    """The title, the expected and actual maps side by side, and a legend of the scale.

    Args:
        maps: `{"expected", "actual"}` nested lists of numbers, optional `"title"`, `"kind"`
            (PROBABILITY_MAP draws them from 0, see `map_scale`) and `"scale"` (the value drawn at full
            colour; taken from both maps if absent).
        plain: Draw glyphs instead of background colours, for consoles without colour.

    Returns:
        A renderable for `Console.print`.
    """
    expected = np.atleast_2d(np.asarray(maps["expected"], dtype=float))
    actual = np.atleast_2d(np.asarray(maps["actual"], dtype=float))
    scale = map_scale(maps, expected, actual)
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


def _cells(grid: np.ndarray, scale: MapScale, plain: bool) -> Text:
    """One map as lines of two-character cells."""
    text = Text()
    for r, row in enumerate(grid):
        if r:
            text.append("\n")
        for value in row:
            text.append(*_cell(float(value), scale, plain))
    return text


def _cell(value: float, scale: MapScale, plain: bool) -> tuple[str, Style | str]:
    """The two characters and the style of one value."""
    if math.isnan(value):
        return (_NAN_GLYPH + " ", "") if plain else ("??", _NAN_STYLE)
    if plain:
        return scale.glyph(value) + " ", ""
    return "  ", Style(bgcolor=Color.from_rgb(*scale.rgb(value)))


def cell_rgb(value: float, scale: float) -> tuple[int, int, int]:
    """The colour of a finite value on the diverging scale: red below zero, near white at it, blue above."""
    t = max(-1.0, min(1.0, value / scale))
    end = _NEGATIVE if t < 0 else _POSITIVE
    r, g, b = (int(round(c)) for c in _ZERO + abs(t) * (end - _ZERO))
    return r, g, b


def _legend(scale: MapScale, plain: bool, has_nan: bool) -> Text:
    """What the cells mean: sample colours across the scale, or the glyph bands."""
    legend = Text()  # no base style: a dim base would dim the sample colours too
    span = f"0 to {scale.top:.3g}" if scale.probability else f"±{scale.top:.3g}"
    legend.append(f"scale {span}: ", style="dim")
    if plain:
        for _, glyph, words, named in scale.glyphs():
            legend.append(f"{glyph} {words.format(named * scale.top)}  ", style="dim")
    else:
        for step in (0.0, 0.25, 0.5, 0.75, 1.0) if scale.probability else (-1.0, -0.5, 0.0, 0.5, 1.0):
            legend.append(*_cell(step * scale.top, scale, plain))
            legend.append(f" {step * scale.top:.3g}  ", style="dim")
        legend.append(f"({scale.words})" if scale.probability else "(red < 0 < blue)", style="dim")
    if has_nan:
        legend.append("  ")
        legend.append(*((_NAN_GLYPH, "") if plain else ("??", _NAN_STYLE)))
        legend.append(" not a number", style="dim")
    return legend
