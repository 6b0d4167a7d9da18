"""The pictures of `vitgrade show`: attention weights (page 33) and occlusion (pages 43-44).

Pillow only; numbers in, an RGB `PIL.Image` out. `layout` says where everything sits and `draw`
which colours mark what, so that tests find the query's outline or the legend by position.
"""
from grader.lecture_layout import QUADRANTS
from grader.pictures.attention import attention_picture, token_name
from grader.pictures.draw import BACKGROUND, GRAY_COVER, TAG, VIOLET, WHITE
from grader.pictures.layout import (ATTENTION_LEGEND, ATTENTION_PHOTO, ATTENTION_SIZE, CELL, GRID,
                                    HAIRLINE, NESTED, OCCLUSION_LEGEND, OCCLUSION_PHOTO, OCCLUSION_SIZE,
                                    OUTLINE, PHOTO, SCALE, THUMB, THUMBS, patch_box)
from grader.pictures.legend import Provenance, percent, points
from grader.pictures.occlusion import largest_drop, occlusion_picture

__all__ = [
    "ATTENTION_LEGEND", "ATTENTION_PHOTO", "ATTENTION_SIZE", "BACKGROUND", "CELL", "GRAY_COVER",
    "GRID", "HAIRLINE", "NESTED", "OCCLUSION_LEGEND", "OCCLUSION_PHOTO", "OCCLUSION_SIZE", "OUTLINE", "PHOTO",
    "QUADRANTS", "SCALE", "TAG", "THUMB", "THUMBS", "VIOLET", "WHITE", "Provenance",
    "attention_picture", "largest_drop", "occlusion_picture", "patch_box", "percent", "points",
    "token_name",
]
