"""The GitHub workflow templates: valid for GitHub, and nothing secret in the students' hands.

Read as a student who wants the solutions: their own workflow must hold no secret and fetch
nothing private; the instructor's must only ever run student code inside `vitgrade grade`.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from grader import paths
from grader.cli.app import app

TEMPLATES = paths.KIT_ROOT / "templates"
STUDENT = TEMPLATES / "student-check.yml"
INSTRUCTOR = TEMPLATES / "instructor-grade.yml"
KIT_CI = paths.KIT_ROOT / ".github" / "workflows" / "ci.yml"  # the kit's own CI


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


def test_student_workflow_skips_github_classrooms_own_first_commit() -> None:
    """Classroom creates each repository with a commit by its bot: no check, no red cross."""
    for job in load(STUDENT)["jobs"].values():
        assert job["if"].replace(" ", "") == "${{github.actor!='github-classroom[bot]'}}"


#: The current major version of every action the templates name (each action's releases page).
CURRENT_MAJORS = {"actions/checkout": "v6", "actions/setup-python": "v6", "actions/upload-artifact": "v7",
                  "actions/download-artifact": "v8", "dorny/test-reporter": "v3"}


@pytest.mark.parametrize("path", [STUDENT, INSTRUCTOR], ids=lambda p: p.name)
def test_workflows_use_the_current_major_version_of_every_action(path: Path) -> None:
    used = [step["uses"] for step in steps(load(path)) if "uses" in step]
    assert used
    for action in used:
        name, _, version = action.partition("@")
        assert CURRENT_MAJORS.get(name) == version, action


@pytest.mark.parametrize("path", [STUDENT, INSTRUCTOR, KIT_CI], ids=lambda p: p.name)
def test_workflow_validates_against_the_github_workflow_schema(path: Path) -> None:
    """SchemaStore's schema of GitHub workflows, as check-jsonschema ships it (no network needed)."""
    if shutil.which("check-jsonschema") is None:
        pytest.skip("check-jsonschema is not installed (pip install -e '.[test]')")
    checked = subprocess.run(["check-jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)],
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _runs_student_code(job: dict) -> bool:
    return any(re.search(r"vitgrade (grade|check)\b", step.get("run", "")) for step in job["steps"])


@pytest.mark.parametrize("path", [STUDENT, INSTRUCTOR, KIT_CI], ids=lambda p: p.name)
def test_no_job_that_grades_or_checks_references_a_secret(path: Path) -> None:
    workflow = load(path)
    graders = {name: job for name, job in workflow["jobs"].items() if _runs_student_code(job)}
    assert graders
    # Stated, since a repository's default token may write: the contents at most read, so a push's
    # code cannot change the repository; a test report (checks) is the only thing written.
    writes = {scope for scope, level in workflow["permissions"].items() if level == "write"}
    assert writes <= {"checks"} and workflow["permissions"].get("contents", "none") in ("read", "none")
    for name, job in graders.items():
        assert "secrets." not in yaml.safe_dump(job), name
        if path == INSTRUCTOR:  # and its automatic token can do nothing
            assert job["permissions"] == {}, name


def test_instructor_workflow_fetches_with_the_token_then_grades_without_it() -> None:
    workflow = load(INSTRUCTOR)
    assert set(workflow["on"]) <= {"workflow_dispatch", "schedule"}  # nothing a student can trigger
    assert workflow["permissions"] == {}
    jobs = workflow["jobs"]
    assert list(jobs) == ["fetch", "grade", "gradebook"]
    for name, job in jobs.items():  # no job may write anything
        assert all(level in ("read", "none") for level in job["permissions"].values()), name
    with_secrets = [name for name, job in jobs.items() if "secrets." in yaml.safe_dump(job)]
    assert with_secrets == ["fetch"] and not _runs_student_code(jobs["fetch"])
    first = jobs["fetch"]["steps"][0]  # a missing secret fails once, first, with one sentence
    assert "secrets.ROSTER_TOKEN" in str(first["env"]) and 'if [ -z "$ROSTER_TOKEN" ]' in first["run"]
    message = re.search(r'echo "::error::(.*)"', first["run"]).group(1)
    assert message.count(". ") == 0 and "fine-grained personal access token" in message and "read-only" in message
    matrix = jobs["grade"]["strategy"]["matrix"]["folder"]
    assert matrix == "${{ fromJSON(needs.fetch.outputs.folders) }}"
    fetching = [step for step in jobs["fetch"]["steps"] if "secrets." in yaml.safe_dump(step)]
    assert len(fetching) == 2 and "python -m grader.cli fetch" in fetching[1]["run"]  # the check, the command
    results = [step["with"] for job in ("grade", "gradebook") for step in jobs[job]["steps"]
               if "-artifact" in step.get("uses", "") and "result" in str(step["with"])]
    assert results == [{"name": "result-${{ matrix.folder }}", "path": "results/"},
                       {"pattern": "result-*", "path": "results"}]  # one folder per artifact, none merged
    runs = [step.get("run", "") for step in jobs["grade"]["steps"]]
    assert any("vitgrade grade" in r and "--format json" in r and r.lstrip().startswith("sudo") for r in runs)
    handed = [step["with"]["name"] for step in jobs["grade"]["steps"]
              if step.get("uses", "").startswith("actions/download-artifact")]
    assert handed == ["kit", "class"]  # the kit and the step files come as artifacts, never a checkout
    assert not [s for s in steps(workflow) if s.get("uses", "").startswith("actions/checkout")
                and s.get("with", {}).get("persist-credentials") is not False]
    merge = jobs["gradebook"]
    assert set(merge["needs"]) == {"fetch", "grade"} and "needs.fetch.result == 'success'" in merge["if"]
    assert any(re.search(r"vitgrade gradebook \S+ --roster \S+ --csv \S+ --report \S+", s.get("run", ""))
               for s in merge["steps"])


@pytest.mark.parametrize("path", [STUDENT, INSTRUCTOR], ids=lambda p: p.name)
def test_torch_and_torchvision_are_installed_together_from_the_cpu_index(path: Path) -> None:
    """timm needs torchvision: left to PyPI it brings the CUDA build of torch back."""
    for job in load(path)["jobs"].values():
        lines = [line for step in job["steps"] for line in step.get("run", "").splitlines() if "pip install" in line]
        if not any("install -e" in line for line in lines):  # the fetch job: typer and rich alone
            assert all("torch" not in line for line in lines), lines
            continue
        cpu = [line for line in lines if "download.pytorch.org/whl/cpu" in line]
        assert len(cpu) == 1 and cpu[0].split()[-2:] == ["torch", "torchvision"], lines
        assert lines.index(cpu[0]) < next(i for i, line in enumerate(lines) if "install -e" in line)
        for line in lines:  # never the student's repository: its setup would run unconfined
            assert line.split("pip install", 1)[1].split()[-1] in ("torchvision", "./kit", "."), line


def _run_step(workflow: dict, job: str, name_part: str) -> dict:
    return next(s for s in workflow["jobs"][job]["steps"] if name_part in (s.get("name", "") + s.get("id", "")))


def _repository(root: Path, name: str, files: dict[str, str | Path]) -> None:
    """A repository on the disk standing for github.com/<name>: text files, or links to a path."""
    work = root / "work" / name
    work.mkdir(parents=True)
    for relative, content in files.items():
        (work / relative).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            (work / relative).symlink_to(content)
        else:
            (work / relative).write_text(content)
    git = ["git", "-c", "user.name=s", "-c", "user.email=s@example.org", "-C", str(work)]
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "work"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(root / "github" / name)], check=True)


