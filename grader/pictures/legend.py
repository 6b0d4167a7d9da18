"""What every legend says: the scales, how numbers are written, and where the numbers came from."""
from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import ImageDraw

from grader.pictures.draw import (BACKGROUND, BLUE, LINE, MUTED, RED, SMALL, TEAL, WARNING, RGB,
                                  colour_bar, mix, paragraph, text, width_of)

MAX_TINT = 0.85  # the strongest patch keeps a little of the photograph visible
_NICE = (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)


@dataclass(frozen=True)
class Provenance:
    """Where a picture's numbers came from; every picture says it."""

    photo: str
    """The photograph's file name, e.g. `cat.png`."""
    steps: str
    """Whose step files computed it, e.g. `solutions/` or a submission folder."""
    checkpoint: str
    """`CheckpointInfo.describe()`: for the stand-in it says that it is NOT the lecture's."""
    standin: bool
    """True for the stand-in, whose line is drawn as a warning."""


def percent(p: float) -> str:
    """A probability or weight as the lecture writes it: 0.0909 -> `9.09%`; 2e-7 -> `2e-05%`."""
    return f"{_digits(100 * p)}%"


def points(change: float) -> str:
    """A change of probability in percentage points, signed: -0.0384 -> `-3.84 points`."""
    return f"{'+' if change >= 0 else '-'}{_digits(abs(100 * change))} points"


def _digits(x: float) -> str:
    """Two decimals, as the lecture prints; two significant digits where those would read 0.00."""
    return f"{x:.2f}" if x == 0 or abs(x) >= 0.005 else f"{x:.2g}"


def nice_ceiling(x: float) -> float:
    """The scale's end: the smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (times a power of ten) >= x.

    Page 44 draws a largest change of 3.84 points on a scale of -4 to +4.
    """
    if not math.isfinite(x) or x <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(x))
    return next(n * power for n in _NICE if n * power >= x * (1 - 1e-9))


def teal_at(t: float) -> RGB:
    """The tint of a weight that is `t` of the map's maximum, as drawn over a white patch."""
    return mix(BACKGROUND, TEAL, t * MAX_TINT)


def diverging_at(t: float) -> RGB:
    """t = 0: the most negative end (red), 0.5: no change (white), 1: the most positive (blue)."""
    return mix(BACKGROUND, RED if t < 0.5 else BLUE, abs(2 * t - 1) * MAX_TINT)


def teal_scale(draw: ImageDraw.ImageDraw, xy: tuple[int, int], maximum: float, width: int) -> int:
    """`0 [teal bar] 10.35%  teal: ...`; returns the y below it."""
    x, y = xy
    x += text(draw, (x, y), "0", SMALL, MUTED) + 6
    colour_bar(draw, (x, y + 2, x + width, y + 16), teal_at)
    x += width + 6
    x += text(draw, (x, y), percent(maximum), SMALL) + 14
    text(draw, (x, y), "teal: each source patch's weight, up to this map's maximum", SMALL, MUTED)
    return y + LINE[SMALL] + 6


def diverging_scale(draw: ImageDraw.ImageDraw, xy: tuple[int, int], scale_points: float,
                    width: int) -> int:
    """A red-white-blue bar from -scale to +scale points, labelled under it; returns the y below."""
    x, y = xy
    colour_bar(draw, (x, y, x + width, y + 18), diverging_at)
    y += 22
    end = f"{scale_points:g}"
    text(draw, (x, y), f"-{end}", SMALL)
    text(draw, (x + width // 2 - width_of("0", SMALL) // 2, y), "0", SMALL)
    right = f"+{end} points"
    text(draw, (x + width - width_of(right, SMALL), y), right, SMALL)
    return y + LINE[SMALL] + 4


def provenance(draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
               source: Provenance) -> int:
    """Photo, steps and checkpoint lines; the stand-in's in the warning colour. Returns the y below."""
    x, y = xy
    y = paragraph(draw, (x, y), f"photo {source.photo} · computed by {source.steps}", width, SMALL,
                  MUTED)
    checkpoint = source.checkpoint.replace("sha256 ", "sha256:")  # keep the digest on its line
    return paragraph(draw, (x, y), f"checkpoint: {checkpoint}", width, SMALL,
                     WARNING if source.standin else MUTED)
