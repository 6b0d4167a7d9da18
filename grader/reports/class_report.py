"""The class report: one self-contained HTML page for the instructor (`vitgrade grade CLASS --report`).

Three parts: each step's score distribution; the class's most common mistakes, named as the
feedback names them, with how many students made each, who, and the lecture page (what to
re-teach); and a table of students with each one's feedback a click away (`<details>`).

Everything is inline (CSS, SVG charts) and nothing is loaded from the network or run as a script,
so the page opens anywhere, offline, and can be mailed as one file. All text from results passes
through `html.escape`: messages quote student output, and submission names are folder names.
"""
from __future__ import annotations

import math
import os
import statistics
from dataclasses import dataclass, field, replace
from html import escape
from pathlib import PurePosixPath

from grader.reports.shared import (STANDIN_NOTE, clean, failing_alike, first_line, graded_tests, look, points,
                                   printed_text)
from grader.results import StepResult, SubmissionResult, TestResult
from grader.steps import STEPS, Step

#: Test statuses that are a mistake of the student's (blocked and not attempted are not).
MISTAKE_STATUSES = ("failed", "error", "timeout")
#: Score-distribution bins: (label, lowest fraction of the step's points, highest). A step not
#: attempted (no file, or its stub) has the first bin: no student lost points there, so it is not
#: among the zeros earned by code that ran.
BINS = (("not attempted", None, None), ("0", 0.0, 0.0), ("1–24 %", 1e-9, 0.25), ("25–49 %", 0.25, 0.5),
        ("50–74 %", 0.5, 0.75), ("75–99 %", 0.75, 1.0), ("100 %", 1.0, 1.0))
_NOT_ATTEMPTED_GREY = "#b0b7bf"
_BIN_COLOURS = (_NOT_ATTEMPTED_GREY, "#c0392b", "#e67e22", "#f1c40f", "#a3c644", "#58a05a", "#1e7b34")
#: How a step ended; an error (the code broke) and a time-out (it did not end) in hues set apart.
_STATUS_COLOURS = {"passed": "#1e7b34", "failed": "#c0392b", "error": "#8e2c6d", "timeout": "#1f5f99",
                   "not_attempted": _NOT_ATTEMPTED_GREY}


@dataclass
class CommonMistake:
    """One mistake, as the results' findings name it, and who made it."""

    step: str
    id: str
    """The finding's id (`known.pixel_major`, `diagnosis.scaled`, `wrong_values.patchify`), or the
    test's status where a result carries no finding (a timeout, a result file from an older kit)."""
    name: str
    """The finding's title: words without numbers, the same for every student."""
    page: str
    """The lecture page that explains it (the step's pages when the finding names none)."""
    known: bool
    """True when the output matched a catalogued mistake."""
    students: list[str] = field(default_factory=list)


def common_mistakes(results: list[SubmissionResult]) -> list[CommonMistake]:
    """Every mistake made in the class, most students first; at equal counts a known mistake
    (which names what to re-teach) before a bare symptom, then in step order.

    A student counts once per mistake (one finding id in one step), however many of their tests
    show it. Tests worth no points (the student's own chain in step 07) only repeat what earlier
    steps said, and are left out; so are a function's failures that follow from a failing function
    of its step that it uses (`follows.`), counted under that one. Nothing is read from the messages:
    only the results' fields.

    A step's calls that ended the worker count once, under the first function that did: the later
    ones are most often its callers (occlusion_map calls cover), and one exit is one line to fix.
    """
    found: dict[tuple[str, str], CommonMistake] = {}
    for result in results:
        for step in result.steps:
            ended_before = False
            for test in graded_tests(step):
                if test.status not in MISTAKE_STATUSES or test.max_score <= 0 or \
                        (test.finding is not None and test.finding.follows_another):
                    continue
                if test.finding is not None and test.finding.is_ended_worker:
                    if ended_before:
                        continue
                    ended_before = True
                mistake = _named(step, test)
                entry = found.setdefault((mistake.step, mistake.id), mistake)
                if len(mistake.name) < len(entry.name):  # one catalogue id, one title per function
                    entry.name = mistake.name
                if result.submission not in entry.students:
                    entry.students.append(result.submission)
    order = {s.id: i for i, s in enumerate(STEPS)}
    return sorted(found.values(), key=lambda m: (-len(m.students), not m.known, order.get(m.step, 99), m.name))


