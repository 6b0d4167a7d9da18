"""Where feedback says a value is wrong, it names the place as the lecture does."""
from __future__ import annotations

import numpy as np

from grader.suites.feedback import compare


def wrong_at(grid: int, row: int, col: int) -> str:
    expected = np.zeros((grid, grid))
    got = expected.copy()
    got[row, col] = 1.0
    return compare(got, expected, ["row", "col"], grid) or ""


def test_a_one_patch_occlusion_map_names_the_lecture_patch():
    assert "row 5, col 7, = patch P63 (row 5, col 7)" in wrong_at(14, 4, 6)


def test_a_coarser_occlusion_map_names_the_cover_by_its_pixels_not_a_patch_number():
    message = wrong_at(7, 1, 2)
    assert "row 2, col 3, = the 32x32 cover over pixels y 32-63, x 64-95" in message
    assert "patch P" not in message
