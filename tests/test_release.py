"""`vitgrade release`: the student tree holds no answers and works on its own.

No solution function body appears anywhere in it, no hidden fixture tensor is in any of its
safetensors, nothing it imports is left behind, and `vitgrade check` runs inside it, with
"blocked by" and "not attempted" taking the place of the missing solutions.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import paths
from grader.cli.app import app
from grader.steps import STEP_IDS
from together import run_together

runner = CliRunner()

SHIPPED = {"README.md", "pyproject.toml", ".gitignore", "docs", "exercises", "grader", "fixtures"}
NEVER_SHIPPED = ("solutions", "tests", "fixtures/hidden", "grader/mistakes", "grader/lecture_maths.py",
                 "grader/search", "grader/expected/build.py",
                 "grader/cli/release.py", "grader/cli/validate.py", "grader/bench.py", "grader/cli/grade.py",
                 "grader/cli/fixtures.py", "grader/platforms", "grader/cli/autograder.py", "grader/cli/gradebook.py")
#: What a student runs; `vitgrade --help` in the release lists exactly these.
STUDENT_COMMANDS = {"check", "list", "predict", "show"}
# The instructor's kit is installed in editable mode here; its import hook would quietly supply
# any module the release lacks. This sitecustomize removes the hook in every process a check starts.
WITHOUT_EDITABLE_HOOK = ('import sys\nsys.meta_path[:] = [f for f in sys.meta_path '
                         'if getattr(f, "__name__", "") != "_EditableFinder"]\n')


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("release")
    result = runner.invoke(app, ["release", str(out)])
    assert result.exit_code == 0, result.output
    assert "8 stubs" in result.output and "left out" in result.output
    return out


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


# ------------------------------------------------------------------ what is in it

def test_release_is_the_student_tree(release):
    assert {p.name for p in release.iterdir()} == SHIPPED
    fixtures = {p.name for p in (release / "fixtures").iterdir()}
    assert fixtures == {"checkpoint", "photos", "visible", paths.MANIFEST}
    for relative in NEVER_SHIPPED:
        assert not (release / relative).exists(), f"{relative} was shipped"
    assert not [p for p in release.rglob("*") if p.name == "__pycache__" or p.suffix == ".pyc"]
    for step_id in STEP_IDS:
        stub = paths.step_file(paths.EXERCISES, step_id)
        assert (release / "exercises" / stub.name).read_bytes() == stub.read_bytes()
    assert (release / "grader" / "suites" / "suite.ini").is_file()


def test_manifest_lists_exactly_the_shipped_fixtures(release):
    kit = json.loads((paths.FIXTURES / paths.MANIFEST).read_text())
    shipped = json.loads((release / "fixtures" / paths.MANIFEST).read_text())
    on_disk = {p.relative_to(release / "fixtures").as_posix() for p in _files(release / "fixtures")}
    assert set(shipped["files"]) == on_disk - {paths.MANIFEST}
    assert all(kit["files"][name] == entry for name, entry in shipped["files"].items())
    assert {**shipped, "files": None} == {**kit, "files": None}  # checkpoint, photos, versions unchanged
    for name, entry in shipped["files"].items():
        assert hashlib.sha256((release / "fixtures" / name).read_bytes()).hexdigest() == entry["sha256"]


def test_readme_explains_checking_and_grading(release):
    readme = (release / "README.md").read_text()
    assert "pip install -e . && vitgrade check 01_flatten" in readme
    for words in ("visible tests", "hidden tests", "blocked by", "Known mistake", "time limit",
                  "memory limit", "not attempted"):
        assert words in readme, words
    assert "solutions/" not in readme
    assert "--watch" in readme and "from grader import check" in readme
    linked = [line for line in readme.splitlines() if "docs/students.md" in line]
    assert linked and (release / "docs" / "students.md").is_file()  # what the README points to ships
    assert "Python 3.10 or newer" in readme and "python3 -m venv .venv" in readme
    assert not re.search(r"\{\w*\}", readme)  # every format field of the template filled in
    named = set(re.findall(r"`((?:fixtures|exercises|docs)/[\w./-]+)`", readme))
    assert {"fixtures/photos/cat.png", "fixtures/checkpoint/standin.safetensors"} <= named
    assert [name for name in named if not (release / name).exists()] == []


def test_pyproject_is_a_students(release):
    kit = tomllib.loads((paths.KIT_ROOT / "pyproject.toml").read_text())
    student = tomllib.loads((release / "pyproject.toml").read_text())
    assert student["project"]["dependencies"] == kit["project"]["dependencies"]
    assert any(d.startswith("pytest") for d in student["project"]["dependencies"])  # the grader runs pytest
    assert student["project"]["scripts"] == {"vitgrade": "grader.cli:main"}
    assert "optional-dependencies" not in student["project"]
    assert "solutions" not in student["project"]["description"]
    pytest_options = student["tool"]["pytest"]["ini_options"]
    assert "testpaths" not in pytest_options and "markers" not in pytest_options
    shipped = {p.name for p in release.iterdir()}
    named = {name for name in pytest_options["norecursedirs"] if "*" not in name}
    assert named and named <= shipped, named - shipped


# ------------------------------------------------------------------ no answers in it

def _solution_bodies() -> dict[str, str]:
    """`NN_step.function` -> the function's body without its docstring, comments or layout."""
    bodies = {}
    for path in sorted(paths.SOLUTIONS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                body = node.body[1:] if ast.get_docstring(node) is not None else node.body
                bodies[f"{path.stem}.{node.name}"] = _squeeze(ast.unparse(body))
    return bodies


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _searchable(path: Path) -> str | None:
    """A text file's content with layout squeezed; Python without comments, as the bodies are."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None
    if path.suffix == ".py":
        text = ast.unparse(ast.parse(text))
    return _squeeze(text)


def test_no_solution_body_appears_in_the_release(release):
    bodies = _solution_bodies()
    assert len(bodies) >= sum(1 for _ in paths.SOLUTIONS.glob("*.py")) * 2
    texts = {p.relative_to(release).as_posix(): text for p in _files(release)
             if (text := _searchable(p)) is not None}
    assert "README.md" in texts and "grader/judge/grading.py" in texts
    leaks = [f"{name} in {file}" for name, body in bodies.items()
             for file, text in texts.items() if body in text]
    assert not leaks, leaks


#: Nodes an expression is counted in: calls, attribute reads, operators and subscripts.
_WORK = (ast.Call, ast.Attribute, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.Subscript)
#: Expressions of a solution that are notation, not an answer: a class's probability is the softmax
#: of the logits (page 42), and the kit writes it wherever it reports one.
NOTATION = {"X(X).softmax(dim=-1)[:, X]"}


class _Abstracted(ast.NodeTransformer):
    """Every name becomes X, and -1 a constant (not an operator); attributes and constants stay. A
    size read (`x.shape[0]`, `x.size(0)`) is a name too, and `.contiguous()` goes: it changes a
    tensor's layout in memory, never its values, so `w.reshape(w.shape[0], -1).T` is the answer
    `conv_weight.reshape(D, -1).T.contiguous()` all the same."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.copy_location(ast.Name("X", ast.Load()), node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            return ast.copy_location(ast.Name("X", ast.Load()), node)
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and not node.args and not node.keywords:
            if node.func.attr == "contiguous":
                return node.func.value
        if isinstance(node.func, ast.Attribute) and node.func.attr == "size" and len(node.args) == 1:
            return ast.copy_location(ast.Name("X", ast.Load()), node)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            return ast.copy_location(ast.Constant(-node.operand.value), node)
        return node


def _abstracted(source: str) -> ast.AST:
    return _Abstracted().visit(ast.parse(source))


def _work(node: ast.AST) -> int:
    return sum(isinstance(n, _WORK) for n in ast.walk(node))


def solution_answers() -> dict[str, str]:
    """Abstracted right-hand side -> `NN_step.py:line`, for every returned or assigned value of a
    solution that does at least three pieces of work (e.g. `X.reshape(X, X, 3, X, X // X)`)."""
    answers = {}
    for path in sorted(paths.SOLUTIONS.glob("*.py")):
        for node in ast.walk(_abstracted(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Return, ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value:
                if _work(node.value) >= 3 and (text := ast.unparse(node.value)) not in NOTATION:
                    answers[text] = f"{path.name}:{node.lineno}"
    return answers


def answers_in(path: Path, answers: dict[str, str]) -> list[str]:
    """`line: expression (solutions/NN.py:line)` for each expression of a Python file that is, names
    abstracted, a whole answer."""
    found = []
    for node in ast.walk(_abstracted(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.expr) and _work(node) >= 3 and (text := ast.unparse(node)) in answers:
            found.append(f"{node.lineno}: {text} (solutions/{answers[text]})")
    return found


def test_the_answer_finder_finds_answers_where_they_are(tmp_path: Path):
    """The kit's own lecture maths and solutions hold the answers: the search below can see them,
    however the sizes are read and whether or not the layout is made contiguous."""
    answers = solution_answers()
    spelled = tmp_path / "spelled.py"
    spelled.write_text("a = w.reshape(w.shape[0], -1).T\nb = f(w.reshape(w.size(0), -1).T.contiguous())\n")
    assert [found.split(":")[0] for found in answers_in(spelled, answers)] == ["1", "2"]
    assert "X.reshape(X, X, 3, X, X // X)" in answers and "X.reshape(X, -1).T" in answers
    assert len(answers) >= 20
    assert any("X.reshape(X, X, X // X, X, X // X, X)" in found
               for found in answers_in(paths.KIT_ROOT / "grader" / "lecture_maths.py", answers))
    assert answers_in(paths.step_file(paths.SOLUTIONS, "05_attention"), answers)


def test_no_answer_is_written_in_the_releases_code(release):
    """No right-hand side of a solution's statement appears as an expression in any module of the
    release but the stubs: the grader it ships computes nothing a step asks students to compute."""
    answers = solution_answers()
    modules = [p for p in _files(release) if p.suffix == ".py" and p.relative_to(release).parts[0] != "exercises"]
    assert len(modules) > 50
    leaks = [f"{path.relative_to(release)}:{found}" for path in modules for found in answers_in(path, answers)]
    assert not leaks, leaks


def _tensor_hashes(path: Path) -> dict[str, str]:
    """sha256 of each tensor's raw bytes in a safetensors file, read from its header's offsets."""
    data = path.read_bytes()
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + size])
    start = 8 + size
    return {name: hashlib.sha256(data[start + a:start + b]).hexdigest()
            for name, spec in header.items() if name != "__metadata__"
            for a, b in [spec["data_offsets"]] if b > a}


def test_no_hidden_fixture_tensor_is_in_the_release(release):
    public_files = [*(paths.FIXTURES / "visible").glob("*.safetensors"),
                    *(paths.FIXTURES / "checkpoint").glob("*.safetensors")]
    public = {h for f in public_files for h in _tensor_hashes(f).values()}
    hidden_files = sorted((paths.FIXTURES / "hidden").glob("*.safetensors"))
    # inputs both sets use (the sample photo's pixels, the probe's weights) are public anyway
    secret = {h for f in hidden_files for h in _tensor_hashes(f).values()} - public
    assert len(secret) > 100, "the hidden fixtures should hold tensors found nowhere else"
    shipped = {h for f in release.rglob("*.safetensors") for h in _tensor_hashes(f).values()}
    assert not secret & shipped
    whole_files = {hashlib.sha256(f.read_bytes()).hexdigest() for f in hidden_files}
    assert not [f for f in _files(release) if hashlib.sha256(f.read_bytes()).hexdigest() in whole_files]


def _imports(tree: ast.AST) -> list[str]:
    """Modules imported, except where a `try` catches ImportError (an optional module)."""
    guarded = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try)
               and any(isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
                       for h in t.handlers)
               for s in t.body for n in ast.walk(s)}
    names = []
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return names


