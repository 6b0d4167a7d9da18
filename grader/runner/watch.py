"""What the worker watches while student code runs: the ATen operators it makes run, and the
modules it imports (timm, and the kit's own modules beyond the public API).

A Python name for a library computation can be dodged (`torch.ops.aten.native_layer_norm`, a timm
model whose module is deleted afterwards); the work itself cannot: every tensor operation passes
the dispatcher, where a `TorchDispatchMode` sees it, and every first import passes `sys.meta_path`.
Work done by the grader's own objects (the ViT handed to step 08) and by earlier steps (graded in
their own step) runs with the recording switched off.
"""
from __future__ import annotations

import builtins
import contextlib
import importlib
import importlib.abc
import os
import re
import sys
from collections.abc import Callable, Iterator

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes, _get_current_dispatch_mode

from grader.steps import STEP_IDS

# Operator families, by the dispatcher's names (`aten::` left off). Under `torch.inference_mode`
# composite operators arrive whole (`layer_norm`), otherwise as their kernels (`native_layer_norm`).
IM2COL = (re.compile(r"im2col$"), "im2col, the work of F.unfold")
CONVOLUTION = (re.compile(r"conv(olution|_|\d)|^_?slow_conv|^thnn_conv"), "convolution")
ATTENTION = (re.compile(r"scaled_dot_product|^_native_multi_head_attention$|^_transformer_encoder_layer"
                        r"|^_masked_softmax"), "fused attention")
NORMALIZATION = (re.compile(r"^_?(native_)?(layer|group|batch|instance|rms)_norm|^_native_batch_norm"
                            r"|^_batch_norm|^_fused_rms_norm"), "a library normalization")

#: What each step may not leave to a library: its own computation and every earlier step's
#: (a later step builds on them, e.g. `vit_forward` is the lecture's six lines, not timm's forward).
_OWN = {"01_flatten": [IM2COL, CONVOLUTION], "02_project": [CONVOLUTION, IM2COL],
        "05_attention": [ATTENTION], "06_block": [NORMALIZATION]}
FORBIDDEN_OPERATORS: dict[str, list[tuple[re.Pattern, str]]] = {}
_so_far: list[tuple[re.Pattern, str]] = []
for _step in STEP_IDS:
    _so_far += [family for family in _OWN.get(_step, []) if family not in _so_far]
    FORBIDDEN_OPERATORS[_step] = list(_so_far)

#: The kit modules student code may import (DESIGN.md: ViTParams, BlockParams, earlier_step).
PUBLIC_MODULES = {"grader", "grader.params", "grader.student"}
PUBLIC_NAMES = {"BlockParams", "ViTParams", "earlier_step", "params", "student", "*"}
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


class OperatorLog(TorchDispatchMode):
    """Notes each forbidden operator that runs while it is the current dispatch mode."""

    def __init__(self, forbidden: list[tuple[re.Pattern, str]], record: Callable[[str], None]) -> None:
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
            short = func._schema.name.split("::")[-1]
            for pattern, label in self.forbidden:
                if pattern.search(short):
                    self.record(f"torch.ops.aten.{short} ({label})")
        return func(*args, **(kwargs or {}))


@contextlib.contextmanager
def not_recorded() -> Iterator[None]:
    """Run the grader's own work (the ViT it hands to step 08, an earlier step) unrecorded."""
    with _disable_current_modes():
        yield


@contextlib.contextmanager
def recording(step_id: str, record: Callable[[str], None]) -> Iterator[None]:
    """Record the step's forbidden operators for the duration; say so if student code ended it."""
    log = OperatorLog(FORBIDDEN_OPERATORS.get(step_id, []), record)
    log.__enter__()
    try:
        yield
    finally:
        if _get_current_dispatch_mode() is log:
            log.__exit__(None, None, None)
        else:  # popped or replaced by the student's code: what ran afterwards went unseen
            record("torch.utils._python_dispatch (switching off the grader's operator recording)")
            with contextlib.suppress(Exception):
                while _get_current_dispatch_mode() is not None:
                    torch._C._pop_torch_dispatch_stack()


# ---------------------------------------------------------------- imports

_HERE = _within_kit(__file__)  # runner/watch.py


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


def _borrowed(name: str, fromlist) -> list[str]:
    """Kit modules beyond the public API that `import name` / `from name import fromlist` asks for."""
    if not _kit_module(name):
        return []
    found = [] if name in PUBLIC_MODULES else [name]
    if name == "grader":
        found += [f"grader.{item}" for item in fromlist or () if item not in PUBLIC_NAMES]
    return found


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

    Three doors, three watches: a first import passes `sys.meta_path` (this finder: timm), a module
    already loaded passes only `builtins.__import__` or `importlib.import_module` (both wrapped), and
    a kit file executed by path raises the `exec` audit event (an audit hook).
    """

    def __init__(self, found: set[str]) -> None:
        self.found = found  # the worker's set of forbidden things for the current call

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
        borrowed = _borrowed(name, fromlist)
        if borrowed and not _importer_is_kit(frame):
            for module in borrowed:
                self._record_kit(module)

    def _audit(self, event: str, args: tuple) -> None:
        if event == "exec" and getattr(args[0], "co_name", None) == "<module>":
            module = _module_of(args[0].co_filename)
            if module and _borrowed(module, ()) and not _importer_is_kit(sys._getframe(1)):
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
