"""Where everything sits in the two pictures, in pixels; tests read these constants too.

Both pictures draw the photograph as the model sees it (224 x 224 after the checkpoint's
transform) at SCALE times its size, so that one 16 x 16 patch is a CELL x CELL square.
"""
from __future__ import annotations

PATCH = 16  # pixels per patch side in the model's 224 x 224 input
GRID = 14  # patches per side: P1..P14 is the top row, P183..P196 the bottom row (page 15)
SCALE = 3  # the photograph is drawn 3x larger than the model's input, for legibility
CELL = PATCH * SCALE  # 48: one patch on the picture
PHOTO = GRID * CELL  # 672: the enlarged photograph
MARGIN = 16  # around everything, and between panels
OUTLINE = 4  # width of the query's (violet) and the strongest source's (white) frames
HAIRLINE = 1  # a contrasting line along a frame, so that it shows on any photograph
NESTED = OUTLINE + 2 * HAIRLINE  # inset of the source's frame when the query is its own strongest source

Box = tuple[int, int, int, int]
"""(left, top, right, bottom), right and bottom exclusive."""

# --- `vitgrade show attention`: the photograph, then a legend band below it ----------------------
ATTENTION_PHOTO = (MARGIN, MARGIN)  # top-left corner of the enlarged photograph
ATTENTION_LEGEND: Box = (MARGIN, MARGIN + PHOTO + MARGIN, MARGIN + PHOTO, MARGIN + PHOTO + 184)
ATTENTION_SIZE = (MARGIN + PHOTO + MARGIN, ATTENTION_LEGEND[3] + MARGIN)  # (width, height)

# --- `vitgrade show occlusion`: title; original and four covers; the map and its legend ----------
TITLE_HEIGHT = 32
THUMB = 224  # the original and the four quadrant covers, at the model's own size
CAPTION_HEIGHT = 46  # two lines under each thumbnail
THUMBS_TOP = MARGIN + TITLE_HEIGHT
THUMBS = tuple((MARGIN + i * (THUMB + MARGIN), THUMBS_TOP) for i in range(5))  # original, TL, TR, BL, BR
OCCLUSION_WIDTH = MARGIN + 5 * (THUMB + MARGIN)  # 1216
OCCLUSION_PHOTO = (MARGIN, THUMBS_TOP + THUMB + CAPTION_HEIGHT + MARGIN)  # the 14 x 14 map
OCCLUSION_LEGEND: Box = (MARGIN + PHOTO + 2 * MARGIN, OCCLUSION_PHOTO[1],
                         OCCLUSION_WIDTH - MARGIN, OCCLUSION_PHOTO[1] + PHOTO)
OCCLUSION_SIZE = (OCCLUSION_WIDTH, OCCLUSION_PHOTO[1] + PHOTO + MARGIN)  # (width, height)


def patch_box(origin: tuple[int, int], patch: int) -> Box:
    """The square of one patch on an enlarged photograph drawn at `origin`.

    Args:
        origin: the photograph's top-left corner, e.g. ATTENTION_PHOTO.
        patch: zero-based patch index, row by row: 73 is P74 (row 6, column 4).

    Returns:
        (left, top, right, bottom), right and bottom exclusive: a CELL x CELL square.
    """
    row, col = divmod(patch, GRID)
    left, top = origin[0] + col * CELL, origin[1] + row * CELL
    return left, top, left + CELL, top + CELL