def test_the_release_imports_only_what_it_ships(release):
    def shipped(module: str) -> bool:
        path = release.joinpath(*module.split("."))
        return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()

    missing = set()
    for path in (release / "grader").rglob("*.py"):
        for module in _imports(ast.parse(path.read_text())):
            # `from grader.x import name` also lists grader.x.name: fine when it is not a module
            if module.startswith("grader.") and not (shipped(module) or shipped(module.rpartition(".")[0])):
                missing.add(f"{path.relative_to(release)}: {module}")
    assert not missing, sorted(missing)


# ------------------------------------------------------------------ the command

def test_refuses_a_non_empty_folder_unless_forced(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = runner.invoke(app, ["release", str(tmp_path)])
    assert result.exit_code == 2
    assert "not empty" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert (tmp_path / "notes.txt").read_text() == "mine"
    result = runner.invoke(app, ["release", str(tmp_path), "--force"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "notes.txt").exists() and (tmp_path / "exercises").is_dir()


def test_refuses_to_write_into_the_kit():
    for target in (paths.KIT_ROOT, paths.KIT_ROOT / "grader"):  # without --force: safe if this fails
        result = runner.invoke(app, ["release", str(target)])
        assert result.exit_code == 2 and "choose" in result.output, result.output


# ------------------------------------------------------------------ inside the release

#: pytest as a student runs it in the release: it collects only tests the student writes.
PYTEST_IN_RELEASE = "import pytest, sys; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider']))"


def _in_release(release: Path, site: Path, code: str, *args: str) -> dict:
    """Python run as a student would inside the release: its grader, its fixtures, its folder
    (subprocess.Popen's arguments)."""
    env = {**os.environ, "VITGRADE_ROOT": str(release),
           "PYTHONPATH": os.pathsep.join([str(release), str(site)])}
    return {"args": [sys.executable, "-c", code, *args], "cwd": release, "env": env}


def _cli_in_release(release: Path, site: Path, *args: str) -> dict:
    return _in_release(release, site, "from grader.cli import main; main()", *args)


def _vitgrade(release: Path, site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(**_cli_in_release(release, site, *args), capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_check_runs_inside_the_release(release, tmp_path):
    (tmp_path / "sitecustomize.py").write_text(WITHOUT_EDITABLE_HOOK)
    runs = run_together({
        "which": _in_release(release, tmp_path, "import grader, importlib.util as u; print(grader.__file__, "
                             "u.find_spec('grader.mistakes'))"),
        "first": _cli_in_release(release, tmp_path, "check", "01_flatten")}, tmp_path / "output", timeout=300)
    which, first = runs["which"], runs["first"]
    expected = [str(release / "grader" / "__init__.py"), "None"]  # its own grader, no catalogue
    assert which.stdout.split() == expected, which.stdout + which.stderr
    assert first.returncode == 1, first.stdout + first.stderr
    assert "01_flatten" in first.stdout and "not attempted" in first.stdout
    assert "Traceback" not in first.stdout + first.stderr

    stub = release / "exercises" / "01_flatten.py"
    original = stub.read_bytes()
    shutil.copyfile(paths.step_file(paths.SOLUTIONS, "01_flatten"), stub)
    try:
        second = _vitgrade(release, tmp_path, "check", "01_flatten")
    finally:
        stub.write_bytes(original)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "10/10" in second.stdout and "Traceback" not in second.stdout + second.stderr


@pytest.mark.slow
def test_the_release_offers_students_their_commands_only(release, tmp_path):
    (tmp_path / "sitecustomize.py").write_text(WITHOUT_EDITABLE_HOOK)
    runs = run_together({
        "help": _cli_in_release(release, tmp_path, "--help"),
        "check help": _cli_in_release(release, tmp_path, "check", "--help"),
        "build": _cli_in_release(release, tmp_path, "fixtures", "build"),
        "pytest": _in_release(release, tmp_path, PYTEST_IN_RELEASE),
    }, tmp_path / "output", timeout=300)
    help_text = runs["help"]
    assert help_text.returncode == 0, help_text.stderr
    listed = set(re.findall(r"^│ (\w+) ", help_text.stdout, re.MULTILINE)) - {"--help"}
    assert listed == STUDENT_COMMANDS, help_text.stdout
    assert "Instructors" not in help_text.stdout and "release" not in help_text.stdout
    check_help = runs["check help"]
    assert check_help.returncode == 0 and "--submission" in check_help.stdout, check_help.stderr
    assert "--solutions" not in check_help.stdout  # the release has no solutions to check

    build = runs["build"]
    assert build.returncode == 2 and "No such command" in build.stderr, build.stdout + build.stderr
    assert "Traceback" not in build.stderr

    # pytest run in the release collects only tests a student writes: none yet, and no grader suite
    collected = runs["pytest"]
    assert collected.returncode == 5 and "no tests ran" in collected.stdout, collected.stdout + collected.stderr
