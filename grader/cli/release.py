"""`vitgrade release OUT_DIR`: the student tree, without anything that gives the answers away.

Shipped: the stubs, the `grader` package, the checkpoint, the photographs, the visible fixtures
with a manifest that lists only those, `pyproject.toml`, `.gitignore` and a README for students.
Left out: the solutions, the hidden fixtures, the kit's own tests (mutants included), the catalogue
of known mistakes (each entry is a wrong implementation one edit away from the right one), the lecture
maths and the search that reruns it with one edit at a time (both compute what the steps ask for), and
the instructor-only modules.
"""
from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path
from typing import Annotated

import typer

from grader import paths
from grader.cli.common import fail, out
from grader.secret_files import is_secret, secrets_inside


def _instructor_modules() -> tuple[str, ...]:
    """`cli/grade.py` and the like: the modules of every command students do not use."""
    from grader.cli.commands import COMMANDS, GROUPS, INSTRUCTOR

    modules = [target.split(":")[0] for _, target, audience in COMMANDS + GROUPS if audience == INSTRUCTOR]
    return tuple(module.removeprefix("grader.").replace(".", "/") + ".py" for module in modules)


#: Inside grader/: what students must not get (it gives answers away, grader/secret_files.py; or
#: it is instructor-only).
GRADER_LEFT_OUT = (*secrets_inside("grader"), "bench.py", "platforms") + _instructor_modules()
#: Fixture folders shipped; everything else in the manifest (the hidden cases) stays behind.
FIXTURE_FOLDERS = ("checkpoint", "photos", "visible")
#: Files copied as they are from the kit's root (pyproject.toml is written for students instead).
ROOT_FILES = (".gitignore", "docs/students.md")
STUDENT_DESCRIPTION = "Exercises for the Vision Transformer lecture, checked step by step by vitgrade."
#: The kit's pyproject sections a student needs as they are; its pytest section points at tests/.
PYPROJECT_SECTIONS = ("build-system", "project", "project.scripts", "tool.setuptools.packages.find")
#: The student README, with format fields that `student_readme` fills in.
STUDENT_README = paths.KIT_ROOT / "templates" / "student-README.md"
#: Kit folders a release must never be written into (it would copy or delete itself).
_SOURCE_FOLDERS = ("exercises", "solutions", "grader", "fixtures", "tests", ".git")


