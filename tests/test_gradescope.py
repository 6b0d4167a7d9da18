"""`vitgrade autograder gradescope`: the bundle, run as Gradescope runs it, in a temporary layout.

One real grading (a partial submission inside a repository zip's folder); every bad upload is
answered before any worker starts, and a grader that crashes still leaves a results.json.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import paths
from grader.cli.app import app
from grader.platforms.gradescope import RUN_AUTOGRADER, budget, run_autograder
from grader.secret_files import secret_paths
from grader.steps import STEPS, get_step
from mutants.catalogue import MUTANTS
from test_reports import gradescope_problems
from together import Finished, early

runner = CliRunner()
NO_BIAS = next(m for m in MUTANTS if m.id == "02_project/no_bias")
BAD_UPLOAD_SECONDS = 10.0


def made_bundle(out: Path) -> Path:
    result = runner.invoke(app, ["autograder", "gradescope", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and "hidden fixture files" in result.output
    return out


def unpacked(bundle: Path, folder: Path) -> Path:
    """The bundle unpacked, as Gradescope unpacks it into /autograder/source."""
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(bundle) as archive:
        for info in archive.infolist():
            archive.extract(info, folder)
            os.chmod(folder / info.filename, info.external_attr >> 16 & 0o777)
    return folder


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    return made_bundle(tmp_path_factory.mktemp("bundle") / "autograder.zip")


@pytest.fixture(scope="module")
def source(bundle: Path, tmp_path_factory) -> Path:
    return unpacked(bundle, tmp_path_factory.mktemp("source"))


def layout(base: Path, source: Path) -> Path:
    """A Gradescope-like /autograder: source/, submission/, results/, and run_autograder copied up."""
    root = base / "autograder"
    (root / "submission").mkdir(parents=True)
    (root / "results").mkdir()
    (root / "source").symlink_to(source)
    shutil.copy2(source / "run_autograder", root / "run_autograder")
    return root


# Gradescope's containers run the autograder as root without CAP_SYS_ADMIN.
CONTAINER = ["setpriv", "--inh-caps=-sys_admin", "--bounding-set=-sys_admin", "--"]
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]


def harness(root: Path, container: bool = False) -> dict:
    """run_autograder as the harness starts it, in /autograder (subprocess.Popen's arguments)."""
    environment = {**os.environ, "VITGRADE_AUTOGRADER_ROOT": str(root)}
    environment.pop("PYTHONPATH", None)  # the bundle's own grader must do the work
    return {"args": (CONTAINER if container else []) + [str(root / "run_autograder")], "cwd": root, "env": environment}


def results_of(root: Path, process: subprocess.CompletedProcess | Finished) -> dict:
    """The results.json a finished run_autograder left, read as the harness reads it (exit status ignored)."""
    assert process.returncode == 0, process.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert gradescope_problems(results) == []  # Gradescope's published format, whatever happened
    return results


def run(root: Path, container: bool = False) -> tuple[dict, float]:
    """run_autograder run to its end: (results.json, seconds)."""
    started = time.monotonic()
    process = subprocess.run(**harness(root, container), capture_output=True, text=True, timeout=300)
    return results_of(root, process), time.monotonic() - started


def test_bundle_holds_the_scripts_at_its_root_and_the_kit_without_tests(bundle: Path) -> None:
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in archive.infolist()}
        scripts = [archive.read(n).decode() for n in ("setup.sh", "run_autograder")]
    assert names[:2] == ["setup.sh", "run_autograder"]
    assert all(modes[n] & stat.S_IXUSR for n in names[:2])
    manifest = json.loads((paths.FIXTURES / "manifest.json").read_text())
    assert {f"fixtures/{n}" for n in manifest["files"]} <= set(names)
    assert any(n.startswith("fixtures/hidden/") for n in names)
    assert {f"solutions/{s.id}.py" for s in STEPS} <= set(names)
    assert not [n for n in names if n.startswith(("tests/", ".git")) or "/.git" in n or "__pycache__" in n]
    assert 'install --no-cache-dir -e "$SOURCE"' in scripts[0] and "fixtures verify" in scripts[0]
    for text in scripts:
        assert subprocess.run(["bash", "-n"], input=text, text=True).returncode == 0  # syntax


