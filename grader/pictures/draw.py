"""Drawing primitives shared by both pictures: text, per-patch tints, outlines, tags, colour bars.

Pillow only. Text uses Pillow's built-in font (`ImageFont.load_default(size)`, Aileron), which has
no glyphs for typographic dashes, arrows or the minus sign, so `text` swaps them for ASCII.
"""
from __future__ import annotations

from functools import cache
from collections.abc import Callable, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from grader.pictures.layout import CELL, GRID, PHOTO, Box

RGB = tuple[int, int, int]

BACKGROUND: RGB = (255, 255, 255)
INK: RGB = (25, 25, 25)
MUTED: RGB = (95, 95, 95)
WARNING: RGB = (175, 30, 30)  # the stand-in's "NOT the lecture's checkpoint"
VIOLET: RGB = (145, 60, 235)  # the query (page 33)
WHITE: RGB = (255, 255, 255)  # the strongest source (page 33)
TEAL: RGB = (0, 150, 150)  # attention weight (page 33)
RED: RGB = (178, 24, 43)  # probability falls (page 44), the ends of ColorBrewer's RdBu
BLUE: RGB = (33, 102, 172)  # probability rises
GRAY_COVER: RGB = (128, 128, 128)  # normalized 0 is mid-gray (page 42)
TAG: RGB = (30, 30, 30)  # the background of a patch's name tag

TITLE, BODY, SMALL = 20, 15, 13  # font sizes
LINE = {TITLE: 28, BODY: 21, SMALL: 18}  # line heights

_ASCII = str.maketrans({"−": "-", "–": "-", "—": "-", "→": "->", "×": "x", "≈": "~"})


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], words: str, size: int = BODY,
         fill: RGB = INK) -> int:
    """Draw one line with its top-left at `xy`; returns the line's width in pixels."""
    words = words.translate(_ASCII)
    draw.text(xy, words, font=font(size), fill=fill)
    return int(draw.textlength(words, font=font(size)))


def width_of(words: str, size: int = BODY) -> int:
    return int(font(size).getlength(words.translate(_ASCII)))


def fit(words: str, width: int, size: int = BODY) -> str:
    """`words`, cut short with "..." if they would be wider than `width` (e.g. a long file name)."""
    if width_of(words, size) <= width:
        return words
    while words and width_of(words + "...", size) > width:
        words = words[:-1]
    return words + "..."


