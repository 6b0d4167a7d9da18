"""docs/instructors.md's first course, run as an instructor runs it: every command of its numbered
steps, in order, in a copy of the kit, ending with the gradebook.

Where the page's machine reaches the Hugging Face hub, this one has a local cache holding a
checkpoint in the real format under the lecture's hub id (tests/hub_cache.py), and the lecture's
photograph `newfoundland_31.jpg` is the kit's sample photograph saved under that name. The class is
tests/test_fetch.py's hostile roster (its URLs are file:// ones): one good repository, the others
each broken in its own way, so the course's grade and gradebook show every kind of row.

The course runs in a process of its own, started with the session (this file run as a script), so
that the session's other tests run beside it.
"""
from __future__ import annotations

import csv
import re
import shlex
import shutil
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
from PIL import Image

from grader import paths
from grader.photos import SAMPLE
from grader.reports.shared import points
from grader.steps import STEPS
from hub_cache import make_hub_home, offline_environment
from test_fetch import GIT_ENVIRONMENT, assert_fetched_as_promised, git, hostile_roster
from together import early_script, script_outcome, write_outcome

PAGE = paths.KIT_ROOT / "docs" / "instructors.md"
KIT_NAME = "vitgrade"  # the kit's folder, as the page calls it
#: What a copy of the kit needs to run the course (its tests for step 2).
KIT_PARTS = ("grader", "solutions", "exercises", "fixtures", "tests", "templates", "docs", "pyproject.toml",
             "README.md")
FETCH_LIMIT = 120  # seconds: the promise for a roster of six


def course_steps() -> list[tuple[str, list[str]]]:
    """The page's numbered steps: (title, its commands), the commands being its code lines."""
    section = PAGE.read_text().split("## A first course", 1)[1].split("\n## ", 1)[0]
    steps = re.split(r"\n(?=\d+\. \*\*)", section)[1:]
    return [(re.match(r"\d+\. \*\*(.+?)\*\*", step).group(1),
             [line.strip() for line in step.splitlines() if line.startswith(" " * 7) and line.strip()])
            for step in steps]


class Course:
    """The commands run where the page runs them: `cd` moves, `vitgrade` is the kit (or release) of
    the folder it is run in, as `pip install -e .` there would make it."""

    def __init__(self, kit: Path, environment: dict[str, str]) -> None:
        self.here = kit
        self.environment = environment
        self.ran: list[tuple[str, subprocess.CompletedProcess]] = []

    def run(self, command: str) -> subprocess.CompletedProcess:
        if command.startswith("cd "):
            self.here = (self.here / command[3:]).resolve()
            return subprocess.CompletedProcess(command, 0, "", "")
        words = shlex.split(command)
        if words[0] == "vitgrade":
            arguments = [sys.executable, "-m", "grader.cli", *words[1:]]
        elif words[0] == "pytest":
            arguments = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *words[1:]]
        else:
            arguments = ["bash", "-e", "-c", command]
        done = subprocess.run(arguments, cwd=self.here, capture_output=True, text=True, timeout=1800,
                              env={**self.environment, "PYTHONPATH": str(self.here)})
        self.ran.append((command, done))
        return done


