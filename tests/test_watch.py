"""`vitgrade check STEP --watch` regrades a saved file and names it, and Ctrl-C leaves no worker
behind; every check names the files it graded and says when the student stands in another copy."""
from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import paths
from grader.cli.app import app
from grader.recheck import WAITING

_WAIT = 180.0  # seconds for one report: the first one starts the workers' zygote, on a loaded machine


class _Lines:
    """A child's stdout, line by line, read in a thread so that the test can wait with a timeout."""

    def __init__(self, stream) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def until_waiting(self) -> str:
        """Everything printed up to and including the next `watching ...` line."""
        block = []
        deadline = time.monotonic() + _WAIT
        while True:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            assert line is not None, "the watch ended:\n" + "\n".join(self.seen + block)
            block.append(line)
            if line.startswith(WAITING):
                self.seen += block
                return "\n".join(block)


def _descendants(root: int, excluding: set[int] = frozenset()) -> dict[int, str]:
    """Every process below `root`, by pid, with its start time (so a reused pid is not mistaken);
    none at or below a pid in `excluding`."""
    parents: dict[int, list[int]] = {}
    started: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry))
            started[int(entry)] = fields[19]
    found, stack = {}, list(parents.get(root, []))
    while stack:
        pid = stack.pop()
        if pid in excluding:
            continue
        found[pid] = started[pid]
        stack += parents.get(pid, [])
    return found


def _looping_below(watch: int, seconds: float = 0.5) -> bool:
    """Whether a worker below the zygote (the watch's child) has spent `seconds` of CPU: the step's
    endless loop is running. Its processes alone come that far; the zygote's own torch import, the
    sign used before, can come first by a long way on a slow machine."""
    ticks = os.sysconf("SC_CLK_TCK")
    for pid in _descendants(watch):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        below_the_zygote = int(fields[1]) != watch  # the parent's pid
        if below_the_zygote and (int(fields[11]) + int(fields[12])) / ticks >= seconds:  # utime + stime
            return True
    return False


