"""What a worker may see of the file system: the allow-list behind the sandbox's read-only view.

Only what the worker runs or reads: Python's installation, the grader modules the zygote has
loaded, the checkpoint, the one submission being graded and the stubs that stand in for its missing
steps. Everything else (sibling submissions, the kit's solutions, tests, hidden fixtures and git
history, the grader's correct computations, home folders) is absent from the worker's root.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import grader
from grader.secret_files import secret_paths, secrets_inside

#: System files every process may need: shared libraries (and the paths the loader finds them by).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc/ld.so.cache", "/etc/localtime")
#: Parts of the grader never in the view, whatever imported them: the secrets, and what only the
#: judge runs (fixture cases, the checkpoint's maker, the suite and its diagnosis).
GRADER_PRIVATE = (*secrets_inside("grader"), "expected", "checkpoint", "suites")


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def python_installation(kit_root: Path) -> list[str]:
    """Python's prefixes, and the sys.path entry each loaded module came from (the innermost one
    holding it: never the current folder because it happens to hold site-packages, nor because a
    module gives a relative file name); never an entry
    that holds the kit (the kit's own files are listed one by one, see `grader_files`), nor one that
    holds a secret or lies in one (grader/secret_files.py)."""
    folders = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    entries = [Path(p).absolute() for p in sys.path if p and os.path.isdir(p)]
    # By name, as `_inside` compares, but as strings: over the ~1,200 modules the zygote has loaded,
    # `Path.parents` took 76 ms of its start, before anything can be graded.
    under = [(str(e), os.path.join(str(e), ""), e) for e in entries]  # (entry, its prefix, entry)
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        # A relative name is no file: torch.ops and torch.classes say "_ops.py" and "_classes.py",
        # which would bring the current folder into the view (from /tmp: the host's /tmp, writable).
        if not file or not os.path.isabs(file):
            continue
        path = str(Path(file).absolute())
        holding = [e for name, prefix, e in under if path == name or path.startswith(prefix)]
        if holding:
            folders.add(max(holding, key=lambda e: len(e.parts)))
    # Nor one in or around a secret: run by the kit's own tests, modules come from tests/.
    secrets = list(secret_paths(kit_root).values())
    return sorted(str(f) for f in folders if not _inside(kit_root, f) and
                  not any(_inside(f, secret) or _inside(secret, f) for secret in secrets))


def grader_files() -> list[str]:
    """The files of every grader module loaded so far (the zygote preloads all the worker runs)."""
    package = Path(grader.__file__).absolute().parent
    private = [package / part for part in GRADER_PRIVATE]
    files = set()
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if (name == "grader" or name.startswith("grader.")) and file:
            path = Path(file).absolute()
            if _inside(path, package) and not any(_inside(path, p) for p in private):
                files.add(str(path))
    return sorted(files)


def base_view(kit_root: Path) -> list[str]:
    """What every worker sees, whatever it grades."""
    return [*SYSTEM, *python_installation(kit_root), *grader_files()]


def submission_view(base: list[str], init: dict) -> list[str]:
    """`base` plus what one submission's steps read: the checkpoint, the submission, and the stubs
    that stand in for the missing earlier steps its steps call (`init["stubs"]`; references are
    loaded before the view is entered, so they stay out)."""
    from grader.paths import EXERCISES

    submission = Path(init["submission"])
    # Nothing that holds the submission's folder: in a class folder that would show its siblings.
    base = [p for p in base if not _inside(submission.parent, Path(p))]
    stubs = [str(EXERCISES / f"{s}.py") for s in init["stubs"]]
    return [*base, init["checkpoint"], str(submission), *stubs]


def landlock_view(base: list[str], init: dict, scratch: str) -> tuple[list[str], list[str]]:
    """Where there is no view, what Landlock lets a worker open: (to read: the view's files and
    its own /proc entry, as the view's private /proc; never the judge's, whose environment may
    hold tokens; to write: `scratch`, a folder made for this step alone, never /tmp itself, which
    may hold the kit, and the view's devices)."""
    from grader.launch.sandbox import DEVICES

    return [*submission_view(base, init), "/proc/self"], [scratch, *(f"/dev/{d}" for d in DEVICES)]


def worker_reads(kit_root: Path) -> dict[str, list[str]]:
    """What a worker without the view must be able to read, by what it is (for the survey of the
    unprivileged user, before torch is imported: its folder is found without importing it)."""
    import importlib.util

    torch = importlib.util.find_spec("torch")
    python = python_installation(kit_root) + [os.__file__]
    if torch is not None and torch.origin:
        python.append(os.path.dirname(torch.origin))
    return {"Python": python, "the grader": grader_files(),
            "the checkpoint": [str(kit_root / "fixtures" / "checkpoint")]}


def secrets(kit_root: Path) -> dict[str, str]:
    """What a worker must never read (grader/secret_files.py), by name: for the sandbox survey."""
    return {name: str(path) for name, path in secret_paths(kit_root).items()}
