"""The portable runner, on a Linux simulating macOS and Windows: `tests/portable/sitecustomize.py`,
first on PYTHONPATH, removes fork, fd passing, `resource` and libc's prctl/unshare/mount from the
CLI and from every worker it starts. Also: the kit's own CI workflow (it cannot run here).
"""
from __future__ import annotations

import csv
import ctypes
import io
import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from grader import paths
from grader.launch.portable import KEEPER, Spawned, _describe_exit, _job_structure
from grader.steps import STEP_IDS
from together import early_script, script_outcome, write_outcome

SIMULATION = Path(__file__).resolve().parent / "portable"
HOSTILE = Path(__file__).resolve().parent / "hostile"
LOOP = HOSTILE / "loop"
PHOTO = paths.KIT_ROOT / "fixtures" / "photos" / "cat.png"
WORKFLOW = paths.KIT_ROOT / ".github" / "workflows" / "ci.yml"
MARKER = f"vitgrade-portable-test-{uuid.uuid4().hex[:8]}"  # in every process the CLI starts


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="simulates macOS/Windows on Linux, and looks for survivors in /proc")


def simulated(*args: str) -> subprocess.Popen:
    """`vitgrade ARGS` where the zygote cannot run, printing into a pipe in Windows' code page;
    the marker travels to the workers, whose environment keeps VITGRADE_* variables."""
    path = os.pathsep.join([str(SIMULATION), str(paths.KIT_ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "VITGRADE_TEST_MARKER": MARKER, "PYTHONIOENCODING": "cp1252",
           "COLUMNS": "1000",  # the sandbox line unwrapped
           "OMP_NUM_THREADS": "1"}  # five runs share two cores (see `runs`)
    env.pop("VITGRADE_RUNNER", None)  # the simulation alone must choose the portable runner
    return subprocess.Popen([sys.executable, "-m", "grader.cli", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="cp1252", cwd=paths.KIT_ROOT)


def survivors() -> list[int]:
    """Processes carrying this test's marker: after a run, anything its workers left behind."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                environ = Path(f"/proc/{entry}/environ").read_bytes()
            except OSError:
                continue
            if MARKER.encode() in environ:
                found.append(int(entry))
    return found


@dataclass
class Run:
    """One finished CLI run."""

    status: int
    stdout: str
    stderr: str


def run_all(folder: Path) -> dict:
    """Five CLI runs at once (they overlap their torch imports), then a look at /proc: `predict`,
    `show attention`, `grade --solutions` with hidden tests and a CSV gradebook, a `check` of
    a step 03 that loops forever ignoring signals, between correct steps 02 and 04, and a correct
    step 01 that leaves a process running (the loop's 4 s limit leaves the correct steps, each well
    under a second, room on a busy machine; the loop burns a core meanwhile), and a `check` of a
    step 03 that patches torch at import before a correct step 04. Each run has one OpenMP thread:
    five processes with two spinning threads each on two cores would slow each other several-fold."""
    loop = folder / "loop"
    shutil.copytree(LOOP, loop)
    for step_id in ("01_flatten", "02_project", "04_cls"):
        shutil.copyfile(paths.step_file(paths.SOLUTIONS, step_id), paths.step_file(loop, step_id))
    with open(paths.step_file(loop, "01_flatten"), "a", encoding="utf-8") as step_01:  # and a child left running
        step_01.write("\nimport subprocess, sys\n"
                      "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n")
    leaking = folder / "leaking"
    shutil.copytree(HOSTILE / "leaking", leaking)
    shutil.copyfile(paths.step_file(paths.SOLUTIONS, "04_cls"), paths.step_file(leaking, "04_cls"))
    started = {
        "leaking": simulated("check", "03", "04", "--submission", str(leaking), "--format", "json"),
        "loop": simulated("check", "01", "02", "03", "04", "--submission", str(loop), "--timeout", "4",
                          "--format", "json"),
        "solutions": simulated("grade", "--solutions", "--csv", str(folder / "gradebook.csv"), "--timeout", "600"),
        "predict": simulated("predict", str(PHOTO), "--format", "json", "--top", "3"),
        "show": simulated("show", "attention", str(PHOTO), "--out", str(folder / "attention.png")),
    }
    seen: set[int] = set()  # the workers, seen while they run: the check below is not vacuous
    while any(process.poll() is None for process in started.values()):  # the output fits the pipes
        seen |= set(survivors())
        time.sleep(0.2)
    finished = {}
    for name, process in started.items():
        stdout, stderr = process.communicate(timeout=600)
        finished[name] = Run(process.returncode, stdout, stderr)
    gradebook = folder / "gradebook.csv"
    rows = list(csv.DictReader(io.StringIO(gradebook.read_text(encoding="utf-8")))) if gradebook.exists() else []
    return {**finished, "gradebook": rows[0] if rows else {}, "seen": seen, "survivors": survivors()}


PORTABLE_RUNS = "portable: five CLI runs at once"
#: The tests that read the five runs: they run at the session's end (tests/together.py's `early`).
RUNS_READERS = ("test_the_solutions_score_full_marks_in_the_portable_runner", "test_predict_and_show_run_without_fork",
                "test_a_loop_times_out_and_costs_only_its_own_step",
                "test_a_step_that_changes_its_interpreter_hands_the_next_step_a_fresh_worker",
                "test_nothing_the_workers_started_survives")


# The five runs and the look at /proc in a process of its own (this file run as a script), from the
# session's start: beside the session's other tests rather than among them.
if sys.platform.startswith("linux"):  # every reader is linux_only: it looks for survivors in /proc
    early_script(PORTABLE_RUNS, __file__, *RUNS_READERS)


@pytest.fixture(scope="module")
def runs(early_runs) -> dict:
    """run_all's outcome, as the early run wrote it to runs.json."""
    data = script_outcome(early_runs, PORTABLE_RUNS)
    picture = Path(data["picture"])
    return {**{name: Run(*outcome) for name, outcome in data["runs"].items()}, "gradebook": data["gradebook"],
            "seen": set(data["seen"]), "survivors": data["survivors"],
            "picture": picture.read_bytes() if picture.is_file() else b""}


def _write_runs(folder: Path) -> None:
    outcome = run_all(folder)
    written = {"runs": {name: [run.status, run.stdout, run.stderr] for name, run in outcome.items()
                        if isinstance(run, Run)},
               "gradebook": outcome["gradebook"], "seen": sorted(outcome["seen"]),
               "survivors": outcome["survivors"], "picture": str(folder / "attention.png")}
    write_outcome(written)


@pytest.mark.slow
@linux_only
def test_the_solutions_score_full_marks_in_the_portable_runner(runs):
    run, row = runs["solutions"], runs["gradebook"]
    assert run.status == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    assert float(row["score"]) == float(row["max_score"]) == 100.0
    assert [row[f"{step} status"] for step in STEP_IDS] == ["passed"] * 8
    sandbox = next(line for line in run.stdout.splitlines() if line.startswith("Sandbox: "))
    assert sandbox.startswith("Sandbox: portable: own process, own process group (ended as a whole at the time limit)")
    assert "no os.fork, socket.send_fds, resource, libc prctl, libc unshare, libc mount" in sandbox
    assert "memory limit (no resource module)" in sandbox  # what the simulation removed, named


@pytest.mark.slow
@linux_only
def test_predict_and_show_run_without_fork(runs):
    predict, show = runs["predict"], runs["show"]
    assert predict.status == 0, predict.stderr[-3000:]
    probabilities = [p["probability"] for p in json.loads(predict.stdout)["predictions"]]
    assert len(probabilities) == 3 and 1 >= probabilities[0] >= probabilities[1] >= probabilities[2] > 0
    assert show.status == 0, show.stderr[-3000:]
    assert runs["picture"].startswith(b"\x89PNG")


@pytest.mark.slow
@linux_only
def test_a_loop_times_out_and_costs_only_its_own_step(runs):
    run = runs["loop"]
    assert run.status == 1, run.stderr[-3000:]
    contract = json.loads(run.stdout)
    steps = {step["id"]: step for step in contract["steps"]}
    assert list(steps) == ["01_flatten", "02_project", "03_position", "04_cls"]
    for step_id in ("01_flatten", "02_project", "04_cls"):
        assert steps[step_id]["status"] == "passed"
        assert steps[step_id]["score"] == steps[step_id]["max_score"] > 0
    looping = steps["03_position"]
    assert looping["status"] == "timeout" and looping["score"] == 0
    assert looping["tests"] and {t["status"] for t in looping["tests"]} == {"timeout"}
    assert "time limit (4 s)" in looping["tests"][0]["message"]


@pytest.mark.slow
@linux_only
def test_a_step_that_changes_its_interpreter_hands_the_next_step_a_fresh_worker(runs):
    """Steps share a portable worker only while each leaves it intact: step 03 zeroes torch.cat
    and makes float64 the default at import (its own result shows it), step 04 passes."""
    run = runs["leaking"]
    assert run.status == 1, run.stderr[-3000:]
    steps = {step["id"]: step for step in json.loads(run.stdout)["steps"]}
    assert steps["03_position"]["status"] == "failed"
    assert steps["04_cls"]["status"] == "passed" and steps["04_cls"]["score"] == steps["04_cls"]["max_score"]


@pytest.mark.slow
@linux_only
def test_nothing_the_workers_started_survives(runs):
    assert len(runs["seen"]) >= 6  # four judges, their workers, and step 01's child
    assert runs["survivors"] == []


def test_a_worker_ended_by_a_signal_is_named_like_the_zygote_names_it():
    assert _describe_exit(-9) == {"signal": 9, "signal_name": "SIGKILL", "code": None}
    assert _describe_exit(3) == {"signal": None, "signal_name": None, "code": 3}


@linux_only
def test_a_spare_worker_is_killed_mid_import_and_only_once():
    """The launcher kills a spare it no longer needs, even while it still imports torch."""
    spawned = Spawned({**os.environ, "PYTHONPATH": str(paths.KIT_ROOT)})
    assert spawned.kill() == 1
    assert spawned.process.returncode == -9
    assert spawned.kill() == 0  # once only: a group id may be reused after the group is gone


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_void_p) != 8, reason="the size below is the 64-bit one")
def test_the_job_object_limits_have_windows_layout():
    """sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION) in the Windows SDK's x64 headers: 144 bytes,
    with ProcessMemoryLimit at offset 112 (a wrong field width would put the limit elsewhere)."""
    extended = _job_structure()
    assert ctypes.sizeof(extended) == 144
    assert extended.ProcessMemoryLimit.offset == 112


@linux_only
def test_the_loopback_transport_that_windows_uses_starts_a_worker():
    spawned = Spawned({**os.environ, "PYTHONPATH": str(paths.KIT_ROOT)}, loopback=True)
    try:
        spawned.wait_started()
        assert spawned.process.poll() is None
    finally:
        spawned.kill()


def test_a_worker_that_ends_while_starting_is_replaced_once_before_the_kit_gives_up(monkeypatch):
    """No student code has run in a worker that is still starting: a second start is tried, and
    only a second failure is reported (as the kit's error, not the student's)."""
    from grader.launch import portable

    starts: list[int] = []

    class Dying:
        """A worker whose start fails as many times as `failures` says, then succeeds."""

        def __init__(self, env: dict) -> None:
            starts.append(len(starts))

        def wait_started(self) -> None:
            if len(starts) <= failures:
                raise EOFError("the worker closed the connection")

        def kill(self) -> int:
            return 1

    monkeypatch.setattr(portable, "Spawned", Dying)
    failures = 1
    portable.PortableRunner("a test").wait_ready()
    assert len(starts) == 2
    starts.clear()
    failures = portable.START_ATTEMPTS
    with pytest.raises(RuntimeError, match="did not start: the worker closed the connection"):
        portable.PortableRunner("a test").wait_ready()
    assert len(starts) == portable.START_ATTEMPTS


@pytest.mark.slow
@linux_only
def test_the_loopback_transport_refuses_a_connection_without_the_token():
    """The judge's copy of the token changed: the real worker no longer matches, is refused, and
    the judge reports a worker that did not start instead of accepting it."""
    spawned = Spawned({**os.environ, "PYTHONPATH": str(paths.KIT_ROOT)}, loopback=True)
    spawned._token = b"0" * len(spawned._token)
    try:
        with pytest.raises(EOFError, match="ended while starting"):
            spawned.wait_started()
    finally:
        spawned.kill()


# ---------------------------------------------------------------- the kit's own CI workflow

@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def commands(job: dict) -> str:
    return "\n".join(str(step.get("run", "")) for step in job["steps"])


def test_the_ci_workflow_runs_on_pushes_and_pull_requests(workflow):
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert {"push", "pull_request"} <= set(triggers)
    assert set(workflow["jobs"]) == {"platforms", "container"}
    for job in workflow["jobs"].values():
        assert job["runs-on"] and job["steps"]
        assert any(str(step.get("uses", "")).startswith("actions/checkout@") for step in job["steps"])


def test_the_ci_matrix_runs_the_readmes_two_commands_on_linux_macos_and_windows(workflow):
    job = workflow["jobs"]["platforms"]
    assert set(job["strategy"]["matrix"]["os"]) == {"ubuntu-latest", "macos-latest", "windows-latest"}
    assert job["runs-on"] == "${{ matrix.os }}"
    assert job["defaults"]["run"]["shell"] == "bash"  # the same script on Windows, not PowerShell
    assert any(str(step.get("uses", "")).startswith("actions/setup-python@") for step in job["steps"])
    readme = (paths.KIT_ROOT / "README.md").read_text(encoding="utf-8")
    for command in ('pip install -e . && vitgrade check 01_flatten', 'pip install -e ".[test]" && pytest'):
        assert command in readme
    script = commands(job)
    assert "vitgrade check 01_flatten" in script and 'pip install -e ".[test]"' in script
    # Untouched stubs fail the first command by design: the job demands exit status 1, not 0.
    assert "status=$?" in script and '"$status" -ne 1' in script


def test_the_ci_container_job_runs_in_python_311_with_dockers_default_capabilities(workflow):
    job = workflow["jobs"]["container"]
    container = job["container"]
    image = container if isinstance(container, str) else container["image"]
    assert image == "python:3.11"
    assert "options" not in (container if isinstance(container, dict) else {})  # no --privileged, no --cap-add
    assert job["runs-on"] == "ubuntu-latest"
    assert "vitgrade check 01_flatten" in commands(job) and "pytest" in commands(job)


@pytest.mark.parametrize(("code", "status"), [
    ("import os; os._exit(5)", 5),
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", -11),
    ("import os, signal, time; os.kill(os.getppid(), signal.SIGTERM); time.sleep(0.2)", 0),
])
def test_the_keeper_ends_as_its_worker_ended_and_refuses_to_be_stopped(code, status):
    """The portable worker's parent is the keeper, never the judge: it ends with the worker's exit
    status or signal (the judge learns how the worker ended from it), and the worker's code cannot
    stop it with the signals that ask a process to stop."""
    run = subprocess.run([sys.executable, str(KEEPER), "-c", code], timeout=60)
    assert run.returncode == status


if __name__ == "__main__":  # the early run of PORTABLE_RUNS
    _write_runs(Path(sys.argv[1]))