def test_the_fetch_step_gives_every_roster_line_a_folder_and_the_matrix_their_names(tmp_path: Path) -> None:
    """The fetch job's script against repositories on the disk (git's url.insteadOf stands in for
    github.com): a missing, an empty, a linked and a working repository all get a folder, and the
    ones without step files a REASON.txt that becomes their row's note; the token reaches nothing."""
    from grader.platforms.classes import expand_submissions

    script = _run_step(load(INSTRUCTOR), "fetch", "step files")["run"]
    solution = paths.step_file(paths.SOLUTIONS, "05_attention")
    _repository(tmp_path, "course/ada", {"exercises/01_flatten.py": "# mine\n", "exercises/05_attention.py": solution,
                                         "exercises/notes.md": "notes"})
    _repository(tmp_path, "course/ben", {"exercises": paths.SOLUTIONS})  # the whole folder a link
    _repository(tmp_path, "course/cy", {"README.md": "nothing yet"})
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "github" / "course" / "dee")], check=True)  # empty
    (tmp_path / "kit" / ".git").mkdir(parents=True)
    (tmp_path / "kit" / "roster.txt").write_text("course/ada\ncourse/ben  # Ben\ncourse/cy\ncourse/dee\ncourse/gone\n")
    environment = {**os.environ, "VITGRADE_FETCH_TOKEN": "s3cr3t", "ROSTER": "roster.txt", "REF": "",
                   "GITHUB_OUTPUT": str(tmp_path / "output"), "PYTHONPATH": str(paths.KIT_ROOT),
                   "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": f"url.file://{tmp_path / 'github'}/.insteadOf",
                   "GIT_CONFIG_VALUE_0": "https://github.com/"}
    fetched = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path / "kit", env=environment,
                             capture_output=True, text=True, timeout=120)
    assert fetched.returncode == 0, fetched.stderr
    key, _, value = (tmp_path / "output").read_text().strip().partition("=")
    assert key == "folders" and json.loads(value) == ["ada", "ben", "cy", "dee", "gone"]
    assert sorted(p.name for p in (tmp_path / "class" / "ada").iterdir()) == ["01_flatten.py", "FETCHED.json",
                                                                             "REASON.txt"]
    reason = (tmp_path / "class" / "ada" / "REASON.txt").read_text()
    assert reason == "exercises/05_attention.py is a link: not graded\n"
    assert not (tmp_path / "kit" / ".git").exists()
    written = "".join(p.read_text() for p in (tmp_path / "class").rglob("*") if p.is_file()) + fetched.stderr
    assert "s3cr3t" not in written
    notes = {s.name: s.not_graded for s in expand_submissions([tmp_path / "class"])}
    assert notes["ada"] == ""
    assert notes["ben"].startswith("no exercises/ folder") and notes["cy"].startswith("no exercises/ folder")
    for name in ("dee", "gone"):
        assert notes[name].startswith(f"https://github.com/course/{name} could not be fetched"), notes


