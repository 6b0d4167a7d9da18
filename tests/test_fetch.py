"""`vitgrade fetch`: a roster of real git repositories, each hostile in its own way, fetched into a
class that only ever holds step files, reasons and records; then graded, one row per repository."""
from __future__ import annotations

import csv
import json
import os
import subprocess
import time
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import paths
from grader.cli.app import app
from grader.platforms.fetch import (FETCHED_FILE, RosterError, _Git, _git_environment, _read_step_files, fetch_class,
                                    read_roster, without_credentials)
from grader.platforms.classes import not_graded
from grader.platforms.uploads import MAX_STEP_BYTES, REASON_FILE
from grader.reports.contract import to_json
from grader.steps import STEP_IDS

runner = CliRunner()
GIT_ENVIRONMENT = {"GIT_AUTHOR_NAME": "s", "GIT_AUTHOR_EMAIL": "s@example.org", "GIT_COMMITTER_NAME": "s",
                   "GIT_COMMITTER_EMAIL": "s@example.org", "GIT_CONFIG_GLOBAL": os.devnull,
                   "GIT_CONFIG_NOSYSTEM": "1"}
LONG_NAME = "n" * 297 + ".py"  # 300 bytes: git stores it, no file system of Linux can (255 at most)
BIG_BYTES = 60 * 2**20


def git(repository: Path, *arguments: str, given: bytes | None = None) -> str:
    return subprocess.run(["git", "-C", str(repository), *arguments], input=given, capture_output=True,
                          check=True, env={**os.environ, **GIT_ENVIRONMENT}).stdout.decode().strip()


def repository(base: Path, name: str, files: dict[str, bytes], links: dict[str, str] | None = None,
               filters: bool = False) -> Path:
    """A repository whose one commit holds `files` and `links` (path -> target), and a README."""
    folder = base / name
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main")
    for path, data in {"README.md": b"# my exercises\n", **files}.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    for path, target in (links or {}).items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).symlink_to(target)
    git(folder, "add", "-A")
    git(folder, "commit", "-qm", "work")
    if filters:  # the server lets the fetch leave large blobs behind, as GitHub does
        git(folder, "config", "uploadpack.allowFilter", "true")
    return folder


def with_long_name(folder: Path) -> None:
    """Add exercises/<300-byte name> with git's plumbing: `git mktree` takes it, checkout cannot."""
    blob = git(folder, "hash-object", "-w", "--stdin", given=b"x = 1\n")
    exercises = git(folder, "rev-parse", "HEAD:exercises")
    listed = [entry for entry in git(folder, "ls-tree", "-z", exercises).split("\0") if entry]
    tree = git(folder, "mktree", "-z", given="".join(f"{entry}\0" for entry in
                                                    [*listed, f"100644 blob {blob}\t{LONG_NAME}"]).encode())
    top = [entry if not entry.endswith("\texercises") else f"040000 tree {tree}\texercises"
           for entry in git(folder, "ls-tree", "-z", "HEAD").split("\0") if entry]
    root = git(folder, "mktree", "-z", given="".join(f"{entry}\0" for entry in top).encode())
    commit = git(folder, "commit-tree", root, "-p", "HEAD", "-m", "a long name")
    git(folder, "update-ref", "HEAD", commit)


def solutions() -> dict[str, bytes]:
    return {f"exercises/{step_id}.py": paths.step_file(paths.SOLUTIONS, step_id).read_bytes() for step_id in STEP_IDS}


def hostile_roster(base: Path) -> tuple[Path, Path]:
    """Six repositories as students leave them, and the roster naming them (file:// URLs): one
    good, one with a 300-byte file name, one with a 60 MB step file, one whose step file is a link
    to /etc/passwd, one with only misnamed files, one that does not exist. (roster, the good one)"""
    good = repository(base, "good", solutions(), filters=True)
    long_name = repository(base, "long", {"exercises/01_flatten.py": solutions()["exercises/01_flatten.py"]})
    with_long_name(long_name)
    big = repository(base, "big", {"exercises/01_flatten.py": b"#" * BIG_BYTES}, filters=True)
    link = repository(base, "link", {}, links={"exercises/01_flatten.py": "/etc/passwd"})
    misnamed = repository(base, "misnamed", {"exercises/01_flatten_v2.py": b"def patchify(x): return x\n"})
    lines = [f"file://{folder}" for folder in (good, long_name, big, link, misnamed)] + [f"file://{base}/gone"]
    (base / "roster.txt").write_text("# the class\n" + "\n".join(lines) + "\n")
    return base / "roster.txt", good


