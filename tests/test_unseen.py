"""Mistakes the kit has never seen (tests/mutants/unseen.py): each costs points and most are named
by the structure of their error; correct styles keep full marks; "blocked by" appears only where
the student's own earlier step really ran; what the student's code printed shows under its test.

Budget: the session's zygote (no Grader of its own), each mutant graded only on the cases of the function it breaks
(visible ones, hidden only where just a hidden case shows the mistake).
"""
from __future__ import annotations

import json
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from grader.cli.app import app
from grader.paths import SOLUTIONS, step_file
from grader.reports import render, to_json
from grader.results import StepResult
from grader.steps import STEP_IDS, get_step
from mutants.catalogue import MUTANTS
from measure_diagnosis import sort_feedback
from mutants.unseen import CLAIMS as UNSEEN_CLAIMS
from mutants.unseen import STYLES, UNSEEN, edited_function

NAMED_SHARE = 0.8  # the "at least 80 % get a message that names the nature of the mistake"
BY_ID = {m.id: m for m in UNSEEN}


@pytest.fixture(scope="module")
def grader(grader_with):
    return grader_with(hidden=False, references=True)


def write_submission(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for step_id, source in files.items():
        step_file(folder, step_id).write_text(source)
    return folder


@pytest.fixture(scope="module")
def unseen_results(grader, tmp_path_factory) -> dict[str, StepResult]:
    """Every unseen mutant graded once, on the cases of the function its edit changes."""
    root = tmp_path_factory.mktemp("unseen")
    results = {}
    for mutant in UNSEEN:
        folder = write_submission(root / mutant.name, {mutant.step: mutant.source()})
        options = replace(grader.options, functions=(mutant.function,), hidden=mutant.hidden)
        results[mutant.id] = grader.grade_step(get_step(mutant.step), folder, {}, options)
    return results


def failures(result: StepResult) -> str:
    return "\n".join(f"  {t.name} [{t.status}]: {t.message}" for t in result.tests if t.status != "passed")


# ------------------------------------------------------------------ the catalogue itself

def test_every_step_has_unseen_mistakes_that_the_catalogue_does_not_hold():
    assert {m.step for m in UNSEEN} == set(STEP_IDS)
    assert len(BY_ID) == len(UNSEEN), "two unseen mutants share an id"
    known_edits = {(m.step, m.old, m.new) for m in MUTANTS}
    for mutant in UNSEEN + STYLES:
        source = step_file(SOLUTIONS, mutant.step).read_text()
        assert source.count(mutant.old) == 1, f"{mutant.id}: its edit must match the solution exactly once"
        assert (mutant.step, mutant.old, mutant.new) not in known_edits, f"{mutant.id} is in catalogue.py"
    assert all(m.function in get_step(m.step).functions for m in UNSEEN)


# ------------------------------------------------------------------ wrong: costs points, gets named

@pytest.mark.slow
@pytest.mark.parametrize("mutant", UNSEEN, ids=[m.id for m in UNSEEN])
def test_unseen_mistake_loses_points_without_a_catalogue_match(mutant, unseen_results):
    result = unseen_results[mutant.id]
    assert result.status == "failed" and result.score < result.max_score, f"{mutant.id}:\n{failures(result)}"
    assert not any("Known mistake" in t.message for t in result.tests), \
        f"{mutant.id} matches a catalogue entry, so it does not test the structural findings"


@pytest.mark.slow
@pytest.mark.parametrize("mutant", [m for m in UNSEEN if m.finding], ids=[m.id for m in UNSEEN if m.finding])
def test_unseen_mistake_is_named_by_its_structure(mutant, unseen_results):
    result = unseen_results[mutant.id]
    messages = " ".join(" ".join(t.message.split()) for t in result.tests if t.status != "passed")
    assert mutant.finding in messages, f"{mutant.id}: no failing test says {mutant.finding!r}:\n{failures(result)}"


def test_at_least_four_in_five_unseen_mistakes_are_named():
    named = [m for m in UNSEEN if m.finding]
    assert len(named) >= NAMED_SHARE * len(UNSEEN), f"{len(named)} of {len(UNSEEN)} named"


@pytest.mark.slow
def test_no_message_claims_a_structure_the_mistake_does_not_have(unseen_results):
    """Each failing test's finding claims only kinds of structure the mistake really has (CLAIMS,
    written with the mistakes): no structural error is called an approximation, no constant a pattern."""
    for mutant in UNSEEN:
        verdict = sort_feedback(mutant.id, unseen_results[mutant.id], UNSEEN_CLAIMS[mutant.id])
        assert verdict.outcome != "misnamed", f"{mutant.id} claims {verdict.claims}:\n{verdict.messages}"


# ------------------------------------------------------------------ right in another style: full marks

@pytest.mark.slow
@pytest.mark.parametrize("style", STYLES, ids=[m.id for m in STYLES])
def test_correct_style_keeps_full_marks(style, grader, tmp_path):
    """Graded on the cases of the function the style rewrites."""
    folder = write_submission(tmp_path / style.name, {style.step: style.source()})
    options = replace(grader.options, functions=(edited_function(style),))
    result = grader.grade_step(get_step(style.step), folder, {}, options)
    assert result.tests and all(t.status == "passed" for t in result.tests), f"{style.id}:\n{failures(result)}"
    assert result.score == result.max_score


# ------------------------------------------------------------------ blocked only when blocked

@pytest.mark.slow
def test_no_blocked_by_for_a_step_graded_with_references(grader, tmp_path):
    """A wrong embed beside a failing 02_project: embed ran on the references, so it fails on its own."""
    folder = write_submission(tmp_path / "refs", {"02_project": BY_ID["02_project/bias_twice"].source(),
                                                  "04_cls": BY_ID["04_cls/cls_rolled"].source()})
    project, cls = grader.grade(folder, steps=("02_project", "04_cls")).steps
    assert project.status == "failed"
    embed = [t for t in cls.tests if t.name.startswith("embed")]
    assert embed and all(t.status == "failed" and "blocked" not in t.message for t in embed), failures(cls)


def own_steps(grader, folder: Path) -> StepResult:
    """Step 06 as in the student release: no references, so steps 01-05 are the student's own."""
    return grader.grade_step(get_step("06_block"), folder, {}, replace(grader.options, references=False))


@pytest.mark.slow
def test_blocked_by_only_when_the_own_earlier_step_fails_and_the_step_itself_does_not(grader, tmp_path):
    wrong_attention = BY_ID["05_attention/scale_by_d"].source()
    folder = write_submission(tmp_path / "blocked", {"05_attention": wrong_attention,
                                                     "06_block": step_file(SOLUTIONS, "06_block").read_text()})
    block_step = own_steps(grader, folder)
    blocks = [t for t in block_step.tests if t.name.startswith("block")]
    assert blocks and all(t.status == "blocked" and t.message.startswith("blocked by 05_attention")
                          for t in blocks), failures(block_step)

    folder = write_submission(tmp_path / "own", {"05_attention": wrong_attention,
                                                 "06_block": BY_ID["06_block/sigmoid_gelu"].source()})
    block_step = own_steps(grader, folder)
    blocks = [t for t in block_step.tests if t.name.startswith("block")]
    assert blocks and all(t.status == "failed" and "blocked" not in t.message
                          and "block uses your mlp, which fails too" in t.message for t in blocks), \
        failures(block_step)


# ------------------------------------------------------------------ what the student printed

PRINTING = (step_file(SOLUTIONS, "02_project").read_text()
            .replace('    D = conv_weight.shape[0]\n', '    D = conv_weight.shape[0]\n    print("kernel", D)\n')
            .replace('    return patches @ W_E + b_E  # (B, N, D)\n',
                     '    print("shapes", tuple(patches.shape), tuple(W_E.shape))\n'
                     '    return patches @ W_E  # (B, N, D)\n'))


@pytest.fixture(scope="module")
def printing_folder(tmp_path_factory) -> Path:
    return write_submission(tmp_path_factory.mktemp("printing"), {"02_project": PRINTING})


def plain(result, **options) -> str:
    """The terminal report, each line's trailing padding removed."""
    console = Console(file=StringIO(), force_terminal=False, width=100)
    render(result, console, **options)
    return "\n".join(line.rstrip() for line in console.file.getvalue().splitlines())


@pytest.mark.slow
def test_a_print_shows_under_its_test_and_stays_out_of_json(grader, printing_folder):
    result = grader.grade(printing_folder, steps=("02_project",))
    kernel, small_kernel, project, two_images = result.steps[0].tests
    assert (kernel.status, kernel.output, kernel.output_bytes) == ("passed", "kernel 192\n", 11)
    assert (small_kernel.status, small_kernel.output) == ("passed", "kernel 5\n")
    assert project.status == "failed" and project.output == "shapes (1, 196, 768) (768, 192)\n"
    text = plain(result)
    assert "your code printed (32 bytes):\n      shapes (1, 196, 768) (768, 192)" in text
    assert "kernel 192" not in text
    assert "your code printed (11 bytes):\n      kernel 192" in plain(result, show_output=True)
    assert two_images.status == "failed" and two_images.output == "shapes (2, 4, 12) (12, 5)\n"
    assert "shapes" not in to_json([result]) and "kernel 192" not in to_json([result])
    assert result.steps[0].notes == []


def test_a_call_s_printing_is_kept_bounded_counted_and_the_streams_restored():
    import sys

    from grader.worker.serving import CALL_PRINTING_KEPT_CHARACTERS as KEPT, captured_output

    streams = (sys.stdout, sys.stderr)
    with captured_output() as printed:
        print("é" * KEPT)  # 2 bytes a character in UTF-8
        print("careful", file=sys.stderr)
        assert sys.stdout.encoding == "utf-8" and not sys.stdout.isatty()
    assert (sys.stdout, sys.stderr) == streams
    assert printed.reply() == {"head": "é" * KEPT, "bytes": 2 * KEPT + len("\ncareful\n")}


CRASHING = (step_file(SOLUTIONS, "03_position").read_text()
            .replace("from torch import Tensor\n", "from torch import Tensor\n\nprint('loading my file')\n")
            .replace('    return tokens + pos_table  # (N, D) broadcasts over the batch: (B, N, D)\n',
                     '    print("about to crash", flush=True)\n    import os\n    os._exit(3)\n'))


@pytest.mark.slow
def test_prints_at_import_are_a_note_and_before_a_crash_stay_under_the_test(grader, tmp_path):
    folder = write_submission(tmp_path / "crashing", {"03_position": CRASHING})
    (step,) = grader.grade(folder, steps=("03_position",)).steps
    assert step.notes == []  # no test owns what the import printed: shown where every test is shown
    assert step.output_notes == ["your file printed 16 bytes while it was imported; the first lines:\nloading my file"]
    for crashed in step.tests:  # each call crashes its worker, with its own print under its own test
        assert crashed.status == "error" and "exit status 3" in crashed.message
        assert (crashed.output, crashed.output_bytes) == ("about to crash\n", 15)


@pytest.mark.slow
@pytest.mark.usefixtures("cli_on_the_shared_runner")
def test_check_shows_the_print_of_a_failing_function(printing_folder):
    run = CliRunner().invoke(app, ["check", "02_project", "--submission", str(printing_folder)])
    assert run.exit_code == 1, run.output
    shown = run.output.split("project · sample photo", 1)[1]
    assert "your code printed" in shown and "shapes (1, 196, 768) (768, 192)" in shown
    assert "kernel 192" not in run.output
    run = CliRunner().invoke(app, ["check", "02_project", "--submission", str(printing_folder), "--format", "json"])
    # conv_to_linear's two visible cases (weight 2 each) pass; project's two (weight 2 each) fail
    assert "printed" not in run.output and json.loads(run.output)["score"] == pytest.approx(10 * 4 / 8, abs=0.01)


@pytest.mark.slow
def test_a_caller_of_a_failing_function_of_its_step_is_sent_there_and_names_no_mistake_of_its_own(grader, tmp_path):
    """cover returning its input unchanged: quadrant_probabilities and occlusion_map, which call it, get
    numbers an edit of their own would also give (a class read one off, a quadrant of side 0). Named,
    that edit would send the student to a mistake these functions lack; the test sends them to cover."""
    source = step_file(SOLUTIONS, "08_occlusion").read_text()
    assert source.count("    return covered\n") == 1
    folder = write_submission(tmp_path, {"08_occlusion": source.replace("    return covered\n", "    return images\n")})
    (step,) = grader.grade(folder, steps=("08_occlusion",)).steps
    failed = {t.name.split(" · ")[0]: t for t in step.tests if t.status == "failed"}
    assert failed["cover"].finding.id == "diagnosis.cover_nothing", failed["cover"].message
    for caller in ("quadrant_probabilities", "occlusion_map"):
        test = failed[caller]
        assert "uses your cover, which fails too: fix that function first" in test.message, test.message
        assert test.finding.id == "follows.cover", test.message  # counted under cover's mistake
        assert "Your numbers are" not in test.message and "Every value" not in test.message, test.message
