"""Gradescope's autograder `results.json` (gradescope-autograders.readthedocs.io, "specs").

Gradescope has no `not attempted` or `blocked`: a test is shown as passed or failed, and the
test's output says which of our statuses it was. A hidden test gets the assignment's choice of
Gradescope's visibilities: `after_published` by default (students see it once grades are
published), `after_due_date`, `hidden` (never), or `visible` (at once). Gradescope hides the total
of a submission with such tests until then, but the `output` text is shown at once: unless
everything is `visible` it therefore counts the visible tests' points only, and says how many hidden
tests were graded, so a student cannot learn what the hidden tests found by resubmitting.
"""
from __future__ import annotations

import json
from typing import Any

from grader.reports.heatmap import maps_text
from grader.reports.shared import STANDIN_NOTE, clean, graded_tests, look, points, printed_text
from grader.results import StepResult, SubmissionResult, TestResult
from grader.steps import get_step

#: Gradescope's visibilities, the choice for hidden tests; the first the default.
VISIBILITIES = ("after_published", "after_due_date", "hidden", "visible")
#: When students see the hidden tests, in the words of the output text.
_WHEN_SHOWN = {"after_published": "appear when grades are published", "after_due_date": "appear after the due date",
               "hidden": "are not shown"}
# Skipped tests (lecture facts on the stand-in) are not the student's doing: not shown as failed.
_SHOWN_PASSED = ("passed", "skipped")


def to_gradescope(result: SubmissionResult, visibility: str = VISIBILITIES[0],
                  points_worth: float | None = None) -> str:
    """The `results.json` Gradescope reads from `/autograder/results/`.

    Args:
        result: One graded submission.
        visibility: When students see the hidden tests (one of VISIBILITIES); unless `visible`, the
            output text counts visible tests only. `score` is the full score either way.
        points_worth: The assignment's autograder points: `score` scaled from the kit's total to
            these; None keeps the kit's points.

    Returns:
        JSON text (indent 2, trailing newline).
    """
    shown_at_once = visibility == "visible"
    tests = [_test(step, number, test, visibility) for step in result.steps
             for number, test in enumerate(graded_tests(step), start=1)]
    overview = _overview(result) if shown_at_once else _visible_overview(result, visibility)
    document: dict[str, Any] = {
        "score": result.score if points_worth is None else scaled(result, points_worth),
        "output": "\n".join([*_submission_lines(result, points_worth), overview]),
        # Plain text keeps the line breaks and the columns of the 14x14 maps; Gradescope's default
        # (simple_format) is HTML-like and collapses runs of spaces.
        "output_format": "text",
        "test_output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "execution_time": round(sum(step.seconds for step in result.steps)),
        "tests": tests,
    }
    known = {"attempt": result.attempt, "lateness": result.lateness}
    if any(value is not None for value in known.values()):
        document["extra_data"] = {key: value for key, value in known.items() if value is not None}
    return json.dumps(document, indent=2) + "\n"


def scaled(result: SubmissionResult, points_worth: float) -> float:
    """The score as a share of the assignment's autograder points (two decimals)."""
    return round(result.score / result.max_score * points_worth, 2) if result.max_score else 0.0


def _submission_lines(result: SubmissionResult, points_worth: float | None) -> list[str]:
    """Which attempt this is, how late it came, and the points it is scaled to, where known."""
    lines = []
    if result.attempt is not None:
        lines.append(f"Attempt {result.attempt}.")
    if result.lateness:
        lines.append(f"Submitted {lateness_words(result.lateness)} after the due date.")
    if points_worth is not None:
        lines.append(f"The score counts toward the assignment's {points_worth:g} autograder points: "
                     f"{points(scaled(result, points_worth))} of {points_worth:g}.")
    return lines


def lateness_words(seconds: float) -> str:
    """`2 d 3 h 5 min`, to the minute (at least 1 min)."""
    minutes = max(1, round(seconds / 60))
    days, hours, minutes = minutes // 1440, minutes // 60 % 24, minutes % 60
    return " ".join(f"{value} {unit}" for value, unit in ((days, "d"), (hours, "h"), (minutes, "min")) if value)


