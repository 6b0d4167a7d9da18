"""The terminal views: one submission step by step (what students read), several as a table.

Every string that came from grading is printed as `rich.text.Text` after `clean`, never as markup:
a message quoting `[red]` or an escape sequence from student output is shown, not obeyed.
"""
from __future__ import annotations

from rich import box
from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from grader.graded_files import GradedFiles
from grader.reports.heatmap import maps_view
from grader.reports.shared import LOOK, STANDIN_NOTE, clean, failing_alike, look, points, printed_text
from grader.results import StepResult, SubmissionResult, TestResult
from grader.steps import STEP_IDS

WITHHELD = "hidden test: details withheld"
_NOTE_INDENT, _MESSAGE_INDENT = 4, 6


def render(result: SubmissionResult, console: Console, *,
           show_hidden_messages: bool = True, show_output: bool = False,
           graded: GradedFiles | None = None) -> None:
    """Print one submission: each step and the file it read, each test, the messages of failures,
    then the total.

    Args:
        result: The graded submission.
        console: Where to print; plain text (no escape codes) when it is not a terminal.
        show_hidden_messages: False for student-facing output: hidden tests then show only their
            name and whether they passed, neither message nor maps (nor what they printed); neither
            what the code printed outside any test nor the sandbox's layers are shown.
        show_output: Show what the student's code printed under passing tests too; it is always
            shown under tests that fail or err, as pytest does.
        graded: The files graded and where the student stands: each step then names its file, and
            the footer says when the student stands in another copy of the kit.
    """
    plain = console.no_color or console.color_system is None
    for step in result.steps:
        console.print(_step_header(step))
        if graded is not None:
            console.print(_indented(Text(f"file: {graded.shown(step.id)}", style="dim"), _NOTE_INDENT))
        for note in step.notes + (step.output_notes if show_hidden_messages else []):
            console.print(_indented(Text(clean(note), style="dim"), _NOTE_INDENT))
        said_once = ""
        if alike := failing_alike(step.tests, show_hidden_messages):  # e.g. a file that does not import
            said_once = alike[0].message
            console.print(_indented(Text(f"The {len(alike)} tests below all say the same:"),
                                    _NOTE_INDENT))
            console.print(_indented(Text(clean(said_once)), _MESSAGE_INDENT))
        for test in step.tests:
            withheld = test.visibility == "hidden" and not show_hidden_messages
            _render_test(test, console, plain, withheld=withheld, show_output=show_output,
                         said=said_once)
        console.print()
    console.print(_total_line(result))
    for line in footer(result, graded, sandbox=show_hidden_messages):
        console.print(line)


def render_summary(results: list[SubmissionResult], console: Console) -> None:
    """Print several submissions as one table: a row per submission, a column per graded step.

    In a terminal the table fits its width: names first, then the total, then as many step columns
    as fit (the caption names those left out). Anywhere else (a CI log, a file) nothing is cut:
    the table is as wide as it needs.

    Args:
        results: The graded submissions, in the order to show them.
        console: Where to print.
    """
    graded = {step.id for result in results for step in result.steps}
    step_ids = [step_id for step_id in STEP_IDS if step_id in graded]
    if not console.is_terminal:
        table = _summary_table(results, step_ids, [])
        width = Measurement.get(console, console.options.update_width(_UNBOUNDED), table).maximum
        Console(file=console.file, width=max(width, console.width), highlight=False).print(table)
        return
    for shown in range(len(step_ids), -1, -1):
        table = _summary_table(results, step_ids[:shown], step_ids[shown:])
        if Measurement.get(console, console.options.update_width(_UNBOUNDED), table).maximum <= console.width:
            break
    console.print(table)


_UNBOUNDED = 10_000  # columns: wider than any class table


def _summary_table(results: list[SubmissionResult], step_ids: list[str], left_out: list[str]) -> Table:
    """The class table: each submission's name, then the steps' scores, then the total."""
    caption = _summary_caption(results)
    if left_out:
        caption.append(f"\nNot shown, too narrow a terminal: {', '.join(left_out)} (--csv has every step).")
    table = Table(box=box.SIMPLE_HEAD, caption=caption, caption_justify="left")
    table.add_column("submission", no_wrap=True)
    for step_id in step_ids:
        table.add_column(step_id.replace("_", "\n", 1), justify="right", no_wrap=True)
    table.add_column("total", justify="right", no_wrap=True)
    for result in results:
        steps = {step.id: step for step in result.steps}
        cells = [_summary_cell(steps.get(step_id)) for step_id in step_ids]
        total = Text(f"{points(result.score)}/{points(result.max_score)}", style="bold")
        name = Text(clean(result.submission))
        if result.not_graded:
            name.append(f"  {clean(result.not_graded)}", style="dim")
        table.add_row(name, *cells, total)
    return table