def _named(step: StepResult, test: TestResult) -> CommonMistake:
    """The mistake a failing test shows, from its finding; its status where it has none."""
    finding = test.finding
    if test.status == "timeout" or finding is None:
        name = "timed out" if test.status == "timeout" else look(test.status)[2]
        return CommonMistake(step.id, test.status, name, step.pages, False)
    page = str(finding.page) if finding.page is not None else step.pages
    return CommonMistake(step.id, finding.id, finding.title, page, finding.id.startswith("known."))


def score_bins(results: list[SubmissionResult], step_id: str) -> list[int]:
    """How many students fall in each of BINS for one step (students not graded on it left out)."""
    counts = [0] * len(BINS)
    for result in results:
        for step in result.steps:
            if step.id == step_id and step.max_score > 0:
                counts[_bin(step)] += 1
    return counts


def _bin(step: StepResult) -> int:
    if step.status == "not_attempted":
        return 0
    fraction = step.score / step.max_score
    if fraction <= 0:
        return 1
    if fraction >= 1:
        return len(BINS) - 1
    return next(i for i, (_, low, high) in enumerate(BINS[2:-1], start=2) if low <= fraction < high)


def to_class_report(results: list[SubmissionResult], title: str = "Vision Transformer exercises") -> str:
    """The whole page.

    Args:
        results: The graded class, one result per student (from grading or from result files).
        title: Shown at the top and in the browser tab.

    Returns:
        HTML text, UTF-8, with no external resource.
    """
    results = sorted(_short_names(results), key=lambda r: r.submission.lower())
    steps = [s for s in STEPS if any(step.id == s.id for r in results for step in r.steps)]
    body = "\n".join([_header(results, title), _distributions(results, steps),
                      _mistakes(common_mistakes(results)), _students(results, steps)])
    return _PAGE.format(title=escape(title), style=_STYLE, body=body)


def _short_names(results: list[SubmissionResult]) -> list[SubmissionResult]:
    """Submissions named without the folder they all share (`students/ada` -> `ada`)."""
    parents = [str(PurePosixPath(r.submission).parent) for r in results]
    shared = os.path.commonpath(parents) if parents and all(p != "." for p in parents) else ""
    if not shared or shared == "/":
        return list(results)
    return [replace(r, submission=str(PurePosixPath(r.submission).relative_to(shared))) for r in results]


def _header(results: list[SubmissionResult], title: str) -> str:
    totals = [r.score for r in results]
    top = results[0].max_score if results else 0
    students = f"{len(results)} student{'s' if len(results) != 1 else ''}"
    summary = (f"{students} · mean {points(statistics.fmean(totals))} / {points(top)} · "
               f"median {points(statistics.median(totals))} · full marks: "
               f"{sum(r.passed for r in results)}") if results else "no students"
    checkpoints = sorted({f"{r.checkpoint.get('id', '?')} ({r.checkpoint.get('kind', '?')})" for r in results})
    note = f'<p class="note">{escape(STANDIN_NOTE)}</p>' if any(
        r.checkpoint.get("kind") == "stand-in" for r in results) else ""
    return (f"<header><h1>{escape(title)}: class report</h1><p class=\"summary\">{summary}</p>"
            f"<p class=\"meta\">Checkpoint: {escape(', '.join(checkpoints))}</p>{note}"
            '<nav><a href="#steps">Score per step</a> · <a href="#mistakes">Common mistakes</a> · '
            '<a href="#students">Students</a></nav></header>')


