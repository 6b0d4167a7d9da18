"""Grading a class: every folder gets a row, each result is kept as soon as it is graded, a run
stopped by Ctrl-C or SIGTERM keeps what it graded, and `--resume` grades only the rest.

The classes are small and cheap: a few submissions of step 01 alone, graded with `--steps 01_flatten`.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from grader import paths
from grader.cli.app import app
from grader.platforms import classes
from grader.platforms.classes import _among_last, _end_judges, expand_submissions
from grader.reports import render_summary
from grader.steps import get_step

runner = CliRunner()
STUDENTS = ("ada", "ben", "cy", "dee", "eve")
EMPTY = "gus"  # a misnamed upload: no step file, so 0 and the reason
KEPT_BEFORE_STOP = 2
STOPPED_EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


def make_class(base: Path) -> Path:
    folder = base / "class"
    for name in STUDENTS:
        (folder / name).mkdir(parents=True)
        (folder / name / "01_flatten.py").write_bytes(paths.step_file(paths.SOLUTIONS, "01_flatten").read_bytes())
    (folder / EMPTY).mkdir()
    (folder / EMPTY / "01-flatten.py").write_text("def normalize(x): return x\n")
    return folder


def grade_command(*extra: str) -> list[str]:
    return [sys.executable, "-X", "faulthandler", "-m", "grader.cli", "grade", "class", "--steps", "01_flatten",
            "--csv", "g.csv", "--format", "json", "--output", "r.json", *extra]


def grading_environment() -> dict[str, str]:
    """The kit under test, one OpenMP thread: the two stop cases run at once."""
    return {**os.environ, "PYTHONPATH": str(paths.KIT_ROOT), "OMP_NUM_THREADS": "1"}


def rows(book: Path) -> dict[str, dict[str, str]]:
    return {row["submission"]: row for row in csv.DictReader(StringIO(book.read_text()))}


def kept_files(results: Path) -> dict[str, int]:
    """Each kept result file's inode: a result written again (always by a rename) gets a new one."""
    return {path.stem: path.stat().st_ino for path in results.glob("*.json")}


#: The students graded after the stop: each waits at import for a file that the test writes only
#: once the run is stopped, so the stop always comes with these still to grade, however busy the machine.
WAIT_FOR_THE_STOP = ("cy", "dee", "eve")
GO = "stopped"  # the file they wait for, beside their step file
WAITING = ("\nimport pathlib, time\n"
           f"while not (pathlib.Path(__file__).parent / {GO!r}).exists():\n"
           "    time.sleep(0.02)\n")


def stop_half_way(base: Path, sent: signal.Signals, jobs: int) -> subprocess.CompletedProcess:
    """Start grading the class, and once KEPT_BEFORE_STOP submissions are graded send `sent` as a
    person (Ctrl-C: the whole process group) or a CI runner (SIGTERM: the grading process) would."""
    for name in WAIT_FOR_THE_STOP:
        with open(base / "class" / name / "01_flatten.py", "a", encoding="utf-8") as step_file:
            step_file.write(WAITING)
    process = subprocess.Popen(grade_command("--jobs", str(jobs)), cwd=base, env=grading_environment(), text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 300
    while len(list((base / "g.results").glob("*.sha256"))) < KEPT_BEFORE_STOP + 1:  # + the empty folder's
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    if sent == signal.SIGINT:
        os.killpg(process.pid, sent)
    else:
        os.kill(process.pid, sent)
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"grading went on for 60 s after {sent.name}: a judge in the middle of a step was not ended\n"
                    + _where_it_hangs(process))
    _wait_until_gone(process.pid)
    for name in WAIT_FOR_THE_STOP:
        (base / "class" / name / GO).touch()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _where_it_hangs(process: subprocess.Popen) -> str:
    """The run's processes, and the stack of every thread of the grading process (its faulthandler
    answers SIGABRT), before all of them are killed."""
    listing = subprocess.run(["ps", "-o", "pid,ppid,stat,args", "-g", str(process.pid)],
                             capture_output=True, text=True).stdout
    os.kill(process.pid, signal.SIGABRT)
    try:
        _, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        err = "(no stacks: it did not answer SIGABRT)"
    with contextlib.suppress(ProcessLookupError):  # the rest of the run, if any is left
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    return f"{listing}\n{err[-6000:]}"


