"""One list of what a student must never read (grader/secret_files.py) and its four users: the
workers' view (and Landlock, which stands in for it), the release, Gradescope's run_autograder and
the sandbox survey. Each is checked against the list itself, so a path added to the list is closed by
all four, or a test here fails.
"""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from grader import paths
from grader.cli.release import release_files
from grader.expected.store import load_manifest
from grader.launch import sandbox, view
from grader.platforms.gradescope import RUN_AUTOGRADER
from grader.secret_files import SECRET_FILES, compiled_copies, is_secret, secret_paths


def test_the_list_holds_the_answers_and_what_records_the_hidden_inputs():
    for answer_bearing in ("solutions/01_flatten.py", "fixtures/hidden/05_attention.safetensors",
                           "fixtures/manifest.json", "grader/lecture_maths.py", "grader/mistakes/catalogue.py",
                           "grader/expected/build.py", "tests/mutants/catalogue.py", ".git/config"):
        assert is_secret(answer_bearing), answer_bearing
    for needed in ("grader/expected/store.py", "fixtures/checkpoint/standin.safetensors", ".gitignore",
                   "fixtures/visible/01_flatten.safetensors", "grader/worker/serving.py", "testsuite.py"):
        assert not is_secret(needed), needed


def _holds(folder: str, path: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def test_neither_the_view_nor_landlock_grants_a_secret(tmp_path):
    """Even with every answer-bearing module imported (the judge imports them; the zygote's view
    lists the grader files loaded), no path the worker may open holds a secret or lies in one."""
    import grader.expected.build  # noqa: F401 - loaded, as in a judge that built fixtures
    import grader.lecture_maths  # noqa: F401
    import grader.mistakes.catalogue  # noqa: F401

    init = {"submission": str(tmp_path / "submission"), "stubs": ["01_flatten"], "checkpoint": str(paths.STANDIN)}
    base = view.base_view(paths.KIT_ROOT)
    readable, writable = view.landlock_view(base, init, str(tmp_path / "scratch"))
    granted = set(view.submission_view(base, init)) | set(readable) | set(writable)
    secrets = [str(path) for path in secret_paths(paths.KIT_ROOT).values()]
    assert len(secrets) >= len(SECRET_FILES) - 1  # this checkout has every secret (.git may be a file)
    for path in granted:
        real = os.path.realpath(path)
        assert not any(_holds(secret, real) or _holds(real, secret) for secret in secrets), path


def test_the_release_copies_no_secret():
    files = release_files(load_manifest(paths.FIXTURES))
    assert "grader/expected/store.py" in files and "fixtures/checkpoint/standin.safetensors" in files
    for relative, source in files.items():
        assert not is_secret(relative) and not is_secret(source.relative_to(paths.KIT_ROOT).as_posix()), relative


def _closing_line() -> str:
    script = RUN_AUTOGRADER.format(stop_after=60, per_step=5, within=50, options="")
    (line,) = [line for line in script.splitlines() if line.startswith("chmod ")]
    return line


def test_run_autograder_closes_every_secret_and_its_compiled_copies_to_all_but_their_owner(tmp_path):
    """The script's own chmod line, run on a tree holding every secret (and the bytecode Python
    writes of the secret modules), world-readable as the bundle's zip leaves its files."""
    source = tmp_path / "source"
    made = []
    for secret in SECRET_FILES:
        inside = source / secret / "part.bin" if not Path(secret).suffix else source / secret
        made.append(inside)
        if copies := compiled_copies(secret):
            made.append(source / copies.replace("*", "cpython-311.pyc"))
    needed = source / "grader" / "expected" / "store.py"
    for path in [*made, needed]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("answers")
    for path in (source, *source.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    run = subprocess.run(["bash", "-c", f'SOURCE="$1"; {_closing_line()}', "closing", str(source)])
    assert run.returncode == 0
    for path in made:
        for step in (path, *[p for p in path.parents if source in p.parents]):
            if is_secret(step.relative_to(source).as_posix()):
                assert stat.S_IMODE(step.stat().st_mode) & 0o077 == 0, step
    assert stat.S_IMODE(needed.stat().st_mode) == 0o644


def _surveyed(switches: str) -> sandbox.Plan:
    code = ("import json; from grader.launch import sandbox, view; from grader.paths import KIT_ROOT; "
            "print(json.dumps(sandbox.survey(view.base_view(KIT_ROOT), view.worker_reads(KIT_ROOT), "
            "view.secrets(KIT_ROOT)).to_json()))")
    env = {**sandbox.worker_environment(dict(os.environ)), "VITGRADE_SANDBOX": switches}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env,
                         cwd=paths.KIT_ROOT)
    assert run.returncode == 0, run.stderr
    return sandbox.Plan.from_json(json.loads(run.stdout))


def _any_user_opens(path: Path) -> bool:
    """Whether a user outside the owner and the group may open `path` (read a file, list a folder),
    by its mode bits and its folders'."""
    return all(folder.stat().st_mode & stat.S_IXOTH for folder in path.parents) \
        and bool(path.stat().st_mode & stat.S_IROTH)


@pytest.mark.skipif(sandbox.landlock_abi() < 1, reason="this kernel offers no Landlock")
def test_the_survey_names_every_secret_a_worker_could_open_and_none_behind_landlock():
    """Without namespaces and Landlock, a worker that stays root (or a user who owns the kit) opens
    every secret, and the survey names them all, from the list; with Landlock it opens none."""
    bare, confined = _surveyed("no-namespaces,no-landlock"), _surveyed("no-namespaces")
    assert "Landlock file access" not in bare.layers()
    readable = [reason for reason in bare.missing if reason.startswith("secrets readable by the worker")]
    # a worker that drops to uid 65534 opens what any user may: a checkout cloned world-readable
    # (umask 022) holds every secret open to it, a kit closed to others none
    secrets = secret_paths(paths.KIT_ROOT)
    opened = [name for name, path in secrets.items() if _any_user_opens(path)] if bare.unprivileged else list(secrets)
    assert readable == ([f"secrets readable by the worker ({', '.join(opened)})"] if opened else [])
    assert confined.landlock and "Landlock file access" in confined.layers() and confined.level() == "partial"
    assert not any(reason.startswith("secrets readable") for reason in confined.missing), confined.missing
