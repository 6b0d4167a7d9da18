"""Gradescope's autograder `results.json` (gradescope-autograders.readthedocs.io, "specs").

Gradescope has no `not attempted` or `blocked`: a test is shown as passed or failed, and the
test's output says which of our statuses it was. A hidden test becomes `after_published`, so
students see it once grades are published rather than never. Gradescope hides the total of a
submission with such tests until grades are published, but the `output` text is shown at once: by
default it therefore counts the visible tests' points only, and says how many hidden tests were
graded, so a student cannot learn what the hidden tests found by resubmitting.
"""
from __future__ import annotations

import json
from typing import Any

from grader.reports.heatmap import maps_text
from grader.reports.shared import STANDIN_NOTE, clean, graded_tests, look, points, printed_text
from grader.results import StepResult, SubmissionResult, TestResult
from grader.steps import get_step

#: Our test visibility -> Gradescope's; an unknown one stays hidden from students until published.
VISIBILITY = {"visible": "visible", "hidden": "after_published"}
# Skipped tests (lecture facts on the stand-in) are not the student's doing: not shown as failed.
_SHOWN_PASSED = ("passed", "skipped")


def to_gradescope(result: SubmissionResult, show_hidden: bool = False) -> str:
    """The `results.json` Gradescope reads from `/autograder/results/`.

    Args:
        result: One graded submission.
        show_hidden: Show hidden tests to students at once, and the full score in the output text;
            by default they see hidden tests once grades are published, and the output text counts
            visible tests only. `score` is the full score either way.

    Returns:
        JSON text (indent 2, trailing newline).
    """
    tests = [_test(step, number, test, show_hidden) for step in result.steps
             for number, test in enumerate(graded_tests(step), start=1)]
    document: dict[str, Any] = {
        "score": result.score,
        "output": _overview(result) if show_hidden else _visible_overview(result),
        # Plain text keeps the line breaks and the columns of the 14x14 maps; Gradescope's default
        # (simple_format) is HTML-like and collapses runs of spaces.
        "output_format": "text",
        "test_output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "execution_time": round(sum(step.seconds for step in result.steps)),
        "tests": tests,
    }
    return json.dumps(document, indent=2) + "\n"


def _test(step: StepResult, number: int, test: TestResult, show_hidden: bool) -> dict[str, Any]:
    """One Gradescope test: `05_attention · attention_weights · sample photo`, numbered `5.2`."""
    return {
        "name": clean(f"{step.id} · {test.name}"),
        "name_format": "text",
        "number": f"{get_step(step.id).number}.{number}",
        "score": test.score,
        "max_score": test.max_score,
        "status": "passed" if test.status in _SHOWN_PASSED else "failed",
        "output": _test_output(test),
        "visibility": "visible" if show_hidden else VISIBILITY.get(test.visibility, "after_published"),
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


def _visible_overview(result: SubmissionResult) -> str:
    """The overview with the visible tests' points only, each step judged by its visible tests:
    a step's total or status would otherwise tell what its hidden tests found."""
    visible = [test for step in result.steps for test in graded_tests(step) if test.visibility == "visible"]
    hidden = sum(test.visibility != "visible" for step in result.steps for test in graded_tests(step))
    lines = [f"vitgrade: {points(sum(t.score for t in visible))} / {points(sum(t.max_score for t in visible))} "
             "points from the visible tests."]
    if hidden:
        lines.append(f"{hidden} hidden test(s) were graded too: their results, and the total score, "
                     "appear when grades are published.")
    lines += _context(result)
    for step in result.steps:
        shown = [test for test in graded_tests(step) if test.visibility == "visible"]
        symbol, _, words = look(_visible_status(shown))
        lines.append(f"{symbol} {step.id} {step.title}: {points(sum(t.score for t in shown))}/"
                     f"{points(sum(t.max_score for t in shown))} {words} (visible tests)")
        lines += [f"    {note}" for note in step.notes]
    return clean("\n".join(lines))


def _visible_status(shown: list[TestResult]) -> str:
    """A step's status as its visible tests alone show it (the worst of theirs, in this order)."""
    statuses = {test.status for test in shown}
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
