"""Which files a check graded, named from where the student stands, and whether the student stands
inside another copy of the kit than the one graded.

A student who cloned twice may edit the new copy while `vitgrade` (installed with `pip install -e .`
from the old one) grades the old copy's files. Every report therefore names the files it read and,
in that case, says so in one line with the fix.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from grader import paths


def kit_copy_of(folder: Path) -> Path | None:
    """The copy of the kit that holds `folder` (it or a parent), or None outside every copy.

    A copy is recognised as the student release and the full kit both lay it out: a `grader`
    package with its `paths.py` beside an `exercises` folder.

    Args:
        folder: Any folder, e.g. the current one.

    Returns:
        The copy's root folder, symbolic links resolved, or None.
    """
    folder = Path(folder).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / "grader" / "paths.py").is_file() and (candidate / "exercises").is_dir():
            return candidate
    return None


def shown_path(path: Path, here: Path) -> str:
    """`path` as the student standing in `here` would type it.

    Relative when it lies inside `here`, or inside the same copy of the kit as `here` (then with
    `..` where needed); absolute otherwise, so a file of another copy is never mistaken for one nearby.

    Args:
        path: An absolute path.
        here: The current folder.

    Returns:
        The path to print.
    """
    path, here = Path(path).resolve(), Path(here).resolve()
    if path.is_relative_to(here):
        return path.relative_to(here).as_posix() or "."
    kit = kit_copy_of(here)
    if kit is not None and path.is_relative_to(kit):
        try:
            return Path(os.path.relpath(path, here)).as_posix()
        except ValueError:  # Windows: another drive has no relative path
            pass
    return str(path)


@dataclass(frozen=True)
class GradedFiles:
    """The step files one check read, and where the student stood when it ran."""

    folder: Path
    """The submission folder graded (absolute, resolved)."""
    step_ids: tuple[str, ...]
    """The steps graded, in lecture order."""
    here: Path
    """The current folder of the student (the notebook kernel's, or the terminal's)."""

    @classmethod
    def of(cls, folder: Path, step_ids: tuple[str, ...], here: Path | None = None) -> GradedFiles:
        """The files of `step_ids` in `folder`, seen from `here` (default: the current folder)."""
        return cls(Path(folder).resolve(), tuple(step_ids), Path(here or Path.cwd()).resolve())

    def path(self, step_id: str) -> Path:
        """The absolute path of one step's file."""
        return paths.step_file(self.folder, step_id)

    def shown(self, step_id: str) -> str:
        """One step's file as the student would type it, e.g. `exercises/05_attention.py`."""
        return shown_path(self.path(step_id), self.here)

    def other_copy(self) -> str | None:
        """One line when the student stands inside a copy of the kit whose files were not graded.

        Returns:
            `You are in the kit copy X, but the files graded are those of Y: ...` with the fix, or
            None when the graded files lie in the copy the student stands in (or either is no copy).
        """
        here_copy, graded_copy = kit_copy_of(self.here), kit_copy_of(self.folder)
        if here_copy is None or graded_copy is None or here_copy == graded_copy:
            return None
        return (f"You are in the kit copy {here_copy}, but these are the files of the copy {graded_copy}: "
                f"to grade this copy, run `pip install -e .` in {here_copy} "
                f"(or set VITGRADE_ROOT={here_copy}).")