def test_a_grading_job_sees_only_its_own_students_step_files(tmp_path: Path) -> None:
    script = _run_step(load(INSTRUCTOR), "grade", "this repository")["run"]
    for name in ("course__ada", "course__ben"):
        (tmp_path / "everyone" / name).mkdir(parents=True)
        (tmp_path / "everyone" / name / "01_flatten.py").write_text(f"# {name}\n")
    environment = {**os.environ, "FOLDER": "course__ada"}
    subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=environment, check=True)
    assert sorted(p.name for p in (tmp_path / "class").iterdir()) == ["course__ada"]
    assert not (tmp_path / "everyone").exists() and (tmp_path / "results").is_dir()


def test_the_old_workflow_is_gone_and_the_docs_state_the_trust_model() -> None:
    assert not (TEMPLATES / "github-grade.yml").exists()
    readme = (paths.KIT_ROOT / "README.md").read_text()
    platforms = (paths.KIT_ROOT / "docs" / "platforms.md").read_text()
    sandbox = (paths.KIT_ROOT / "docs" / "sandbox.md").read_text()
    for text in (readme, platforms, sandbox):
        assert "github-grade" not in text and "KIT_TOKEN" not in text
    assert "docs/platforms.md" in readme and "docs/sandbox.md" in readme
    assert "templates/student-check.yml" in platforms and "templates/instructor-grade.yml" in platforms
    assert "## Trust model" in sandbox


@pytest.mark.slow
@pytest.mark.usefixtures("cli_on_the_shared_runner")
def test_check_writes_the_junit_the_student_workflow_shows(tmp_path: Path) -> None:
    report = tmp_path / "check.xml"
    outcome = CliRunner().invoke(app, ["check", "01_flatten", "--format", "junit", "--output", str(report)])
    assert outcome.exit_code == 1, outcome.output  # the unedited stub: not attempted
    suites = ET.parse(report).getroot()
    assert suites.tag == "testsuites" and len(suites) == 1
    cases = suites[0].findall("testcase")
    assert cases and all(case.find("skipped") is not None for case in cases)


def test_the_fetch_job_runs_vitgrade_fetch_with_typer_and_rich_alone(tmp_path: Path) -> None:
    """The job that holds the token installs nothing else: the command must start without the kit's
    other dependencies."""
    refuse = ("import sys\n"
              "class Refuse:\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name.split('.')[0] in ('torch', 'numpy', 'timm', 'PIL', 'safetensors', 'pytest',\n"
              "                                  'watchfiles', 'yaml'):\n"
              "            raise ImportError(name + ' is not installed in the fetch job')\n"
              "sys.meta_path.insert(0, Refuse())\n"
              "sys.argv = ['vitgrade', 'fetch', '--help']\n"
              "import runpy\n"
              "runpy.run_module('grader.cli', run_name='__main__')\n")
    shown = subprocess.run([sys.executable, "-c", refuse], cwd=paths.KIT_ROOT, capture_output=True, text=True,
                           timeout=60)
    assert shown.returncode == 0 and "--into" in shown.stdout, shown.stderr