def partial_layout(root: Path) -> None:
    """A repository zip's layout: one folder on top, the steps in its exercises/, macOS litter
    beside it; steps 01 and 03 right, 02 one known mistake away, the rest missing."""
    exercises = root / "submission" / "vit-exercises-main" / "exercises"
    exercises.mkdir(parents=True)
    for step_id in ("01_flatten", "03_position"):
        shutil.copyfile(paths.step_file(paths.SOLUTIONS, step_id), exercises / f"{step_id}.py")
    (exercises / "02_project.py").write_text(NO_BIAS.source())
    (exercises.parent / "notes.md").write_text("my notes")
    (exercises / "04_CLS.py").write_text("def prepend_cls(): pass\n")  # misnamed: left aside, with a hint
    (root / "submission" / "__MACOSX").mkdir()
    (root / "submission" / "__MACOSX" / "._01_flatten.py").write_bytes(b"\x00\x05\x16\x07")


#: A 60-second assignment: 3.7 s a step, every step ended within 30 s, the grader stopped after 45 s.
LOOPING_BUDGET = budget(60)


def looping_layout(root: Path) -> None:
    """The run_autograder of LOOPING_BUDGET's assignment: short, and run from the session's start,
    where the right steps must still finish within their limit beside the tests' own work. Steps 01
    and 03 right; every function of every other step loops for ever, sleeping in its loop: the time
    limits are what is tested, and the run holds no core while they run out."""
    (root / "run_autograder").write_text(RUN_AUTOGRADER.format(
        stop_after=LOOPING_BUDGET.stop_after, per_step=LOOPING_BUDGET.per_step,
        within=LOOPING_BUDGET.steps_within, options=""))
    for step in STEPS:
        if step.id in ("01_flatten", "03_position"):
            shutil.copyfile(paths.step_file(paths.SOLUTIONS, step.id), root / "submission" / f"{step.id}.py")
            continue
        stub = paths.step_file(paths.EXERCISES, step.id).read_text()
        looping = re.sub(r"raise NotImplementedError\([^)]*\)",
                         "import time\n    while True:\n        time.sleep(0.05)", stub)
        assert looping.count("while True") == len(step.functions), step.id
        (root / "submission" / f"{step.id}.py").write_text(looping)


LOOPING = "gradescope: every function loops"


@early(LOOPING, "test_a_bundle_whose_every_function_loops_times_out_step_by_step")
def looping_bundle(folder: Path) -> dict:
    """A bundle of its own, its submission looping, graded from the session's start: six time limits
    running out take most of its half-minute."""
    root = layout(folder, unpacked(made_bundle(folder / "autograder.zip"), folder / "source"))
    looping_layout(root)
    return harness(root)


@pytest.fixture(scope="module")
def partial(source: Path, tmp_path_factory) -> dict:
    """Graded as on Gradescope, in a container without CAP_SYS_ADMIN."""
    root = layout(tmp_path_factory.mktemp("partial"), source)
    partial_layout(root)
    return run(root, container=os.geteuid() == 0 and shutil.which("setpriv") is not None)[0]


@pytest.mark.slow
def test_partial_submission_scores_its_right_steps_and_names_the_mistake(partial: dict) -> None:
    tests = partial["tests"]
    # Steps 01 and 03 are right, 02's conv_to_linear too; its project misses the bias.
    right_ones = ("01_flatten", "03_position", "02_project · conv_to_linear")
    right = lambda t: t["name"].startswith(right_ones)  # noqa: E731
    assert partial["score"] == pytest.approx(sum(t["max_score"] for t in tests if right(t)), abs=0.01)
    assert partial["score"] == pytest.approx(sum(t["score"] for t in tests), abs=0.01)
    assert get_step("01_flatten").points + get_step("03_position").points < partial["score"] < \
        get_step("01_flatten").points + get_step("02_project").points + get_step("03_position").points
    for step in STEPS:
        own = [t for t in tests if t["name"].startswith(step.id)]
        assert own, step.id
        assert sum(t["max_score"] for t in own) == pytest.approx(step.points, abs=0.01)
        assert all(t["status"] == ("passed" if right(t) else "failed") for t in own), step.id
    assert {t["visibility"] for t in tests} == {"visible", "after_published"}
    project = [t for t in tests if t["name"].startswith("02_project · project")]
    assert any("Known mistake" in t["output"] for t in project)
    assert "Graded 3 step file(s) from vit-exercises-main/exercises" in partial["output"]
    assert "notes.md" in partial["output"] and "__MACOSX" not in partial["output"]
    assert "04_CLS.py (did you mean 04_cls.py?)" in partial["output"]