def _test(step: StepResult, number: int, test: TestResult, visibility: str) -> dict[str, Any]:
    """One Gradescope test: `05_attention · attention_weights · sample photo`, numbered `5.2`."""
    return {
        "name": clean(f"{step.id} · {test.name}"),
        "name_format": "text",
        "number": f"{get_step(step.id).number}.{number}",
        "score": test.score,
        "max_score": test.max_score,
        "status": "passed" if test.status in _SHOWN_PASSED else "failed",
        "output": _test_output(test),
        "visibility": "visible" if test.visibility == "visible" else visibility,
    }


def _test_output(test: TestResult) -> str:
    """The message, led by our status where Gradescope's passed/failed cannot say it, then what the
    student's code printed during the test."""
    parts = [] if test.status in ("passed", "failed") else [look(test.status)[2].capitalize() + "."]
    parts += [clean(test.message)] if test.message else []
    parts += [maps_text(test.maps)] if test.maps else []
    parts += [printed_text(test)] if test.output_bytes else []
    return "\n".join(parts)


def _overview(result: SubmissionResult) -> str:
    """The text above the tests: total, checkpoint, one line per step with its notes."""
    lines = [f"vitgrade: {points(result.score)} / {points(result.max_score)} points.", *_context(result)]
    for step in result.steps:
        symbol, _, words = look(step.status)
        lines.append(f"{symbol} {step.id} {step.title}: "
                     f"{points(step.score)}/{points(step.max_score)} {words}")
        lines += [f"    {note}" for note in step.notes]
    return clean("\n".join(lines))


def _visible_overview(result: SubmissionResult, visibility: str) -> str:
    """The overview with the visible tests' points only, each step judged by its visible tests:
    a step's total or status would otherwise tell what its hidden tests found."""
    visible = [test for step in result.steps for test in graded_tests(step) if test.visibility == "visible"]
    hidden = sum(test.visibility != "visible" for step in result.steps for test in graded_tests(step))
    lines = [f"vitgrade: {points(sum(t.score for t in visible))} / {points(sum(t.max_score for t in visible))} "
             "points from the visible tests."]
    if hidden:
        lines.append(f"{hidden} hidden test(s) were graded too: their results, and the total score, "
                     f"{_WHEN_SHOWN[visibility]}.")
    lines += _context(result)
    for step in result.steps:
        shown = [test for test in graded_tests(step) if test.visibility == "visible"]
        symbol, _, words = look(_visible_status(shown))
        lines.append(f"{symbol} {step.id} {step.title}: {points(sum(t.score for t in shown))}/"
                     f"{points(sum(t.max_score for t in shown))} {words} (visible tests)")
        lines += [f"    {note}" for note in step.notes]
    return clean("\n".join(lines))


def _visible_status(shown: list[TestResult]) -> str:
    """A step's status as its visible tests alone show it (the worst of theirs, in this order). Tests worth
    no points (the student's own chain, a lecture fact) are reported but decide nothing, as in the step's
    own status: a step that lost no points is not shown failed."""
    statuses = {test.status for test in shown if test.max_score > 0} or {test.status for test in shown}
    for status in ("timeout", "error", "failed", "blocked"):
        if status in statuses:
            return "failed" if status == "blocked" else status
    if statuses and statuses <= {"not_attempted"}:
        return "not_attempted"
    return "passed" if statuses <= set(_SHOWN_PASSED) else "failed"


def _context(result: SubmissionResult) -> list[str]:
    """Checkpoint and what qualifies the whole result, then a blank line before the steps. The
    sandbox is not named: its layers, and what it lacks, are for instructors (`instructors_log`)."""
    checkpoint = result.checkpoint
    lines = [f"Checkpoint: {checkpoint.get('id', '?')} ({checkpoint.get('kind', '?')})."]
    if checkpoint.get("kind") == "stand-in":
        lines.append(STANDIN_NOTE)
    if result.tampering:
        lines.append(f"Fixture files were modified during grading: {', '.join(result.tampering)}.")
    lines.append("")
    return lines


def instructors_log(result: SubmissionResult) -> str:
    """What only instructors read (run_autograder's stdout): the sandbox the workers got, and what
    the student's code wrote outside any test, step by step."""
    lines = [f"vitgrade: sandbox {result.sandbox.summary()}"]
    for step in result.steps:
        lines += [f"vitgrade: {step.id}: {note}" for note in step.output_notes]
    return clean("\n".join(lines))
