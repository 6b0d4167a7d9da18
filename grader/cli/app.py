"""The `vitgrade` typer app: every command and group, each from its own module; this file only
wires them. The command line (`grader.cli.main`) imports it once it has started what the command
waits for.

Command modules import torch, timm and the grader's heavy parts inside their functions, so that
`vitgrade --help` and `vitgrade check` start fast.
"""
from __future__ import annotations

import importlib
import inspect

import typer

from grader.cli.commands import COMMANDS, GROUPS, INSTRUCTOR

_STUDENT_HELP = ("Auto-graded exercises for the Vision Transformer lecture (vision1.pdf).\n\n"
                 "Students: `vitgrade check 01_flatten` after editing exercises/01_flatten.py; "
                 "`vitgrade list` for progress.")
_INSTRUCTOR_HELP = (" Instructors: `vitgrade validate`, `vitgrade fixtures build`, `vitgrade release OUT`. "
                    "CI: `vitgrade grade SUBMISSION --format json|junit|gradescope`. "
                    "Repositories: `vitgrade fetch ROSTER --into CLASS`, then `vitgrade grade CLASS --csv F`. "
                    "A class on Gradescope: `vitgrade autograder gradescope`.")

app = typer.Typer(
    name="vitgrade",
    help=_STUDENT_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

@app.callback()
def _root() -> None:
    """Keeps `vitgrade COMMAND` a group even where a release ships a single command."""


def _load(target: str):
    module_name, attr = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            return None
        raise
    return getattr(module, attr)


def flowing_help(doc: str) -> str:
    """A command's docstring as help that the terminal wraps: each paragraph's source lines joined
    (typer keeps them, so a line longer than the terminal broke in two, ragged), lists kept."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(paragraph if any(line.lstrip().startswith(("- ", "* ")) for line in paragraph.splitlines())
                       else " ".join(paragraph.split()) for paragraph in paragraphs)


def _help_that_flows(group: typer.Typer) -> None:
    for command in group.registered_commands:
        if command.help is None and command.callback is not None and command.callback.__doc__:
            command.help = flowing_help(command.callback.__doc__)


_instructor_commands = 0
for _name, _target, _audience in COMMANDS:
    if (_function := _load(_target)) is not None:
        app.command(_name)(_function)
        _instructor_commands += _audience == INSTRUCTOR
for _name, _target, _audience in GROUPS:
    if (_group := _load(_target)) is not None:
        _help_that_flows(_group)
        app.add_typer(_group, name=_name)
        _instructor_commands += _audience == INSTRUCTOR
_help_that_flows(app)
if _instructor_commands:  # the kit, not the student release: say what instructors and CI run
    app.info.help = _STUDENT_HELP + _INSTRUCTOR_HELP
