"""JUnit XML, the format GitHub, GitLab and Jenkins display: a testsuite per (submission, step).

Hidden tests are reported in full: this report is for CI and instructors, not for students.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from grader.reports.shared import clean, first_line, graded_tests, look, points, printed_text
from grader.results import StepResult, SubmissionResult, TestResult

# Test status -> the child element JUnit marks it with; a passed test has none.
_OUTCOME = {"passed": None, "failed": "failure", "error": "error", "timeout": "error",
            "blocked": "skipped", "not_attempted": "skipped", "skipped": "skipped"}
_COUNTED = (("failures", "failure"), ("errors", "error"), ("skipped", "skipped"))


def to_junit(results: list[SubmissionResult]) -> str:
    """JUnit XML for one or several submissions.

    Args:
        results: The graded submissions.

    Returns:
        An XML document (UTF-8 declaration, trailing newline) with `<testsuites>` at the root.
    """
    root = ET.Element("testsuites", name="vitgrade")
    root.extend(_suite(result, step) for result in results for step in result.steps)
    _set_totals(root, sum(step.seconds for result in results for step in result.steps))
    ET.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def _suite(result: SubmissionResult, step: StepResult) -> ET.Element:
    """One step of one submission: score properties, its test cases, the step's notes."""
    suite = ET.Element("testsuite", name=clean(f"{result.submission} · {step.id} {step.title}"))
    properties = ET.SubElement(suite, "properties")
    for name, value in (("score", points(step.score)), ("max_score", points(step.max_score)),
                        ("status", step.status), ("checkpoint", result.checkpoint.get("kind", "")),
                        ("tampering", ", ".join(result.tampering)), ("sandbox", result.sandbox.summary())):
        if value:
            ET.SubElement(properties, "property", name=name, value=clean(value))
    suite.extend(_case(step, test) for test in graded_tests(step))
    if step.notes:
        ET.SubElement(suite, "system-out").text = clean("\n".join(step.notes))
    _set_totals(suite, step.seconds)
    return suite


def _case(step: StepResult, test: TestResult) -> ET.Element:
    """One test; failures and errors carry the first line as `message` and the whole as text."""
    case = ET.Element("testcase", classname=f"vitgrade.{step.id}", name=clean(test.name),
                      time=f"{test.seconds:.3f}")
    # An unknown status is a grader bug; reporting it as an error keeps it visible in CI.
    tag = _OUTCOME.get(test.status, "error")
    if tag is not None:
        message = clean(test.message)
        outcome = ET.SubElement(case, tag, message=first_line(message) or look(test.status)[2],
                                type=test.status)
        if tag != "skipped" and message:
            outcome.text = message
    if test.output_bytes:  # what the student's code printed, where CI viewers show a test's output
        ET.SubElement(case, "system-out").text = printed_text(test)
    return case


def _set_totals(element: ET.Element, seconds: float) -> None:
    """The `tests`, `failures`, `errors`, `skipped` and `time` attributes over the cases inside."""
    cases = list(element.iter("testcase"))
    element.set("tests", str(len(cases)))
    for attribute, tag in _COUNTED:
        element.set(attribute, str(sum(case.find(tag) is not None for case in cases)))
    element.set("time", f"{seconds:.3f}")
