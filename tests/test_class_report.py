"""The class report (`--report class.html`), parsed as HTML: distributions, common mistakes, students.

Built from hand-made results (no grading), then once through `vitgrade gradebook` from result
files, and once through `vitgrade grade --report` on one small real submission.
"""
from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader.cli.app import app
from grader.mistakes import CATALOGUE
from grader.reports.class_report import BINS, common_mistakes, score_bins, to_class_report
from grader.reports.contract import from_json, to_json
from grader.results import Finding, StepResult, SubmissionResult
from grader.results import TestResult as Result  # pytest would collect a `Test*` name
from mutants.catalogue import MUTANTS

runner = CliRunner()
CHECKPOINT = {"id": "standin-vit-tiny", "kind": "stand-in", "sha256": "ab" * 32}
# One known mistake under the two titles the feedback gives it (one per function it shows in).
NO_SCALE = {f: next(m for m in CATALOGUE[f] if m.id == "no_scale")
            for f in ("attention_weights", "multi_head_attention")}
SHORTER = min(NO_SCALE.values(), key=lambda m: len(m.title))


def known(function: str) -> str:
    mistake = NO_SCALE[function]
    return (f"{function}: wrong values.\nfirst wrong at query CLS, key P1: got 0.1, expected 0.3\n"
            f"Known mistake: {mistake.title} (lecture page {mistake.page})")


def known_finding(function: str) -> Finding:
    mistake = NO_SCALE[function]
    return Finding(f"known.{mistake.id}", mistake.title, mistake.title, mistake.page)


PATCHIFY_VALUES = Finding("wrong_values.patchify", "patchify: wrong values")


HOSTILE = 'your code printed: <script>alert("x")</script><img src="https://evil.example/x.png">'


def attention(score: float, status: str, message: str = "", test_status: str | None = None,
              maps: dict | None = None, finding: Finding | None = None) -> StepResult:
    test = Result("attention_weights · sample photo", "visible", test_status or status, score, 20, message,
                  maps=maps, finding=finding)
    return StepResult("05_attention", "Multi-head self-attention", "25-34", score, 20, status, [test])


def flatten(score: float, status: str, message: str = "", printed: str = "",
            finding: Finding | None = None) -> StepResult:
    test = Result("patchify · second photo", "hidden", status, score, 10, message,
                  output=printed, output_bytes=len(printed.encode()), finding=finding)
    return StepResult("01_flatten", "Normalize pixels and flatten 16x16 patches", "6-9, 48-49",
                      score, 10, status, [test])


def student(name: str, *steps: StepResult) -> SubmissionResult:
    return SubmissionResult(submission=name, checkpoint=CHECKPOINT, steps=list(steps))


# A 2x3 attention map and the student's, one value not a number (drawn, not dropped).
MAPS = {"title": "attention of query P1, head 1 over the patches", "scale": 0.5,
        "expected": [[0.1, 0.2, 0.3], [0.4, 0.5, 0.0]], "actual": [[0.5, 0.0, 0.0], [0.0, float("nan"), 0.0]]}
OWN_CHAIN = StepResult("07_head", "Final CLS, class head and the whole ViT", "38-40, 50-52, 54", 15, 15,
                       "passed", [Result("read_cls · sample photo", "visible", "passed", 15, 15),
                                  Result("your own chain · vit_forward · sample photo", "visible", "failed",
                                         0, 0, "your own chain does not reproduce the checkpoint yet")])
CLASS = [
    student("zoe", flatten(10, "passed"), attention(20, "passed"), OWN_CHAIN),
    student("bob", flatten(0, "failed", "patchify: wrong values.\nfirst wrong at P2: got 3.5, expected 1.25",
                           finding=PATCHIFY_VALUES),
            attention(0, "failed", known("multi_head_attention"), finding=known_finding("multi_head_attention"))),
    student("alice", flatten(0, "failed", "patchify: wrong values.\nfirst wrong at P9: got 0.5, expected 2",
                             finding=PATCHIFY_VALUES),
            attention(7.5, "failed", known("attention_weights"), maps=MAPS,
                      finding=known_finding("attention_weights"))),
    student("carl", flatten(0, "timeout", "stopped after 90 s", printed="step 1 of 196\nstep 2 of 196\n"),
            attention(0, "failed", "attention_weights: wrong values." + "\n" + HOSTILE)),
    student("dina", flatten(0, "not_attempted", "01_flatten.py is missing"),
            attention(0, "failed", "blocked: 01_flatten fails, fix it first", test_status="blocked")),
]