def _empty(submission: Path) -> None:
    pass


def _wrong_names(submission: Path) -> None:
    (submission / "attention.py").write_text("def qkv_heads(): pass\n")
    (submission / "01-flatten.py").write_text("def normalize(): pass\n")


def _too_deep(submission: Path) -> None:
    (submission / "hw" / "vit").mkdir(parents=True)
    shutil.copyfile(paths.step_file(paths.SOLUTIONS, "01_flatten"), submission / "hw" / "vit" / "01_flatten.py")


def _zip_inside(submission: Path) -> None:
    with zipfile.ZipFile(submission / "exercises.zip", "w") as archive:
        archive.writestr("exercises/01_flatten.py", "def normalize(): pass\n")


def _not_utf8(submission: Path) -> None:
    (submission / "01_flatten.py").write_bytes("# normalisé\n".encode("latin-1"))


def _junk(submission: Path) -> None:
    shutil.copyfile(paths.step_file(paths.SOLUTIONS, "01_flatten"), submission / "01_flatten.py")
    with open(submission / "dataset.bin", "wb") as handle:
        handle.truncate(200 * 2**20)  # sparse: 200 MB to the grader, nothing on the disk


def _link_to_solution(submission: Path) -> None:
    (submission / "05_attention.py").symlink_to(paths.step_file(paths.SOLUTIONS, "05_attention"))


BAD_UPLOADS = {
    "empty": (_empty, "Your upload is empty"),
    "wrong_names": (_wrong_names, "attention.py (did you mean 05_attention.py?)"),
    "too_deep": (_too_deep, "too far down in your upload: found hw/vit/01_flatten.py. They must be"),
    "zip_inside": (_zip_inside, "holds an archive (exercises.zip)"),
    "not_utf8": (_not_utf8, "01_flatten.py is not UTF-8 text"),
    "junk_200mb": (_junk, "larger than 20 MB"),
    "link_to_solution": (_link_to_solution, "05_attention.py is a link"),
}


@pytest.fixture(scope="module")
def without_fixtures(source: Path, tmp_path_factory) -> Path:
    """The bundle without its fixtures: grading would say the test data are damaged, so a bad
    upload's own message proves it was refused before any grader or worker started."""
    folder = tmp_path_factory.mktemp("without_fixtures")
    for name in ("grader", "run_autograder", "pyproject.toml"):
        (folder / name).symlink_to(source / name)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("case", list(BAD_UPLOADS))
def test_bad_upload_gets_score_0_and_says_what_was_wrong(case: str, without_fixtures: Path,
                                                         tmp_path: Path) -> None:
    make, said = BAD_UPLOADS[case]
    root = layout(tmp_path, without_fixtures)
    make(root / "submission")
    results, seconds = run(root)
    assert results["score"] == 0 and results["tests"] == []
    assert results["output"].startswith("Nothing was graded.")
    assert said in results["output"], results["output"]
    assert seconds < BAD_UPLOAD_SECONDS  # no torch, no worker: quick even on a busy machine


@pytest.mark.slow
def test_without_its_fixtures_the_bundle_says_its_test_data_are_damaged(without_fixtures: Path,
                                                                       tmp_path: Path) -> None:
    """What a bad upload would have said had it reached the grader: the tests above do not."""
    root = layout(tmp_path, without_fixtures)
    shutil.copyfile(paths.step_file(paths.SOLUTIONS, "01_flatten"), root / "submission" / "01_flatten.py")
    results, _ = run(root)
    assert results["score"] == 0 and "test data are damaged" in results["output"]
    assert "not your fault" in results["output"]


