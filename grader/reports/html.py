"""One submission as HTML, for a notebook cell (Jupyter, Colab): the step table, then each failing
test with its message, finding and printed output, and for attention and occlusion failures the
expected and the student's 14x14 maps as inline pictures side by side.

The page is one self-contained fragment: styles scoped to its root class, pictures as PNG data URIs
(drawn with the terminal's colour scale from `heatmap`), no script. Every string that came from
grading is passed through `clean` and escaped, so student output is shown, never obeyed.
"""
from __future__ import annotations

import base64
import io
import math
from html import escape
from typing import Any

import numpy as np
from PIL import Image

from grader.graded_files import GradedFiles
from grader.pictures.layout import GRID, PATCH
from grader.reports.heatmap import MapScale, map_scale
from grader.reports.shared import clean, failing_alike, look, points, printed_text
from grader.reports.terminal import WITHHELD, footer
from grader.results import StepResult, SubmissionResult, TestResult

MAP_CELL = 12  # pixels per patch in an inline map: 14 patches make a 168-pixel picture
_LEGEND_WIDTH, _LEGEND_HEIGHT = 168, 10
_NAN_RGB = (255, 215, 0)  # the terminal marks a value that is not a number on yellow too
_COLOURS = {"green": "#1a7f37", "red": "#cf222e", "bold red": "#cf222e", "yellow": "#9a6700",
            "dim": "#57606a"}  # the terminal's rich styles, as colours that read on white

_STYLE = """
.vitgrade { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 14px;
  color: #1f2328; background: #ffffff; padding: 8px 12px; line-height: 1.4; }
.vitgrade table.steps { border-collapse: collapse; margin: 4px 0 10px; }
.vitgrade table.steps th, .vitgrade table.steps td { text-align: left; padding: 3px 10px;
  border-bottom: 1px solid #d8dee4; vertical-align: top; }
.vitgrade table.steps td.points { text-align: right; font-weight: 600; white-space: nowrap; }
.vitgrade code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
.vitgrade h4 { margin: 14px 0 4px; font-size: 15px; }
.vitgrade ul.tests { list-style: none; padding-left: 8px; margin: 2px 0; }
.vitgrade ul.tests li { margin: 3px 0; }
.vitgrade pre { white-space: pre-wrap; margin: 4px 0 6px 20px; padding: 6px 8px;
  background: #f6f8fa; border-radius: 4px; font-size: 13px; }
.vitgrade pre.printed { color: #57606a; }
.vitgrade .note { color: #57606a; margin: 2px 0 2px 8px; }
.vitgrade .maps { margin: 4px 0 8px 20px; }
.vitgrade .maps figure { display: inline-block; margin: 0 18px 0 0; text-align: center; }
.vitgrade .maps figcaption { font-size: 12px; color: #57606a; }
.vitgrade .maps img { image-rendering: pixelated; border: 1px solid #d8dee4; }
.vitgrade .legend { font-size: 12px; color: #57606a; }
.vitgrade .legend img { vertical-align: middle; margin: 0 6px; border: 1px solid #d8dee4; }
.vitgrade .other-copy { color: #9a6700; font-weight: 600; margin: 4px 0; }
.vitgrade .footer { color: #57606a; font-size: 12px; margin: 2px 0; }
"""


def to_html(result: SubmissionResult, *, graded: GradedFiles | None = None, show_output: bool = False,
            show_hidden_messages: bool = True) -> str:
    """One submission as a self-contained HTML fragment.

    Args:
        result: The graded submission.
        graded: The files graded and where the student stands: the table then names each step's
            file, and a line says when the student stands in another copy of the kit.
        show_output: Show what the student's code printed under passing tests too; it is always
            shown under tests that fail or err.
        show_hidden_messages: False for student-facing pages: hidden tests show only their name
            and whether they passed; what the code printed outside any test and the sandbox's
            layers are left out.

    Returns:
        A `<div class="vitgrade">` holding its own styles.
    """
    other_copy = graded.other_copy() if graded is not None else None
    parts = [f"<style>{_STYLE}</style>"]
    if other_copy:
        parts.append(f'<p class="other-copy">{_text(other_copy)}</p>')
    parts.append(_step_table(result, graded))
    parts += [_step_details(step, show_output, show_hidden_messages) for step in result.steps]
    parts.append(_total(result))
    # The terminal's footer without the other-copy line, which stands at the top here.
    parts += [f'<p class="footer" style="color: {_COLOURS.get(str(line.style), "#57606a")}">{_text(line.plain)}</p>'
              for line in footer(result, sandbox=show_hidden_messages)]
    return f'<div class="vitgrade">{"".join(parts)}</div>'


def _step_table(result: SubmissionResult, graded: GradedFiles | None) -> str:
    """A row per step: status, id and title, points, lecture pages and, if known, the file graded."""
    file_header = "<th>file graded</th>" if graded is not None else ""
    rows = []
    for step in result.steps:
        file_cell = f"<td><code>{_text(graded.shown(step.id))}</code></td>" if graded is not None else ""
        rows.append(f"<tr><td>{_status(step.status)}</td><td><b>{_text(step.id)}</b> {_text(step.title)}</td>"
                    f'<td class="points">{points(step.score)}/{points(step.max_score)}</td>'
                    f"<td>{_text(step.pages)}</td>{file_cell}</tr>")
    return (f'<table class="steps"><tr><th>status</th><th>step</th><th>points</th><th>pages</th>'
            f'{file_header}</tr>{"".join(rows)}</table>')


