"""What a student must never read: the one list.

Every part of the kit that keeps files from students reads this list, so none can close less than
another: the workers' read-only view leaves these paths out (launch/view.py), Landlock grants them
to no worker (launch/sandbox.py), the release does not copy them (cli/release.py), Gradescope's
`run_autograder` closes them to everyone but root (platforms/gradescope.py), and the sandbox survey
names each one a worker could still read.
"""
from __future__ import annotations

from pathlib import Path, PurePosixPath

#: Paths relative to the kit's root (folders whole): what computes or records the answers, and the
#: hidden inputs with their sizes and seeds.
SECRET_FILES = (
    "solutions",  # every exercise's answer
    "fixtures/hidden",  # the hidden cases: inputs and expected outputs
    "fixtures/manifest.json",  # every hidden tensor's shape, and the fixtures' seed
    "fixtures/lecture_facts.safetensors",  # the checkpoint's own outputs the lecture-fact tests expect
    "tests",  # the kit's tests: mutants, and the solutions' own checks
    ".git",  # the history holds all of the above
    "grader/lecture_maths.py",  # every exercise's answer, as the lecture writes it
    "grader/mistakes",  # each known mistake is a wrong implementation one edit away from the right one
    "grader/expected/build.py",  # how the fixtures are made: the hidden cases' sizes and seeds
    "grader/search",  # the lecture's computations, edit by edit, to name unseen mistakes
)


def is_secret(relative: str) -> bool:
    """Whether `relative` (a path from the kit's root, `/`-separated) is on the list or inside it."""
    parts = PurePosixPath(relative).parts
    return any(parts[:len(PurePosixPath(secret).parts)] == PurePosixPath(secret).parts for secret in SECRET_FILES)


def secrets_inside(folder: str) -> tuple[str, ...]:
    """The secrets inside `folder` (a path from the kit's root), relative to it: `grader` ->
    `lecture_maths.py`, `mistakes`, ..."""
    prefix = folder.rstrip("/") + "/"
    return tuple(secret.removeprefix(prefix) for secret in SECRET_FILES if secret.startswith(prefix))


def compiled_copies(secret: str) -> str | None:
    """The glob of the bytecode Python writes for a secret module (`grader/__pycache__/lecture_maths.*`),
    which holds the same answers; None for a folder or a file that is not a module."""
    path = PurePosixPath(secret)
    if path.suffix != ".py":
        return None
    return str(path.parent / "__pycache__" / f"{path.stem}.*")


def secret_paths(kit_root: Path) -> dict[str, Path]:
    """Every secret of the kit at `kit_root` that exists, compiled copies included, by its name
    (`solutions/`, `grader/lecture_maths.py`)."""
    found = {}
    for secret in SECRET_FILES:
        path = kit_root / secret
        if path.exists():
            found[secret + ("/" if path.is_dir() else "")] = path
        pattern = compiled_copies(secret)
        for copy in sorted(kit_root.glob(pattern)) if pattern else []:
            found[copy.relative_to(kit_root).as_posix()] = copy
    return found
