"""Commands that run someone's steps (`predict`, `show`): choose the folder, load, report failures.

The implementation's own code runs in this process, so everything it raises, from a syntax error
to a stub's `NotImplementedError`, is turned into one line naming its file, line and function.
"""
from __future__ import annotations

import traceback
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Literal
from collections.abc import Iterator

import typer

from grader.cli.common import fail
from grader.paths import EXERCISES, KIT_ROOT, SOLUTIONS, step_file

Impl = Literal["solutions", "exercises"]
#: The instructor's kit runs the solutions by default; the student release, which has none, runs
#: the student's own exercises.
DEFAULT_IMPL: Impl = "solutions" if SOLUTIONS.is_dir() else "exercises"

#: The options every such command takes, in the same words.
IMPL_HELP = "Whose steps to run: the reference solutions or exercises/."
SUBMISSION_HELP = "A folder of step files to run instead; overrides --impl."
CHECKPOINT_HELP = ("fixtures (the checkpoint the test data were built from, as fixtures/manifest.json names it), "
                   "stand-in, the hub id of the lecture's checkpoint, or a .safetensors/.pth/.npz file.")
#: --checkpoint's default: every copy of the kit, a student release built from the lecture's
#: checkpoint too, ships the checkpoint its fixtures came from.
FIXTURES_CHECKPOINT = "fixtures"


def checkpoint_source(source: str) -> str:
    """`fixtures` as the checkpoint file the fixtures' manifest names; any other source as given."""
    if source != FIXTURES_CHECKPOINT:
        return source
    from grader.expected.store import FixtureError, load_manifest
    from grader.paths import FIXTURES

    try:
        return str(FIXTURES / load_manifest(FIXTURES)["checkpoint"]["file"])
    except (FixtureError, KeyError) as error:
        fail(f"--checkpoint fixtures: the fixtures' manifest names no checkpoint ({error})")


def folder_of(impl: Impl, submission: Path | None) -> Path:
    """The folder whose step files run: `--submission DIR` if given, else solutions/ or exercises/."""
    if submission is not None and not submission.is_dir():
        fail(f"--submission {submission} is not a folder")
    return submission or (SOLUTIONS if impl == "solutions" else EXERCISES)


def load_step(folder: Path, step_id: str, *functions: str) -> ModuleType:
    """One step file of `folder`; loading it also loads the earlier steps it uses.

    Args:
        folder: solutions/, exercises/ or a submission.
        step_id: e.g. "07_head".
        functions: names the module must define as functions; a missing one ends the command.
    """
    from grader.student import load_step_file

    path = step_file(folder, step_id)
    if not path.is_file():
        fail(f"{shown(path)} does not exist")
    try:
        module = load_step_file(path)
    except Exception as error:  # the implementation's own code runs here; report it, don't crash
        fail(f"{_where(error, folder)}: could not be loaded: {_one_line(error)}")
    for name in functions:
        if not callable(getattr(module, name, None)):
            fail(f"{shown(path)} has no function {name}")
    return module


class WrongOutput(Exception):
    """An implementation's function returned something unusable; the message is one line."""


@contextmanager
def reporting_failures(folder: Path) -> Iterator[None]:
    """Run implementation code; whatever it raises ends the command with one line.

    A stub's `NotImplementedError` says which file and function are not written yet; any other
    error says where it happened (`file:line in function`) and what it was.
    """
    try:
        yield
    except typer.Exit:  # a fail() from inside, e.g. a callback of ours the implementation calls
        raise
    except WrongOutput as error:
        fail(str(error))
    except NotImplementedError as error:  # a stub's `raise NotImplementedError("vit_forward")`
        frame = _deepest_frame(error, folder)
        fail(f"{shown(Path(frame.filename))}: {frame.name} is not written yet")
    except Exception as error:
        frame = _deepest_frame(error, folder)
        fail(f"{_where(error, folder)} in {frame.name}: {_one_line(error)}")


def shown(path: Path) -> str:
    """A path as people read it: relative to the kit when inside it, e.g. exercises/07_head.py."""
    try:
        return str(path.resolve().relative_to(KIT_ROOT.resolve()))
    except ValueError:
        return str(path)


def _deepest_frame(error: BaseException, folder: Path) -> traceback.FrameSummary:
    """The innermost traceback frame inside the implementation's folder, else the innermost one."""
    frames = traceback.extract_tb(error.__traceback__)
    inside = [f for f in frames if Path(f.filename).resolve().parent == folder.resolve()]
    return (inside or frames)[-1]


def _where(error: BaseException, folder: Path) -> str:
    """`file:line` of the failure: a syntax error names its own file, anything else its frame."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{shown(Path(error.filename))}:{error.lineno}"
    frame = _deepest_frame(error, folder)
    return f"{shown(Path(frame.filename))}:{frame.lineno}"


def _one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
