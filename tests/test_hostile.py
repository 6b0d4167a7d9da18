"""Hostile submissions: code that attacks or breaks the grader gets a clean, exact status per step,
and nothing it does reaches the judge, the fixtures, the solutions, or outlives its step.

Each folder in `tests/hostile/` holds one attack, as the step file(s) it impersonates; a test copies
it into a submission, often beside a correct step from the solutions, which must still get full
marks. With the solutions present, earlier steps are the references, so an attack in step N only
affects step N.
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from grader import paths
from grader.expected.store import verify
from grader.judge.grading import Grader, GradeOptions, _own_chain_test
from grader.launch import sandbox
from grader.results import STEP_STATUSES, TEST_STATUSES, StepResult, TestResult
from together import Together

#: Every test grades an attack, most beside correct steps: the slow tier.
pytestmark = pytest.mark.slow

HOSTILE = Path(__file__).resolve().parent / "hostile"
MARKER = "vgh-7f3a91"  # in the command line or name of every process tests/hostile/background starts
GRADER_SOURCE = re.compile(r"grader/\w+(/\w+)*\.py|site-packages|internal grader error")


def full_sandbox() -> None:
    """Skip, with the machine's reasons, where the survey finds no full sandbox."""
    plan = surveyed_plan()
    if plan.level() != "full":
        pytest.skip(f"no full sandbox on this machine: {'; '.join(plan.missing)}")


