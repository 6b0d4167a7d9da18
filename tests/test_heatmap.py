"""The maps' colour scales: probabilities from 0, changes around 0 (grader/reports/heatmap.py)."""
from __future__ import annotations

import numpy as np

from grader.reports.heatmap import map_scale, maps_text
from grader.reports.html import _maps
from grader.results import PROBABILITY_MAP

WHITE_ISH, DARKEST, RED = (247, 247, 247), (8, 48, 107), (178, 24, 43)


def _peaked(peak: float, rest: float) -> np.ndarray:
    grid = np.full((14, 14), rest)
    grid[3, 5] = peak
    return grid


def test_probabilities_run_from_zero_to_the_larger_maximum_of_the_two_maps():
    expected, yours = _peaked(0.3, 0.001), _peaked(0.9, 0.0)  # yours peaks higher
    scale = map_scale({"kind": PROBABILITY_MAP}, expected, yours)
    assert scale.probability and (scale.bottom, scale.top) == (0.0, 0.9)
    assert scale.rgb(0.0) == WHITE_ISH and scale.rgb(0.9) == DARKEST
    assert scale.rgb(-0.01) == RED  # no probability is negative: shown, not folded into white
    reversed_scale = map_scale({"kind": PROBABILITY_MAP}, yours, expected)
    assert reversed_scale.top == 0.9  # whichever map holds it


def test_a_flat_map_beside_a_peaked_one_is_not_drawn_blank():
    """Uniform weights over 197 tokens next to a peak of 0.5: the flat map still shows as a tint, the
    weights a tenth of the peak clearly (linear from 0, the flat map would take 1 % of the peak's colour)."""
    flat, peaked = np.full((14, 14), 1 / 197), _peaked(0.5, 0.0)
    scale = map_scale({"kind": PROBABILITY_MAP}, peaked, flat)
    tint = lambda value: sum(WHITE_ISH) - sum(scale.rgb(value))  # noqa: E731 - darkness, 0 for white
    assert tint(1 / 197) > 0.05 * tint(0.5) and tint(0.05) > 0.3 * tint(0.5)
    assert tint(0.0) == 0 < tint(1 / 197) < tint(0.05) < tint(0.5)  # still ordered: sequential


def test_changes_keep_the_diverging_scale():
    change = _peaked(-0.2, 0.05)
    scale = map_scale({}, change, change)
    assert not scale.probability and (scale.bottom, scale.top) == (-0.2, 0.2)
    assert scale.rgb(-0.2) == RED and scale.rgb(0.2) == (33, 102, 172)


def test_every_report_names_the_scale_it_drew():
    maps = {"title": "attention", "expected": _peaked(0.3, 0.001).tolist(), "actual": _peaked(0.9, 0.0).tolist(),
            "kind": PROBABILITY_MAP}
    text = maps_text(maps)
    assert "scale 0 to 0.9" in text and "±" not in text and "# > 0.225" in text and "+ ≤ 0.225" in text
    html = _maps(maps)
    assert "white at 0, dark blue at the larger maximum of the two maps" in html and "red below zero" not in html
    assert "red below zero, blue above" in _maps({**maps, "kind": None})
