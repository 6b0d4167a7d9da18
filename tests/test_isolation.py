"""One broken step costs that step alone, in every runner: a slice of `tests/isolation_matrix.py`
(which breaks every step in every way; run it before changing the runner).

Each way of breaking a step appears once, in three submissions of the solutions with four steps
broken in each: the steps are graded with the reference solutions of the steps before them, so a
broken step can only reach another through the runner, and every unbroken step must keep exactly
the points the solutions get. Step 08 (run ahead of the others by the default runner) is unbroken
in two of them, beside a broken step 01 or 05. Graded by the default runner, the portable runner
(on this Linux simulating macOS and Windows) and a class with `--jobs 2`.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader import paths
from grader.results import as_dict
from isolation_matrix import WAYS, Case, Graded, from_contract, violations, write_submission

pytestmark = pytest.mark.slow

SIMULATION = Path(__file__).resolve().parent / "portable"
TIMEOUT = 15.0  # seconds per step: the loop's and the memory bomb's; every correct step needs far less
WAY = {way.id: way for way in WAYS}
#: (step, way) broken together in one submission; every way once.
SUBMISSIONS = {
    "first": [("01_flatten", "syntax_error"), ("03_position", "raise_import"), ("05_attention", "segfault_call"),
              ("07_head", "loop_call")],
    "second": [("02_project", "sys_exit_import"), ("04_cls", "os_exit_import"), ("06_block", "memory_call"),
               ("08_occlusion", "garbage_fds_call")],
    "third": [("01_flatten", "close_fds_import"), ("03_position", "kill_parent_import"),
              ("05_attention", "os_exit_call"), ("07_head", "stdout_stderr_call")],
}


def _cases(name: str) -> list[Case]:
    return [Case(step, WAY[way], variant) for variant, (step, way) in enumerate(SUBMISSIONS[name])]


@pytest.fixture(scope="module")
def klass(tmp_path_factory) -> Path:
    """The three submissions, as one class folder."""
    folder = tmp_path_factory.mktemp("isolation")
    klass = folder / "class"
    klass.mkdir()
    for name in SUBMISSIONS:
        write_submission(klass / name, _cases(name))
    return klass


def _assert_isolated(results: dict[str, Graded], baseline: Graded) -> None:
    found = {name: violations(_cases(name), results[name], baseline) for name in SUBMISSIONS}
    assert found == {name: [] for name in SUBMISSIONS}


def test_the_default_runner_charges_each_broken_step_alone(grader_with, solutions_result, klass):
    grader = grader_with(timeout=TIMEOUT)
    results = {name: from_contract(as_dict(grader.grade(klass / name))) for name in SUBMISSIONS}
    _assert_isolated(results, from_contract(as_dict(solutions_result)))


def _graded_class(klass: Path, tmp_path: Path, *options: str, portable: bool = False) -> dict[str, Graded]:
    """`vitgrade grade CLASS OPTIONS` as a command; each folder's result by its name."""
    report = tmp_path / "class.json"
    env = {**os.environ, "PYTHONPATH": str(paths.KIT_ROOT), "OMP_NUM_THREADS": "1"}
    env.pop("VITGRADE_RUNNER", None)
    if portable:
        env["PYTHONPATH"] = os.pathsep.join([str(SIMULATION), str(paths.KIT_ROOT)])
    run = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(klass), "--timeout", str(TIMEOUT),
                          "--format", "json", "--output", str(report), *options],
                         cwd=paths.KIT_ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert report.exists(), run.stderr
    document = json.loads(report.read_text())
    return {Path(result["submission"]).name: from_contract(result) for result in document}


def test_the_portable_runner_charges_each_broken_step_alone(solutions_result, klass, tmp_path):
    """Compared with the solutions as the default runner grades them: every runner gives them every point."""
    results = _graded_class(klass, tmp_path, portable=True)
    _assert_isolated(results, from_contract(as_dict(solutions_result)))


def test_a_class_graded_two_at_a_time_charges_each_broken_step_alone(solutions_result, klass, tmp_path):
    results = _graded_class(klass, tmp_path, "--jobs", "2")
    _assert_isolated(results, from_contract(as_dict(solutions_result)))