CRASHING_PYTHON = """#!/bin/sh
# Stands for a grader that dies after student code forged a perfect results.json.
echo '{"score": 100, "output": "forged", "tests": []}' > "$VITGRADE_AUTOGRADER_ROOT/results/results.json"
exit 3
"""


@pytest.mark.slow
def test_a_crashing_grader_still_leaves_results_and_never_the_forged_ones(source: Path, tmp_path: Path) -> None:
    root = layout(tmp_path, source)
    python = root / "venv" / "bin" / "python"  # run_autograder prefers setup.sh's venv
    python.parent.mkdir(parents=True)
    python.write_text(CRASHING_PYTHON)
    python.chmod(0o755)
    results, _ = run(root)
    assert results["score"] == 0 and results["tests"] == []
    assert "the grader stopped unexpectedly (exit status 3)" in results["output"]


def test_a_container_with_too_little_memory_is_named_in_the_instructors_log(tmp_path: Path) -> None:
    from grader.platforms.gradescope import MEMORY_NEEDED, memory_warning

    v1, v2 = tmp_path / "memory.limit_in_bytes", tmp_path / "memory.max"
    v1.write_text(f"{768 * 2**20}\n")  # Gradescope's default
    assert "768 MB" in memory_warning((tmp_path / "absent", v1)) and "raise the memory" in memory_warning((v1,))
    v2.write_text("max\n")  # no limit
    assert memory_warning((v2, v1)) == ""
    v1.write_text(f"{MEMORY_NEEDED}\n")
    assert memory_warning((v1,)) == ""


# --- hidden stays hidden, the time budget, the image's install -----------------------------------

def _step_line(output: str, step_id: str) -> str:
    return next(line for line in output.splitlines() if line[2:].startswith(step_id))


@pytest.mark.slow
def test_visible_output_shows_no_hidden_inclusive_score_and_results_keep_the_full_one(partial: dict) -> None:
    from grader.reports.shared import points

    tests, output = partial["tests"], partial["output"]
    visible = [t for t in tests if t["visibility"] == "visible"]
    hidden = [t for t in tests if t["visibility"] == "after_published"]
    assert any(t["status"] == "failed" for t in hidden)  # the hidden tests found something
    full = sum(t["score"] for t in tests)
    assert partial["score"] == pytest.approx(full, abs=0.01)
    shown = f"{points(sum(t['score'] for t in visible))} / {points(sum(t['max_score'] for t in visible))} points"
    assert shown in output and f"{len(hidden)} hidden test(s) were graded" in output
    assert f"{points(partial['score'])} / " not in output
    for step in STEPS:  # no step line gives a total that counts its hidden tests
        own = [t for t in tests if t["name"].startswith(step.id)]
        line = _step_line(output, step.id)
        seen = [t for t in own if t["visibility"] == "visible"]
        assert f"{points(sum(t['score'] for t in seen))}/{points(sum(t['max_score'] for t in seen))}" in line
        if len(seen) < len(own):
            assert f"/{points(sum(t['max_score'] for t in own))} " not in line, line


def test_visibility_is_gradescopes_own_choice_and_visible_shows_everything_at_once(tmp_path: Path) -> None:
    from test_reports import mixed

    from grader.reports import to_gradescope

    result = mixed()
    everything = json.loads(to_gradescope(result, "visible"))
    assert {t["visibility"] for t in everything["tests"]} == {"visible"}
    assert everything["output"].startswith(f"vitgrade: {result.score:g} / {result.max_score:g} points.")
    assert everything["score"] == json.loads(to_gradescope(result))["score"] == result.score
    for when, said in (("after_due_date", "appear after the due date"), ("hidden", "are not shown")):
        document = json.loads(to_gradescope(result, when))
        hidden = [t for t in document["tests"] if t["visibility"] != "visible"]
        assert hidden and {t["visibility"] for t in hidden} == {when} and said in document["output"]
    out = tmp_path / "autograder.zip"
    written = runner.invoke(app, ["autograder", "gradescope", "--out", str(out), "--visibility", "after_due_date",
                                  "--points", "40"])
    assert written.exit_code == 0 and "(--visibility after_due_date)" in written.output, written.output
    with zipfile.ZipFile(out) as archive:
        assert "--visibility after_due_date --points 40" in archive.read("run_autograder").decode()
    refused = runner.invoke(app, ["autograder", "gradescope", "--out", str(out), "--visibility", "students"])
    assert refused.exit_code == 2 and "after_published, after_due_date, hidden, visible" in refused.output