def _distributions(results: list[SubmissionResult], steps: list[Step]) -> str:
    cards = []
    for step in steps:
        graded = [s for r in results for s in r.steps if s.id == step.id]
        mean = statistics.fmean(s.score for s in graded)
        statuses = {status: sum(s.status == status for s in graded) for status in _STATUS_COLOURS}
        cards.append(
            f'<div class="card"><h3>{escape(step.id)} <span>{escape(step.title)}</span></h3>'
            f'<p class="meta">mean {points(mean)} / {step.points} · pages {escape(step.pages)}</p>'
            f"{_histogram(score_bins(results, step.id), step.id)}{_status_bar(statuses)}</div>")
    return ('<section id="steps"><h2>Score per step</h2><p class="lead">How many students reached '
            'each share of the step\'s points, and how their steps ended.</p>'
            f'<div class="grid">{"".join(cards)}</div></section>')


def _histogram(counts: list[int], step_id: str) -> str:
    """An inline SVG bar chart, one bar per bin, its count above it."""
    width, height, bar, gap, left, base = 324, 136, 36, 8, 14, 100
    tallest = max(max(counts), 1)
    shapes = []
    for i, (count, (label, _, _)) in enumerate(zip(counts, BINS)):
        x = left + i * (bar + gap)
        h = round(80 * count / tallest)
        shapes.append(f'<rect x="{x}" y="{base - h}" width="{bar}" height="{max(h, 1)}" '
                      f'fill="{_BIN_COLOURS[i]}"><title>{count} student{"" if count == 1 else "s"}: '
                      f'{label}</title></rect>'
                      f'<text x="{x + bar / 2}" y="{base - h - 4}" class="count">{count}</text>'
                      + "".join(f'<text x="{x + bar / 2}" y="{base + 14 + 11 * line}" class="bin">'
                                f'{escape(words)}</text>' for line, words in enumerate(_label_lines(label))))
    return (f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="score distribution of '
            f'{escape(step_id)}">{"".join(shapes)}</svg>')


def _label_lines(label: str) -> list[str]:
    """A bin's label under its bar: words on lines of their own where the label is wider than the
    bar (`not attempted`); a percentage range stays whole."""
    return label.split() if label[0].isalpha() else [label]


def _status_bar(statuses: dict[str, int]) -> str:
    total = sum(statuses.values()) or 1
    parts = "".join(f'<span style="width:{100 * n / total:.1f}%;background:{_STATUS_COLOURS[s]}" '
                    f'title="{n} {look(s)[2]}"></span>' for s, n in statuses.items() if n)
    legend = " · ".join(f"{n} {look(s)[2]}" for s, n in statuses.items() if n)
    return f'<div class="bar">{parts}</div><p class="legend">{legend}</p>'