def wrap(words: str, width: int, size: int = BODY) -> list[str]:
    """Break `words` at spaces into lines no wider than `width` (a single long word stays whole)."""
    lines: list[str] = []
    for word in words.split():
        if lines and width_of(f"{lines[-1]} {word}", size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def paragraph(draw: ImageDraw.ImageDraw, xy: tuple[int, int], words: str, width: int,
              size: int = BODY, fill: RGB = INK) -> int:
    """Draw `words` wrapped to `width`; returns the y just below the last line."""
    x, y = xy
    for line in wrap(words, width, size):
        text(draw, (x, y), line, size, fill)
        y += LINE[size]
    return y


def enlarge(photo: Image.Image, scale: int) -> Image.Image:
    """The model's 224 x 224 input, each pixel drawn as a scale x scale block (nothing invented)."""
    return photo.resize((photo.width * scale, photo.height * scale), Image.Resampling.NEAREST)


def faded(photo: Image.Image, amount: float) -> Image.Image:
    """The photograph in grayscale, blended `amount` of the way to white, so colours on it read."""
    gray = photo.convert("L").convert("RGB")
    return Image.blend(gray, Image.new("RGB", photo.size, BACKGROUND), amount)


def tint(photo: Image.Image, colours: np.ndarray, strengths: np.ndarray) -> Image.Image:
    """Blend each patch of an enlarged photograph towards its own colour.

    Args:
        photo: GRID * CELL pixels square.
        colours: (GRID, GRID, 3) uint8, one colour per patch, row by row.
        strengths: (GRID, GRID) in [0, 1]: 0 keeps the photograph, 1 paints the colour.

    Returns:
        A new image: photo * (1 - strength) + colour * strength, patch by patch.
    """
    layer = Image.fromarray(colours.astype(np.uint8), "RGB").resize(photo.size, Image.Resampling.NEAREST)
    alpha = np.clip(np.rint(strengths * 255), 0, 255).astype(np.uint8)
    mask = Image.fromarray(alpha, "L").resize(photo.size, Image.Resampling.NEAREST)
    return Image.composite(layer, photo, mask)


def grid_lines(photo: Image.Image, colour: RGB = (255, 255, 255), opacity: float = 0.25) -> Image.Image:
    """Faint lines between the patches, so that a reader can count rows and columns."""
    lines = Image.new("L", photo.size, 0)
    draw = ImageDraw.Draw(lines)
    for i in range(1, GRID):
        draw.line([(i * CELL, 0), (i * CELL, PHOTO - 1)], fill=int(255 * opacity))
        draw.line([(0, i * CELL), (PHOTO - 1, i * CELL)], fill=int(255 * opacity))
    return Image.composite(Image.new("RGB", photo.size, colour), photo, lines)


def outline(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int, inset: int = 0) -> None:
    """A square frame just inside `box` (right and bottom exclusive), `inset` pixels further in."""
    left, top, right, bottom = box
    draw.rectangle((left + inset, top + inset, right - 1 - inset, bottom - 1 - inset),
                   outline=colour, width=width)


def tag(draw: ImageDraw.ImageDraw, target: Box, words: str, bounds: Box,
        avoid: Sequence[Box] = (), size: int = BODY) -> Box:
    """A dark name tag beside `target`: above, else below, right or left, inside `bounds`.

    The first position that stays inside `bounds` and overlaps neither `target` nor any box in
    `avoid` wins (e.g. the query's outline must stay visible).

    Returns:
        The tag's box.
    """
    pad = 5
    w, h = width_of(words, size) + 2 * pad, LINE[size] + 2
    left, top, right, bottom = target
    centre_x, centre_y = (left + right) // 2, (top + bottom) // 2
    gap = 3
    candidates = [(centre_x - w // 2, top - gap - h), (centre_x - w // 2, bottom + gap),
                  (right + gap, centre_y - h // 2), (left - gap - w, centre_y - h // 2)]

    def inside(x: int, y: int) -> Box:
        x = min(max(x, bounds[0]), bounds[2] - w)
        y = min(max(y, bounds[1]), bounds[3] - h)
        return x, y, x + w, y + h

    boxes = [inside(x, y) for x, y in candidates]
    free = [b for b in boxes if not any(_overlap(b, other) for other in (target, *avoid))]
    box = (free or boxes)[0]
    draw.rounded_rectangle((box[0], box[1], box[2] - 1, box[3] - 1), radius=4, fill=TAG)
    text(draw, (box[0] + pad, box[1] + 2), words, size, WHITE)
    return box


def colour_bar(draw: ImageDraw.ImageDraw, box: Box, colour_at: Callable[[float], RGB]) -> None:
    """A horizontal gradient: the left edge shows colour_at(0), the right edge colour_at(1)."""
    left, top, right, bottom = box
    for x in range(left, right):
        draw.line([(x, top), (x, bottom - 1)], fill=colour_at((x - left) / max(right - left - 1, 1)))
    draw.rectangle((left, top, right - 1, bottom - 1), outline=MUTED)


def swatch(draw: ImageDraw.ImageDraw, xy: tuple[int, int], colour: RGB, words: str,
           size: int = BODY) -> int:
    """A small framed square in `colour`, then `words`; returns the x just after the words."""
    x, y = xy
    side = LINE[size] - 6
    draw.rectangle((x, y + 2, x + side, y + 2 + side), fill=TAG)
    draw.rectangle((x + 2, y + 4, x + side - 2, y + side), outline=colour, width=3)
    return x + side + 6 + text(draw, (x + side + 6, y), words, size)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from a to b."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
