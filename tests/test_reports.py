"""The report writers, on hand-built results: every status, hidden tests, hostile text, maps."""
from __future__ import annotations

import csv
import json
import math
import xml.etree.ElementTree as ET
from io import StringIO

from rich.console import Console

from grader.reports import render, render_summary, to_csv, to_gradescope, to_json, to_junit
from grader.reports.html import to_html
from grader.results import SandboxReport, StepResult, SubmissionResult
from grader.results import TestResult as Result  # pytest would collect a `Test*` name
from grader.steps import STEP_IDS

HOSTILE = "token 3 off by <&>\"' here\x00 and \x1b[31mred\x1b[0m [bold]not markup[/bold]"
HOSTILE_SHOWN = "token 3 off by <&>\"' here and red [bold]not markup[/bold]"
SECRET = "hidden input: seed 1234, feature 17 expected 0.731"
MULTILINE = ("attention weights differ at head 2, query P74, key P60\n"
             "largest error 0.0412 > tolerance 1e-05\n"
             "Known mistake: softmax over queries instead of keys (page 30).")
STANDIN = {"id": "standin-vit-tiny", "kind": "stand-in", "sha256": "ab" * 32}
REAL = {"id": "vit_tiny_patch16_224.augreg_in21k_ft_in1k", "kind": "real", "sha256": "cd" * 32}


def attention_map(bump: float = 0.0) -> list[list[float]]:
    """A smooth 14x14 map with both signs; `bump` changes the cell of P78 only."""
    return [[0.05 * math.sin(r / 3) * math.cos(c / 4) + (bump if (r, c) == (5, 7) else 0.0)
             for c in range(14)] for r in range(14)]


MAPS = {"expected": attention_map(), "actual": attention_map(-0.08),
        "title": "head 2 · CLS → patches", "scale": 0.05}
NAN_MAPS = {"expected": attention_map(), "actual": attention_map(math.nan),
            "title": "occlusion map (seeded image)"}  # no scale: taken from the finite values


def mixed(name: str = "alice", checkpoint: dict[str, str] = STANDIN, seconds: float = 0.5,
          ) -> SubmissionResult:
    """A submission with every step and test status, hidden tests, hostile text and maps."""
    flatten = [Result("normalize · sample photo", "visible", "passed", 5, 5, seconds=seconds),
               Result("patchify · seeded batch", "hidden", "passed", 5, 5)]
    project = [Result("project · sample photo", "visible", "not_attempted", 0, 10,
                      "project raises NotImplementedError")]
    attention = [
        Result("qkv_heads · sample photo", "visible", "passed", 7.5, 7.5),
        Result("attention_weights · sample photo", "visible", "failed", 0, 7.5, MULTILINE,
               maps=MAPS),
        Result("multi_head_attention · seeded", "hidden", "failed", 0, 5, SECRET, maps=NAN_MAPS),
        Result("multi_head_attention · odd input", "visible", "failed", 0, 0, HOSTILE)]
    block = [Result("block · sample photo", "visible", "blocked", 0, 10,
                    "blocked: 05_attention fails, fix it first"),
             Result("layer_norm · seeded", "hidden", "error", 0, 5, "ValueError: shapes differ")]
    occlusion = [Result("occlusion_map · sample photo", "visible", "timeout", 0, 10,
                        "stopped after 60 s"),
                 Result("lecture fact · P78 −3.84 points", "visible", "skipped", 0, 0,
                        "needs the lecture's checkpoint")]
    return SubmissionResult(submission=name, checkpoint=checkpoint, steps=[
        StepResult("01_flatten", "Normalize pixels and flatten 16x16 patches", "6-9, 48-49",
                   10, 10, "passed", flatten, seconds=seconds),
        StepResult("02_project", "Project each patch to 192 features", "10-13",
                   0, 10, "not_attempted", project),
        StepResult("05_attention", "Multi-head self-attention", "25-34",
                   7.5, 20, "failed", attention, notes=["your code printed: hello"]),
        StepResult("06_block", "LayerNorm, MLP and the pre-LN block", "34-37",
                   0, 15, "failed", block),
        StepResult("07_head", "Final CLS, class head and the whole ViT", "38-40, 50-52, 54",
                   0, 15, "error", [], notes=["SyntaxError in exercises/07_head.py, line 3"]),
        StepResult("08_occlusion", "Occlusion: cover pixels, measure the change", "41-44",
                   0, 10, "timeout", occlusion),
    ])