def _mistakes(mistakes: list[CommonMistake]) -> str:
    if not mistakes:
        return ('<section id="mistakes"><h2>Common mistakes</h2><p class="lead">None: every graded test '
                'passed.</p></section>')
    rows = "".join(
        f'<tr class="mistake"><td class="num">{len(m.students)}</td><td>{escape(m.step)}</td>'
        f'<td>{escape(m.name)}{_symptom_tag(m)}</td>'
        f'<td class="page">{escape(m.page)}</td><td class="who">{escape(", ".join(sorted(m.students)))}</td></tr>'
        for m in mistakes)
    return ('<section id="mistakes"><h2>Common mistakes</h2><p class="lead">What to re-teach: each '
            'mistake as the feedback names it, how many students made it (once each), who, and the '
            'lecture page that explains it.</p><table class="mistakes"><thead><tr><th>students</th>'
            '<th>step</th><th>mistake</th><th>page</th><th>who</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></section>")


#: Findings that say where the values are wrong but not what was done: a re-teach needs a look at the code.
_SYMPTOMS = ("wrong_values.", "wrong_count.")


def _symptom_tag(mistake: CommonMistake) -> str:
    """A tag beside a symptom that names no mistake; an error, a time-out or a named mistake says
    what happened itself."""
    return " <span class=tag>no mistake named</span>" if mistake.id.startswith(_SYMPTOMS) else ""


def _students(results: list[SubmissionResult], steps: list[Step]) -> str:
    head = "".join(f'<th title="{escape(s.title)}">{escape(s.id[:2])}</th>' for s in steps)
    rows = []
    for result in results:
        by_id = {s.id: s for s in result.steps}
        cells = "".join(_step_cell(by_id.get(s.id)) for s in steps)
        rows.append(f'<tr class="student"><th scope="row">{escape(result.submission)}</th>'
                    f'<td class="num total">{points(result.score)} / {points(result.max_score)}</td>{cells}</tr>'
                    f'<tr class="feedback"><td colspan="{len(steps) + 2}">{_feedback(result)}</td></tr>')
    legend = " ".join(f'<span class="key" style="background:{colour}"></span>{look(status)[2]}'
                      for status, colour in _STATUS_COLOURS.items())
    return ('<section id="students"><h2>Students</h2><p class="lead">Points per step, the colour '
            'saying how the step ended; open a student\'s feedback to read exactly what they were told.</p>'
            f'<p class="legend">{legend}</p>'
            f'<table class="students"><thead><tr><th>student</th><th>score</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></section>')


def _step_cell(step: StepResult | None) -> str:
    if step is None:
        return '<td class="step">–</td>'
    colour = _STATUS_COLOURS.get(step.status, "#555")
    return (f'<td class="step" style="border-left:4px solid {colour}" title="{escape(step.id)}: '
            f'{look(step.status)[2]}">{points(step.score)}</td>')


def _feedback(result: SubmissionResult) -> str:
    """The student's feedback, step by step: every test that did not pass, with its message.

    A step not attempted at all is one line, not one line per test.
    """
    if result.not_graded:  # a folder without step files: nothing was run, the reason says why
        return f'<p class="why">Not graded: {escape(clean(result.not_graded))}</p>'
    parts, summary = [], []
    for step in result.steps:
        if step.status == "passed":
            continue
        summary.append(f"{step.id} {look(step.status)[2]}")
        heading = (f'<h4>{escape(step.id)} · {points(step.score)} / {points(step.max_score)} '
                   f'{look(step.status)[2]}</h4>')
        tests = [t for t in graded_tests(step) if t.status not in ("passed", "skipped")]
        if step.status == "not_attempted":
            reason = first_line(tests[0].message) if tests and tests[0].message else ""
            parts.append(heading + (f"<p>{escape(clean(reason))}</p>" if reason else ""))
            continue
        notes = "".join(f'<li class="note">{escape(clean(n))}</li>' for n in step.notes)
        if failing_alike(tests):  # a file that does not import: its error once, not under every test
            t = tests[0]
            parts.append(f'{heading}<ul>{notes}<li><b>{look(t.status)[0]} all {len(tests)} tests</b> '
                         f"<i>{look(t.status)[2]}</i><pre>{escape(clean(t.message))}</pre></li></ul>")
            continue
        items = "".join(
            f'<li><b>{look(t.status)[0]} {escape(clean(t.name))}</b> <i>{look(t.status)[2]}'
            f'{", hidden test" if t.visibility == "hidden" else ""}</i>'
            f'{f"<pre>{escape(clean(t.message))}</pre>" if t.message else ""}'
            f'{_maps(t.maps) if t.maps else ""}'
            f'{f"<pre class=printed>{escape(printed_text(t))}</pre>" if t.output_bytes else ""}</li>'
            for t in tests)
        parts.append(f"{heading}<ul>{notes}{items}</ul>")
    if not parts:
        return "<details><summary>Feedback: every step passed</summary></details>"
    return (f"<details><summary>Feedback: {escape(', '.join(summary))}</summary>"
            f'<div class="tests">{"".join(parts)}</div></details>')


def _maps(maps: dict) -> str:
    """The expected and the student's 14x14 map side by side, as the terminal draws them, in SVG."""
    import numpy as np

    from grader.reports.heatmap import map_scale

    grids = [np.atleast_2d(np.asarray(maps[k], dtype=float)) for k in ("expected", "actual")]
    scale = map_scale(maps, *grids)
    pictures = "".join(f'<figure><figcaption>{name}</figcaption>{_grid_svg(grid, scale)}</figure>'
                       for name, grid in zip(("expected", "student's"), grids))
    span = f"{scale.bottom:.3g} to {scale.top:.3g}" if scale.probability else f"±{scale.top:.3g}"
    return (f'<div class="maps"><p>{escape(clean(str(maps.get("title", ""))))} '
            f'<span class="legend">(scale {span}: {scale.words}, yellow not a number)'
            f"</span></p>{pictures}</div>")


def _grid_svg(grid, scale, cell: int = 8) -> str:
    rows, columns = grid.shape
    cells = []
    for r in range(rows):
        for c in range(columns):
            value = float(grid[r, c])
            colour = "#f1c40f" if not math.isfinite(value) else "#{:02x}{:02x}{:02x}".format(*scale.rgb(value))
            cells.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="{colour}"/>')
    return (f'<svg width="{columns * cell}" height="{rows * cell}" viewBox="0 0 {columns * cell} {rows * cell}">'
            f'{"".join(cells)}</svg>')


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: class report</title>
<style>{style}</style>
</head>
<body>
{body}
</body>
</html>
"""

_STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2329;
       margin: 0 auto; padding: 24px 32px 64px; max-width: 1200px; background: #fbfbfc; }
h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 20px; margin: 36px 0 4px; }
h3 { font-size: 15px; margin: 0; min-height: 2.9em; } h3 span { font-weight: normal; color: #57606a; }
h4 { margin: 14px 0 4px; font-size: 14px; }
.summary { font-size: 17px; margin: 4px 0; } .meta, .legend, .lead { color: #57606a; margin: 2px 0 8px; }
.legend { font-size: 12px; } .note { background: #fff4d6; border-left: 4px solid #e0a800;
       padding: 6px 10px; margin: 8px 0; }
nav a { color: #0b5cad; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 14px; }
.card { background: #fff; border: 1px solid #d8dee4; border-radius: 8px; padding: 12px 14px; }
.card svg { width: 100%; height: auto; display: block; }
svg .count { font-size: 12px; text-anchor: middle; fill: #1d2329; }
svg .bin { font-size: 9px; text-anchor: middle; fill: #57606a; }
.bar { display: flex; height: 10px; border-radius: 5px; overflow: hidden; background: #eee; margin-top: 6px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #e4e8ec; vertical-align: top; }
thead th { background: #f0f3f6; font-size: 13px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.mistakes td.num { font-weight: bold; font-size: 16px; }
.mistakes th:nth-child(2) { width: 100px; } .mistakes th:nth-child(5) { width: 220px; }
.who { color: #3c4650; font-size: 13px; } .page { white-space: nowrap; }
.tag { font-size: 11px; color: #57606a; border: 1px solid #c8d0d8; border-radius: 4px; padding: 0 4px; }
.students td.step { text-align: right; font-variant-numeric: tabular-nums; width: 52px; }
.students td.total { width: 90px; }
.why { margin: 0; color: #57606a; }
.key { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 4px 0 10px; }
.students tr.student th, .students tr.student td { border-bottom: none; }
.students tr.feedback td { padding-top: 0; font-size: 13px; }
summary { cursor: pointer; color: #0b5cad; }
.tests ul { margin: 0; padding-left: 18px; } .tests li { margin: 4px 0; }
.tests li.note { color: #57606a; }
.maps p { margin: 4px 0 2px; } .maps figure { display: inline-block; margin: 0 16px 0 0; }
.maps figcaption { font-size: 12px; color: #57606a; } .maps svg { border: 1px solid #d8dee4; }
pre.printed { background: #fffdf2; border-color: #eee3b8; }
pre { white-space: pre-wrap; word-break: break-word; background: #f5f7f9; border: 1px solid #e4e8ec;
      padding: 6px 8px; margin: 4px 0; font-size: 12px; }
"""