def _wait_until_gone(group: int) -> None:
    """Every process the run started ends with it (the pool's judges, their zygotes and workers)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    pytest.fail("processes of the stopped run are still alive")


@dataclass
class StopAndResume:
    """One class stopped half-way and resumed, as the test reads it afterwards."""

    stopped: subprocess.CompletedProcess
    kept: dict[str, int]  # kept result files after the stop (their inodes)
    book: dict[str, dict[str, str]]  # the gradebook after the stop
    reports: int  # documents in the --output report after the stop
    kept_copy: Path  # the results folder as the stop left it
    changed: str  # the graded submission changed before resuming
    resumed: subprocess.CompletedProcess
    after: dict[str, int]
    book_after: dict[str, dict[str, str]]


SCENARIOS = {"ctrl-c": (signal.SIGINT, 1), "sigterm-jobs-2": (signal.SIGTERM, 2)}


def stop_and_resume(base: Path, sent: signal.Signals, jobs: int) -> StopAndResume:
    make_class(base)
    stopped = stop_half_way(base, sent, jobs)
    kept = kept_files(base / "g.results")
    book = rows(base / "g.csv") if (base / "g.csv").exists() else {}
    reports = len(json.loads((base / "r.json").read_text())) if (base / "r.json").exists() else -1
    shutil.copytree(base / "g.results", base / "g.results.at-stop")
    graded = [name for name in kept if name != EMPTY]
    changed = graded[0] if graded else ""  # changed since it was graded: graded again, the other finished ones not
    if changed:
        (base / "class" / changed / "01_flatten.py").write_text("def normalize(pixels):\n    return pixels\n")
    resumed = subprocess.run(grade_command("--resume", "--jobs", str(jobs)), cwd=base, env=grading_environment(),
                             capture_output=True, text=True, timeout=300)
    return StopAndResume(stopped, kept, book, reports, base / "g.results.at-stop", changed, resumed,
                         kept_files(base / "g.results"), rows(base / "g.csv"))


@pytest.fixture(scope="module")
def stopped_classes(tmp_path_factory) -> dict[str, StopAndResume]:
    """Both scenarios at once, each in a thread of its own: a run is a judge (or two) mostly waiting on
    its workers, so two of them keep the two cores busy."""
    bases = {name: tmp_path_factory.mktemp(name) for name in SCENARIOS}
    with concurrent.futures.ThreadPoolExecutor(len(SCENARIOS)) as pool:
        futures = {name: pool.submit(stop_and_resume, bases[name], *SCENARIOS[name]) for name in SCENARIOS}
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.slow
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_a_stopped_class_keeps_what_it_graded_and_resume_grades_only_the_rest(stopped_classes, scenario: str,
                                                                            tmp_path: Path) -> None:
    sent, _ = SCENARIOS[scenario]
    run = stopped_classes[scenario]
    stopped, kept = run.stopped, run.kept
    assert stopped.returncode == STOPPED_EXIT[sent], stopped.stderr
    assert "Traceback" not in stopped.stderr and "leaked" not in stopped.stderr, stopped.stderr
    graded = [name for name in kept if name != EMPTY]
    left = len(STUDENTS) - len(graded)
    assert len(graded) >= KEPT_BEFORE_STOP and left > 0, kept  # stopped half-way, not at the end
    assert set(graded).isdisjoint(WAIT_FOR_THE_STOP), kept
    assert f"stopped by {sent.name}: {left} submission(s) not graded" in stopped.stderr
    assert len(stopped.stderr.strip().splitlines()) == 1, stopped.stderr
    book = run.book  # the gradebook of what was graded, the empty folder included
    assert set(book) == set(kept)
    assert book[EMPTY]["score"] == "0" and "01-flatten.py (did you mean 01_flatten.py?)" in book[EMPTY]["note"]
    assert run.reports == len(kept)  # --output: one JSON document
    merged = runner.invoke(app, ["gradebook", str(run.kept_copy), "--csv", str(tmp_path / "merged.csv")])
    assert merged.exit_code == 0 and rows(tmp_path / "merged.csv") == book, merged.output

    resumed, after, changed = run.resumed, run.after, run.changed
    assert resumed.returncode == 1, resumed.stderr  # the empty folder scores 0, the changed one fails
    assert [name for name in kept if after[name] != kept[name]] == [changed]
    assert set(after) == {*STUDENTS, EMPTY}
    book = run.book_after
    assert set(book) == {*STUDENTS, EMPTY} and book[changed]["01_flatten status"] != "passed"
    assert all(book[name]["score"] == "10" for name in STUDENTS if name != changed)


def _deaf_to_sigterm(started: Path) -> None:
    """A judge stuck where SIGTERM cannot end it."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    started.touch()
    time.sleep(600)


