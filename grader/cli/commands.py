"""The `vitgrade` commands and groups: which module holds each, and who uses it. The typer app
(`grader.cli.app`) registers them; the student release (`grader.cli.release`) leaves out the
instructors' modules.
"""
from __future__ import annotations

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