def test_points_scale_the_score_to_the_assignments_autograder_points() -> None:
    from test_reports import mixed

    from grader.reports import to_gradescope

    result = mixed()
    document = json.loads(to_gradescope(result, points_worth=40))
    assert document["score"] == round(result.score / result.max_score * 40, 2)
    assert f"{document['score']:g} of 40" in document["output"]
    assert sum(t["max_score"] for t in document["tests"]) == result.max_score  # the tests keep the kit's points


def metadata(created: str, due: str, previous: int, extension: str | None = None) -> dict:
    """Gradescope's submission_metadata.json, the fields read (its documentation's example's shape)."""
    users = [{"email": "ada@example.org", "name": "Ada", "id": 1,
              **({"assignment": {"due_date": extension}} if extension else {})}]
    return {"id": 7, "created_at": created, "assignment": {"due_date": due, "title": "ViT"}, "users": users,
            "previous_submissions": [{"submission_time": created, "score": 0.0}] * previous}


@pytest.mark.parametrize(("given", "attempt", "lateness"), [
    (metadata("2026-12-01T10:00:00.000000-08:00", "2026-12-01T12:00:00.000000-08:00", 0), 1, 0.0),
    (metadata("2026-12-01T14:30:00.000000-08:00", "2026-12-01T12:00:00.000000-08:00", 2), 3, 9000.0),
    (metadata("2026-12-01T14:30:00.000000-08:00", "2026-12-01T12:00:00.000000-08:00", 1,
              extension="2026-12-02T12:00:00.000000-08:00"), 2, 0.0),  # an extension: on time
    ({"previous_submissions": []}, 1, None),
    ([], None, None),
])
def test_the_attempt_and_lateness_come_from_the_submission_metadata(tmp_path: Path, given, attempt, lateness) -> None:
    from grader.platforms.gradescope import submission_facts

    (tmp_path / "submission_metadata.json").write_text(json.dumps(given))
    assert submission_facts(tmp_path / "submission_metadata.json") == (attempt, lateness)
    assert submission_facts(tmp_path / "absent.json") == (None, None)


def test_the_attempt_and_lateness_reach_the_log_the_result_and_the_contract(tmp_path: Path, capsys) -> None:
    """A bad upload is answered without grading: the log line comes first, whatever the upload."""
    from test_reports import mixed

    from grader.reports import to_gradescope
    from grader.reports.contract import from_json, to_json

    (tmp_path / "submission").mkdir()
    (tmp_path / "submission_metadata.json").write_text(json.dumps(
        metadata("2026-12-01T14:30:00.000000-08:00", "2026-12-01T12:00:00.000000-08:00", 2)))
    run_autograder(tmp_path, step_timeout=5)
    assert "vitgrade: attempt 3, 9000 s late" in capsys.readouterr().out
    late = replace(mixed(), attempt=3, lateness=9000.0)
    document = json.loads(to_gradescope(late))
    assert document["extra_data"] == {"attempt": 3, "lateness": 9000.0}
    assert "Attempt 3." in document["output"] and "Submitted 2 h 30 min after the due date." in document["output"]
    back = from_json(to_json([late]))[0]
    assert (back.attempt, back.lateness) == (3, 9000.0)


def test_the_time_budget_keeps_its_margin_and_every_step_its_limit() -> None:
    from grader.platforms.gradescope import (MARGIN_SHARE, MIN_STEP_SECONDS, RUN_AUTOGRADER, budget,
                                             shortest_time_limit)

    for limit in range(shortest_time_limit(), 6 * 3600, 7):
        shares = budget(limit)
        assert shares.margin >= MARGIN_SHARE * limit and shares.per_step >= MIN_STEP_SECONDS
        # Eight steps that each run into their limit leave the whole margin untouched, and the grader
        # is stopped with half of it left for the fallback results.json.
        assert 8 * shares.per_step <= limit - shares.margin < shares.stop_after < limit
        assert shares.stop_after + 5 <= limit - shares.margin / 4  # --kill-after=5: still inside
        assert shares.steps_within == limit - shares.margin
    shares = budget(600)
    script = RUN_AUTOGRADER.format(stop_after=shares.stop_after, per_step=shares.per_step,
                                   within=shares.steps_within, options="")
    assert "timeout --kill-after=5 570" in script and "--timeout 67.5 --within 540" in script