@pytest.fixture(scope="module")
def roster(tmp_path_factory) -> tuple[Path, Path]:
    return hostile_roster(tmp_path_factory.mktemp("students"))


def every_file(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*"))


def test_a_hostile_roster_gives_a_folder_per_line_holding_only_step_files_reasons_and_records(
        roster, tmp_path: Path) -> None:
    """Fetched in time; nothing but what grading reads and why the rest was left. (Graded, with
    one row per repository, in tests/test_first_course.py's course.)"""
    roster_file, good = roster
    started = time.monotonic()
    fetched = runner.invoke(app, ["fetch", str(roster_file), "--into", str(tmp_path / "class")])
    assert time.monotonic() - started < 120 and fetched.exit_code == 1, fetched.output
    assert_fetched_as_promised(tmp_path / "class", good)


def assert_fetched_as_promised(fetched: Path, good: Path) -> dict[str, str]:
    """A folder per roster line and nothing else; in them only step files under the cap, reasons
    and records, no link; each reason what was wrong. The reasons, by folder."""
    folders = sorted(p.name for p in fetched.iterdir())
    assert folders == ["big", "gone", "good", "link", "long", "misnamed"]
    allowed = {f"{s}.py" for s in STEP_IDS} | {REASON_FILE, FETCHED_FILE}
    for path in every_file(fetched):
        assert not path.is_symlink(), path
        assert path.is_dir() == (path.parent == fetched), path  # folders only at the top
        if path.is_file():
            assert path.name in allowed and path.stat().st_size <= MAX_STEP_BYTES, path
    reasons = {name: (fetched / name / REASON_FILE).read_text() for name in folders
               if (fetched / name / REASON_FILE).exists()}
    assert set(reasons) == {"big", "gone", "link", "misnamed"}
    assert "larger than 1 MB" in reasons["big"] and "a link" in reasons["link"]
    assert "01_flatten_v2.py (did you mean 01_flatten.py?)" in reasons["misnamed"]
    assert "could not be fetched" in reasons["gone"]
    assert sorted(p.name for p in (fetched / "long").iterdir()) == ["01_flatten.py", FETCHED_FILE]
    record = json.loads((fetched / "good" / FETCHED_FILE).read_text())
    assert record == {"repository": f"file://{good}", "ref": record["ref"], "commit": git(good, "rev-parse", "HEAD")}
    return reasons


def test_the_filter_leaves_a_large_blob_on_the_server(roster, tmp_path: Path) -> None:
    """Where the server allows filters, a 60 MB step file is never downloaded: the bare folder it
    was read into stays far smaller than the blob."""
    roster_file, _ = roster
    big = next(r for r in read_roster(roster_file.read_text()) if r.folder == "big")
    git_folder = tmp_path / "bare"
    commit, files, problems = _read_step_files(_Git(_git_environment("", ""), time.monotonic() + 30, ()),
                                               git_folder, big.url, "HEAD")
    assert len(commit) == 40 and not files and problems == ["exercises/01_flatten.py is larger than 1 MB: not graded"]
    assert sum(path.stat().st_size for path in every_file(git_folder) if path.is_file()) < BIG_BYTES / 100


def test_roster_lines_become_folders_named_by_the_repository() -> None:
    repositories = read_roster("ada/vit  # Ada\n\nben/vit\nhttps://u:secret@example.org/cy/exercises.git\n"
                               "git@example.org:dee/.hidden\nada/vit\n", base_url="https://git.example/")
    assert [r.folder for r in repositories] == ["ada__vit", "ben__vit", "exercises", "hidden", "ada__vit-2"]
    assert repositories[0].url == "https://git.example/ada/vit"
    assert repositories[2].shown == "https://example.org/cy/exercises.git"
    for line in ("ada", "-u/x", "../x", "ext::sh -c touch% /tmp/pwned"):
        with pytest.raises(RosterError):
            read_roster(line)


def test_no_credential_reaches_a_record_or_a_reason(tmp_path: Path) -> None:
    """A URL with a password, and a token for the base URL, for a repository that does not exist."""
    line = f"file://user:hunter2@localhost{tmp_path}/gone"
    fetched = fetch_class(read_roster(line), tmp_path / "class", token="s3cr3t-token", base_url="file://localhost")
    written = "".join(path.read_text() for path in every_file(tmp_path / "class") if path.is_file())
    assert fetched[0].reason and "hunter2" not in written + fetched[0].reason and "s3cr3t" not in written
    assert without_credentials(line) in written


def test_fetch_refuses_a_class_folder_that_holds_anything(tmp_path: Path) -> None:
    (tmp_path / "roster.txt").write_text("ada/vit\n")
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "notes.txt").write_text("x")
    result = runner.invoke(app, ["fetch", str(tmp_path / "roster.txt"), "--into", str(tmp_path / "class")])
    assert result.exit_code == 2 and "not an empty folder" in result.output


