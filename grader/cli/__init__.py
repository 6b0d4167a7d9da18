"""The `vitgrade` command line. Each command lives in its own module; this file only wires them.

Command modules import torch, timm and the grader's heavy parts inside their functions, so that
`vitgrade --help` and `vitgrade check` start fast.
"""
from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="vitgrade",
    help="Auto-graded exercises for the Vision Transformer lecture (vision1.pdf).\n\n"
    "Students: `vitgrade check 01_flatten` after editing exercises/01_flatten.py; "
    "`vitgrade list` for progress. Instructors: `vitgrade validate`, `vitgrade fixtures build`, "
    "`vitgrade release OUT`. CI: `vitgrade grade SUBMISSION --format json|junit|gradescope`. "
    "A class on Gradescope: `vitgrade autograder gradescope`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

@app.callback()
def _root() -> None:
    """Keeps `vitgrade COMMAND` a group even where a release ships a single command."""


# (command name, "module:function"); a module that is absent (e.g. in the student release) is skipped.
_COMMANDS = [
    ("list", "grader.cli.list_steps:list_steps"),
    ("check", "grader.cli.check:check"),
    ("grade", "grader.cli.grade:grade"),
    ("gradebook", "grader.cli.gradebook:gradebook"),
    ("validate", "grader.cli.validate:validate"),
    ("predict", "grader.cli.predict:predict"),
    ("release", "grader.cli.release:release"),
    ("bench", "grader.cli.bench:bench"),
]
# (group name, "module:typer app")
_GROUPS = [
    ("fixtures", "grader.cli.fixtures:app"),
    ("show", "grader.cli.show:app"),
    ("autograder", "grader.cli.autograder:app"),
]


def _load(target: str):
    module_name, attr = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            return None
        raise
    return getattr(module, attr)


for _name, _target in _COMMANDS:
    if (_function := _load(_target)) is not None:
        app.command(_name)(_function)
for _name, _target in _GROUPS:
    if (_group := _load(_target)) is not None:
        app.add_typer(_group, name=_name)


def main() -> None:
    app()