def test_a_time_limit_below_what_a_grade_needs_is_refused_in_one_line(tmp_path: Path) -> None:
    from grader.platforms.gradescope import shortest_time_limit

    shortest = shortest_time_limit()
    for limit in ("180", str(shortest - 1), "-3"):
        refused = runner.invoke(app, ["autograder", "gradescope", "--out", str(tmp_path / "a.zip"),
                                      "--time-limit", limit])
        assert refused.exit_code == 2 and f"{shortest} s or more" in refused.output, refused.output
        assert len(refused.output.strip().splitlines()) == 1 and not (tmp_path / "a.zip").exists()


@pytest.mark.slow
def test_a_bundle_whose_every_function_loops_times_out_step_by_step(early_runs) -> None:
    """The grader's own results.json comes before it is stopped, each looping step 'timed out', the
    right steps (01 and 03, graded before any loop can squeeze them) with their points."""
    finished = early_runs.finished(LOOPING)
    root = Path(finished.args[-1]).parent  # harness() runs root/run_autograder
    results, seconds, shares = results_of(root, finished), finished.seconds, LOOPING_BUDGET
    assert seconds < shares.stop_after and not results["output"].startswith("Nothing was graded")
    for step in STEPS:
        own = [t for t in results["tests"] if t["name"].startswith(step.id)]
        if step.id in ("01_flatten", "03_position"):
            assert sum(t["score"] for t in own) == pytest.approx(step.points, abs=0.01)
        else:
            assert "timed out" in _step_line(results["output"], step.id)
            assert sum(t["score"] for t in own) == 0 and all(t["status"] == "failed" for t in own)
    assert results["score"] == pytest.approx(get_step("01_flatten").points + get_step("03_position").points)


def test_setup_installs_torch_and_torchvision_together_from_the_cpu_index() -> None:
    from grader.platforms.gradescope import SETUP_SH

    lines = [line for line in SETUP_SH.splitlines() if " install " in line and "pip" in line]
    cpu = [i for i, line in enumerate(lines) if "download.pytorch.org/whl/cpu" in line]
    kit = [i for i, line in enumerate(lines) if line.rstrip().endswith('-e "$SOURCE"')]
    assert len(cpu) == 1 and len(kit) == 1 and cpu[0] < kit[0]
    assert lines[cpu[0]].split()[-2:] == ["torch", "torchvision"]  # one resolution: matching builds
    assert not [line for line in lines if "torchvision" in line and "whl/cpu" not in line]


def test_setup_checks_timm_and_a_vit_forward_before_the_fixtures() -> None:
    """Read, not run (it would cost a timm import and a forward in every run of the suite): the
    check is valid Python that builds timm's ViT-Ti/16, runs one forward and refuses a CUDA build."""
    from grader.platforms.gradescope import SETUP_SH

    check = re.search(r"python\" -c '\n(.*?)\n'\n", SETUP_SH, re.DOTALL)
    assert check, "setup.sh runs no Python check"
    code = check.group(1)
    compile(code, "setup.sh check", "exec")
    assert "import timm, torch" in code and 'timm.create_model("vit_tiny_patch16_224", pretrained=False)' in code
    assert "model(torch.zeros(1, 3, 224, 224))" in code and "torch.version.cuda is None" in code
    assert SETUP_SH.index('-e "$SOURCE"') < SETUP_SH.index(code) < SETUP_SH.index("fixtures verify")
    assert "\nset -euo pipefail\n" in SETUP_SH  # a failed check fails the build


def test_a_late_start_shortens_the_steps_limits_never_the_margin() -> None:
    """The steps left share what is left before the deadline; on time, each keeps its own limit."""
    import time

    from grader.platforms.gradescope import step_share

    deadline = time.monotonic() + 16.0  # 8 steps of 10 s planned, 16 s left
    assert 1.9 < step_share(10.0, deadline, steps_left=8) <= 2.0
    assert step_share(10.0, deadline, steps_left=1) == 10.0  # the last step alone: its own limit fits
    assert step_share(10.0, time.monotonic() - 1.0, steps_left=4) == 1.0  # late: a step still times out


