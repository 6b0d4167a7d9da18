"""How the judge starts a process of the kit (the zygote, a portable worker): with this copy of it.

`python -m grader.worker.zygote` imports the `grader` package it finds first, and the current folder
comes first: run from inside another checkout of the kit (or a release), with this copy installed
in a virtual environment, the judge and its workers would run two different copies, which disagree
on their messages and on which code is the kit's own (the worker's record of its operators trusts
the kit's code by where its files are). The command built here puts the folder that holds this
copy's package first, wherever the process starts, so the workers always run the judge's copy.
"""
from __future__ import annotations

import os

import grader

#: The folder holding the judge's `grader` package, by its real path: the workers' read-only view
#: holds real paths, not the links to them (a symlinked virtual environment).
KIT_PARENT = os.path.dirname(os.path.dirname(os.path.realpath(grader.__file__)))


def module_arguments(module: str) -> list[str]:
    """The interpreter's arguments that run `module` as `-m` would, from this copy of the kit
    (the command's own arguments follow them)."""
    code = (f"import runpy, sys; sys.path.insert(0, {KIT_PARENT!r}); "
            f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")
    return ["-c", code]