def plain_render(result: SubmissionResult, **options: bool) -> str:
    console = Console(file=StringIO(), force_terminal=False, width=100)
    render(result, console, **options)
    return console.file.getvalue()


def words(text: str) -> str:
    """Whitespace collapsed, so checks do not depend on where rich wraps a line."""
    return " ".join(text.split())


# --- JSON: the result contract ---------------------------------------------------------------

def test_json_is_exactly_the_contract_and_deterministic() -> None:
    result = mixed()
    text = to_json([result])
    assert text.endswith("}\n")
    assert json.loads(text) == result.to_contract()
    assert list(json.loads(text)) == list(result.to_contract())  # contract key order kept
    assert to_json([mixed(seconds=9.0)]) == text  # timings never reach the contract


def test_json_of_several_submissions_is_a_list() -> None:
    results = [mixed("alice"), mixed("bob", REAL)]
    assert json.loads(to_json(results)) == [r.to_contract() for r in results]


# --- JUnit ------------------------------------------------------------------------------------

OUTCOME_COUNTS = (("failures", "failure"), ("errors", "error"), ("skipped", "skipped"))


def parse_junit(results: list[SubmissionResult]) -> ET.Element:
    text = to_junit(results)
    assert "\x00" not in text and "\x1b" not in text
    return ET.fromstring(text.encode())


def test_junit_has_a_suite_per_submission_and_step_with_consistent_counts() -> None:
    root = parse_junit([mixed("alice"), mixed("bob", REAL)])
    suites = root.findall("testsuite")
    assert root.tag == "testsuites" and len(suites) == 2 * 6
    assert suites[2].get("name") == "alice · 05_attention Multi-head self-attention"
    for suite in suites:
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        for attribute, tag in OUTCOME_COUNTS:
            assert int(suite.get(attribute)) == sum(c.find(tag) is not None for c in cases)
    for attribute in ("tests", "failures", "errors", "skipped"):
        assert int(root.get(attribute)) == sum(int(s.get(attribute)) for s in suites)
    alice = {s.get("name").split(" · ")[1].split()[0]: s for s in suites[:6]}
    counts = {step: tuple(int(s.get(a)) for a in ("tests", "failures", "errors", "skipped"))
              for step, s in alice.items()}
    assert counts == {"01_flatten": (2, 0, 0, 0), "02_project": (1, 0, 0, 1),
                      "05_attention": (4, 3, 0, 0), "06_block": (2, 0, 1, 1),
                      "07_head": (1, 0, 1, 0), "08_occlusion": (2, 0, 1, 1)}


def test_junit_cases_carry_class_time_messages_and_properties() -> None:
    suites = parse_junit([mixed()]).findall("testsuite")
    attention = suites[2]
    properties = {p.get("name"): p.get("value") for p in attention.iter("property")}
    assert properties["score"] == "7.5" and properties["max_score"] == "20"
    case = attention.findall("testcase")[1]
    assert case.get("classname") == "vitgrade.05_attention"
    assert case.get("name") == "attention_weights · sample photo"
    float(case.get("time"))
    failure = case.find("failure")
    assert failure.get("message") == MULTILINE.splitlines()[0]
    assert failure.text == MULTILINE
    hostile = attention.findall("testcase")[3].find("failure")
    assert hostile.get("message") == HOSTILE_SHOWN and hostile.text == HOSTILE_SHOWN
    assert attention.find("system-out").text == "your code printed: hello"


def test_junit_reports_a_step_without_tests_as_an_error() -> None:
    head = parse_junit([mixed()]).findall("testsuite")[4]
    (case,) = head.findall("testcase")
    assert case.find("error").get("message") == "SyntaxError in exercises/07_head.py, line 3"


# --- Gradescope -------------------------------------------------------------------------------

# The published results.json format: top-level and per-test keys with their types.
NUMBER = (int, float)
GS_VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
GS_FORMATS = {"text", "html", "simple_format", "md", "ansi"}
GS_TOP = {"score": NUMBER, "execution_time": NUMBER, "output": str, "output_format": str,
          "test_output_format": str, "test_name_format": str, "visibility": str,
          "stdout_visibility": str, "extra_data": dict, "tests": list, "leaderboard": list}
GS_TEST = {"score": NUMBER, "max_score": NUMBER, "status": str, "name": str, "name_format": str,
           "number": str, "output": str, "output_format": str, "tags": list, "visibility": str,
           "extra_data": dict}