# --- what a student must not see, as Gradescope runs the bundle ---------------------------------

#: Opens each file named on its command line; prints the ones it could read (run as uid 65534).
READABLE = "import sys\nfor name in sys.argv[1:]:\n    try:\n        open(name, 'rb').close()\n        print(name)\n" \
           "    except OSError:\n        pass\n"


@pytest.fixture(scope="module")
def leaky(bundle: Path) -> Iterator[dict]:
    """A leaky but correct step 01 graded by the bundle's own run_autograder, alone, as root in a
    container with Docker's defaults (no CAP_SYS_ADMIN, user namespaces refused): the partial
    sandbox, with Landlock where the kernel has it."""
    from test_sandbox_layers import DOCKER, LEAKY_TAIL, root_with_setpriv

    root_with_setpriv()
    folder = Path(tempfile.mkdtemp(prefix="vitgrade-gradescope-"))  # not under pytest's root-only folder
    folder.chmod(0o755)  # as /autograder: uid 65534 may walk to the kit
    try:
        yield _graded_leaky(bundle, folder, DOCKER, LEAKY_TAIL)
    finally:
        shutil.rmtree(folder)


def _graded_leaky(bundle: Path, folder: Path, container: list[str], leaky_tail: str) -> dict:
    source = unpacked(bundle, folder / "source")
    root = layout(folder, source)
    solution = paths.step_file(paths.SOLUTIONS, "01_flatten").read_text()
    (root / "submission" / "01_flatten.py").write_text(solution + leaky_tail.replace("{kit}", str(source)))
    started = harness(root)
    process = subprocess.run([*container, *started["args"]], cwd=started["cwd"], env=started["env"],
                             capture_output=True, text=True, timeout=300)
    files = [str(p) for secret in secret_paths(source).values() for p in (secret, *secret.rglob("*")) if p.is_file()]
    needed = [str(source / "grader" / "expected" / "store.py"), str(source / "fixtures" / "checkpoint")]
    read = subprocess.run([*NOBODY, "/usr/bin/python3", "-c", READABLE, *files, *needed], capture_output=True,
                          text=True, timeout=60)
    return {"results": results_of(root, process), "log": process.stdout, "secret_files": files,
            "readable": read.stdout.split(), "needed": needed}


@pytest.mark.slow
def test_in_gradescopes_container_a_leaky_submission_keeps_its_points_and_shows_no_hidden_byte(leaky):
    from test_sandbox_layers import hidden_pixel_shapes

    results = leaky["results"]
    flatten = [t for t in results["tests"] if t["name"].startswith("01_flatten")]
    assert all(t["score"] == t["max_score"] > 0 for t in flatten)  # every point it earned
    # Each test's points are rounded to 4 decimals (grader/judge/suite_session.py).
    assert sum(t["score"] for t in flatten) == pytest.approx(get_step("01_flatten").points, abs=len(flatten) * 5e-5)
    seen = results["output"] + "".join(t["output"] for t in results["tests"] if t["visibility"] == "visible")
    kept = "".join(t["output"] for t in results["tests"] if t["visibility"] != "visible")
    for shape in hidden_pixel_shapes():
        assert f"fd1 {shape}" in kept and shape not in seen  # under its hidden test only
    assert "read " not in seen and seen.count("refused") == 3  # the visible test tried the answers
    assert not any(word in seen for word in ("Sandbox", "sandbox", "Landlock", "namespaces"))
    assert "vitgrade: sandbox partial: " in leaky["log"]  # for instructors: the layers, and what is missing
    assert "vitgrade: 01_flatten: your file printed" in leaky["log"]


@pytest.mark.slow
def test_after_run_autograder_uid_65534_reads_no_answer_bearing_file_of_the_bundle(leaky):
    assert len(leaky["secret_files"]) > 20  # solutions, hidden fixtures, the manifest, the maths, the catalogue
    assert leaky["readable"] == leaky["needed"][:1]  # the grader it runs stays readable
