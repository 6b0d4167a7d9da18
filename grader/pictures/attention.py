"""`vitgrade show attention`: one query's weights over the photograph, as on page 33."""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from grader.pictures.draw import (BODY, LINE, TAG, TEAL, TITLE, VIOLET, WHITE, enlarge, grid_lines,
                                  outline, paragraph, swatch, tag, text, tint)
from grader.pictures.layout import (ATTENTION_LEGEND, ATTENTION_PHOTO, ATTENTION_SIZE, GRID, HAIRLINE,
                                    NESTED, OUTLINE, PHOTO, SCALE, patch_box)
from grader.pictures.legend import MAX_TINT, Provenance, percent, provenance, teal_scale


def token_name(token: int) -> str:
    """Token 0 is CLS, token n is patch Pn (page 19)."""
    return "CLS" if token == 0 else f"P{token}"


def attention_picture(photo: Image.Image, weights: np.ndarray, query: int, block: int, head: int,
                      source: Provenance) -> Image.Image:
    """The photograph with each source patch tinted by the query's weight on it (page 33).

    Args:
        photo: the model's 224 x 224 RGB input, before normalization.
        weights: (197,) the query's row of attention weights: CLS, then P1..P196; sums to 1.
        query: the query's token: 0 for CLS, n for Pn.
        block, head: counted from 1, as the lecture does.
        source: where the numbers came from.

    Returns:
        An ATTENTION_SIZE RGB image: the photograph at SCALE times, with the query outlined violet
        and the strongest source patch outlined white and named, then the legend band.
    """
    patches = np.asarray(weights, dtype=np.float64)[1:].reshape(GRID, GRID)  # (14, 14), not renormalized
    strongest = int(patches.argmax())
    maximum = float(patches.max())
    strengths = patches / maximum * MAX_TINT if maximum > 0 else np.zeros_like(patches)
    teal = np.broadcast_to(np.array(TEAL, dtype=np.uint8), (GRID, GRID, 3))

    picture = Image.new("RGB", ATTENTION_SIZE, WHITE)
    picture.paste(tint(grid_lines(enlarge(photo, SCALE)), teal, strengths), ATTENTION_PHOTO)
    draw = ImageDraw.Draw(picture)

    bounds = (*ATTENTION_PHOTO, ATTENTION_PHOTO[0] + PHOTO, ATTENTION_PHOTO[1] + PHOTO)
    query_box = [patch_box(ATTENTION_PHOTO, query - 1)] if query > 0 else []
    for box in query_box:  # violet between two white hairlines, visible on violet photos too
        outline(draw, box, WHITE, HAIRLINE)
        outline(draw, box, VIOLET, OUTLINE, HAIRLINE)
        outline(draw, box, WHITE, HAIRLINE, HAIRLINE + OUTLINE)
    source_box = patch_box(ATTENTION_PHOTO, strongest)
    inset = NESTED if strongest == query - 1 else 0  # the query looks at itself most: nest the frames
    outline(draw, source_box, TAG, HAIRLINE, inset)  # a dark hairline: white shows on pale patches
    outline(draw, source_box, WHITE, OUTLINE - HAIRLINE, inset + HAIRLINE)
    tag(draw, source_box, f"P{strongest + 1}  {percent(maximum)}", bounds, avoid=query_box)

    _legend(draw, weights, query, block, head, strongest, maximum, source)
    return picture


def _legend(draw: ImageDraw.ImageDraw, weights: np.ndarray, query: int, block: int, head: int,
            strongest: int, maximum: float, source: Provenance) -> None:
    left, top, right, _ = ATTENTION_LEGEND
    width = right - left
    name = token_name(query)
    text(draw, (left, top), f"Attention weights · block {block} · head {head} · query {name}", TITLE)
    y = teal_scale(draw, (left, top + LINE[TITLE] + 2), maximum, 200)
    cls, patches = float(weights[0]), float(np.sum(weights[1:]))
    y = paragraph(draw, (left, y), f"strongest source P{strongest + 1}: {percent(maximum)}   ·   "
                  f"CLS: {percent(cls)}   ·   all 196 patches: {percent(patches)} (not renormalized)",
                  width, BODY)
    x = swatch(draw, (left, y), VIOLET, f"query {name}" if query else
               "query CLS (not a patch, so no outline)")
    swatch(draw, (x + 24, y), WHITE, f"strongest source P{strongest + 1}")
    provenance(draw, (left, y + LINE[BODY] + 6), width, source)