def gradescope_problems(document: dict) -> list[str]:
    """Everything in `document` that the published Gradescope format does not allow."""
    problems = type_problems(document, GS_TOP, "top level")
    if "score" not in document and not all("score" in t for t in document.get("tests", [])):
        problems.append("score: needed at the top or on every test")
    allowed = {"visibility": GS_VISIBILITY, "stdout_visibility": GS_VISIBILITY}
    problems += value_problems(document, allowed, "top level")
    allowed = {"status": {"passed", "failed"}, "visibility": GS_VISIBILITY,
               "name_format": GS_FORMATS, "output_format": GS_FORMATS}
    for test in document.get("tests", []):
        problems += type_problems(test, GS_TEST, "test") + value_problems(test, allowed, "test")
    return problems


def type_problems(mapping: dict, types: dict, where: str) -> list[str]:
    """Keys outside `types`, and values of the wrong type (a bool is not a number)."""
    return [f"{where} {key!r}: {value!r}" for key, value in mapping.items()
            if key not in types or isinstance(value, bool) or not isinstance(value, types[key])]


def value_problems(mapping: dict, allowed: dict[str, set[str]], where: str) -> list[str]:
    """Values of enumerated keys that are not among the allowed ones."""
    return [f"{where} {key!r}: {mapping[key]!r}" for key, values in allowed.items()
            if key in mapping and mapping[key] not in values]


def test_gradescope_follows_the_published_format() -> None:
    document = json.loads(to_gradescope(mixed()))
    assert gradescope_problems(document) == []
    assert document["visibility"] == "visible" and document["stdout_visibility"] == "hidden"
    assert math.isclose(document["score"], 17.5)
    assert math.isclose(sum(t["score"] for t in document["tests"]), document["score"])
    assert all(t["status"] in ("passed", "failed") for t in document["tests"])


def test_gradescope_tests_map_statuses_and_visibility() -> None:
    tests = {t["name"]: t for t in json.loads(to_gradescope(mixed()))["tests"]}
    assert tests["01_flatten · patchify · seeded batch"]["visibility"] == "after_published"
    assert tests["01_flatten · normalize · sample photo"]["visibility"] == "visible"
    assert tests["05_attention · attention_weights · sample photo"]["number"] == "5.2"
    blocked = tests["06_block · block · sample photo"]
    assert blocked["status"] == "failed" and blocked["output"].startswith("Blocked.")
    assert tests["08_occlusion · lecture fact · P78 −3.84 points"]["status"] == "passed"
    assert tests["07_head · Final CLS, class head and the whole ViT"]["max_score"] == 15
    assert HOSTILE_SHOWN in tests["05_attention · multi_head_attention · odd input"]["output"]
    assert "expected" in tests["05_attention · attention_weights · sample photo"]["output"]


def test_gradescope_summary_of_a_step_that_lost_no_points_is_passed_whatever_its_free_tests_say() -> None:
    """07_head at full marks, its own chain (worth no points) failing: the summary says passed, as the
    step's own status does; the free test still shows as failed in the list."""
    chain = Result("your own chain · vit_forward · sample photo", "visible", "failed", 0, 0,
                   "your own chain does not reproduce the checkpoint yet")
    head = StepResult("07_head", "Final CLS, class head and the whole ViT", "38-40, 50-52, 54", 15, 15, "passed",
                      [Result("vit_forward · sample photo", "visible", "passed", 15, 15), chain])
    document = json.loads(to_gradescope(SubmissionResult(submission="carol", checkpoint=STANDIN, steps=[head])))
    assert "07_head Final CLS, class head and the whole ViT: 15/15 passed (visible tests)" in document["output"]
    statuses = {t["name"]: t["status"] for t in document["tests"]}
    assert statuses["07_head · your own chain · vit_forward · sample photo"] == "failed"


def test_gradescope_output_says_whether_fixtures_are_the_stand_in() -> None:
    assert "stand-in" in json.loads(to_gradescope(mixed()))["output"]
    real = json.loads(to_gradescope(mixed(checkpoint=REAL)))["output"]
    assert "(real)" in real and "stand-in" not in real


# --- CSV gradebook ----------------------------------------------------------------------------

def test_csv_has_one_row_per_submission_in_registry_column_order() -> None:
    only_two = mixed("bob", REAL)
    only_two.steps = only_two.steps[:2]
    text = to_csv([mixed("alice"), only_two, mixed("=cmd|calc")])
    reader = csv.DictReader(StringIO(text))
    rows = list(reader)
    assert reader.fieldnames == ["submission", "score", "max_score", *STEP_IDS,
                                 *(f"{s} status" for s in STEP_IDS), "note", "commit"]
    assert [r["submission"] for r in rows] == ["alice", "bob", "'=cmd|calc"]
    assert float(rows[0]["score"]) == 17.5 and float(rows[0]["max_score"]) == 80
    assert float(rows[0]["05_attention"]) == 7.5 and rows[0]["08_occlusion status"] == "timeout"
    assert rows[0]["03_position"] == "" and rows[1]["05_attention"] == ""
    assert float(rows[1]["score"]) == 10 and rows[1]["02_project status"] == "not_attempted"