def test_a_judge_that_outlives_sigterm_is_killed_and_the_stopped_pool_ends(tmp_path: Path, monkeypatch) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    monkeypatch.setattr(classes, "JUDGE_END_PATIENCE", 0.5)
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    pool.submit(_deaf_to_sigterm, tmp_path / "started")
    deadline = time.monotonic() + 30
    while not (tmp_path / "started").exists():
        assert time.monotonic() < deadline, "the judge did not start"
        time.sleep(0.02)
    judge = next(iter(pool._processes.values()))
    began = time.monotonic()
    _end_judges(pool)
    pool.shutdown(wait=True)  # returns only once every judge has ended
    judge.join(10)
    # Its status, where this process still holds it. The executor's own thread may be collecting the
    # judge at this very moment (its waitpid wins: join returns at once and exitcode reads None, then
    # the status a moment later), so the status is waited for and read once; where it never comes,
    # the judge's pid being gone is the proof that it ended, though it ignored SIGTERM.
    deadline = time.monotonic() + 10
    while judge.exitcode is None and not _reaped(judge.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    status = judge.exitcode
    assert status == -signal.SIGKILL or (status is None and _reaped(judge.pid)), status
    assert time.monotonic() - began < 10


def _reaped(pid: int) -> bool:
    """No process has this pid any more (ended and collected)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_every_folder_of_a_class_is_a_submission_and_one_without_step_files_says_why(tmp_path: Path) -> None:
    folder = make_class(tmp_path)
    (folder / "hal").mkdir()
    (folder / "ivy").mkdir()
    (folder / "ivy" / "REASON.txt").write_text("course/vit-ivy could not be fetched\nsecond line\n")
    (folder / "__MACOSX").mkdir()
    found = {submission.name: submission.not_graded for submission in expand_submissions([folder])}
    assert set(found) == {*STUDENTS, EMPTY, "hal", "ivy"}
    assert all(found[name] == "" for name in STUDENTS)
    assert found["hal"] == "no step file: the folder is empty."
    assert found["ivy"] == "course/vit-ivy could not be fetched"
    assert "01-flatten.py (did you mean 01_flatten.py?)" in found[EMPTY]


@pytest.mark.parametrize(("options", "said"), [
    (["--timeout", "-3"], "--timeout -3: a step needs at least 1 second"),
    (["--timeout", "nan"], "--timeout nan"),
    (["--jobs", "0"], "--jobs 0"),
    (["--memory", "0.5"], "--memory 0.5: a worker needs at least 1 GiB"),
    (["--memory", "inf"], "--memory inf"),
    (["--steps", "09_extra"], "unknown step '09_extra'"),
    (["--resume"], "--resume reads the kept results"),
])
def test_bad_options_get_one_line_and_exit_2(options: list[str], said: str) -> None:
    outcome = runner.invoke(app, ["grade", str(paths.SOLUTIONS), *options])
    assert outcome.exit_code == 2 and said in outcome.output, outcome.output
    assert len(outcome.output.strip().splitlines()) == 1, outcome.output


def test_the_class_table_is_never_cut_in_a_log_and_fits_a_terminal() -> None:
    from test_reports import mixed

    names = [f"/tmp/cls/children-of-a-long-folder-name-{i}" for i in range(3)]
    results = [mixed(name) for name in names]
    log = Console(file=StringIO(), force_terminal=False, width=80)
    render_summary(results, log)
    text = log.file.getvalue()
    for name in names:  # whole names and whole totals, however wide the table
        assert next(line for line in text.splitlines() if name in line).rstrip().endswith("17.5/80")
    assert "occlusion" in text and "Not shown" not in text
    terminal = Console(file=StringIO(), force_terminal=True, color_system=None, width=80)
    render_summary(results, terminal)
    text = terminal.file.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    for name in names:  # names first, then the total: the step columns that do not fit are named
        assert next(line for line in text.splitlines() if name in line).rstrip().endswith("17.5/80")
    assert "Not shown, too narrow a terminal: " in text and "08_occlusion" in text


def test_the_last_submissions_of_a_pool_run_their_forwards_ahead_on_the_cores_left_idle() -> None:
    """As the judges run out of work one by one, each of the last submissions started takes a second
    worker; a lone judge runs its steps ahead anyway, where the machine has the cores."""
    assert [_among_last(i, 10, 2) for i in range(10)] == [False] * 8 + [True] * 2
    assert [_among_last(i, 3, 3) for i in range(3)] == [True] * 3  # as many judges as submissions
    assert not any(_among_last(i, 5, 1) for i in range(5))


def test_a_gradebook_is_written_whole_or_left_as_it_was(tmp_path: Path, monkeypatch) -> None:
    book = tmp_path / "g.csv"
    book.write_text("before\n")
    paths.write_whole(book, "after\n")
    assert book.read_text() == "after\n" and [p.name for p in tmp_path.iterdir()] == ["g.csv"]

    def stopped(*args: object) -> None:  # stopped between writing and renaming
        raise KeyboardInterrupt
    monkeypatch.setattr(paths.os, "replace", stopped)
    with pytest.raises(KeyboardInterrupt):
        paths.write_whole(book, "half of it")
    assert book.read_text() == "after\n" and [p.name for p in tmp_path.iterdir()] == ["g.csv"]

    link = tmp_path / "latest.csv"  # a link (or /dev/stdout) is written through, never replaced
    link.symlink_to(book)
    paths.write_whole(link, "through the link\n")
    assert link.is_symlink() and book.read_text() == "through the link\n"


def test_a_stop_once_grading_has_ended_lets_the_reports_finish(tmp_path: Path, monkeypatch) -> None:
    """SIGTERM while the gradebook is written: it is written whole, then the command ends as stopped."""
    from grader.cli import grade as grade_module

    folder = tmp_path / "class"
    for name in ("hal", "ivy"):  # uploads that could not be fetched: nothing to grade, a row each
        (folder / name).mkdir(parents=True)
        (folder / name / "REASON.txt").write_text(f"course/vit-{name} could not be fetched\n")
    writing = grade_module._write_reports

    def stopped_while_writing(*args: object, **options: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        writing(*args, **options)
    monkeypatch.setattr(grade_module, "_write_reports", stopped_while_writing)
    reached_pytest: list[int] = []  # where the signal lands if the command does not take it
    before = signal.signal(signal.SIGTERM, lambda number, frame: reached_pytest.append(number))
    try:
        outcome = runner.invoke(app, ["grade", str(folder), "--csv", str(tmp_path / "g.csv")])
    finally:
        signal.signal(signal.SIGTERM, before)
    assert not reached_pytest
    assert outcome.exit_code == STOPPED_EXIT[signal.SIGTERM], outcome.output
    assert "stopped by SIGTERM once grading had ended" in outcome.output
    assert set(rows(tmp_path / "g.csv")) == {"hal", "ivy"}


def cloned(folder: Path, files: dict[str, str]) -> Path:
    """A repository as `git clone` leaves it: a README and .git beside whatever else it holds."""
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / "README.md").write_text("# my exercises\n")
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_a_class_of_cloned_repositories_grades_one_row_per_repository_named_by_its_folder(tmp_path: Path) -> None:
    """Step files in each repository's exercises/; the README, .git and the rest are never graded."""
    flatten = paths.step_file(paths.SOLUTIONS, "01_flatten").read_text()
    cloned(tmp_path / "class" / "vit-ada", {"exercises/01_flatten.py": flatten,
                                            "notes/01_flatten.py": "raise SystemExit"})
    cloned(tmp_path / "class" / "vit-ben", {"exercises/01_flatten_v2.py": flatten})
    cloned(tmp_path / "class" / "vit-cy", {})
    found = {s.name: s for s in expand_submissions([tmp_path / "class"])}
    assert found["vit-ada"].folder == tmp_path / "class" / "vit-ada" / "exercises" and not found["vit-ada"].not_graded
    assert found["vit-ben"].not_graded.startswith("exercises/: no step file")
    assert "01_flatten_v2.py (did you mean 01_flatten.py?)" in found["vit-ben"].not_graded
    assert found["vit-cy"].not_graded

    outcome = runner.invoke(app, ["grade", str(tmp_path / "class"), "--steps", "01_flatten", "--csv",
                                  str(tmp_path / "g.csv"), "--report", str(tmp_path / "class.html")])
    assert outcome.exit_code == 1, outcome.output
    book = rows(tmp_path / "g.csv")
    assert sorted(book) == ["vit-ada", "vit-ben", "vit-cy"]
    assert float(book["vit-ada"]["score"]) == get_step("01_flatten").points and book["vit-ben"]["score"] == "0"
    assert json.loads((tmp_path / "g.results" / "vit-ada.json").read_text())["submission"].endswith("vit-ada")
    assert "vit-ada" in (tmp_path / "class.html").read_text()
