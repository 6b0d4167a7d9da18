"""What the worker records while student code runs: the ATen operators it makes run, the library
functions it calls, and the modules it imports (timm, and the kit's own modules beyond the public
API). Which operators, functions and kit imports a step forbids is its rules' business (`grader.steps`).

A Python name for a library computation can be dodged (`torch.ops.aten.native_layer_norm`, a timm
model whose module is deleted afterwards); the work itself cannot: every tensor operation passes
the dispatcher, where a `TorchDispatchMode` sees it, and every first import passes `sys.meta_path`.
Work done by the grader's own objects (the ViT handed to step 08) and by earlier steps (graded in
their own step) runs with the recording switched off.
"""
from __future__ import annotations

import builtins
import contextlib
import functools
import importlib
import importlib.abc
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes, _get_current_dispatch_mode

from grader.steps import ALL_FORBIDDEN_NAMES, OperatorFamily, Step, forbidden, short_name
from grader.suites.feedback import INSTRUMENTS

#: The grader package's folder, as imported and as its real path: the kit may be reached through a
#: symbolic link, and inside the sandbox's view the link's path is a plain folder (bound, not linked).
_KIT_FOLDERS = tuple({os.path.dirname(os.path.dirname(path)) + os.sep
                      for path in (os.path.abspath(__file__), os.path.realpath(__file__))})


def _within_kit(filename: str) -> str | None:
    """`mistakes/catalogue.py` for a file of the grader package, by either of its paths; else None."""
    for path in {os.path.abspath(filename), os.path.realpath(filename)}:
        for kit in _KIT_FOLDERS:
            if path.startswith(kit):
                return path[len(kit):]
    return None


@dataclass
class _Recorder:
    """Where forbidden work is noted right now, and which library names count: set by `recording`
    around the student's code, cleared by `not_recorded` around the grader's own work."""

    record: Callable[[str], None] | None = None
    names: frozenset[str] = frozenset()


_NOW = _Recorder()


class OperatorLog(TorchDispatchMode):
    """Notes each forbidden operator that runs while it is the current dispatch mode."""

    def __init__(self, forbidden: tuple[OperatorFamily, ...], record: Callable[[str], None]) -> None:
        super().__init__()
        self.forbidden, self.record = forbidden, record
        self.seen: set = set()  # operators already judged: a call runs the same few many times

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        """No torch.compile wrapper around `__torch_dispatch__`: it would import torch._dynamo
        (about 1 s, in every worker) and cost every operator a call more."""
        return False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func not in self.seen:
            self.seen.add(func)
            for finding in findings(func, self.forbidden):
                self.record(finding)
        return func(*args, **(kwargs or {}))


def findings(func, families: tuple[OperatorFamily, ...]) -> list[str]:
    """What running `func` puts on the record: one line per forbidden family it belongs to."""
    short = func._schema.name.split("::")[-1]
    return [f"torch.ops.aten.{short} ({family.label})" for family in families if family.matches(short)]


# ---------------------------------------------------------------- the recording's own integrity

#: torch._C's doors past the recording: the dispatch-mode stack itself, and the guards that make
#: operators skip the Python dispatch key where the recording listens.
_C_DOORS = ("_pop_torch_dispatch_stack", "_push_on_torch_dispatch_stack", "_set_dispatch_mode",
            "_unset_dispatch_mode", "_DisableTorchDispatch", "_ExcludeDispatchKeyGuard", "ExcludeDispatchKeyGuard",
            "_SetExcludeDispatchKeyGuard", "_IncludeDispatchKeyGuard", "_ForceDispatchKeyGuard",
            "_RestorePythonTLSSnapshot", "_dispatch_tls_set_dispatch_key_excluded",
            "_dispatch_tls_set_dispatch_key_included")
#: torch's Python doors: helpers that pop the modes or switch dispatch off around a `with` block.
_PYTHON_DOORS = {"torch.utils._python_dispatch": ("_disable_current_modes", "_pop_mode_temporarily", "_pop_mode",
                                                  "_push_mode"),
                 "torch.utils._mode_utils": ("no_dispatch",),
                 "torch._ops": ("_pop_mode_from_pre_dispatch", "_set_mode_pre_dispatch", "unset_mode_pre_dispatch")}
_TORCH_FOLDER = os.path.dirname(os.path.realpath(torch.__file__)) + os.sep