def _step_details(step: StepResult, show_output: bool, show_hidden_messages: bool) -> str:
    """A step's notes and tests; empty for a step whose tests all passed and that has no notes."""
    shown_notes = step.notes + (step.output_notes if show_hidden_messages else [])
    if not shown_notes and all(t.status == "passed" for t in step.tests) and not show_output:
        return ""
    symbol, _, _ = look(step.status)
    notes = "".join(f'<p class="note">{_text(note)}</p>' for note in shown_notes)
    said = ""
    if alike := failing_alike(step.tests, show_hidden_messages):
        said = alike[0].message  # e.g. a file that does not import: its error once, above its tests
        notes += f"<p>The {len(alike)} tests below all say the same:</p><pre>{_text(said)}</pre>"
    tests = "".join(_test_item(test, show_output, withheld=test.visibility == "hidden" and not show_hidden_messages,
                               said=said)
                    for test in step.tests)
    return (f"<h4>{_coloured(symbol, step.status)} {_text(step.id)} · {_text(step.title)}</h4>"
            f'{notes}<ul class="tests">{tests}</ul>')


def _test_item(test: TestResult, show_output: bool, *, withheld: bool, said: str = "") -> str:
    """One test: its line, then (unless withheld) its message (unless `said` above it already),
    maps and printed output."""
    status = test.status
    if withheld:  # only pass or fail: the kind of failure can hint at what the hidden input was
        status = status if status in ("passed", "skipped") else "failed"
    symbol, _, words = look(status)
    line = f"{_coloured(symbol, status)} {_text(test.name)}"
    if withheld:
        return f"<li>{line}{'' if status == 'passed' else f' <i>{WITHHELD}</i>'}</li>"
    if status not in ("passed", "failed"):
        line += f" {_coloured(f'({words})', status)}"
    if test.visibility == "hidden":
        line += ' <i class="note">hidden</i>'
    body = f"<pre>{_text(test.message)}</pre>" if test.message and test.message != said else ""
    body += _maps(test.maps) if test.maps else ""
    if test.output_bytes and (show_output or test.status != "passed"):
        body += f'<pre class="printed">{_text(printed_text(test))}</pre>'
    return f"<li>{line}{body}</li>"


def _maps(maps: dict[str, Any]) -> str:
    """The title, the expected and the student's map side by side as pictures, and the scale."""
    expected = np.atleast_2d(np.asarray(maps["expected"], dtype=float))
    actual = np.atleast_2d(np.asarray(maps["actual"], dtype=float))
    scale = map_scale(maps, expected, actual)
    figures = "".join(
        f'<figure><img alt="{name} map" src="{_png_uri(_map_image(grid, scale))}">'
        f"<figcaption>{name}</figcaption></figure>"
        for name, grid in (("expected", expected), ("yours", actual)))
    low, high = (f"{v:.3g}" for v in (scale.bottom, scale.top)) if scale.probability else map(_signed, (
        scale.bottom, scale.top))
    legend = (f'<div class="legend">{low}<img alt="colour scale" '
              f'src="{_png_uri(_legend_image(scale))}">{high} ({scale.words}); '
              f"{_squares(expected.shape)}")
    if np.isnan(expected).any() or np.isnan(actual).any():
        legend += "; yellow: not a number"
    return (f'<div class="maps"><p><b>{_text(str(maps.get("title", "")))}</b></p>{figures}'
            f"{legend}</div></div>")


def _squares(shape: tuple[int, ...]) -> str:
    """What one square of a map stands for: a lecture patch on the 14x14 grid; on a coarser grid a
    larger cover, which has no patch name of the lecture (page 44)."""
    rows, columns = shape
    if rows == GRID:
        return f"one square per patch, P1 at the top left, P{rows * columns} at the bottom right"
    side = GRID * PATCH // rows  # the model's 224-pixel input shared out
    return f"one square per {side} x {side}-pixel cover, the top-left cover at the top left, row by row"


def _map_image(grid: np.ndarray, scale: MapScale) -> Image.Image:
    """A map drawn cell by cell with the terminal's colour scale, each patch MAP_CELL pixels wide."""
    rows, columns = grid.shape
    pixels = np.array([[_NAN_RGB if math.isnan(value) else scale.rgb(value) for value in row]
                       for row in grid], dtype=np.uint8)  # (rows, columns, 3)
    return Image.fromarray(pixels, "RGB").resize((columns * MAP_CELL, rows * MAP_CELL), Image.NEAREST)


def _legend_image(scale: MapScale) -> Image.Image:
    """A bar across the scale: -top (red) through zero (near white) to +top (blue), or 0 to top."""
    values = np.linspace(scale.bottom, scale.top, _LEGEND_WIDTH)
    strip = np.array([scale.rgb(value) for value in values], dtype=np.uint8)  # (width, 3)
    return Image.fromarray(np.repeat(strip[None], _LEGEND_HEIGHT, axis=0), "RGB")


def _png_uri(picture: Image.Image) -> str:
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _total(result: SubmissionResult) -> str:
    """`Total 62.5/100 · 5 of 8 steps passed`."""
    passed = sum(step.status == "passed" for step in result.steps)
    return (f"<p><b>Total {points(result.score)}/{points(result.max_score)}</b>"
            f" · {passed} of {len(result.steps)} steps passed</p>")


def _status(status: str) -> str:
    symbol, _, words = look(status)
    return _coloured(f"{symbol} {words}", status)


def _coloured(words: str, status: str) -> str:
    colour = _COLOURS.get(look(status)[1], "#1f2328")
    return f'<span style="color: {colour}; font-weight: 600">{escape(words)}</span>'


def _signed(value: float) -> str:
    return escape(f"{value:+.3g}")


def _text(text: str) -> str:
    """Anything that came from grading, made printable and escaped."""
    return escape(clean(text))
