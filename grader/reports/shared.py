"""What every report format shares: safe text, points as people write them, status symbols."""
from __future__ import annotations

import re

from grader.results import StepResult, TestResult

# Escape sequences first, so that no stray `[31m` is left behind once the ESC byte is gone.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]")
# XML 1.0's character range without the C1 controls: safe in XML, JSON and on a terminal alike.
_UNPRINTABLE = re.compile("[^\t\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

STANDIN_NOTE = ("The fixtures come from the seeded stand-in checkpoint, not the lecture's "
                "checkpoint: numbers differ from the slides, and the lecture-fact tests check "
                "the stand-in's own values.")
"""Said wherever a score is shown, so nobody compares stand-in numbers with the slides."""

LOOK: dict[str, tuple[str, str, str]] = {
    "passed": ("✓", "green", "passed"),
    "failed": ("✗", "red", "failed"),
    "error": ("!", "bold red", "error"),
    "timeout": ("⧗", "bold red", "timed out"),
    "blocked": ("⊘", "yellow", "blocked"),
    "not_attempted": ("·", "dim", "not attempted"),
    "skipped": ("–", "dim", "skipped"),
}
"""Step and test status -> (symbol, rich style, words), one table so all views agree."""


def look(status: str) -> tuple[str, str, str]:
    """The symbol, style and words of a status; an unknown one is shown as itself, not hidden."""
    return LOOK.get(status, ("?", "bold red", status))


def clean(text: str) -> str:
    """Text from student code made safe for XML and terminals.

    Removes escape sequences and control characters (keeping tab and newline) and turns carriage
    returns into newlines, so a message can neither break the XML nor overwrite a terminal line.

    Args:
        text: Anything, e.g. a failure message quoting the student's output.

    Returns:
        The printable part of `text`.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _UNPRINTABLE.sub("", _ANSI.sub("", text))


def first_line(text: str) -> str:
    """The first non-blank line of `text`, stripped; empty if there is none."""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


PRINTED_LINES = 20  # lines of a test's printing shown under it; the byte count says how much more


def printed_text(test: TestResult) -> str:
    """What the student's code printed during a test, bounded, under a heading that says how much.

    Args:
        test: One test; its `output` holds the start of the printing, `output_bytes` its size.

    Returns:
        `your code printed (N bytes):` and the first lines, made safe; empty when nothing was printed.
    """
    if not test.output_bytes:
        return ""
    lines = clean(test.output).rstrip("\n").split("\n")
    shown = lines[:PRINTED_LINES]
    whole = len(lines) <= PRINTED_LINES and len(test.output.encode("utf-8")) >= test.output_bytes
    more = "" if whole else f", of which the first {len(shown)} line{'s' if len(shown) > 1 else ''}"
    return f"your code printed ({test.output_bytes:,} bytes{more}):\n" + "\n".join(shown)


def points(value: float) -> str:
    """Points as a gradebook writes them: `10`, `12.5`, `3.33`."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def graded_tests(step: StepResult) -> list[TestResult]:
    """The tests of a step, or one test standing for the whole step when it has none.

    A step that crashed or timed out before any test ran still has to show up as a failure in
    CI and on Gradescope, with its points; the stand-in test carries the step's notes as message.

    Args:
        step: One graded step.

    Returns:
        `step.tests`, or a one-element list built from the step itself.
    """
    if step.tests:
        return step.tests
    return [TestResult(name=step.title, visibility="visible", status=step.status, score=step.score,
                       max_score=step.max_score, message="\n".join(step.notes),
                       seconds=step.seconds)]


def failing_alike(tests: list[TestResult], show_hidden_messages: bool = True) -> list[TestResult]:
    """The failing tests among `tests` (the hidden ones only if their messages are shown) when there
    are several and all fail with one message (a step file that does not import fails every test
    with its one error), to be said once above them rather than under each; empty when they fail
    each in their own way, or when any has maps or printing of its own to show beside its message."""
    failing = [t for t in tests if t.status not in ("passed", "skipped")
               and (show_hidden_messages or t.visibility != "hidden")]
    if (len(failing) < 2 or not failing[0].message or any(t.maps or t.output_bytes for t in failing)
            or len({(t.status, t.message) for t in failing}) > 1):
        return []
    return failing