def _trusted(frame) -> bool:
    """Whether the code calling a door is torch's own or the kit's (a module loaded from its real
    file), not the student's: torch switches dispatch off for its own bookkeeping (printing a tensor)."""
    name = frame.f_globals.get("__name__") or ""
    module = sys.modules.get(name)
    if module is None or getattr(module, "__dict__", None) is not frame.f_globals:
        return False
    filename = os.path.realpath(frame.f_code.co_filename)
    if name == "torch" or name.startswith("torch."):
        return filename.startswith(_TORCH_FOLDER)
    return _kit_module(name) and _within_kit(filename) is not None


def _door(original: Callable, label: str, record: Callable[[str], None]) -> Callable:
    def door(*args, **kwargs):
        if not _trusted(sys._getframe(1)):
            record(f"{label} ({INSTRUMENTS})")
        return original(*args, **kwargs)
    return door


_doors_guarded = False


def guard_instruments(record: Callable[[str], None]) -> None:
    """Before student code loads: every name of a door past the recording, in every loaded torch
    module (a name imported elsewhere is the same object), records who opens it unless it is torch's
    or the kit's own code. Names built at run time reach these same objects.

    Not closed: code that digs the original out of a door's closure, or runs itself as torch's code.
    """
    global _doors_guarded
    if _doors_guarded:
        return
    _doors_guarded = True
    from torch._ops import OpOverload

    doors: dict[int, Callable] = {}
    for name in _C_DOORS:
        original = getattr(torch._C, name, None)
        if original is not None:
            doors[id(original)] = _door(original, f"torch._C.{name}", record)
    for module_name, names in _PYTHON_DOORS.items():
        module = importlib.import_module(module_name)
        for name in names:
            original = getattr(module, name, None)
            if original is not None:
                doors[id(original)] = _door(original, f"{module_name}.{name}", record)
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == "torch" or module_name.startswith("torch.")):
            continue
        namespace = getattr(module, "__dict__", {})
        for attribute, value in list(namespace.items()):
            door = doors.get(id(value))
            if door is not None and not attribute.startswith("__"):
                namespace[attribute] = door
    OpOverload.redispatch = _door(OpOverload.redispatch, "OpOverload.redispatch", record)


@contextlib.contextmanager
def not_recorded() -> Iterator[None]:
    """Run the grader's own work (the ViT it hands to step 08, an earlier step) unrecorded."""
    saved, _NOW.record = _NOW.record, None
    try:
        with _disable_current_modes():
            yield
    finally:
        _NOW.record = saved


@contextlib.contextmanager
def recording(step_id: str, evidence: set[str]) -> Iterator[None]:
    """Put the step's forbidden operators and library names on `evidence` for the duration, and
    say so there if student code ended the recording or edited it (reaching it through
    `sys.modules`, a frame or the dispatch mode stack): an operator the log saw without its
    findings on the record, or the log's seen operators or families replaced, is found; the seen
    operators and the record both emptied is not (docs/sandbox.md)."""
    rules = forbidden(step_id)
    record = evidence.add
    log = OperatorLog(rules.operators, record)
    seen, families = log.seen, log.forbidden  # as the call begins: the student's code can reach the log
    saved = _NOW.record, _NOW.names
    _NOW.record, _NOW.names = record, frozenset(rules.names)
    log.__enter__()
    try:
        yield
    finally:
        _NOW.record, _NOW.names = saved
        if _get_current_dispatch_mode() is log:
            log.__exit__(None, None, None)
        else:  # popped or replaced by the student's code: what ran afterwards went unseen
            record(f"torch.utils._python_dispatch, the dispatch mode stack ({INSTRUMENTS})")
            with contextlib.suppress(Exception):
                while _get_current_dispatch_mode() is not None:
                    torch._C._pop_torch_dispatch_stack()
        missing = [line for func in list(seen) for line in findings(func, families) if line not in evidence]
        if missing or log.seen is not seen or log.forbidden is not families:
            record(ERASED)


#: What the record says when the student's code edited it.
ERASED = f"the worker's record of its operators, edited ({INSTRUMENTS})"


# ---------------------------------------------------------------- library names

_library_names_noted = False


def note_library_names() -> None:
    """Wrap every step's forbidden functions of torch's Python namespaces, once per process; a call
    is noted while a step whose rules forbid it is recorded, so a report can name `F.layer_norm`
    beside its operators. Names under `torch.ops` are operators themselves (the dispatcher's
    recording sees them); names outside torch (torchvision's) would cost the worker an import, and their work
    reaches the dispatcher all the same."""
    global _library_names_noted
    if _library_names_noted:
        return
    for dotted in ALL_FORBIDDEN_NAMES:
        if dotted.startswith("torch.") and not dotted.startswith("torch.ops."):
            owner, attribute = _wrap_target(dotted)
            setattr(owner, attribute, _noting(getattr(owner, attribute), dotted))
    _library_names_noted = True