def release(
    out_dir: Annotated[Path, typer.Argument(
        metavar="OUT_DIR", help="Where to write the student tree; must be empty unless --force.",
        show_default=False)],
    force: Annotated[bool, typer.Option(
        "--force", help="Replace the contents of OUT_DIR if it is not empty.")] = False,
) -> None:
    """Write the student release to OUT_DIR: stubs, grader, checkpoint, photographs, visible
    fixtures and a student README; no solutions, hidden fixtures, tests or known-mistake catalogue.

    Exit status: 0 written, 2 OUT_DIR not usable or fixtures not matching their manifest.
    """
    from grader.expected.store import RELEASE_STAMP, FixtureError, diagnosis_version, load_manifest, sha256_of, verify

    target = _target(out_dir, force)
    try:
        manifest = load_manifest(paths.FIXTURES)
    except FixtureError as error:
        fail(str(error))
    if problems := verify(paths.FIXTURES, manifest):
        fail(f"fixtures do not match the manifest, run `vitgrade fixtures verify`: {problems[0]}")
    if leaks := solution_leaks(paths.EXERCISES, paths.SOLUTIONS):
        fail(f"{leaks[0]}: the stub holds the solution; restore it before releasing")

    files = release_files(manifest)
    shipped = {k: v for k, v in manifest["files"].items() if k.split("/")[0] in FIXTURE_FOLDERS}
    _clear(target)
    for relative, source in files.items():
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
    fixtures = target / "fixtures"
    shipped_manifest = {**manifest, "files": shipped}  # checkpoint, photos, versions: unchanged
    (fixtures / paths.MANIFEST).write_text(json.dumps(shipped_manifest, indent=2, sort_keys=True) + "\n")
    (target / "grader" / RELEASE_STAMP).write_text(json.dumps(  # the fixtures and diagnosis it was made with
        {"fixtures": sha256_of(fixtures / paths.MANIFEST), "diagnosis": diagnosis_version()}) + "\n")
    (target / "README.md").write_text(student_readme(manifest), encoding="utf-8")
    (target / "pyproject.toml").write_text(
        student_pyproject((paths.KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8")), encoding="utf-8")
    if problems := verify(fixtures, load_manifest(fixtures)):
        fail(f"the release's fixtures do not match its manifest: {problems[0]}")
    _summary(target, files, manifest)


def release_files(manifest: dict) -> dict[str, Path]:
    """Every file copied into the release as it is: relative destination -> source."""
    from grader.steps import STEP_IDS

    root = paths.KIT_ROOT
    files: dict[str, Path] = {}
    for step_id in STEP_IDS:
        stub = paths.step_file(paths.EXERCISES, step_id)
        if not stub.is_file():
            fail(f"{stub} is missing")
        files[f"exercises/{stub.name}"] = stub
    package = root / "grader"
    for source in sorted(package.rglob("*")):
        relative = source.relative_to(package)
        if source.is_file() and _ships(relative):
            files[f"grader/{relative.as_posix()}"] = source
    for relative in sorted(manifest["files"]):
        if relative.split("/")[0] in FIXTURE_FOLDERS:
            files[f"fixtures/{relative}"] = paths.FIXTURES / relative
    for name in ROOT_FILES:
        if (root / name).is_file():
            files[name] = root / name
    return {relative: source for relative, source in files.items() if not is_secret(relative)}


def _ships(relative: Path) -> bool:
    """Whether a file inside grader/ goes to students: no caches, dotfiles or left-out modules."""
    parts = relative.parts
    if "__pycache__" in parts or any(p.startswith(".") for p in parts) or relative.suffix in (".pyc", ".pyo"):
        return False
    text = relative.as_posix()
    return not any(text == left or text.startswith(left + "/") for left in GRADER_LEFT_OUT)


def solution_leaks(exercises: Path, solutions: Path) -> list[str]:
    """`exercises/NN.py: function` for every stub function whose body is the solution's."""
    leaks = []
    for solution in sorted(solutions.glob("*.py")) if solutions.is_dir() else []:
        stub = exercises / solution.name
        if not stub.is_file():
            continue
        bodies = _function_bodies(solution)
        for name, body in _function_bodies(stub).items():
            if body and body == bodies.get(name):
                leaks.append(f"exercises/{stub.name}: {name}")
    return leaks


def _function_bodies(path: Path) -> dict[str, str]:
    """Each top-level function's body without its docstring, as a comparable AST dump."""
    bodies = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            bodies[node.name] = "".join(ast.dump(statement) for statement in body)
    return bodies


def _target(out_dir: Path, force: bool) -> Path:
    """OUT_DIR, resolved and checked: not the kit itself, not inside its sources, empty or --force."""
    target = out_dir.expanduser().resolve()
    root = paths.KIT_ROOT.resolve()
    if target == root or target in root.parents:
        fail(f"{out_dir} holds the kit itself; choose a folder of its own")
    for name in _SOURCE_FOLDERS:
        if target == root / name or (root / name) in target.parents:
            fail(f"{out_dir} is inside the kit's {name}/; choose another folder")
    if target.exists() and not target.is_dir():
        fail(f"{out_dir} is not a folder")
    if target.is_dir() and any(target.iterdir()) and not force:
        fail(f"{out_dir} is not empty; use --force to replace its contents")
    return target


def _clear(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for child in target.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def _summary(target: Path, files: dict[str, Path], manifest: dict) -> None:
    def count(prefix: str) -> int:
        return sum(k.startswith(prefix) for k in files)

    written = [p for p in target.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in written) / 1e6
    hidden = sum(k.startswith("hidden/") for k in manifest["files"])
    out.print(f"wrote the student release to {target}: {len(written)} files, {size:.1f} MB", markup=False)
    out.print(f"  exercises/  {count('exercises/')} stubs", markup=False)
    out.print(f"  grader/     {count('grader/')} files", markup=False)
    out.print(f"  fixtures/   {count('fixtures/checkpoint/')} checkpoint, "
              f"{count('fixtures/photos/')} photographs, {count('fixtures/visible/')} visible fixture files, "
              "manifest.json", markup=False)
    out.print("  README.md and pyproject.toml (for students), " + ", ".join(n for n in ROOT_FILES if n in files),
              markup=False)
    left = ["solutions/", f"fixtures/hidden/ ({hidden} files)", "tests/"]
    left += [f"grader/{p}" for p in GRADER_LEFT_OUT if (paths.KIT_ROOT / "grader" / p).exists()]
    out.print("left out: " + ", ".join(left), markup=False)


def student_pyproject(kit_pyproject: str) -> str:
    """The release's pyproject.toml: the kit's package, dependencies and `vitgrade` script, with
    no test extra and a pytest section that keeps pytest out of grader/ (its hidden-suite runner
    only works through `vitgrade check`), so `pytest` finds only tests a student writes."""
    kept = [text for name, text in _toml_sections(kit_pyproject) if name in PYPROJECT_SECTIONS]
    kept = [re.sub(r'(?m)^description = .*$', f"description = {json.dumps(STUDENT_DESCRIPTION)}", text)
            for text in kept]
    kept.append('[tool.pytest.ini_options]\n'
                '# vitgrade check runs the step tests; pytest here collects only tests you write yourself.\n'
                'norecursedirs = ["grader", "fixtures", ".*", "*.egg-info"]\n')
    return "\n".join(kept)


def _toml_sections(text: str) -> list[tuple[str, str]]:
    """(table name, its text from the header to the next header) for each `[table]` of a TOML file."""
    sections: list[tuple[str, str]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("[") and not line.startswith("[["):
            sections.append((line.strip().strip("[]").strip(), line))
        elif sections:
            name, body = sections[-1]
            sections[-1] = (name, body + line)
    return [(name, body.rstrip("\n") + "\n") for name, body in sections]


def student_readme(manifest: dict) -> str:
    """The release's README.md, from templates/student-README.md: setup, checking a step, reading the
    messages, how grading works. Its format fields: the step table, the limits, the sample photograph
    and the checkpoint as the manifest names them, and a note when the checkpoint is the stand-in."""
    from grader.steps import DEFAULT_MEMORY
    from grader.steps import DEFAULT_TIMEOUT
    from grader.steps import STEPS

    rows = "\n".join(f"| `{s.id}` | {', '.join(f'`{f}`' for f in s.functions)} | {s.pages} | {s.points} |"
                     for s in STEPS)
    total = sum(s.points for s in STEPS)
    standin = ""
    if manifest["checkpoint"]["kind"] == "stand-in":
        standin = ("\nThe test data of this copy come from a seeded stand-in checkpoint with the lecture's "
                   "architecture, not from the lecture's trained ViT-Ti/16: the numbers in the messages "
                   "differ from the slides, the conventions are the same.\n")
    return STUDENT_README.read_text(encoding="utf-8").format(
        rows=rows, total=total, timeout=f"{DEFAULT_TIMEOUT:g}", memory=f"{DEFAULT_MEMORY / 2**30:g}",
        standin=standin, photo=f"fixtures/photos/{sample_photo(manifest)}",
        checkpoint=f"fixtures/{manifest['checkpoint']['file']}")


def sample_photo(manifest: dict) -> str:
    """The file name of the photograph the visible tests are built from, as the manifest records it
    (fixtures built from the instructor's own photographs name theirs)."""
    return next(name for name, photo in manifest["photos"].items() if photo["role"] == "sample")
