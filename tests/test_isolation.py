"""One broken step costs that step alone, in every runner: a slice of `tests/isolation_matrix.py`
(which breaks every step in every way; run it before changing the runner).

Each way of breaking a step appears once, in three submissions of the solutions with four steps
broken in each: the steps are graded with the reference solutions of the steps before them, so a
broken step can only reach another through the runner, and every unbroken step must keep exactly
the points the solutions get. Step 08 (run ahead of the others by the default runner) is unbroken
in two of them, beside a broken step 01 or 05. Graded by the default runner, the portable runner
(on this Linux simulating macOS) and a class with `--jobs 2`, each as a `vitgrade grade` command
started with the session (tests/together.py's `early`).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from grader import paths
from grader.results import as_dict
from isolation_matrix import SIMULATION, WAYS, Case, Graded, from_contract, violations, write_submission
from together import early

pytestmark = pytest.mark.slow

TIMEOUT = 15.0  # seconds per step: the loop's and the memory bomb's; every correct step needs far less
#: GiB per worker: the solutions need about 1.5. The memory bomb fills what the limit allows, each
#: gigabyte a quarter of a million page faults: at the default 4 GiB the three runners spent 39 of
#: their 80 CPU-s in the kernel.
MEMORY = 2
WAY = {way.id: way for way in WAYS}
#: (step, way, variant) broken together in one submission; every way once. A way that ends its
#: worker at each call (a segfault, an exit, garbage on the descriptors) costs the portable runner a
#: fresh torch import per call, so it breaks a function with few cases that no other function of its
#: step calls: variant 0 breaks the step's first function (01's normalize and 02's conv_to_linear
#: have three cases each), an odd variant its last. The loop is the variant that sleeps (5): its time
#: limit is what this tests, and a spinning loop would take a core from the session for each runner's
#: 15 s (test_hostile proves that spinning loops which ignore signals time out).
SUBMISSIONS = {
    "first": [("01_flatten", "segfault_call", 0), ("03_position", "raise_import", 1),
              ("05_attention", "syntax_error", 0), ("07_head", "loop_call", 5)],
    "second": [("02_project", "os_exit_call", 0), ("04_cls", "os_exit_import", 1),
               ("06_block", "memory_call", 5), ("08_occlusion", "garbage_fds_call", 3)],
    "third": [("01_flatten", "close_fds_import", 0), ("03_position", "kill_parent_import", 1),
              ("05_attention", "sys_exit_import", 0), ("07_head", "stdout_stderr_call", 3)],
}


def _cases(name: str) -> list[Case]:
    return [Case(step, WAY[way], variant) for step, way, variant in SUBMISSIONS[name]]


def write_class(folder: Path) -> Path:
    """The three submissions, as one class folder in `folder`."""
    klass = folder / "class"
    klass.mkdir()
    for name in SUBMISSIONS:
        write_submission(klass / name, _cases(name))
    return klass


def _assert_isolated(results: dict[str, Graded], baseline: Graded) -> None:
    found = {name: violations(_cases(name), results[name], baseline) for name in SUBMISSIONS}
    assert found == {name: [] for name in SUBMISSIONS}


def _graded(folder: Path, graded: Path, *options: str, portable: bool = False) -> dict:
    """`vitgrade grade GRADED OPTIONS` as a command (a submission, or the class of the three written
    in `folder`); its JSON report goes to folder/graded.json."""
    env = {**os.environ, "PYTHONPATH": str(paths.KIT_ROOT)}
    env.pop("VITGRADE_RUNNER", None)
    if portable:
        env["PYTHONPATH"] = os.pathsep.join([str(SIMULATION), str(paths.KIT_ROOT)])
    return {"args": [sys.executable, "-m", "grader.cli", "grade", str(graded), "--timeout", str(TIMEOUT),
                     "--memory", str(MEMORY), "--format", "json", "--output", str(folder / "graded.json"), *options],
            "cwd": paths.KIT_ROOT, "env": env}


DEFAULT = "isolation: the default runner"
PORTABLE = "isolation: the portable runner"
TWO_AT_A_TIME = "isolation: a class two at a time"


@early(DEFAULT, "test_the_default_runner_charges_each_broken_step_alone")
def _default_class(folder: Path) -> dict:
    return _graded(folder, write_class(folder))


@early(PORTABLE, "test_the_portable_runner_charges_each_broken_step_alone")
def _portable_class(folder: Path) -> dict:
    return _graded(folder, write_class(folder), portable=True)


@early(TWO_AT_A_TIME, "test_a_class_graded_two_at_a_time_charges_each_broken_step_alone")
def _class_two_at_a_time(folder: Path) -> dict:
    return _graded(folder, write_class(folder), "--jobs", "2")


def _documents(early_runs, name: str) -> dict[str, dict]:
    """Each submission's result contract in the early run `name`, by its folder's name."""
    run = early_runs.finished(name)
    report = Path(run.args[run.args.index("--output") + 1])
    assert report.exists(), f"exit status {run.returncode}\n{run.stdout[-2000:]}\n{run.stderr}"
    document = json.loads(report.read_text())
    results = document if isinstance(document, list) else [document]
    return {Path(result["submission"]).name: result for result in results}


def _results(early_runs, name: str) -> dict[str, Graded]:
    documents = _documents(early_runs, name)
    for document in documents.values():  # --memory reached every worker
        assert any(layer.startswith(f"memory limit {MEMORY} GiB") for layer in document["sandbox"]["layers"])
    return {name: from_contract(document) for name, document in documents.items()}


def test_the_default_runner_charges_each_broken_step_alone(solutions_result, early_runs):
    """Each submission graded in turn by the default runner, step 08 run ahead, as `vitgrade grade
    CLASS` grades them; compared with the solutions as the session's grader (the same runner) grades them."""
    graded = _documents(early_runs, DEFAULT)
    _assert_isolated(_results(early_runs, DEFAULT), from_contract(as_dict(solutions_result)))
    # what kind of error each broken file made, as data: the class report's common mistakes group by it
    findings = {(name, step["id"]): {test["finding"]["id"] for test in step["tests"] if "finding" in test}
                for name, document in graded.items() for step in document["steps"]}
    assert findings["first", "05_attention"] == {"import.syntax_error"}
    assert findings["first", "03_position"] == {"import.raised.ZeroDivisionError"}
    assert findings["third", "05_attention"] == {"import.raised.SystemExit"}
    assert findings["second", "04_cls"] == {"import.ended_worker"}
    assert findings["first", "01_flatten"] == {"ended_worker.normalize"}  # a segfault in each call
    assert findings["second", "02_project"] == {"ended_worker.conv_to_linear"}  # os._exit in each call
    # vit_forward loops: the own chain, which would loop for another time limit, is reported not run
    head = next(step for step in graded["first"]["steps"] if step["id"] == "07_head")
    (own_chain,) = [test for test in head["tests"] if test["name"].startswith("your own chain")]
    assert (own_chain["status"], own_chain["message"][:8]) == ("timeout", "not run:")


def test_the_portable_runner_charges_each_broken_step_alone(solutions_result, early_runs):
    """Compared with the solutions as the default runner grades them: every runner gives them every point."""
    _assert_isolated(_results(early_runs, PORTABLE), from_contract(as_dict(solutions_result)))


def test_a_class_graded_two_at_a_time_charges_each_broken_step_alone(solutions_result, early_runs):
    _assert_isolated(_results(early_runs, TWO_AT_A_TIME), from_contract(as_dict(solutions_result)))
