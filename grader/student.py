"""How one step's file reaches the functions of earlier steps, as the lecture builds them up.

A stub writes `flatten = earlier_step("01_flatten")` and later calls `flatten.patchify(...)`.
Outside the grader this loads `01_flatten.py` from the same folder as the calling file, so a
student's chain runs on their own code. Inside a grading worker the grader may bind an earlier step
to the reference solution first, so that one mistake costs points only once.
"""
from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType

#: Step id -> module, set by the grading worker before the student's file is loaded.
_bound: dict[str, ModuleType] = {}


def bind_step(step_id: str, module: ModuleType) -> None:
    """Make `earlier_step(step_id)` return `module` from now on (grader use only)."""
    _bound[step_id] = module


def forget_steps(kept: list[ModuleType]) -> None:
    """Undo every binding and drop every loaded step file except `kept` (a worker serving a
    submission's next step starts from none of the last one's files)."""
    _bound.clear()
    ids = {id(module) for module in kept}
    dropped = [name for name, module in sys.modules.items()
               if name.startswith("vitgrade_steps_") and id(module) not in ids]
    for name in dropped:
        del sys.modules[name]


def load_step_file(path: Path) -> ModuleType:
    """Import one step file by path, once per path, under a name no other file can take."""
    path = Path(path).resolve()
    digest = hashlib.sha1(str(path.parent).encode()).hexdigest()[:10]
    name = f"vitgrade_steps_{digest}.s{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        # From the source, never from __pycache__: a .pyc counts as current while the source keeps
        # its size and its modification time in whole seconds, so an edit saved within the same
        # second that keeps the file's size would run (and be graded) as the file before it.
        exec(compile(path.read_bytes(), str(path), "exec", dont_inherit=True), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def earlier_step(step_id: str) -> ModuleType:
    """The module of an earlier step, e.g. `earlier_step("01_flatten").patchify`.

    Args:
        step_id: the file name of the step without `.py`.

    Returns:
        The grader's binding for that step if it made one, else the file beside the caller.
    """
    if step_id in _bound:
        return _bound[step_id]
    caller = inspect.currentframe().f_back.f_code.co_filename  # inspect.stack() reads every frame's source
    return load_step_file(Path(caller).resolve().parent / f"{step_id}.py")