def kept(folder: Path, name: str, repository: str) -> None:
    """A full-score result of class/<name> fetched from `repository`, as a grading job keeps it."""
    zero = not_graded(f"class/{name}", "")
    full = replace(zero, repository=repository, commit="a" * 40, not_graded="",
                   steps=[replace(step, score=step.max_score, status="passed", notes=[]) for step in zero.steps])
    (folder / f"result-{name}").mkdir(parents=True)
    (folder / f"result-{name}" / f"{name}.json").write_text(to_json([full]))


def test_a_gradebook_by_roster_has_every_line_and_counts_a_result_only_for_its_own_repository(tmp_path: Path) -> None:
    (tmp_path / "roster.txt").write_text("course/ada\ncourse/ben\ncourse/cy\n")
    kept(tmp_path / "results", "ada", "https://github.com/course/ada")
    kept(tmp_path / "results", "ben", "https://github.com/elsewhere/ben")  # named ben, fetched from another
    kept(tmp_path / "results", "dee", "https://github.com/course/dee")  # on no line of the roster
    outcome = runner.invoke(app, ["gradebook", str(tmp_path / "results"), "--roster", str(tmp_path / "roster.txt"),
                                  "--csv", str(tmp_path / "g.csv")])
    assert outcome.exit_code == 0, outcome.output
    assert "2 result(s) belong to no repository" in outcome.output  # ben's and dee's
    rows = list(csv.DictReader(StringIO((tmp_path / "g.csv").read_text())))
    assert [row["submission"] for row in rows] == ["ada", "ben", "cy"]
    assert rows[0]["score"] == rows[0]["max_score"] and rows[0]["commit"] == "a" * 40
    assert rows[1]["score"] == "0"
    assert rows[1]["note"] == "no result for https://github.com/course/ben: its grading did not finish"
    assert rows[2]["score"] == "0" and rows[2]["commit"] == ""


def test_a_repository_that_never_answers_costs_only_its_own_time(tmp_path: Path) -> None:
    """A server that takes the connection and says nothing: that repository ends with a reason at
    its time limit, git and its helpers killed; the one after it is fetched all the same."""
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    good = repository(tmp_path / "students", "good", {"exercises/01_flatten.py": b"x = 1\n"})
    roster = read_roster(f"http://127.0.0.1:{silent.getsockname()[1]}/course/slow\nfile://{good}\n")
    started = time.monotonic()
    try:
        fetched = fetch_class(roster, tmp_path / "class", timeout=2, jobs=1)
    finally:
        silent.close()
    assert time.monotonic() - started < 2 + 10  # its limit, then the good one's quick fetch
    assert fetched[0].reason == f"{roster[0].shown} took longer than 2 s to fetch and read"
    assert fetched[1].taken == ("01_flatten.py",) and not fetched[1].reason
    address = roster[0].url.split("/")[2].encode()  # 127.0.0.1:<port>
    left = [p for p in Path("/proc").iterdir() if p.name.isdigit() and address in _command_line(p)]
    assert left == []  # no git helper still waiting on it


def _command_line(process: Path) -> bytes:
    try:
        return (process / "cmdline").read_bytes()
    except OSError:  # ended meanwhile
        return b""


def test_a_ref_that_git_would_read_as_an_option_is_refused(tmp_path: Path) -> None:
    (tmp_path / "roster.txt").write_text("ada/vit\n")
    result = runner.invoke(app, ["fetch", str(tmp_path / "roster.txt"), "--into", str(tmp_path / "class"),
                                 "--ref=--upload-pack=touch /tmp/owned"])
    assert result.exit_code == 2 and "--ref" in result.output and not (tmp_path / "class").exists()
