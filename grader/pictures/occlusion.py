"""`vitgrade show occlusion`: the four quadrant covers (page 43) and the 14 x 14 map (page 44)."""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from grader.lecture_layout import QUADRANTS
from grader.pictures.draw import (BLUE, BODY, GRAY_COVER, INK, LINE, MUTED, RED, SMALL, TAG, TITLE,
                                  WHITE, enlarge, faded, fit, grid_lines, outline, paragraph, tag,
                                  text, tint)
from grader.pictures.layout import (GRID, HAIRLINE, MARGIN, OCCLUSION_LEGEND, OCCLUSION_PHOTO,
                                    OCCLUSION_SIZE, OUTLINE, PHOTO, SCALE, THUMB, THUMBS, patch_box)
from grader.pictures.legend import (MAX_TINT, Provenance, diverging_scale, nice_ceiling, percent,
                                    points, provenance)



def largest_drop(change: np.ndarray) -> int | None:
    """The zero-based patch whose cover lowers P(target) most (the first on a tie), None if none does."""
    change = np.asarray(change).reshape(-1)
    drop = int(np.argmin(change))
    return drop if change[drop] < 0 else None


def occlusion_picture(photo: Image.Image, target: str, about_target: str, original: float,
                      quadrants: np.ndarray, change: np.ndarray, source: Provenance) -> Image.Image:
    """The original and its four quadrant covers with P(target), then the single-patch map.

    Args:
        photo: the model's 224 x 224 RGB input, before normalization.
        target: the class followed, as people read it, e.g. `Newfoundland`.
        about_target: how it was chosen, e.g. `class 256, the photo's top-1 class`.
        original: P(target) for the uncovered photograph.
        quadrants: (4,) P(target) with the top-left, top-right, bottom-left, bottom-right covered.
        change: (14, 14) covered minus original probability for each single-patch cover.
        source: where the numbers came from.

    Returns:
        An OCCLUSION_SIZE RGB image.
    """
    quadrants = np.asarray(quadrants, dtype=np.float64)
    change = np.asarray(change, dtype=np.float64).reshape(GRID, GRID)
    picture = Image.new("RGB", OCCLUSION_SIZE, WHITE)
    draw = ImageDraw.Draw(picture)
    title = f"Occlusion on {source.photo}: P({target}) with parts of the photo covered in gray"
    text(draw, (MARGIN, MARGIN), fit(title, OCCLUSION_SIZE[0] - 2 * MARGIN, TITLE), TITLE)
    _thumbnails(picture, draw, photo, original, quadrants)

    scale = nice_ceiling(float(np.abs(change).max()) * 100)  # points, symmetric around 0
    strengths = np.minimum(np.abs(change) * 100 / scale, 1) * MAX_TINT
    colours = np.where((change < 0)[..., None], np.array(RED), np.array(BLUE))  # (14, 14, 3)
    background = grid_lines(enlarge(faded(photo, 0.35), SCALE), INK, 0.12)
    picture.paste(tint(background, colours, strengths), OCCLUSION_PHOTO)

    drop = largest_drop(change)
    if drop is not None:
        box = patch_box(OCCLUSION_PHOTO, drop)
        outline(draw, box, WHITE, HAIRLINE)  # a pale hairline keeps the dark frame visible on deep red
        outline(draw, box, TAG, OUTLINE - HAIRLINE, HAIRLINE)
        bounds = (*OCCLUSION_PHOTO, OCCLUSION_PHOTO[0] + PHOTO, OCCLUSION_PHOTO[1] + PHOTO)
        tag(draw, box, f"P{drop + 1}: {points(change.flat[drop])}", bounds)
    _legend(draw, target, about_target, original, change, scale, drop, source)
    return picture


def _thumbnails(picture: Image.Image, draw: ImageDraw.ImageDraw, photo: Image.Image,
                original: float, quadrants: np.ndarray) -> None:
    """Original, then each quadrant covered in gray; P(target) and its change under each."""
    half = THUMB // 2
    worst = int(np.argmin(quadrants))
    captions = [("Original", percent(original), INK)]
    for i, quadrant in enumerate(QUADRANTS):
        row, col = quadrant.row, quadrant.column
        covered = photo.copy()
        covered.paste(GRAY_COVER, (col * half, row * half, (col + 1) * half, (row + 1) * half))
        picture.paste(covered, THUMBS[i + 1])
        change = points(quadrants[i] - original)
        captions.append((f"{quadrant.title} covered", f"{percent(quadrants[i])}   {change}",
                         RED if i == worst and quadrants[i] < original else INK))
    picture.paste(photo, THUMBS[0])
    for (x, y), (name, value, colour) in zip(THUMBS, captions):
        text(draw, (x, y + THUMB + 4), name, BODY, MUTED)
        text(draw, (x, y + THUMB + 4 + LINE[BODY]), value, BODY, colour)


def _legend(draw: ImageDraw.ImageDraw, target: str, about_target: str, original: float,
            change: np.ndarray, scale: float, drop: int | None, source: Provenance) -> None:
    left, top, right, _ = OCCLUSION_LEGEND
    width = right - left
    y = paragraph(draw, (left, top), f"Target: {target} ({about_target})", width, BODY)
    text(draw, (left, y + 14), "One patch covered at a time", TITLE)
    y = paragraph(draw, (left, y + 14 + LINE[TITLE]), "196 separate forward passes, each with one "
                  "16 x 16 patch set to gray. Each square shows how P(target) changes when it alone "
                  "is covered.", width, SMALL, MUTED)
    y = diverging_scale(draw, (left, y + 10), scale, min(width, 360))
    y = paragraph(draw, (left, y), "red: the probability falls · blue: it rises", width, BODY)

    y += 18
    text(draw, (left, y), "Largest drop", BODY, MUTED)
    y += LINE[BODY]
    if drop is None:
        y = paragraph(draw, (left, y), "none: no single-patch cover lowers it", width, BODY)
    else:
        lowest = float(change.flat[drop])
        text(draw, (left, y), f"P{drop + 1}: {points(lowest)}", TITLE, RED)
        y = paragraph(draw, (left, y + LINE[TITLE]),
                      f"P({target}): {percent(original)} -> {percent(original + lowest)}", width, BODY)
    rise = int(np.argmax(change))
    highest = float(change.flat[rise])
    y += 8
    text(draw, (left, y), "Largest rise", BODY, MUTED)
    y += LINE[BODY]
    text(draw, (left, y), f"P{rise + 1}: {points(highest)}" if highest > 0 else
         "none: no single-patch cover raises it", BODY, BLUE if highest > 0 else INK)
    y += LINE[BODY] + 18
    y = paragraph(draw, (left, y), "A probability-change map, not attention (page 44): a small "
                  "change does not prove a patch is useless.", width, SMALL, MUTED)
    provenance(draw, (left, y + 12), width, source)