# --- terminal ---------------------------------------------------------------------------------

def test_render_plain_shows_names_messages_and_the_stand_in_note() -> None:
    result = mixed()
    out = plain_render(result)
    assert "\x1b[" not in out and "\x00" not in out
    for step in result.steps:
        for test in step.tests:
            assert test.name in out
    for line in MULTILINE.splitlines() + [HOSTILE_SHOWN, SECRET, "your code printed: hello"]:
        assert words(line) in words(out)
    assert "✓ normalize · sample photo" in out and "✗ attention_weights · sample photo" in out
    assert "Total 17.5/80" in out
    assert "seeded stand-in checkpoint, not the lecture's checkpoint" in words(out)
    assert "stand-in" not in plain_render(mixed(checkpoint=REAL))


def test_render_plain_draws_maps_with_glyphs() -> None:
    out = plain_render(mixed())
    assert out.count("   actual") == 2 and "P183" in out  # both maps drawn
    assert "# # #" in out and "= = =" in out and "scale ±0.05" in out
    assert "occlusion map (seeded image)" in out and "? not a number" in words(out)


def test_render_for_students_withholds_hidden_details() -> None:
    out = plain_render(mixed(), show_hidden_messages=False)
    assert SECRET not in out and "ValueError" not in out and "occlusion map" not in out
    assert "✗ multi_head_attention · seeded  hidden test: details withheld" in out
    assert "✗ layer_norm · seeded  hidden test: details withheld" in out  # error shown as fail
    assert "✓ patchify · seeded batch" in out
    assert words(MULTILINE) in words(out)  # visible failures keep their message


def test_render_on_a_terminal_colours_the_map_cells() -> None:
    console = Console(file=StringIO(), force_terminal=True, color_system="truecolor", width=100)
    render(mixed(), console)
    out = console.file.getvalue()
    assert out.count("m  \x1b[0m") >= 2 * 14 * 14  # a coloured cell: style, two blanks, reset
    assert "\x1b[48;2;178;24;43m  " in out  # full red: the -0.13 cell of `actual`, and the legend
    assert "\x1b[48;2;33;102;172m  " in out  # full blue


def test_render_without_colour_on_a_terminal_still_draws_glyph_maps() -> None:
    console = Console(file=StringIO(), force_terminal=True, no_color=True, width=100)
    render(mixed(), console)
    out = console.file.getvalue()
    assert "48;" not in out and "# # #" in out


def test_render_summary_is_a_table_of_submissions_and_steps() -> None:
    console = Console(file=StringIO(), force_terminal=False, width=120)
    render_summary([mixed("alice"), mixed("bob", REAL)], console)
    out = console.file.getvalue()
    assert "\x1b[" not in out
    assert "alice" in out and "bob" in out and out.count("17.5/80") == 2
    assert "attention" in out and "03" not in out  # only steps that were graded get a column
    assert "✗ 7.5" in out and "stand-in" in out


def test_no_submissions_give_empty_but_valid_reports() -> None:
    assert json.loads(to_json([])) == []
    assert parse_junit([]).get("tests") == "0"
    assert len(list(csv.DictReader(StringIO(to_csv([]))))) == 0


# --- what the student's code printed ----------------------------------------------------------

def printing(visibility: str = "visible") -> SubmissionResult:
    """A failing test that printed 30 lines (more than is shown) and a passing one that printed one."""
    lines = "".join(f"shape {i} \x1b[31m(1, 197, 192)\x1b[0m\n" for i in range(30))
    tests = [Result("qkv_heads · sample photo", visibility, "passed", 10, 10, output="q (1, 3, 197, 64)\n",
                    output_bytes=18),
             Result("attention_weights · sample photo", visibility, "failed", 0, 10, "wrong values",
                    output=lines, output_bytes=6000)]
    step = StepResult("05_attention", "Multi-head self-attention", "25-34", 10, 20, "failed", tests)
    return SubmissionResult("alice", STANDIN, [step])


