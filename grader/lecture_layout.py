"""The four quadrants of an image, in the order occlusion lists them (page 43).

`quadrant_probabilities` covers them one at a time, each H/2 x W/2 (112 x 112 on the lecture's
224-pixel image); the fixtures, the mistakes catalogue, the feedback that names a wrong quadrant and
the occlusion picture all read them from here.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Quadrant:
    """One quarter of the image, by its place in the 2 x 2 grid of halves: its pixels start at
    (row · H/2, column · W/2) whatever the image's size."""

    name: str
    """As feedback names it, e.g. `top-right`."""
    row: int
    """0 for the upper half, 1 for the lower."""
    column: int
    """0 for the left half, 1 for the right."""

    @property
    def title(self) -> str:
        """As a caption starts, e.g. `Top right`."""
        return self.name.replace("-", " ").capitalize()


#: The lecture's order: top-left, top-right, bottom-left, bottom-right (page 43).
QUADRANTS: tuple[Quadrant, ...] = (
    Quadrant("top-left", 0, 0),
    Quadrant("top-right", 0, 1),
    Quadrant("bottom-left", 1, 0),
    Quadrant("bottom-right", 1, 1),
)
