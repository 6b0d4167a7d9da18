"""The grader end to end: full marks for the solutions, zero for the stubs, deterministic reports,
exact feedback, blocked-by messages, exit statuses."""
from __future__ import annotations

import csv
import io
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import paths
from grader.cli.app import app
from grader.reports import to_gradescope, to_json, to_junit
from grader.steps import STEP_IDS, STEPS

runner = CliRunner()


def _submission(tmp_path: Path, files: dict[str, str | Path]) -> Path:
    """A submission folder: step id -> source text or a file to copy."""
    folder = tmp_path / "submission"
    folder.mkdir(exist_ok=True)
    for step_id, source in files.items():
        target = folder / f"{step_id}.py"
        if isinstance(source, Path):
            shutil.copyfile(source, target)
        else:
            target.write_text(source)
    return folder


def test_solutions_score_full_marks_hidden_tests_included(solutions_result):
    assert [s.id for s in solutions_result.steps] == list(STEP_IDS)
    for step in solutions_result.steps:
        assert step.status == "passed", (step.id, [t.message for t in step.tests if t.status != "passed"])
        assert step.score == step.max_score
    assert {t.visibility for s in solutions_result.steps for t in s.tests} == {"visible", "hidden"}
    assert solutions_result.score == sum(s.points for s in STEPS)


@pytest.mark.slow
def test_grade_json_is_identical_across_runs(solutions_result, tmp_path):
    output = tmp_path / "result.json"
    result = runner.invoke(app, ["grade", "--solutions", "--format", "json", "--output", str(output)])
    assert result.exit_code == 0, result.output
    assert output.read_text() == to_json([solutions_result])
    contract = json.loads(output.read_text())
    # the fixtures' manifest hash rides with every graded result (docs/results.md)
    assert set(contract) == {"score", "max_score", "submission", "checkpoint", "steps", "sandbox", "fixtures"}
    assert len(contract["fixtures"]) == 64 and int(contract["fixtures"], 16) >= 0
    assert set(contract["sandbox"]) == {"level", "layers", "missing"}
    assert set(contract["checkpoint"]) == {"id", "kind", "sha256"}
    assert set(contract["steps"][0]) == {"id", "title", "score", "max_score", "status", "tests"}
    assert set(contract["steps"][0]["tests"][0]) == {"name", "visibility", "status", "score", "max_score", "message"}


def test_junit_and_gradescope_files_are_well_formed(solutions_result):
    root = ET.fromstring(to_junit([solutions_result]))
    cases = root.findall(".//testcase")
    assert len(cases) == sum(len(s.tests) for s in solutions_result.steps)
    assert not root.findall(".//failure") and not root.findall(".//error")
    gradescope = json.loads(to_gradescope(solutions_result))
    assert gradescope["score"] == pytest.approx(solutions_result.score)
    assert all(t["status"] == "passed" and t["visibility"] in ("visible", "after_published")
               for t in gradescope["tests"])


@pytest.mark.usefixtures("cli_on_the_shared_runner")
def test_unedited_stubs_score_zero_not_attempted():
    result = runner.invoke(app, ["check", "--all", "--format", "json"])
    assert result.exit_code == 1
    contract = json.loads(result.stdout)
    assert contract["score"] == 0
    assert [s["status"] for s in contract["steps"]] == ["not_attempted"] * len(STEP_IDS)


@pytest.mark.usefixtures("cli_on_the_shared_runner")
@pytest.mark.slow
def test_check_solutions_gives_full_marks_and_exit_0():
    result = runner.invoke(app, ["check", "--all", "--solutions"])
    assert result.exit_code == 0, result.output
    assert "100/100" in result.output.replace(".0", "")


@pytest.mark.slow
@pytest.mark.usefixtures("cli_on_the_shared_runner")
def test_validate():
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 0, result.output
    assert "✓" in result.output


@pytest.mark.parametrize("arguments, expected", [
    (["check", "09_heads"], "unknown step '09_heads'"),
    (["check", "attenton"], "Did you mean 05_attention?"),
    (["check", "--submission", "/no/such/folder"], "no such folder"),
    (["grade"], "name a SUBMISSION folder"),
])
def test_usage_errors_exit_2_with_one_line(arguments, expected):
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert expected in result.output
    assert "Traceback" not in result.output


def test_help_paragraphs_wrap_to_the_terminal_not_to_the_source():
    """A docstring line longer than the terminal used to break in two, leaving a ragged line."""
    from grader.cli.app import flowing_help

    docstring = "One.\n\n    Two words\n    and more.\n\n    - a\n    - b\n"
    assert flowing_help(docstring) == "One.\n\nTwo words and more.\n\n- a\n- b"
    result = runner.invoke(app, ["grade", "--help"], env={"COLUMNS": "60"}, terminal_width=60)
    described = result.output.split("Usage:", 1)[1].split("╭", 1)[0].splitlines()[1:]  # below the usage
    paragraphs: list[list[str]] = [[]]
    for line in map(str.strip, described):
        if line:
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    assert len([lines for lines in paragraphs if lines]) == 2, described
    for lines in paragraphs:
        assert all(len(line) >= 40 for line in lines[:-1]), lines  # each line full but a paragraph's last