class Page(HTMLParser):
    """Tags, attributes, the text of each table row, and of each <details>."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.rows: list[tuple[str, str]] = []  # (class of the row, its text)
        self.details: list[str] = []
        self.titles: list[str] = []  # SVG <title>s
        self._row: list[str] | None = None
        self._details: list[str] | None = None
        self._title: list[str] | None = None
        self._row_class = ""
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self._row, self._row_class = [], dict(attrs).get("class", "")
        elif tag in ("td", "th") and self._row is not None:
            self._row.append(" ")  # cells apart
        elif tag == "details":
            self._details = []
        elif tag == "title" and self.tags[-2][0] == "rect":
            self._title = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self._row is not None:
            self.rows.append((self._row_class, " ".join("".join(self._row).split())))
            self._row = None
        elif tag == "details" and self._details is not None:
            self.details.append("".join(self._details))
            self._details = None
        elif tag == "title" and self._title is not None:
            self.titles.append("".join(self._title))
            self._title = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for part in (self._row, self._details, self._title):
            if part is not None:
                part.append(data)


@pytest.fixture(scope="module")
def page() -> Page:
    in_a_folder = [replace(r, submission=f"class/{r.submission}") for r in CLASS]  # shown without it
    return Page(to_class_report(in_a_folder, title="ViT exercises"))


def test_page_is_self_contained_and_escapes_student_text(page: Page) -> None:
    assert not [t for t, _ in page.tags if t in ("script", "link", "img", "iframe", "object", "embed")]
    for tag, attrs in page.tags:
        for name in ("src", "href", "action"):
            assert attrs.get(name, "#").startswith("#"), (tag, attrs)
    assert any(t == "style" for t, _ in page.tags)
    assert HOSTILE in "".join(page.text)  # shown as text, never as markup


def test_each_step_has_its_score_distribution(page: Page) -> None:
    # 05_attention: bob, carl and dina 0 points, alice 7.5 of 20 (25-49 %), zoe 20 of 20.
    assert score_bins(CLASS, "05_attention") == [0, 3, 0, 1, 0, 0, 1]
    # 01_flatten: dina did not attempt it (a bin of its own), bob, alice and carl earned 0
    assert score_bins(CLASS, "01_flatten") == [1, 3, 0, 0, 0, 0, 1]
    assert len(page.titles) == 3 * len(BINS)  # 01, 05 and 07 (only zoe's)
    assert page.titles[:len(BINS)] == [f"{n} student{'' if n == 1 else 's'}: {label}" for n, (label, _, _) in
                                       zip([1, 3, 0, 0, 0, 0, 1], BINS)]
    assert BINS[0][0] == "not attempted" and BINS[1][0] == "0"
    assert score_bins(CLASS, "07_head") == [0, 0, 0, 0, 0, 0, 1]
    text = " ".join(page.text)
    assert "1 passed · 2 failed · 1 timed out · 1 not attempted" in text  # 01_flatten's steps


def test_common_mistakes_are_named_by_their_findings_with_counts_students_and_page(page: Page) -> None:
    mistakes = common_mistakes(CLASS)
    first = mistakes[0]
    assert (first.step, first.name, first.page, first.known) == \
        ("05_attention", SHORTER.title, str(SHORTER.page), True)
    assert sorted(first.students) == ["alice", "bob"]
    unknown = next(m for m in mistakes if m.step == "01_flatten" and m.name.startswith("patchify"))
    assert unknown.name == "patchify: wrong values" and not unknown.known and unknown.page == "6-9, 48-49"
    assert sorted(unknown.students) == ["alice", "bob"]  # different numbers, one mistake
    assert any(m.name == "timed out" and m.students == ["carl"] for m in mistakes)
    assert not [m for m in mistakes if "dina" in m.students]  # not attempted and blocked: no mistake
    assert not [m for m in mistakes if "zoe" in m.students]  # a test worth no points is no mistake
    rows = [text for kind, text in page.rows if kind == "mistake"]
    assert rows[0] == f"2 05_attention {SHORTER.title} {SHORTER.page} alice, bob"
    # a symptom is tagged as naming no mistake; a known mistake and a time-out say what happened
    assert "patchify: wrong values no mistake named" in " ".join(rows)
    assert not [r for r in rows if "no mistake named" in r and ("timed out" in r or SHORTER.title in r)]


def test_students_table_sorted_with_each_feedback_a_click_away(page: Page) -> None:
    students = [text.split()[0] for kind, text in page.rows if kind == "student"]
    assert students == ["alice", "bob", "carl", "dina", "zoe"]
    assert next(t for k, t in page.rows if k == "student" and t.startswith("alice")).startswith("alice 7.5 / 30")
    assert len(page.details) == len(CLASS)
    alice, _, carl, dina, zoe = page.details
    assert f"Known mistake: {NO_SCALE['attention_weights'].title} (lecture page" in alice
    assert "hidden test" in alice and "patchify · second photo" in alice
    assert f"{MAPS['title']} (scale ±0.5" in alice and "expected" in alice and "student's" in alice
    cells = [a["fill"] for t, a in page.tags if t == "rect" and "width" in a and a["width"] == "8"]
    assert len(cells) == 2 * 6 and cells[6] == "#2166ac"  # the student's 0.5 at full blue
    assert "#f1c40f" in cells  # the NaN
    assert "stopped after 90 s" in carl and "timed out" in carl
    assert "your code printed (28 bytes):\nstep 1 of 196\nstep 2 of 196" in carl  # under its test
    assert "01_flatten not attempted" in dina and "blocked" in dina
    assert zoe == "Feedback: every step passed"
    assert "alice" in [text.split()[0] for kind, text in page.rows if kind == "student"]  # not class/alice


def test_gradebook_merges_result_files_into_csv_and_report(tmp_path: Path) -> None:
    for result in CLASS:
        (tmp_path / f"{result.submission}.json").write_text(to_json([result]))
    (tmp_path / "notes.txt").write_text("not a result")
    assert [r.to_contract() for r in from_json(to_json(CLASS))] == [r.to_contract() for r in CLASS]
    outcome = runner.invoke(app, ["gradebook", str(tmp_path), "--csv", str(tmp_path / "book.csv"),
                                  "--report", str(tmp_path / "class.html")])
    assert outcome.exit_code == 0, outcome.output
    assert len((tmp_path / "book.csv").read_text().splitlines()) == 1 + len(CLASS)
    merged = Page((tmp_path / "class.html").read_text())
    assert merged.details == Page(to_class_report(from_json(to_json(CLASS)))).details  # no maps in files
    tables = lambda page: [row for row in page.rows if row[0] != "feedback"]  # noqa: E731
    assert tables(merged) == tables(Page(to_class_report(CLASS)))
    (tmp_path / "broken.json").write_text('{"score": 1}')
    outcome = runner.invoke(app, ["gradebook", str(tmp_path), "--csv", str(tmp_path / "book.csv")])
    assert outcome.exit_code == 2 and "broken.json: not a vitgrade result" in outcome.output


@pytest.mark.slow
@pytest.mark.usefixtures("cli_on_the_shared_runner")
def test_grade_report_on_a_real_submission_names_its_known_mistake(tmp_path: Path) -> None:
    mutant = next(m for m in MUTANTS if m.id == "01_flatten/pixel_major")
    (tmp_path / "class" / "ada").mkdir(parents=True)
    (tmp_path / "class" / "ada" / "01_flatten.py").write_text(mutant.source())
    report = tmp_path / "class.html"
    outcome = runner.invoke(app, ["grade", str(tmp_path / "class"), "--no-hidden", "--report", str(report)])
    assert outcome.exit_code == 1, outcome.output
    rows = Page(report.read_text()).rows
    mistakes = [text for kind, text in rows if kind == "mistake" and "01_flatten" in text]
    assert mistakes and mistakes[0].startswith("1 01_flatten") and " 9 " in mistakes[0]


def test_an_unseen_mistake_is_grouped_by_the_finding_the_judge_made_never_by_its_words() -> None:
    """Two sentences that differ only in numbers are one mistake; one sentence under two ids is two."""
    body = ("patchify: wrong values.\nfirst wrong at patch P{p} [index {i}]: got 0.5, expected 2\n"
            "{n} of 150528 values wrong; tolerance |got - expected| <= 0.0001 + 0.0001·|expected|\n{sentence}")
    rows = Finding("diagnosis.some_rows", "only some rows are wrong", "", None)
    both = [student(name, flatten(0, "failed", body.format(p=p, i=p - 1, n=n, sentence=sentence),
                                  finding=replace(rows, sentence=sentence)))
            for name, p, n, sentence in (("ann", 1, 150000, "Only 3 of 196 rows are wrong: P1, P2, P3."),
                                         ("eve", 1, 149000, "Only 5 of 196 rows are wrong: P1, ..."))]
    bare = student("max", flatten(0, "failed", body.format(p=2, i=1, n=10, sentence="Only 3 of 196 rows are wrong: "
                                                            "P1, P2, P3."), finding=PATCHIFY_VALUES))
    names = {m.name: sorted(m.students) for m in common_mistakes(both + [bare])}
    assert names == {"only some rows are wrong": ["ann", "eve"], "patchify: wrong values": ["max"]}


def test_one_mistake_shown_by_several_functions_counts_its_student_once() -> None:
    """A cover that edits its input in place fails cover, quadrant_probabilities and occlusion_map:
    one finding, one row, one student."""
    modified = Finding("input_modified", "an input changed in place", "", None)
    tests = [Result(f"{function} · sample photo", "visible", "failed", 0, 2,
                    f"{function} modified its input `images` in place", finding=modified)
             for function in ("cover", "quadrant_probabilities", "occlusion_map")]
    step = StepResult("08_occlusion", "Occlusion", "41-44", 0, 6, "failed", tests)
    (mistake,) = common_mistakes([student("kim", step)])
    assert (mistake.id, mistake.name, mistake.students) == ("input_modified", "an input changed in place", ["kim"])


def test_a_function_failing_with_a_failing_one_it_uses_counts_under_that_one() -> None:
    """multi_head_attention, wrong only because attention_weights is, is no mistake of its own."""
    weights = Result("attention_weights · sample photo", "visible", "failed", 0, 2, "attention_weights: wrong values",
                     finding=known_finding("attention_weights"))
    attention = Result("multi_head_attention · sample photo", "visible", "failed", 0, 2,
                       "multi_head_attention uses your attention_weights, which fails too: fix that function first.",
                       finding=Finding.follows("multi_head_attention", ["attention_weights"]))
    step = StepResult("05_attention", "Attention", "25-34", 0, 4, "failed", [weights, attention])
    (mistake,) = common_mistakes([student("kim", step)])
    assert (mistake.id, mistake.students) == (weights.finding.id, ["kim"])


def test_a_worker_ended_by_one_function_and_its_callers_counts_once_under_the_first() -> None:
    """A `cover` that exits ends the worker again in quadrant_probabilities and occlusion_map, which
    call it: one line of code, one row, named after the first function that ended its worker."""
    tests = [Result(f"{function} · sample photo", "visible", "error", 0, 2,
                    f"{function}: the worker exited with status 3", finding=Finding.ended_worker(function))
             for function in ("cover", "quadrant_probabilities", "occlusion_map")]
    wrong = Result("occlusion_map · probe model", "hidden", "failed", 0, 2, "occlusion_map: wrong values",
                   finding=Finding("wrong_values.occlusion_map", "occlusion_map: wrong values"))
    step = StepResult("08_occlusion", "Occlusion", "41-44", 0, 8, "error", [*tests, wrong])
    mistakes = common_mistakes([student("kim", step), student("lea", step)])
    assert [(m.id, m.name, m.students) for m in mistakes] == [
        ("ended_worker.cover", "cover ended its worker (a crash or an exit)", ["kim", "lea"]),
        ("wrong_values.occlusion_map", "occlusion_map: wrong values", ["kim", "lea"])]


def test_findings_survive_the_json_contract_and_a_result_without_one_is_grouped_by_status() -> None:
    (back,) = from_json(to_json([CLASS[1]]))
    assert back.steps[1].tests[0].finding == known_finding("multi_head_attention")
    contract = CLASS[1].to_contract()["steps"][0]["tests"][0]
    assert contract["finding"] == {"id": "wrong_values.patchify", "title": "patchify: wrong values",
                                   "sentence": "", "page": None}
    carl = next(m for m in common_mistakes(CLASS) if m.students == ["carl"] and m.step == "05_attention")
    assert (carl.id, carl.known) == ("failed", False)


def test_a_folder_without_step_files_shows_why_it_scored_nothing() -> None:
    empty = replace(student("gus", flatten(0, "not_attempted")), not_graded="no step file: the folder is empty.")
    page = Page(to_class_report([empty, CLASS[0]], title="ViT exercises"))
    assert [text for kind, text in page.rows if kind == "feedback"][0] == \
        "Not graded: no step file: the folder is empty."
    assert len(page.details) == 1  # the other student's: nothing to open for a folder never graded


def test_a_step_file_that_does_not_import_shows_its_error_once_not_under_every_test() -> None:
    error = "syntax error in 05_attention.py, line 35: invalid syntax"
    tests = [Result(f"{name} · sample photo", "visible", "error", 0, 5, error)
             for name in ("qkv_heads", "attention_weights", "multi_head_attention", "head_outputs")]
    broken = StepResult("05_attention", "Multi-head self-attention", "25-34", 0, 20, "error", tests)
    feedback = Page(to_class_report([student("erin", broken)], title="ViT exercises")).details[0]
    assert feedback.count(error) == 1 and "all 4 tests" in feedback
    # tests that fail each in its own way are still listed one by one
    assert not re.search(r"all \d+ tests", Page(to_class_report(CLASS, title="ViT exercises")).details[2])