@functools.cache
def surveyed_plan() -> sandbox.Plan:
    """The layers this machine allows, surveyed once in a child process as the zygote does."""
    code = ("import json; from grader.launch import sandbox, view; from grader.paths import KIT_ROOT; "
            "print(json.dumps(sandbox.survey(view.base_view(KIT_ROOT)).to_json()))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env=sandbox.worker_environment(dict(os.environ)))
    return sandbox.Plan.from_json(json.loads(run.stdout))


@pytest.fixture(scope="module")
def grader(session_grader):
    """The session's grader, for attacks that end quickly, with the default limit: the worker records
    the operators of every call (~10-30 µs each), which a pure-Python loop over every pixel feels.
    The tests after these grade with it too: an attack that harmed the judge would show there."""
    full_sandbox()
    return session_grader


@pytest.fixture(scope="module")
def tight(grader_with):
    """For attacks that run into the limits: 5 s a step, 1 GiB a worker."""
    full_sandbox()
    return grader_with(timeout=5.0, memory=1 << 30)


def partial_grader(folder: Path) -> Grader:
    """The sandbox without namespaces (a student's laptop), grading from a copy of the fixtures
    in `folder` that its students may then write to."""
    fixtures = folder / "fixtures"
    shutil.copytree(paths.FIXTURES, fixtures)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("VITGRADE_SANDBOX", "partial")
        instance = Grader(GradeOptions(timeout=30.0, fixtures=fixtures))
    assert not instance.confine
    return instance


@pytest.fixture(scope="module")
def partial(tmp_path_factory):
    instance = partial_grader(tmp_path_factory.mktemp("partial"))
    yield instance
    instance.close()


@pytest.fixture
def vandalised(tmp_path_factory):
    """A partial sandbox of its own, for the attack that rewrites its fixtures: the shared one's
    copy stays intact for the tests after it."""
    instance = partial_grader(tmp_path_factory.mktemp("vandalised"))
    yield instance
    instance.close()


def submission(tmp_path: Path, attack: str, *correct: str) -> Path:
    """The attack's step files, plus the named steps copied from the solutions."""
    folder = tmp_path / attack
    shutil.copytree(HOSTILE / attack, folder)
    for step_id in correct:
        shutil.copyfile(paths.step_file(paths.SOLUTIONS, step_id), paths.step_file(folder, step_id))
    return folder


def graded(grader: Grader, folder: Path, steps: tuple[str, ...]) -> dict[str, StepResult]:
    """Grade, check that the report is complete and valid, and return the steps by id."""
    result = grader.grade(folder, steps=steps)
    contract = json.loads(json.dumps(result.to_contract()))
    assert [s["id"] for s in contract["steps"]] == list(steps)
    for step in contract["steps"]:
        assert step["status"] in STEP_STATUSES
        assert step["tests"], step["id"]
        assert step["score"] == pytest.approx(sum(t["score"] for t in step["tests"]), abs=0.02)
        for test in step["tests"]:
            assert test["status"] in TEST_STATUSES
            assert not GRADER_SOURCE.search(test["message"]), test["message"]
    assert result.tampering == [] or not grader.confine
    return {s.id: s for s in result.steps}


def _cli(*args: str, **popen: object) -> dict:
    return {"args": [sys.executable, "-m", "grader.cli", *args], **popen}


@pytest.fixture(scope="module")
def by_the_cli(tmp_path_factory) -> Iterator[Together]:
    """The attacks graded by the CLI, each in processes of its own (a judge and its workers: about one
    core), started by the first test after the two with tight limits (it asks for this fixture: a
    correct step beside a loop has 2 s, which three starting runs can take from it) so that they run
    beside the tests grading in this process; each test waits for its own run. The printing one ends
    with a broken step 04; the slow one is graded with the default limit; the kit reached through a
    link only where the view exists."""
    folder = tmp_path_factory.mktemp("cli")
    printing, slow = submission(folder, "printing"), submission(folder, "slow")
    shutil.copyfile(HOSTILE / "broken" / "04_cls.py", printing / "04_cls.py")
    runs = {"printing": _cli("grade", str(printing), "--format", "json", "--timeout", "20"),
            "slow": _cli("grade", str(slow), "--steps", "01_flatten", "--format", "json")}
    if surveyed_plan().level() == "full":
        link, student = folder / "kit", folder / "student"
        link.symlink_to(paths.KIT_ROOT, target_is_directory=True)
        student.mkdir()
        shutil.copyfile(paths.step_file(paths.SOLUTIONS, "01_flatten"), paths.step_file(student, "01_flatten"))
        env = {k: v for k, v in os.environ.items() if k != "VITGRADE_ROOT"}
        runs["linked kit"] = _cli("check", "01_flatten", "--submission", str(student), "--format", "json",
                                  env={**env, "PYTHONPATH": str(link)}, cwd=folder)
    with Together(runs, folder / "output") as together:
        yield together


def statuses(step: StepResult) -> list[str]:
    return [t.status for t in step.tests]


def every_case(step_id: str, status: str) -> list[str]:
    """`status` once per fixture case of the step (visible and hidden), however many there are."""
    from grader.expected.store import load_cases

    return [status] * sum(len(load_cases(step_id, v)) for v in ("visible", "hidden"))


def by_function(step: StepResult, function: str) -> list:
    tests = [t for t in step.tests if t.name.startswith(f"{function} · ")]
    assert tests, function
    return tests


def full_marks(step: StepResult) -> bool:
    return step.status == "passed" and step.score == step.max_score > 0


def survivors() -> list[int]:
    """Processes whose command line or name carries MARKER, zombies included: gone means reaped."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                seen = Path(f"/proc/{entry}/cmdline").read_bytes() + Path(f"/proc/{entry}/comm").read_bytes()
            except OSError:
                continue
            if MARKER.encode() in seen:
                found.append(int(entry))
    return found


@pytest.fixture
def no_survivors():
    """Asserts in the test itself; afterwards kills, by pid, whatever a failed test left behind."""
    yield survivors
    for pid in survivors():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# --- time and memory --------------------------------------------------------------------------

def test_endless_loop_ignoring_signals_times_out_and_later_tests_are_not_run(grader_with, tmp_path):
    full_sandbox()
    started = time.monotonic()
    steps = graded(grader_with(timeout=2.0), submission(tmp_path, "loop", "04_cls"), ("03_position", "04_cls"))
    assert time.monotonic() - started < 2 + 15
    loop = steps["03_position"]
    assert loop.status == "timeout" and loop.score == 0
    assert statuses(loop) == every_case("03_position", "timeout")
    assert loop.tests[0].message == ("add_position did not finish within the step's time limit (2 s): "
                                     "an endless loop, or much too slow?")
    assert all(t.message.startswith("not run: the step's time limit was used up") for t in loop.tests[1:])
    assert full_marks(steps["04_cls"])


def test_memory_growth_ends_in_an_error_that_names_memory(tight, tmp_path):
    step = graded(tight, submission(tmp_path, "memory"), ("03_position",))["03_position"]
    assert step.status == "error"
    assert statuses(step) == every_case("03_position", "error")
    python, tensors, *hoarded = (t.message for t in step.tests)
    assert python.startswith("add_position raised MemoryError: out of memory: the worker may use 1 GiB")
    assert tensors.startswith("add_position raised RuntimeError") and "can't allocate memory" in tensors
    assert hoarded and all(h.startswith("add_position raised MemoryError: out of memory") for h in hoarded)
    assert "03_position.py\", line" in python  # the student's own line, nothing of the grader's


# --- ending the worker ------------------------------------------------------------------------

@pytest.mark.usefixtures("by_the_cli")  # starts the CLI's runs, now that no test has a tight limit
def test_exit_calls_and_segfaults_are_errors_naming_how_the_worker_ended(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "exits", "06_block"), ("05_attention", "06_block"))
    crashes = steps["05_attention"]
    assert crashes.status == "error" and crashes.score == 0
    assert statuses(crashes) == every_case("05_attention", "error")
    for test in by_function(crashes, "qkv_heads"):
        assert test.message.startswith("qkv_heads raised SystemExit: 3")
        assert "sys.exit(3)" in test.message
    for test in by_function(crashes, "attention_weights"):
        assert test.message == "attention_weights: your code ended the worker (exit status 4)"
    for test in by_function(crashes, "multi_head_attention"):
        assert test.message == ("multi_head_attention: your code ended the worker with a segmentation "
                                "fault (SIGSEGV)")
    # the class report groups by finding: each crash by the function that ended its worker
    assert {t.finding.id for t in crashes.tests if t.finding and "ended" in t.message} == {
        "ended_worker.attention_weights", "ended_worker.multi_head_attention"}
    assert full_marks(steps["06_block"])


def test_a_step_run_ahead_that_ends_its_worker_is_served_on_by_fresh_ones(grader, tmp_path, monkeypatch):
    """Step 08 (the ViT forwards) runs ahead beside 07 where the runner allows, its calls made from
    both ends (the thread from the last, the session from the first); each `quadrant_probabilities`
    ends the worker that makes it. Every call of it is an error naming the exit, every other test
    of the step passes, served after the crash by fresh workers as when nothing runs ahead."""
    from grader.judge import ahead

    started, real = [], ahead.AheadWorker
    monkeypatch.setattr(ahead, "AheadWorker",
                        lambda *args, **kwargs: started.append(real(*args, **kwargs)) or started[-1])
    folder = submission(tmp_path, "ahead", "07_head", "08_occlusion")
    occlusion_file = paths.step_file(folder, "08_occlusion")
    attack = (folder / "quadrant_probabilities_exits.py").read_text(encoding="utf-8")
    occlusion_file.write_text(occlusion_file.read_text(encoding="utf-8") + "\n\n" + attack, encoding="utf-8")
    steps = graded(grader, folder, ("07_head", "08_occlusion"))
    assert len(started) == (1 if grader.runner.runs_ahead() else 0)
    assert full_marks(steps["07_head"])
    occlusion = steps["08_occlusion"]
    for test in by_function(occlusion, "quadrant_probabilities"):
        assert (test.status, test.message) == (
            "error", "quadrant_probabilities: your code ended the worker (exit status 5)"), test.message
    others = [t for t in occlusion.tests if not t.name.startswith("quadrant_probabilities")]
    assert others and all(t.status == "passed" for t in others), [(t.name, t.message) for t in others]


def test_signals_and_inherited_file_descriptors(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "misc", "01_flatten"),
                   ("01_flatten", "02_project", "03_position", "04_cls"))
    signals = steps["02_project"]
    assert signals.status == "failed"
    kernels = [t.status for t in by_function(signals, "conv_to_linear")]
    assert kernels and set(kernels) == {"passed"}, kernels  # init is immune
    killed = {"project: the worker process ended unexpectedly",  # a race: did init report first?
              "project: your code ended the worker with SIGKILL (killed: by itself, or by the system when "
              "memory ran out)"}
    assert all(t.status == "error" and t.message in killed for t in by_function(signals, "project"))
    garbage = steps["03_position"]
    assert garbage.status == "error" and statuses(garbage) == every_case("03_position", "error")
    assert all(t.message.startswith("add_position: the worker's messages were garbled (message too large")
               and t.message.endswith("does your code write to inherited file descriptors?")
               for t in garbage.tests)
    closed = steps["04_cls"]
    assert closed.status == "error" and statuses(closed) == every_case("04_cls", "error")
    assert all(t.message == "prepend_cls: the worker could no longer answer the grader: does your code "
               "close, or write to, file descriptors it did not open?"
               for t in by_function(closed, "prepend_cls"))
    assert all(t.message == "embed: your code ended the worker with signal SIGALRM"
               for t in by_function(closed, "embed"))
    assert full_marks(steps["01_flatten"])


def test_forged_messages_on_the_workers_socket_are_garbled_not_a_grader_crash(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "forger"), ("03_position", "04_cls"))
    typed = steps["03_position"]
    # it forges on the photographs' calls, of one image each; its exit report is ignored
    forged = [t for t in typed.tests if "photo" in t.name]
    assert len(forged) == 2 and all(t.status == "passed" for t in typed.tests if t not in forged)
    assert all(t.status == "error" and t.message == "add_position: the worker's messages were garbled (a reply "
               "that does not answer this call); does your code write to inherited file descriptors?"
               for t in forged)
    assert all(t.finding is None for t in forged)  # garbled is not proof that the code ended its worker
    assert [n[:35] for n in typed.notes] == ["03_position.py names sys.modules (l"]  # the scan's only
    nested = steps["04_cls"]
    assert statuses(nested) == every_case("04_cls", "error")
    assert all("garbled (unreadable header: RecursionError)" in t.message for t in nested.tests)


# --- output -----------------------------------------------------------------------------------

def test_megabytes_of_printing_are_counted_and_the_step_still_graded(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "printing", "01_flatten"), ("01_flatten", "03_position"))
    printing = steps["03_position"]
    assert full_marks(printing)
    assert printing.notes == []  # what Python code prints belongs to the test whose call printed it
    flooded = printing.tests[0]
    assert flooded.output_bytes == 20_971_520 and flooded.output.startswith("debug xxx")
    assert len(flooded.output) <= 4096 and all(t.output_bytes == 0 for t in printing.tests[1:])
    assert full_marks(steps["01_flatten"]) and steps["01_flatten"].notes == []


# --- broken files and wrong answers -----------------------------------------------------------

def test_syntax_and_import_errors_show_file_and_line(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "broken", "02_project"),
                   ("02_project", "03_position", "04_cls"))
    syntax = steps["03_position"]
    assert syntax.status == "error" and statuses(syntax) == every_case("03_position", "error")
    assert all(t.message == "syntax error in 03_position.py, line 8: invalid syntax\n"
                            "        return total +* 2" for t in syntax.tests)
    assert {t.finding.id for t in syntax.tests} == {"import.syntax_error"}  # one kind of mistake, as data
    missing = steps["04_cls"]
    assert missing.status == "error" and statuses(missing) == every_case("04_cls", "error")
    for test in missing.tests:
        assert test.message.startswith("importing your file failed: ModuleNotFoundError: "
                                       "No module named 'vitgrade_no_such_module'")
        assert "04_cls.py\", line 4, in <module>" in test.message
        assert test.finding.id == "import.raised.ModuleNotFoundError"
    assert full_marks(steps["02_project"])
    # 07's own chain, run on these files, fails on the first of them it imports: blocked, in one line
    # naming that step, not the error and traceback its own tests show once more
    crashed = StepResult("07_head", "", "", 0.0, 15.0, "error", [TestResult(
        "vit_forward · sample photo", "visible", "error", 0.0, 15.0,
        "vit_forward raised SyntaxError: invalid syntax (03_position.py, line 8)\n  File \"/tmp/x/07_head.py\"")])
    chain = _own_chain_test(crashed, [steps["02_project"], syntax, missing])
    assert (chain.status, chain.score, chain.max_score) == ("blocked", 0.0, 0.0)
    assert chain.message == ("blocked by 03_position: your own chain runs your 03_position.py, which does not "
                             "import (its error is shown under 03_position)")
    unnamed = replace(crashed, tests=[replace(crashed.tests[0], message="vit_forward raised ValueError: no")])
    assert _own_chain_test(unnamed, [syntax, missing]).status == "error"  # no proof that they caused it


def test_wrong_types_shapes_dtypes_and_nans_fail_with_exact_messages(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "wrong_values"), ("01_flatten", "02_project"))
    flatten = steps["01_flatten"]
    not_int = "count_tokens must return a Python int; it returned"
    expected = {
        "normalize · sample photo": "normalize must return a torch.Tensor; it returned list",
        "normalize · second photo": "normalize returned a numpy array; return a torch.Tensor",
        "normalize · random pixels": "normalize must return a torch.Tensor; it returned NoneType",
        "patchify · sample photo": "patchify returned shape (1, 768, 196), expected (1, 196, 768).\n"
                                   "Your result is the expected one transposed: its last two axes are swapped.",
        "patchify · two random 32x48 images, 16px patches":
            "patchify returned a tensor of dtype torch.float16; expected torch.float32",
        "patchify · second photo": "patchify returned a tensor of dtype torch.int64; expected torch.float32",
        "patchify · random 64x96 images, 8px patches":
            "patchify returned a tensor of dtype torch.int64; expected torch.float32",
        "count_tokens · 224px, 16px patches, cls=True": f"{not_int} 197.0 (float)",
        "count_tokens · 224px, 16px patches, cls=False": f"{not_int} '196' (str)",
        "count_tokens · 224px, 8px patches, cls=True": f"{not_int} np.int64(785) (int64)",
        "count_tokens · 96px, 32px patches, cls=False": f"{not_int} True (bool)",
        "count_tokens · 384px, 16px patches, cls=True": f"{not_int} 577.0 (float)",
    }
    messages = {t.name: t.message for t in flatten.tests}
    assert {name: messages[name] for name in expected} == expected
    tensor = messages["count_tokens · 224px, 32px patches, cls=True"]
    assert tensor.startswith(not_int) and tensor.endswith("(tensor)")
    assert flatten.status == "failed" and statuses(flatten) == every_case("01_flatten", "failed")
    assert flatten.score == 0
    nans = steps["02_project"]
    assert nans.status == "failed" and statuses(nans) == every_case("02_project", "failed")
    for test in by_function(nans, "conv_to_linear"):
        assert test.message.startswith("conv_to_linear: wrong values.\nyour output contains ")
        assert "NaN values\nfirst wrong at input 1 [index 0], feature 1 [index 0]: got nan" in test.message
    sample = next(t for t in nans.tests if t.name == "project · sample photo")
    assert sample.message.startswith("project: wrong values.\nyour output contains 1 NaN values\n"
                                     "first wrong at image 1, patch P1 (row 1, col 1) [index 0], "
                                     "feature 1 [index 0]: got nan")
    assert "1 of 37632 values wrong" in sample.message


# --- reaching the judge, the solutions and the fixtures ---------------------------------------

def test_patching_torch_numpy_pytest_and_the_grader_changes_no_result(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "patching", "04_cls"), ("03_position", "04_cls"))
    patched = steps["03_position"]
    assert patched.status == "failed" and statuses(patched) == every_case("03_position", "failed")
    assert all(t.message.startswith("add_position: wrong values.\nfirst wrong at") and t.message.endswith(
        "Known mistake: You returned the tokens without adding the position table. (lecture page 16)")
        for t in patched.tests)
    assert full_marks(steps["04_cls"])  # a fresh worker: none of the patches carried over


def test_what_a_step_changes_in_its_interpreter_never_reaches_the_next_step(grader, tmp_path):
    """Step 03's file zeroes torch.cat and makes float64 the default at import: its own result shows
    the patch works; step 04, served by the same submission's worker, runs in a fresh process."""
    steps = graded(grader, submission(tmp_path, "leaking", "04_cls"), ("03_position", "04_cls"))
    assert steps["03_position"].status == "failed"
    assert full_marks(steps["04_cls"])


def test_answers_read_from_fixtures_find_none(grader, tmp_path):
    """The full sandbox's view holds no fixture file but the checkpoint, visible ones included."""
    step = graded(grader, submission(tmp_path, "visible_fixtures"), ("03_position",))["03_position"]
    assert statuses(step) == every_case("03_position", "failed") and step.score == 0
    first_rows = ("patch P1", "token CLS")  # the cases with CLS's row in the table start there
    assert all(t.message.startswith(tuple(f"add_position: wrong values.\nfirst wrong at image 1, {row}"
                                          for row in first_rows)) for t in step.tests)


def test_solutions_hidden_fixtures_tests_and_git_history_are_absent(grader, tmp_path):
    step = graded(grader, submission(tmp_path, "covered"), ("05_attention",))["05_attention"]
    assert step.status == "error" and statuses(step) == every_case("05_attention", "error")
    solution = paths.step_file(paths.SOLUTIONS, "05_attention")
    hidden = paths.FIXTURES / "hidden" / "05_attention.safetensors"
    for test in by_function(step, "qkv_heads"):
        assert test.message.startswith(f"qkv_heads raised FileNotFoundError: [Errno 2] No such file or "
                                       f"directory: '{solution}'")
    for test in by_function(step, "attention_weights"):
        assert test.message.startswith(f"attention_weights raised FileNotFoundError: [Errno 2] No such file "
                                       f"or directory: '{hidden}'")
    # The kit's folder shows what the worker reads there, and a venv made inside it (as the README's).
    python = {Path(p).relative_to(paths.KIT_ROOT).parts[0] for p in (sys.prefix, sys.exec_prefix)
              if paths.KIT_ROOT in Path(p).parents}
    listing = {str(paths.KIT_ROOT): sorted({"fixtures", "grader", *python}), str(paths.SOLUTIONS): "absent",
               str(paths.FIXTURES / "hidden"): "absent", str(paths.KIT_ROOT / "tests"): "absent",
               str(paths.KIT_ROOT / ".git"): "absent"}
    for test in by_function(step, "multi_head_attention"):
        assert test.message.startswith(f"multi_head_attention raised RuntimeError: listing {listing}; "
                                       "git: fatal: not a git repository")
    code = [line.strip() for line in solution.read_text().splitlines() if len(line.strip()) > 24]
    assert not [line for t in step.tests for line in code if line in t.message]  # nothing leaked


def test_writing_fixtures_fails_read_only_and_nothing_changes(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "tamper", "04_cls"), ("03_position", "04_cls"))
    tamper = steps["03_position"]
    assert statuses(tamper) == ["error"] + every_case("03_position", "passed")[1:]
    manifest = paths.FIXTURES / "manifest.json"
    assert tamper.tests[0].message.startswith(
        f"add_position raised OSError: [Errno 30] Read-only file system: '{manifest}'")
    assert full_marks(steps["04_cls"])
    assert verify(paths.FIXTURES) == []
    run = subprocess.run([sys.executable, "-m", "grader.cli", "fixtures", "verify"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def test_without_namespaces_fixture_tampering_is_reported(vandalised, tmp_path):
    result = vandalised.grade(submission(tmp_path, "tamper"), steps=("03_position",))
    assert [s.status for s in result.steps] == ["passed"]  # nothing stopped the writes ...
    assert result.sandbox.level == "partial"
    assert result.sandbox.missing == ["namespaces and read-only view (VITGRADE_SANDBOX=partial)"]
    assert result.tampering[:2] == [  # ... but every one is reported
        "manifest.json: modified", "checkpoint/standin.safetensors: sha256 does not match the manifest (modified)"]
    assert "visible/03_position.safetensors: missing" in result.tampering
    assert verify(paths.FIXTURES) == []  # the copy was vandalized, not the kit's own fixtures


# --- processes left behind --------------------------------------------------------------------

@pytest.mark.parametrize("confinement", ["full", "partial"])
def test_background_processes_and_threads_do_not_survive_the_step(confinement, request, tmp_path,
                                                                  no_survivors):
    grader = request.getfixturevalue("grader" if confinement == "full" else "partial")
    assert no_survivors() == []
    step = graded(grader, submission(tmp_path, "background"), ("03_position",))["03_position"]
    assert full_marks(step)
    assert no_survivors() == []


# --- forbidden work through other doors, and the kit's own code -------------------------------

def _all_fail_naming(step: StepResult, function: str, *names: str) -> None:
    for test in by_function(step, function):
        assert test.status == "failed", (test.name, test.message)
        assert test.message.startswith(f"{function} uses "), test.message
        assert all(name in test.message for name in names), (names, test.message)


def test_forbidden_operators_fail_their_step_whatever_the_python_name(grader, tmp_path):
    steps = graded(grader, submission(tmp_path, "other_doors"), ("01_flatten", "06_block", "07_head"))
    _all_fail_naming(steps["01_flatten"], "patchify", "torch.ops.aten.im2col (im2col, the work of F.unfold)")
    _all_fail_naming(steps["06_block"], "layer_norm", "torch.ops.aten.native_layer_norm (a library normalization)")
    _all_fail_naming(steps["06_block"], "block", "native_layer_norm")
    # timm's own model, its modules deleted from sys.modules afterwards: the import, every fused
    # operator its forward ran, and the earlier steps' library functions it called are named
    _all_fail_naming(steps["07_head"], "vit_forward", "timm, ", "(fused attention)", "(convolution)",
                     "native_layer_norm", "nn.Conv2d", "F.scaled_dot_product_attention", "F.layer_norm")
    for step_id, honest in (("01_flatten", ("normalize", "count_tokens")), ("06_block", ("mlp",)),
                            ("07_head", ("read_cls", "classify"))):
        assert all(t.status == "passed" for f in honest for t in by_function(steps[step_id], f)), step_id
        assert len(steps[step_id].notes) == 1 and "(line " in steps[step_id].notes[0]  # the text's note
    assert "torch.ops.aten.native_layer_norm (line 11)" in steps["06_block"].notes[0]


def test_erasing_the_record_of_a_forbidden_operator_earns_no_points(grader, tmp_path):
    """The fused attention kernel, then the worker's record emptied (05), or F.layer_norm, then the
    record replaced by an empty one (06), both reached through sys.modules, or a convolution after
    emptying the recording's list of what to look for (02): each such test fails,
    saying that it reached into the grader's instruments; the honest functions keep their points.
    timm imported as the file loads fails every call of the step (01), even one that then empties
    every set the worker module holds."""
    steps = graded(grader, submission(tmp_path, "erased"), ("01_flatten", "02_project", "05_attention", "06_block"))
    for test in steps["01_flatten"].tests:  # timm at the top of the file, then the worker's sets emptied
        assert test.status == "failed" and "timm" in test.message, (test.name, test.message)
    for step_id, function in (("02_project", "project"), ("05_attention", "multi_head_attention"),
                              ("06_block", "layer_norm")):
        for test in by_function(steps[step_id], function):
            assert test.status == "failed" and test.score == 0, (test.name, test.message)
            assert test.message.startswith(f"{function} reached into the grader's instruments"), test.message
            assert "the worker's record of its operators, edited" in test.message, test.message
    for step_id, honest in (("02_project", ("conv_to_linear",)), ("05_attention", ("qkv_heads", "attention_weights")),
                            ("06_block", ("mlp",))):
        assert all(t.status == "passed" for f in honest for t in by_function(steps[step_id], f)), step_id


def test_switching_off_the_operator_recording_earns_no_points(grader, tmp_path):
    """The modes popped by `_disable_current_modes`, or the Python dispatch key excluded, around
    `torch.ops.aten.native_layer_norm`, every name built from strings: each such test fails, saying
    that it reached into the grader's instruments; the honest mlp keeps its points."""
    step = graded(grader, submission(tmp_path, "instruments"), ("06_block",))["06_block"]
    assert step.status == "failed" and step.score < step.max_score
    for function, door in (("layer_norm", "torch.utils._python_dispatch._disable_current_modes"),
                           ("block", "torch._C._ExcludeDispatchKeyGuard")):
        for test in by_function(step, function):
            assert test.status == "failed" and test.score == 0, (test.name, test.message)
            assert test.message.startswith(f"{function} reached into the grader's instruments"), test.message
            assert door in test.message, test.message
    assert all(t.status == "passed" for t in by_function(step, "mlp"))


@pytest.mark.parametrize("confinement", ["full", "partial"])
def test_the_kits_own_correct_code_fails_the_step_on_every_platform(confinement, request, tmp_path):
    grader = request.getfixturevalue("grader" if confinement == "full" else "partial")
    step = graded(grader, submission(tmp_path, "borrowed"), ("05_attention",))["05_attention"]
    assert step.status == "failed" and step.score == 0
    for function in ("qkv_heads", "attention_weights", "multi_head_attention"):
        _all_fail_naming(step, function, "grader.lecture_maths (the kit's own code;")
    assert step.notes[0].startswith("05_attention.py names grader.lecture_maths (line 6)")


def test_a_step_finds_no_reference_solution_of_itself_in_its_process(grader, tmp_path):
    """The worker parent loads the reference solutions of every step before the last, for the steps
    after them; step 05's code, looking through `sys.modules` for the reference of step 05, finds
    none, while step 06 still runs on it."""
    steps = graded(grader, submission(tmp_path, "own_reference", "06_block"), ("05_attention", "06_block"))
    attention = steps["05_attention"]
    assert attention.score == 0 and statuses(attention) == every_case("05_attention", "error")
    assert all("no reference solution of step 05 in this process" in t.message for t in attention.tests)
    assert full_marks(steps["06_block"])


def test_honest_styles_keep_full_marks_and_get_no_note(grader, tmp_path):
    """Tensor.unfold (a view), loops, einsum, softmax, mean/var and F.gelu are the student's own work."""
    steps = graded(grader, submission(tmp_path, "honest_styles"), ("01_flatten", "05_attention", "06_block"))
    for step in steps.values():
        assert full_marks(step), [(t.name, t.message) for t in step.tests if t.status != "passed"]
        assert step.notes == []


# --- graded by the CLI in processes started with the module (by_the_cli): last, so that they are done

def test_slow_pure_python_within_the_limit_passes(by_the_cli):
    run = by_the_cli.finished("slow")
    assert run.returncode == 0, run.stderr[-3000:]
    (step,) = json.loads(run.stdout)["steps"]
    assert step["status"] == "passed" and step["score"] == step["max_score"] > 0, step


def test_cli_output_stays_pure_json_and_exit_status_is_1(by_the_cli):
    run = by_the_cli.finished("printing")
    assert run.returncode == 1, run.stderr
    contract = json.loads(run.stdout)  # 20 MB of the student's printing went elsewhere
    assert [(s["id"], s["status"]) for s in contract["steps"]] == [
        ("01_flatten", "not_attempted"), ("02_project", "not_attempted"), ("03_position", "passed"),
        ("04_cls", "error"), ("05_attention", "not_attempted"), ("06_block", "not_attempted"),
        ("07_head", "not_attempted"), ("08_occlusion", "not_attempted")]
    assert contract["score"] == 10
    assert {t["message"] for t in contract["steps"][0]["tests"]} == {"01_flatten.py is missing"}  # its name only
    assert "debug xxx" not in run.stderr and "Traceback" not in run.stderr


def test_a_kit_reached_through_a_symbolic_link_grades_correct_code_as_correct(by_the_cli):
    """Inside the view the link's path is a plain folder: the kit's own imports stay the kit's."""
    full_sandbox()
    run = by_the_cli.finished("linked kit")
    result = json.loads(run.stdout)
    assert run.returncode == 0 and result["score"] == result["max_score"] > 0, run.stdout[-2000:]
