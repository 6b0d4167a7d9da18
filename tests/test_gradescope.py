"""`vitgrade autograder gradescope`: the bundle, run as Gradescope runs it, in a temporary layout.

One real grading (a partial submission inside a repository zip's folder); every bad upload is
answered before any worker starts, and a grader that crashes still leaves a results.json.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import time
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import paths
from grader.cli import app
from grader.steps import STEPS, get_step
from mutants.catalogue import MUTANTS
from test_reports import gradescope_problems

runner = CliRunner()
NO_BIAS = next(m for m in MUTANTS if m.id == "02_project/no_bias")
BAD_UPLOAD_SECONDS = 10.0


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "autograder.zip"
    result = runner.invoke(app, ["autograder", "gradescope", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and "hidden fixture files" in result.output
    return out


@pytest.fixture(scope="module")
def source(bundle: Path, tmp_path_factory) -> Path:
    """The bundle unpacked, as Gradescope unpacks it into /autograder/source."""
    folder = tmp_path_factory.mktemp("source")
    with zipfile.ZipFile(bundle) as archive:
        for info in archive.infolist():
            archive.extract(info, folder)
            os.chmod(folder / info.filename, info.external_attr >> 16 & 0o777)
    return folder


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


def run(root: Path, container: bool = False) -> tuple[dict, float]:
    """run_autograder as the harness runs it: in /autograder, exit status ignored, results.json read."""
    started = time.monotonic()
    environment = {**os.environ, "VITGRADE_AUTOGRADER_ROOT": str(root)}
    environment.pop("PYTHONPATH", None)  # the bundle's own grader must do the work
    command = (CONTAINER if container else []) + [str(root / "run_autograder")]
    process = subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, timeout=300)
    assert process.returncode == 0, process.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert gradescope_problems(results) == []  # Gradescope's published format, whatever happened
    return results, time.monotonic() - started


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


@pytest.fixture(scope="module")
def partial(source: Path, tmp_path_factory) -> dict:
    """A repository zip's layout: one folder on top, the steps in its exercises/, macOS litter
    beside it; steps 01 and 03 right, 02 one known mistake away, the rest missing. Graded as on
    Gradescope, in a container without CAP_SYS_ADMIN."""
    root = layout(tmp_path_factory.mktemp("partial"), source)
    exercises = root / "submission" / "vit-exercises-main" / "exercises"
    exercises.mkdir(parents=True)
    for step_id in ("01_flatten", "03_position"):
        shutil.copyfile(paths.step_file(paths.SOLUTIONS, step_id), exercises / f"{step_id}.py")
    (exercises / "02_project.py").write_text(NO_BIAS.source())
    (exercises.parent / "notes.md").write_text("my notes")
    (exercises / "04_CLS.py").write_text("def prepend_cls(): pass\n")  # misnamed: left aside, with a hint
    (root / "submission" / "__MACOSX").mkdir()
    (root / "submission" / "__MACOSX" / "._01_flatten.py").write_bytes(b"\x00\x05\x16\x07")
    return run(root, container=os.geteuid() == 0 and shutil.which("setpriv") is not None)[0]


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