def _alive(pid: int, started: str) -> bool:
    """Whether the process `pid` that started at `started` still runs (a zombie has ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == started and fields[0] != "Z"


@pytest.mark.slow
def test_watch_regrades_each_save_names_the_file_and_ctrl_c_ends_every_worker(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    step_file = mine / "01_flatten.py"
    shutil.copy(paths.EXERCISES / "01_flatten.py", step_file)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(paths.KIT_ROOT),
                                                                      os.environ.get("PYTHONPATH")]))}
    # Its own session, so that Ctrl-C can reach its whole foreground group as a terminal's does.
    watch = subprocess.Popen(
        [sys.executable, "-m", "grader.cli", "check", "01_flatten", "--submission", "mine", "--watch"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    try:
        lines = _Lines(watch.stdout)
        first = lines.until_waiting()
        assert "file: mine/01_flatten.py" in first and "not attempted" in first
        workers = _descendants(watch.pid)
        assert workers, "the watch runs no worker process"

        # The student writes the step; saved whole, as editors save by renaming a finished copy (a
        # file copied in place can be read half-written by a grade that starts in between).
        shutil.copy(paths.SOLUTIONS / "01_flatten.py", mine / "01_flatten.py.saving")
        os.replace(mine / "01_flatten.py.saving", step_file)
        written = lines.until_waiting()
        assert "10/10  passed" in written and "file: mine/01_flatten.py" in written, written

        with step_file.open("a") as handle:  # saved again: graded again, with the same result
            handle.write("\n# checked again\n")
        again = lines.until_waiting()
        assert "mine/01_flatten.py saved, same result" in again and "01_flatten 10/10 passed" in again, again

        workers.update(_descendants(watch.pid))
        os.killpg(watch.pid, signal.SIGINT)
        code = watch.wait(timeout=60)
    finally:
        if watch.poll() is None:
            os.killpg(watch.pid, signal.SIGKILL)
            watch.wait()
    stderr = watch.stderr.read()
    assert code == 0, f"exit status {code} after a passing last check; stderr:\n{stderr}"
    assert "Traceback" not in stderr, stderr
    survivors = [pid for pid, started in workers.items() if _alive(pid, started)]
    assert not survivors, f"processes left behind after Ctrl-C: {survivors}"


@pytest.mark.slow
@pytest.mark.usefixtures("cli_on_the_shared_runner")
def test_a_check_from_inside_another_copy_names_the_copy_it_graded(tmp_path, monkeypatch):
    other = tmp_path / "vit-kit-fresh"  # a second clone: its own grader package and exercises
    (other / "grader").mkdir(parents=True)
    shutil.copy(paths.KIT_ROOT / "grader" / "paths.py", other / "grader" / "paths.py")
    shutil.copytree(paths.EXERCISES, other / "exercises")
    monkeypatch.chdir(other / "exercises")

    outcome = CliRunner().invoke(app, ["check", "01_flatten"])
    graded_copy, graded_file = paths.KIT_ROOT.resolve(), (paths.EXERCISES / "01_flatten.py").resolve()
    assert f"file: {graded_file}" in outcome.stdout, outcome.stdout
    said = " ".join(outcome.stdout.split())  # the terminal's width may wrap the line anywhere
    assert f"You are in the kit copy {other.resolve()}, but these are the files of the copy {graded_copy}" \
        in said, outcome.stdout
    assert "pip install -e ." in said and "VITGRADE_ROOT" in said


@pytest.mark.slow
def test_a_save_within_the_same_second_is_graded_not_the_bytecode_of_the_file_before(tmp_path, grader):
    """Python trusts a .pyc while the source keeps its size and its mtime in whole seconds: a
    one-character edit saved in the same second must still be graded as written."""
    import py_compile

    step_file = tmp_path / "01_flatten.py"
    right = (paths.SOLUTIONS / "01_flatten.py").read_text()
    wrong = right.replace("/ 255 - 0.5", "/ 256 - 0.5", 1)
    assert wrong != right and len(wrong) == len(right)
    step_file.write_text(right)
    before = os.stat(step_file)
    py_compile.compile(str(step_file), doraise=True)  # left by the student's own run of the file
    step_file.write_text(wrong)
    os.utime(step_file, ns=(before.st_atime_ns, before.st_mtime_ns))  # the same second, the same size

    result = grader.grade(tmp_path, ("01_flatten",))
    normalize = [test for test in result.steps[0].tests if test.name.startswith("normalize")]
    assert normalize and all(test.status == "failed" for test in normalize), \
        [(test.name, test.status) for test in result.steps[0].tests]


def test_graded_files_are_named_from_where_the_student_stands(tmp_path):
    from grader.graded_files import GradedFiles

    kit = tmp_path / "kit"
    (kit / "grader").mkdir(parents=True)
    (kit / "grader" / "paths.py").write_text("")
    (kit / "exercises").mkdir()
    (kit / "notebooks").mkdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()

    def shown(here: Path) -> str:
        return GradedFiles.of(kit / "exercises", ("05_attention",), here).shown("05_attention")

    assert shown(kit) == "exercises/05_attention.py"
    assert shown(kit / "exercises") == "05_attention.py"
    assert shown(kit / "notebooks") == "../exercises/05_attention.py"  # the same copy: relative
    assert shown(outside) == str((kit / "exercises" / "05_attention.py").resolve())  # no copy here
    assert GradedFiles.of(kit / "exercises", ("05_attention",), outside).other_copy() is None


@pytest.mark.slow
def test_ctrl_c_while_a_step_runs_ends_the_watch_and_every_worker(tmp_path):
    """pytest, which runs the suites in the judge, takes Ctrl-C for the end of its session: the watch
    must still end, not report the cut-short step and wait for the next save."""
    mine = tmp_path / "mine"
    mine.mkdir()
    looping = (paths.SOLUTIONS / "01_flatten.py").read_text().replace(
        "    return (pixels.to(torch.float32) / 255 - 0.5) / 0.5", "    while True:\n        pass", 1)
    assert "while True" in looping
    (mine / "01_flatten.py").write_text(looping)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(paths.KIT_ROOT),
                                                                      os.environ.get("PYTHONPATH")]))}
    watch = subprocess.Popen(
        [sys.executable, "-m", "grader.cli", "check", "01_flatten", "--submission", "mine", "--watch"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    try:
        workers: dict[int, str] = {}
        deadline = time.monotonic() + _WAIT
        while not _looping_below(watch.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
            workers.update(_descendants(watch.pid))
        assert _looping_below(watch.pid), f"the step's loop never ran: {workers}"
        workers.update(_descendants(watch.pid))
        os.killpg(watch.pid, signal.SIGINT)
        code = watch.wait(timeout=60)
    finally:
        if watch.poll() is None:
            os.killpg(watch.pid, signal.SIGKILL)
            watch.wait()
    stdout, stderr = watch.stdout.read(), watch.stderr.read()
    assert code == 130, f"exit status {code}: no check was complete\n{stdout}\n{stderr}"
    assert "stopped watching" in stdout and "01_flatten" not in stdout, stdout
    assert "Traceback" not in stderr, stderr
    survivors = [pid for pid, started in workers.items() if _alive(pid, started)]
    assert not survivors, f"processes left behind after Ctrl-C: {survivors}"
