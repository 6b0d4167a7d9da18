"""The `vitgrade` command line. Each command lives in its own module; this file only wires them.

Command modules import torch, timm and the grader's heavy parts inside their functions, so that
`vitgrade --help` and `vitgrade check` start fast.
"""
from __future__ import annotations

import importlib
import inspect
import os
import sys

# The judge's numpy works beside the workers (comparisons, the diagnosis's search over edits): the
# threads of OpenBLAS would only fight them for the cores; a search of vit_forward took 4.7 CPU-s
# with them on two busy cores and 0.64 s on one thread. Before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _jobs(argv: list[str]) -> str:
    """The value of --jobs as written on the command line ("1" when absent)."""
    for i, arg in enumerate(argv):
        if arg == "--jobs":
            return argv[i + 1] if i + 1 < len(argv) else ""
        if arg.startswith("--jobs="):
            return arg.partition("=")[2]
    return "1"


def _in_a_judge() -> bool:
    """Whether this is a judge of a pool, importing the command line as multiprocessing prepares
    it (with the grading command's argv): its runner comes from the pool, not from here."""
    multiprocessing = sys.modules.get("multiprocessing")  # a command has not imported it yet
    # Named before it is started: prepare() names the process as it imports the main module.
    return multiprocessing is not None and multiprocessing.current_process().name != "MainProcess"


def _start_runner_early(argv: list[str]) -> None:
    """`check` and `grade` wait above all for their worker's torch import: start it before this
    module imports typer, rich and every command (about 0.2 s), rather than when the command runs.
    Not for `--help`, nor for a pool of portable runners (`--jobs N` where the zygote cannot run:
    each judge starts its own; a pool's judges share the zygote); a command that stops before
    grading (a usage error) ends it as the process exits."""
    if len(argv) < 2 or argv[1] not in ("check", "grade") or {"--help", "-h"} & set(argv) or _in_a_judge():
        return
    from grader.launch.runners import start_ahead, worth_starting_ahead

    jobs = _jobs(argv)
    if jobs.isdigit() and worth_starting_ahead(int(jobs)):
        start_ahead()


# Only as the command itself (`vitgrade`, `python -m grader.cli`, where argv[0] is "-m" while the
# package loads), never where another program imports this module.
if os.path.splitext(os.path.basename(sys.argv[0]))[0] in ("vitgrade", "-m", "__main__"):
    _start_runner_early(sys.argv)

import typer  # noqa: E402 - after the variable numpy reads as it loads

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


STUDENT, INSTRUCTOR = "student", "instructor"
# (command name, "module:function", who uses it). A module that is absent is skipped: the student
# release (`vitgrade release`) leaves out every instructor command's module.
COMMANDS = [
    ("list", "grader.cli.list_steps:list_steps", STUDENT),
    ("check", "grader.cli.check:check", STUDENT),
    ("grade", "grader.cli.grade:grade", INSTRUCTOR),
    ("fetch", "grader.cli.fetch:fetch", INSTRUCTOR),
    ("gradebook", "grader.cli.gradebook:gradebook", INSTRUCTOR),
    ("validate", "grader.cli.validate:validate", INSTRUCTOR),
    ("predict", "grader.cli.predict:predict", STUDENT),
    ("release", "grader.cli.release:release", INSTRUCTOR),
    ("bench", "grader.cli.bench:bench", INSTRUCTOR),
]
# (group name, "module:typer app", who uses it)
GROUPS = [
    ("fixtures", "grader.cli.fixtures:app", INSTRUCTOR),
    ("show", "grader.cli.show:app", STUDENT),
    ("autograder", "grader.cli.autograder:app", INSTRUCTOR),
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


def _encodable_output() -> None:
    """Windows writes pipes and files in its ANSI code page (cp1252), which has no ✓ or ✗: they
    print as `?` instead of ending the report with a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def main() -> None:
    _encodable_output()
    app()
