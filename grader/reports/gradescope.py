"""Gradescope's autograder `results.json` (gradescope-autograders.readthedocs.io, "specs").

Gradescope has no `not attempted` or `blocked`: a test is shown as passed or failed, and the
test's output says which of our statuses it was. A hidden test becomes `after_published`, so
students see it once grades are published rather than never.
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


def to_gradescope(result: SubmissionResult) -> str:
    """The `results.json` Gradescope reads from `/autograder/results/`.

    Args:
        result: One graded submission.

    Returns:
        JSON text (indent 2, trailing newline).
    """
    tests = [_test(step, number, test) for step in result.steps
             for number, test in enumerate(graded_tests(step), start=1)]
    document: dict[str, Any] = {
        "score": result.score,
        "output": _overview(result),
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


def _test(step: StepResult, number: int, test: TestResult) -> dict[str, Any]:
    """One Gradescope test: `05_attention · attention_weights · sample photo`, numbered `5.2`."""
    return {
        "name": clean(f"{step.id} · {test.name}"),
        "name_format": "text",
        "number": f"{get_step(step.id).number}.{number}",
        "score": test.score,
        "max_score": test.max_score,
        "status": "passed" if test.status in _SHOWN_PASSED else "failed",
        "output": _test_output(test),
        "visibility": VISIBILITY.get(test.visibility, "after_published"),
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
    checkpoint = result.checkpoint
    lines = [f"vitgrade: {points(result.score)} / {points(result.max_score)} points.",
             f"Checkpoint: {checkpoint.get('id', '?')} ({checkpoint.get('kind', '?')}).",
             f"Sandbox: {result.sandbox.summary()}."]
    if checkpoint.get("kind") == "stand-in":
        lines.append(STANDIN_NOTE)
    if result.tampering:
        lines.append(f"Fixture files were modified during grading: {', '.join(result.tampering)}.")
    lines.append("")
    for step in result.steps:
        symbol, _, words = look(step.status)
        lines.append(f"{symbol} {step.id} {step.title}: "
                     f"{points(step.score)}/{points(step.max_score)} {words}")
        lines += [f"    {note}" for note in step.notes]
    return clean("\n".join(lines))