def _wrap_target(dotted: str) -> tuple[Any, str]:
    """`torch.nn.functional.unfold` -> (the module, "unfold"); a class, `torch.nn.Unfold` -> (the
    class, "forward"), which its instances run when called."""
    module_name, _, attribute = dotted.rpartition(".")
    owner = importlib.import_module(module_name)
    value = getattr(owner, attribute)
    return (value, "forward") if isinstance(value, type) else (owner, attribute)


def _noting(function: Callable, dotted: str) -> Callable:
    """`function`, noting its short name whenever it runs while the recorded step forbids it."""
    label = short_name(dotted)

    @functools.wraps(function)
    def noted(*args, **kwargs):
        if _NOW.record is not None and dotted in _NOW.names:
            _NOW.record(label)
        return function(*args, **kwargs)

    return noted


# ---------------------------------------------------------------- imports

_HERE = _within_kit(__file__)  # worker/instruments.py


def _importer_is_kit(frame) -> bool:
    """Whether the code asking for an import (the first frame outside the import machinery and
    this file) is the kit's own: the grader imports its modules lazily, students may not."""
    while frame is not None:
        filename = frame.f_code.co_filename
        if not (filename.startswith("<frozen importlib") or _within_kit(filename) == _HERE
                or filename == importlib.__file__):
            return _within_kit(filename) is not None
        frame = frame.f_back
    return False


def _kit_module(name: str) -> bool:
    return name == "grader" or name.startswith("grader.")


def _borrowed(step: Step, name: str, fromlist) -> list[str]:
    """Kit modules beyond the public API that `import name` / `from name import fromlist` asks for."""
    if not _kit_module(name):
        return []
    if not step.may_import(name):
        return [name]
    return [f"{name}.{item}" for item in fromlist or () if not step.may_import(f"{name}.{item}")]


def _kit_label(module: str) -> str:
    return f"{module} (the kit's own code; exercises may use ViTParams, BlockParams and earlier_step)"


def _module_of(filename: str) -> str | None:
    """`grader.mistakes.catalogue` for .../grader/mistakes/catalogue.py; None outside the kit."""
    inside = _within_kit(filename)
    if inside is None or not inside.endswith(".py"):
        return None
    parts = ["grader", *inside[:-3].split(os.sep)]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class ImportGuard(importlib.abc.MetaPathFinder):
    """Records timm, however imported, and the kit's private modules when student code reaches them
    (the import itself goes ahead: the step's calls are then reported like forbidden calls).

    Three doors, three guards: a first import passes `sys.meta_path` (this finder: timm), a module
    already loaded passes only `builtins.__import__` or `importlib.import_module` (both wrapped), and
    a kit file executed by path raises the `exec` audit event (an audit hook).
    """

    def __init__(self, found: set[str], step: Step) -> None:
        self.found = found  # the worker's set of forbidden things for the current call
        self.step = step  # whose rules say what may be imported from the kit

    def install(self) -> None:
        sys.meta_path.insert(0, self)
        original_import, original_import_module = builtins.__import__, importlib.import_module

        def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
            if level == 0:
                self._check(name, fromlist, sys._getframe(1))
            return original_import(name, globals, locals, fromlist, level)

        def guarded_import_module(name, package=None):
            if not name.startswith("."):
                self._check(name, (), sys._getframe(1))
            return original_import_module(name, package)

        builtins.__import__ = guarded_import
        importlib.import_module = guarded_import_module
        sys.addaudithook(self._audit)

    def _check(self, name: str, fromlist, frame) -> None:
        borrowed = _borrowed(self.step, name, fromlist)
        if borrowed and not _importer_is_kit(frame):
            for module in borrowed:
                self._record_kit(module)

    def _audit(self, event: str, args: tuple) -> None:
        if event == "exec" and getattr(args[0], "co_name", None) == "<module>":
            module = _module_of(args[0].co_filename)
            if module and _borrowed(self.step, module, ()) and not _importer_is_kit(sys._getframe(1)):
                self._record_kit(module)

    def _record_kit(self, module: str) -> None:
        """One entry per borrowed module: a package is dropped once a module inside it is named."""
        named = {label.split(" ")[0]: label for label in self.found if label.startswith("grader")}
        if any(other.startswith(module + ".") for other in named):
            return
        for other, label in named.items():
            if module.startswith(other + "."):
                self.found.discard(label)
        self.found.add(_kit_label(module))

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "timm" or fullname.startswith("timm."):
            self.found.add("timm")
        return None  # the ordinary finders import it
