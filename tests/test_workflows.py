"""The GitHub workflow templates: valid for GitHub, and nothing secret in the students' hands.

Read as a student who wants the solutions: their own workflow must hold no secret and fetch
nothing private; the instructor's must only ever run student code inside `vitgrade grade`.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from grader import paths
from grader.cli import app

TEMPLATES = paths.KIT_ROOT / "templates"
STUDENT = TEMPLATES / "student-check.yml"
INSTRUCTOR = TEMPLATES / "instructor-grade.yml"


def load(path: Path) -> dict:
    workflow = yaml.safe_load(path.read_text())
    if True in workflow:  # YAML 1.1 reads the key `on` as the boolean true
        workflow["on"] = workflow.pop(True)
    return workflow


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job["steps"]]


@pytest.mark.parametrize("path", [STUDENT, INSTRUCTOR], ids=lambda p: p.name)
def test_workflow_has_the_keys_github_requires(path: Path) -> None:
    workflow = load(path)
    assert workflow["on"] and workflow["jobs"] and isinstance(workflow["name"], str)
    for name, job in workflow["jobs"].items():
        assert re.fullmatch(r"[A-Za-z_][\w-]*", name)
        assert job["runs-on"] and job["steps"], name
        for need in [job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", []):
            assert need in workflow["jobs"], f"{name} needs unknown job {need}"
    for step in steps(workflow):
        assert ("uses" in step) != ("run" in step), step  # exactly one of them
        if step.get("with", {}).get("cache") == "pip":  # setup-python fails when its key file is missing
            assert step["with"]["cache-dependency-path"].endswith("pyproject.toml"), step
    text = path.read_text()
    assert text.count("${{") == text.count("}}")


def test_student_workflow_names_no_secret_and_fetches_nothing_private() -> None:
    text = STUDENT.read_text()
    assert "secrets." not in text.lower()
    workflow = load(STUDENT)
    assert workflow["permissions"]["contents"] == "read"
    for step in steps(workflow):
        given = step.get("with", {})
        assert "token" not in given and "repository" not in given, step  # only its own repository
    runs = " ".join(step.get("run", "") for step in steps(workflow))
    assert "pip install -e ." in runs
    assert re.search(r"vitgrade check .*--format junit --output (\S+)", runs)
    assert "vitgrade grade" not in runs  # hidden tests are not in the student release
    report = next(step for step in steps(workflow) if "test-reporter" in step.get("uses", ""))
    assert report["with"]["reporter"] == "java-junit" and report["if"]


def test_instructor_workflow_grades_a_roster_matrix_and_merges_the_results() -> None:
    workflow = load(INSTRUCTOR)
    assert set(workflow["on"]) <= {"workflow_dispatch", "schedule"}  # nothing a student can trigger
    assert workflow["permissions"] == {"contents": "read"}
    jobs = workflow["jobs"]
    matrix = jobs["grade"]["strategy"]["matrix"]["repository"]
    assert matrix == "${{ fromJSON(needs.roster.outputs.repositories) }}"
    grade = jobs["grade"]["steps"]
    runs = [step.get("run", "") for step in grade]
    assert any("vitgrade grade" in r and "--format json" in r and r.lstrip().startswith("sudo") for r in runs)
    assert any(step.get("uses", "").startswith("actions/upload-artifact") for step in grade)
    for r in runs:
        for line in r.splitlines():
            if "pip install" in line:  # never the student's repository: its setup would run unconfined
                assert line.split("pip install", 1)[1].split()[-1] in ("torch", "./kit", "."), line
    secrets = [(step.get("uses"), key) for step in steps(workflow)
               for key, value in step.get("with", {}).items() if "secrets." in str(value)]
    assert secrets == [("actions/checkout@v4", "token")]
    assert all(step.get("with", {}).get("persist-credentials") is False
               for step in steps(workflow) if step.get("uses", "").startswith("actions/checkout"))
    merge = jobs["gradebook"]
    assert merge["needs"] == "grade"
    assert any(re.search(r"vitgrade gradebook \S+ --csv \S+ --report \S+", s.get("run", ""))
               for s in merge["steps"])


def _run_step(workflow: dict, job: str, name_part: str) -> dict:
    return next(s for s in workflow["jobs"][job]["steps"] if name_part in (s.get("name", "") + s.get("id", "")))


def test_roster_step_reads_owner_name_lines_and_refuses_anything_else(tmp_path: Path) -> None:
    script = _run_step(load(INSTRUCTOR), "roster", "read")["run"]
    output = tmp_path / "output"
    environment = {**os.environ, "GITHUB_OUTPUT": str(output), "ROSTER": "roster.txt"}
    (tmp_path / "roster.txt").write_text("# fall term\ncourse/vit-ada  # Ada\n\ncourse/vit-ben\n")
    assert subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=environment).returncode == 0
    key, _, value = output.read_text().strip().partition("=")
    assert key == "repositories" and json.loads(value) == ["course/vit-ada", "course/vit-ben"]
    for roster in ("course/vit-ada\ncourse/vit-ben; curl evil.example\n",  # not owner/name
                   "".join(f"course/vit-{i}\n" for i in range(257))):  # more jobs than a matrix runs
        (tmp_path / "roster.txt").write_text(roster)
        refused = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=environment,
                                 capture_output=True, text=True)
        assert refused.returncode != 0 and "roster.txt" in refused.stderr


def test_only_regular_step_files_reach_the_grader(tmp_path: Path) -> None:
    script = _run_step(load(INSTRUCTOR), "grade", "step files")["run"]
    solution = paths.step_file(paths.SOLUTIONS, "05_attention")
    ada, ben = tmp_path / "ada", tmp_path / "ben"
    (ada / "student" / "exercises").mkdir(parents=True)
    (ada / "student" / "exercises" / "01_flatten.py").write_text("# mine\n")
    (ada / "student" / "exercises" / "05_attention.py").symlink_to(solution)
    (ben / "student").mkdir(parents=True)
    (ben / "student" / "exercises").symlink_to(paths.SOLUTIONS)  # the whole folder a link
    copied = {}
    for folder in (ada, ben):
        environment = {**os.environ, "REPOSITORY": f"course/{folder.name}"}
        subprocess.run(["bash", "-e", "-c", script], cwd=folder, env=environment, check=True)
        copied[folder.name] = sorted(p.name for p in (folder / "submissions" / "course" / folder.name).iterdir())
    assert copied == {"ada": ["01_flatten.py"], "ben": []}


def test_the_old_workflow_is_gone_and_the_readme_states_the_trust_model() -> None:
    assert not (TEMPLATES / "github-grade.yml").exists()
    readme = (paths.KIT_ROOT / "README.md").read_text()
    assert "github-grade" not in readme and "KIT_TOKEN" not in readme
    assert "templates/student-check.yml" in readme and "templates/instructor-grade.yml" in readme
    assert "Trust model" in readme


def test_check_writes_the_junit_the_student_workflow_shows(tmp_path: Path) -> None:
    report = tmp_path / "check.xml"
    outcome = CliRunner().invoke(app, ["check", "01_flatten", "--format", "junit", "--output", str(report)])
    assert outcome.exit_code == 1, outcome.output  # the unedited stub: not attempted
    suites = ET.parse(report).getroot()
    assert suites.tag == "testsuites" and len(suites) == 1
    cases = suites[0].findall("testcase")
    assert cases and all(case.find("skipped") is not None for case in cases)