def _render_test(test: TestResult, console: Console, plain: bool, *, withheld: bool,
                 show_output: bool, said: str = "") -> None:
    """One test line, then, unless withheld, its message (unless `said` once above it already),
    maps and printing below it."""
    console.print(_test_line(test, withheld))
    if withheld:
        return
    if test.message and test.message != said:
        console.print(_indented(Text(clean(test.message)), _MESSAGE_INDENT))
    if test.maps:
        console.print(_indented(maps_view(test.maps, plain=plain), _MESSAGE_INDENT))
    if test.output_bytes and (show_output or test.status != "passed"):
        console.print(_indented(Text(printed_text(test), style="dim"), _MESSAGE_INDENT))


def _test_line(test: TestResult, withheld: bool) -> Text:
    """`  ✗ attention_weights · sample photo`, plus the status in words where ✓/✗ cannot."""
    status = test.status
    if withheld:
        # Only pass or fail: even the kind of failure can hint at what the hidden input was.
        status = status if status in ("passed", "skipped") else "failed"
    symbol, style, words = look(status)
    line = Text.assemble("  ", (symbol, style), " ", clean(test.name))
    if withheld:
        line.append("" if status == "passed" else f"  {WITHHELD}", style="dim")
        return line
    if status not in ("passed", "failed"):
        line.append(f"  ({words})", style=style)
    if test.visibility == "hidden":
        line.append("  hidden", style="dim")
    return line


def _step_header(step: StepResult) -> Text:
    """`✗ 05_attention  Multi-head self-attention  12/20  failed  (pages 25-34)`."""
    symbol, style, words = look(step.status)
    return Text.assemble(
        (symbol, style), " ", (step.id, "bold"), "  ", clean(step.title), "  ",
        (f"{points(step.score)}/{points(step.max_score)}", "bold"), "  ", (words, style),
        (f"  (pages {step.pages})" if step.pages else "", "dim"))


def _total_line(result: SubmissionResult) -> Text:
    """`Total 62.5/100 · 5 of 8 steps passed`."""
    passed = sum(step.status == "passed" for step in result.steps)
    total = f"Total {points(result.score)}/{points(result.max_score)}"
    return Text.assemble((total, "bold"), f" · {passed} of {len(result.steps)} steps passed")


def footer(result: SubmissionResult, graded: GradedFiles | None = None, sandbox: bool = True) -> list[Text]:
    """What qualifies the whole result: another copy of the kit graded, modified fixtures, the
    sandbox it got (with `sandbox`: for instructors, and for `check` on the student's own machine,
    where its layers describe that machine), stand-in fixtures."""
    lines = []
    other_copy = graded.other_copy() if graded is not None else None
    if other_copy:
        lines.append(Text(clean(other_copy), style="bold yellow"))
    if result.tampering:
        files = ", ".join(clean(name) for name in result.tampering)
        lines.append(Text(f"Fixture files were modified during grading ({files}): "
                          "these results cannot be trusted.", style="bold red"))
    if sandbox:
        lines.append(Text(f"Sandbox: {clean(result.sandbox.summary())}.", style="dim"))
    if result.checkpoint.get("kind") == "stand-in":
        lines.append(Text(STANDIN_NOTE, style="dim"))
    return lines


def _summary_cell(step: StepResult | None) -> Text:
    """`✓ 10` in the status colour, or a dash for a step this submission was not graded on."""
    if step is None:
        return Text("–", style="dim")
    symbol, style, _ = look(step.status)
    return Text(f"{symbol} {points(step.score)}", style=style)


def _summary_caption(results: list[SubmissionResult]) -> Text:
    """The symbols of the table, and the stand-in note when any fixtures came from it."""
    key = "  ".join(f"{symbol} {words}" for status, (symbol, _, words) in LOOK.items()
                    if status not in ("blocked", "skipped"))  # the table shows step statuses
    standin = any(result.checkpoint.get("kind") == "stand-in" for result in results)
    return Text(key + ("\n" + STANDIN_NOTE if standin else ""), style="dim")


def _indented(renderable: RenderableType, left: int) -> Padding:
    """`renderable` indented by `left` columns, wrapped lines included."""
    return Padding(renderable, (0, 0, 0, left), expand=False)