def run_course(base: Path) -> dict:
    """The whole course, run once in `base`: each command's outcome by its text, and where things are."""
    kit = base / KIT_NAME
    for part in KIT_PARTS:
        source = paths.KIT_ROOT / part
        if source.is_dir():
            shutil.copytree(source, kit / part, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        else:
            shutil.copyfile(source, kit / part)
    with Image.open(SAMPLE.path) as image:  # a photograph in the lecture's photograph's place
        image.convert("RGB").save(kit / "newfoundland_31.jpg", quality=95)
    roster, good = hostile_roster(base / "students")
    shutil.copyfile(roster, kit / "roster.txt")
    home = base / "hf-home"
    make_hub_home(home)
    runner = Course(kit, {**offline_environment(home, kit), **GIT_ENVIRONMENT})
    seconds: dict[str, float] = {}
    started_at: dict[str, float] = {}
    for _, commands in course_steps():
        for command in commands:
            started_at[command], started = time.time(), time.monotonic()
            runner.run(command)
            seconds[command] = time.monotonic() - started
    return {"ran": dict(runner.ran), "seconds": seconds, "started_at": started_at, "kit": kit,
            "release": base / "vit-exercises", "good": good}


COURSE = "the first course"


# The course in a process of its own (this file run as a script), from the session's start.
early_script(COURSE, __file__, "test_every_command_of_the_first_course_does_what_its_step_says",
             "test_the_course_grades_a_hostile_roster_into_a_gradebook_row_per_repository")


@pytest.fixture(scope="module")
def course(early_runs) -> dict:
    """The course's outcomes, as run_course returned them (written to course.json by the script)."""
    course = script_outcome(early_runs, COURSE)
    ran = {command: subprocess.CompletedProcess(command, *outcome) for command, outcome in course["ran"].items()}
    return {**course, "ran": ran, **{name: Path(course[name]) for name in ("kit", "release", "good")}}


def _write_course(base: Path) -> None:
    course = run_course(base)
    ran = {command: [done.returncode, done.stdout, done.stderr] for command, done in course["ran"].items()}
    written = {**course, "ran": ran, **{name: str(course[name]) for name in ("kit", "release", "good")}}
    write_outcome(written)


def test_the_page_opens_with_the_eight_steps_of_a_first_course() -> None:
    titles = [title for title, _ in course_steps()]
    assert len(titles) == 8 and all(commands for _, commands in course_steps())
    for word, step in (("Fixtures", 0), ("lecture's numbers", 1), ("Validate", 2), ("Release", 3),
                       ("Classroom", 4), ("Grade", 5), ("Gradebook", 6), ("Regrade", 7)):
        assert word in titles[step], titles
    build = course_steps()[0][1][0]
    assert "--checkpoint vit_tiny_patch16_224.augreg_in21k_ft_in1k" in build and "--photo" in build


def outcome(course: dict, starts: str) -> subprocess.CompletedProcess:
    """What the first command starting with `starts` gave."""
    return next(done for command, done in course["ran"].items() if command.startswith(starts))


@pytest.mark.slow
def test_every_command_of_the_first_course_does_what_its_step_says(course: dict) -> None:
    ran = course["ran"]
    build = outcome(course, "vitgrade fixtures build")
    assert build.returncode == 0 and "(real)" in build.stdout, build.stdout + build.stderr

    # The lecture's numbers: the checkpoint here is not the lecture's, and the check says so; the
    # same quantities computed by timm on what was built agree with the fixtures.
    facts = outcome(course, "pytest tests/test_lecture_facts.py")
    failed = re.findall(r"^FAILED (\S+)", facts.stdout, flags=re.M)
    assert facts.returncode == 1 and failed, facts.stdout[-3000:]
    assert all(name.endswith("[lecture]") for name in failed), failed
    assert "test_top_class_and_its_probability[lecture]" in " ".join(failed)
    assert re.search(r"\d+ passed", facts.stdout)

    validated = outcome(course, "vitgrade validate")
    assert validated.returncode == 0, validated.stdout + validated.stderr

    released = outcome(course, "vitgrade release")
    assert released.returncode == 0, released.stderr
    readme = (course["release"] / "README.md").read_text()
    assert "fixtures/photos/newfoundland_31.jpg" in readme and "cat.png" not in readme
    assert not (course["release"] / "fixtures" / "checkpoint" / "standin.safetensors").exists()
    predicted = outcome(course, "vitgrade predict")
    assert predicted.returncode == 0, predicted.stderr  # the release's own checkpoint, not the stand-in it lacks
    assert "fixtures/checkpoint/" in predicted.stdout and "stand-in" not in predicted.stdout, predicted.stdout

    for command in [c for c in ran if c.startswith(("mkdir", "git"))]:
        assert ran[command].returncode == 0, (command, ran[command].stderr)
    assert git(course["release"], "ls-files", ".github/workflows/check.yml") == ".github/workflows/check.yml"
    bundle = outcome(course, "vitgrade autograder gradescope")
    assert bundle.returncode == 0 and (course["kit"] / "autograder.zip").is_file(), bundle.stderr


@pytest.mark.slow
def test_the_course_grades_a_hostile_roster_into_a_gradebook_row_per_repository(course: dict) -> None:
    """Fetched within two minutes, a folder per line holding nothing but step files, reasons and
    records; graded, one row per repository, the good one full marks with its commit; regraded
    from what was kept, and the gradebook written again in roster order."""
    kit, seconds = course["kit"], course["seconds"]
    fetch = "vitgrade fetch roster.txt --into class --ref main"
    assert course["ran"][fetch].returncode == 1 and seconds[fetch] < FETCH_LIMIT, course["ran"][fetch].stderr
    reasons = assert_fetched_as_promised(kit / "class", course["good"])

    graded = outcome(course, "vitgrade grade class")
    assert graded.returncode == 1, graded.stderr
    book = outcome(course, "vitgrade gradebook")  # after grading, and again after the regrade
    assert book.returncode == 0, book.stderr
    rows = list(csv.DictReader(StringIO((kit / "gradebook.csv").read_text())))
    assert [row["submission"] for row in rows] == ["good", "long", "big", "link", "misnamed", "gone"]  # roster order
    by_name = {row["submission"]: row for row in rows}
    assert by_name["good"]["score"] == by_name["good"]["max_score"] == points(sum(step.points for step in STEPS))
    assert by_name["good"]["commit"] == git(course["good"], "rev-parse", "HEAD")
    assert float(by_name["long"]["01_flatten"]) > 0  # its 300-byte file name cost it nothing
    for name, reason in reasons.items():
        assert by_name[name]["score"] == "0" and by_name[name]["note"] == reason.splitlines()[0], name

    regrade = next(command for command in course["ran"] if command.startswith("vitgrade grade regrade"))
    assert course["ran"][regrade].returncode == 1, course["ran"][regrade].stderr
    kept = sorted((kit / "gradebook.results").glob("*.json"))
    assert len(kept) == 6 and all(path.stat().st_mtime < course["started_at"][regrade] for path in kept)  # read back


if __name__ == "__main__":  # the early run of COURSE
    _write_course(Path(sys.argv[1]))