@pytest.mark.slow
def test_a_wrong_answer_names_index_error_tolerance_and_known_mistake(grader, tmp_path):
    wrong = (paths.SOLUTIONS / "01_flatten.py").read_text().replace(
        "permute(0, 2, 4, 1, 3, 5)", "permute(0, 2, 4, 3, 5, 1)")
    assert wrong != (paths.SOLUTIONS / "01_flatten.py").read_text(), "the solution's reshape changed"
    step = grader.grade(_submission(tmp_path, {"01_flatten": wrong}), steps=("01_flatten",)).steps[0]
    failed = next(t for t in step.tests if t.name == "patchify · sample photo")
    assert failed.status == "failed"
    assert "first wrong at image 1, patch P1 (row 1, col 1)" in failed.message
    assert "largest error" in failed.message and "tolerance" in failed.message
    assert "Known mistake" in failed.message and "page 9" in failed.message


@pytest.mark.slow
def test_one_mistake_costs_once_with_references(grader, tmp_path):
    """A broken 01_flatten loses points in 01 only: 04's embed runs on the reference 01."""
    folder = _submission(tmp_path, {"01_flatten": "def normalize(p):\n    return p\n",
                                    "04_cls": paths.SOLUTIONS / "04_cls.py"})
    result = grader.grade(folder, steps=("01_flatten", "04_cls"))
    assert result.steps[0].status != "passed"
    assert result.steps[1].status == "passed"


@pytest.mark.slow
def test_without_references_a_failing_earlier_step_blocks(grader_with, tmp_path):
    broken = (paths.SOLUTIONS / "01_flatten.py").read_text().replace(
        "permute(0, 2, 4, 1, 3, 5)", "permute(0, 2, 4, 3, 5, 1)")
    folder = _submission(tmp_path, {"01_flatten": broken, "02_project": paths.SOLUTIONS / "02_project.py",
                                    "03_position": paths.SOLUTIONS / "03_position.py",
                                    "04_cls": paths.SOLUTIONS / "04_cls.py"})
    student = grader_with(references=False, hidden=False)
    step = student.grade(folder, steps=("04_cls",)).steps[0]
    embed = next(t for t in step.tests if t.name.startswith("embed"))
    assert embed.status == "blocked"
    assert embed.message.startswith("blocked by 01_flatten")
    assert next(t for t in step.tests if t.name.startswith("prepend_cls")).status == "passed"


@pytest.mark.slow
def test_a_stub_earlier_step_is_reported_as_blocked(grader_with, tmp_path):
    folder = _submission(tmp_path, {"04_cls": paths.SOLUTIONS / "04_cls.py"})
    student = grader_with(references=False, hidden=False)
    step = student.grade(folder, steps=("04_cls",)).steps[0]
    embed = next(t for t in step.tests if t.name.startswith("embed"))
    assert embed.status == "blocked" and "01_flatten" in embed.message


@pytest.mark.slow
def test_several_submissions_give_a_csv_gradebook(tmp_path, cli_on_the_shared_runner):
    course = tmp_path / "course"
    shutil.copytree(paths.SOLUTIONS, course / "alice")
    (course / "bob").mkdir()
    shutil.copyfile(paths.EXERCISES / "01_flatten.py", course / "bob" / "01_flatten.py")
    gradebook = tmp_path / "gradebook.csv"
    result = runner.invoke(app, ["grade", str(course), "--no-hidden", "--jobs", "2", "--csv", str(gradebook),
                                 "--format", "json"])
    assert result.exit_code == 1  # bob has not attempted anything
    rows = {Path(r["submission"]).name: r for r in csv.DictReader(io.StringIO(gradebook.read_text()))}
    assert float(rows["alice"]["score"]) == 100 and float(rows["bob"]["score"]) == 0
    assert len(json.loads(result.stdout)) == 2


@pytest.mark.slow
def test_no_message_shows_grader_internals(solutions_result, tmp_path, grader):
    crashing = "def normalize(p):\n    return 1 / 0\n"
    step = grader.grade(_submission(tmp_path, {"01_flatten": crashing}), steps=("01_flatten",)).steps[0]
    message = next(t for t in step.tests if t.name == "normalize · sample photo").message
    assert "ZeroDivisionError" in message and "01_flatten.py" in message
    assert "grader/" not in message and "site-packages" not in message


@pytest.mark.parametrize("step_id, old, new", [
    ("05_attention", "softmax(dim=-1)", "softmax(dim=-2)"),
    ("08_occlusion", "return change.reshape(rows, cols)", "return change.reshape(rows, cols).T"),
])
@pytest.mark.slow
@pytest.mark.usefixtures("cli_on_the_shared_runner")
def test_failing_attention_and_occlusion_checks_draw_both_maps(tmp_path, step_id, old, new):
    source = (paths.SOLUTIONS / f"{step_id}.py").read_text()
    assert old in source, "the solution's text changed; pick another line to break"
    folder = _submission(tmp_path, {step_id: source.replace(old, new)})
    result = runner.invoke(app, ["check", step_id, "--submission", str(folder)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    heading = next(i for i, line in enumerate(lines) if "expected" in line and "actual" in line)
    rows = [line for line in lines[heading + 1: heading + 15] if line.strip().startswith("P")]
    assert len(rows) == 14, result.output
