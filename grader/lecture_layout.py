"""The four quadrants of the lecture's 224-pixel image, in the order occlusion lists them (page 43).

`quadrant_probabilities` covers them one at a time; the fixtures, the mistakes catalogue, the
feedback that names a wrong quadrant and the occlusion picture all read them from here.
"""
from __future__ import annotations

from dataclasses import dataclass

QUADRANT_SIDE = 112  # pixels: half of the 224-pixel image


@dataclass(frozen=True)
class Quadrant:
    """One 112 x 112 quarter of the image."""

    name: str
    """As feedback names it, e.g. `top-right`."""
    top: int
    """Its first pixel row."""
    left: int
    """Its first pixel column."""

    @property
    def title(self) -> str:
        """As a caption starts, e.g. `Top right`."""
        return self.name.replace("-", " ").capitalize()

    @property
    def row(self) -> int:
        """0 for the upper half, 1 for the lower."""
        return self.top // QUADRANT_SIDE

    @property
    def column(self) -> int:
        """0 for the left half, 1 for the right."""
        return self.left // QUADRANT_SIDE


#: The lecture's order: top-left, top-right, bottom-left, bottom-right (page 43).
QUADRANTS: tuple[Quadrant, ...] = (
    Quadrant("top-left", 0, 0),
    Quadrant("top-right", 0, QUADRANT_SIDE),
    Quadrant("bottom-left", QUADRANT_SIDE, 0),
    Quadrant("bottom-right", QUADRANT_SIDE, QUADRANT_SIDE),
)