def test_printing_shows_under_failing_tests_bounded_and_under_passing_ones_on_request() -> None:
    default = words(plain_render(printing()))
    assert "attention_weights · sample photo wrong values your code printed (6,000 bytes, of which the " \
           "first 20 lines): shape 0 (1, 197, 192)" in default
    assert "shape 19 (1, 197, 192)" in default and "shape 20" not in default
    assert "q (1, 3, 197, 64)" not in default
    assert "your code printed (18 bytes): q (1, 3, 197, 64)" in words(plain_render(printing(), show_output=True))
    withheld = plain_render(printing("hidden"), show_hidden_messages=False, show_output=True)
    assert "printed" not in withheld and "shape" not in withheld


def test_printing_goes_to_junit_system_out_and_gradescope_output_never_to_json() -> None:
    cases = parse_junit([printing()]).find("testsuite").findall("testcase")
    assert [c.find("system-out").text.splitlines()[0] for c in cases] == [
        "your code printed (18 bytes):", "your code printed (6,000 bytes, of which the first 20 lines):"]
    assert cases[1].find("system-out").text.splitlines()[1] == "shape 0 (1, 197, 192)"
    tests = json.loads(to_gradescope(printing()))["tests"]
    assert tests[0]["output"] == "your code printed (18 bytes):\nq (1, 3, 197, 64)"
    assert tests[1]["output"].startswith("wrong values\nyour code printed (6,000 bytes")
    assert "printed" not in to_json([printing()]) and "shape" not in to_json([printing()])


IMPORT_OUTPUT = "at import: (2, 3, 5, 7)"


def with_output_outside_tests() -> SubmissionResult:
    """A graded submission whose step 05 printed at import, graded in a partial sandbox."""
    result = mixed()
    result.steps[2].output_notes = [f"your file printed 24 bytes while it was imported:\n{IMPORT_OUTPUT}"]
    result.sandbox = SandboxReport(level="partial", layers=["no_new_privs", "Landlock file access"],
                                   missing=["namespaces and read-only view (no CAP_SYS_ADMIN)"])
    return result


def test_output_no_test_owns_and_the_sandbox_layers_reach_instructors_only() -> None:
    from grader.reports.gradescope import instructors_log

    result = with_output_outside_tests()
    for shown in (words(plain_render(result)), to_html(result)):  # instructors; `check` on a student's machine
        assert IMPORT_OUTPUT in shown and "Landlock file access" in shown and "no CAP_SYS_ADMIN" in shown
    for withheld in (plain_render(result, show_hidden_messages=False), to_html(result, show_hidden_messages=False)):
        assert IMPORT_OUTPUT not in withheld and "Landlock" not in withheld and "Sandbox" not in withheld
    for visibility in ("after_published", "visible"):  # withheld, and everything shown at once
        document = json.loads(to_gradescope(result, visibility))
        visible = document["output"] + "".join(test["output"] for test in document["tests"])
        assert IMPORT_OUTPUT not in visible and "Landlock" not in visible and "andbox" not in visible
    log = instructors_log(result)
    assert log.splitlines()[0] == f"vitgrade: sandbox {result.sandbox.summary()}"
    assert f"vitgrade: 05_attention: {result.steps[2].output_notes[0]}" in log


def test_a_map_of_coarser_covers_is_not_read_as_lecture_patches_in_html() -> None:
    """A 7x7 occlusion map (32-pixel covers) has no patch P49: its legend says what a square is."""
    coarse = {"expected": [[0.0] * 7] * 7, "actual": [[0.1] * 7] * 7, "title": "occlusion map, 32-pixel covers"}
    result = mixed()
    result.steps[-1].tests[0].maps = coarse
    shown = to_html(result)
    assert "one square per 32 x 32-pixel cover" in shown and "P49" not in shown
    assert "one square per patch, P1 at the top left, P196 at the bottom right" in to_html(mixed())


def test_a_step_file_that_does_not_import_says_its_error_once_above_its_tests() -> None:
    error = "syntax error in 05_attention.py, line 35: invalid syntax"
    tests = [Result(f"{name} · block {block}", "visible", "error", 0, 5, error)
             for block in (1, 4) for name in ("qkv_heads", "attention_weights")]
    broken = SubmissionResult(submission="erin", checkpoint=STANDIN, steps=[
        StepResult("05_attention", "Multi-head self-attention", "25-34", 0, 20, "error", tests)])
    for shown in (plain_render(broken), to_html(broken)):
        assert shown.count(error) == 1 and "The 4 tests below all say the same" in shown
        assert all(t.name in shown for t in tests)
    assert "all say the same" not in plain_render(mixed()) + to_html(mixed())  # each its own message
