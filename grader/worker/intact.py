"""Whether one step's student code left the portable worker's interpreter as it found it.

The portable runner (macOS, Windows: no fork) serves a submission's steps in turn in one process.
What one step's code changes there must not reach the next step: a patched torch or numpy
function, class or module attribute, the grader's own modules, torch's global settings, a thread
or a child process still running. The worker compares the interpreter with a snapshot taken before
any student code ran; on any difference it ends, and the judge starts a fresh worker for the next
step. What is compared is listed here; what it cannot see (a C-level change inside a library)
is the portable runner's documented limit (its sandbox report says steps share a process).
"""
from __future__ import annotations

import operator
import os
import random
import sys
import threading
import types
import warnings
from dataclasses import dataclass
from itertools import chain
from typing import Any

#: Top-level packages whose module attributes, classes and functions are compared: what student
#: code computes with, and what the worker judges and replies with.
GUARDED = ("torch", "numpy", "safetensors", "grader", "builtins", "math", "operator", "functools",
           "json", "socket", "struct", "io", "sys", "os", "importlib", "contextlib", "random")


Owner = Any  # a guarded namespace: a module by its name (str), a class by id() (int)


@dataclass(frozen=True)
class Contents:
    """What one guarded namespace holds. The objects themselves, compared by identity: `id()` raises
    an audit event, and with the worker's audit hook installed 120,000 calls cost 0.2 s. Holding them
    also keeps a replaced object alive, so no new object can take its place at the same address."""

    keys: tuple[str, ...]
    values: tuple[Any, ...]
    functions: tuple[tuple[Any, Any, Any], ...] | None  # each Python function's code, defaults,
    # kwdefaults (a module's; None for a class, whose methods are compared as values only)

    def unchanged_in(self, now: Contents) -> bool:
        """Every key, value and function part the same object (the fast path: all of C)."""
        return (self.keys == now.keys and all(map(operator.is_, self.values, now.values))
                and all(map(operator.is_, chain.from_iterable(self.functions or ()),
                            chain.from_iterable(now.functions or ()))))

    def by_key(self) -> dict[str, tuple]:
        """Each attribute's value, with its code, defaults and kwdefaults when it is a function."""
        if self.functions is None:
            return {key: (value,) for key, value in zip(self.keys, self.values)}
        parts = iter(self.functions)
        return {key: (value, *next(parts)) if type(value) is types.FunctionType else (value,)
                for key, value in zip(self.keys, self.values)}


@dataclass
class Snapshot:
    """Everything guarded, and the settings a step may change."""

    namespaces: dict[Owner, Contents]
    settings: dict[str, Any]
    threads: set[int]
    rng: tuple[Any, Any, Any]


def _guarded(name: str) -> bool:
    return name.split(".", 1)[0] in GUARDED


SCALARS = (int, float, complex, str, bytes, bool, type(None))
_FUNCTION_PARTS = operator.attrgetter("__code__", "__defaults__", "__kwdefaults__")


def _same(before: Any, now: Any) -> bool:
    """The same object, or a scalar of the same value (the worker sets the same limits again each
    step); NaN only as the same object."""
    return before is now or (isinstance(before, SCALARS) and isinstance(now, SCALARS)
                              and before == before and before == now)


def _contents(namespace: Any, functions: bool) -> Contents:
    values = tuple(namespace.values())
    parts = tuple(map(_FUNCTION_PARTS, [v for v in values if type(v) is types.FunctionType])) if functions else None
    return Contents(tuple(namespace), values, parts)


def _namespaces() -> dict[Owner, Contents]:
    """The contents of every guarded module, and of the classes they hold: replacing or patching
    any attribute, or a module function's code or defaults, changes one."""
    with warnings.catch_warnings():  # looking at a deprecated alias is not using it
        warnings.simplefilter("ignore")
        found: dict[Owner, Contents] = {}
        classes: dict[int, type] = {}
        for name, module in list(sys.modules.items()):
            namespace = getattr(module, "__dict__", None) if _guarded(name) else None
            if not isinstance(namespace, dict):
                continue
            found[name] = contents = _contents(namespace, functions=True)
            classes.update((id(value), value) for value in contents.values if isinstance(value, type))
        for key, cls in classes.items():
            found[key] = _contents(vars(cls), functions=False)
    return found


def _bookkeeping(owner: Owner, attribute: str) -> bool:
    """A new attribute Python adds itself: a submodule imported for the first time (the module is
    compared from then on), a warnings registry."""
    return attribute == "__warningregistry__" or (isinstance(owner, str) and f"{owner}.{attribute}" in sys.modules)


def _settings() -> dict[str, Any]:
    """torch's global settings that change what every later computation gives."""
    import torch

    return {"default dtype": torch.get_default_dtype(), "grad enabled": torch.is_grad_enabled(),
            "inference mode": torch.is_inference_mode_enabled(), "threads": torch.get_num_threads(),
            "deterministic": torch.are_deterministic_algorithms_enabled(),
            "path": list(sys.path), "meta path": [id(f) for f in sys.meta_path]}


def snapshot() -> Snapshot:
    """The interpreter now: taken once per worker, before any student code runs."""
    import numpy
    import torch

    return Snapshot(_namespaces(), _settings(), {t.ident for t in threading.enumerate()},
                    (torch.get_rng_state(), numpy.random.get_state(), random.getstate()))


def differences(before: Snapshot) -> list[str]:
    """What differs from `before` (names only, for the judge): empty when intact. Modules first
    imported during the step are not compared (what they could change elsewhere is)."""
    now = _namespaces()
    changed: list[str] = []
    for owner, contents in before.namespaces.items():
        current = now.get(owner)
        if current is None or not contents.unchanged_in(current):
            changed += _changes(owner, contents, current)
    settings = _settings()
    changed += [name for name, value in before.settings.items() if settings[name] != value]
    changed += ["a thread still running" for t in threading.enumerate() if t.ident not in before.threads]
    if _has_children():
        changed.append("a child process")
    return changed


def _changes(owner: Owner, before: Contents, now: Contents | None) -> list[str]:
    """The attributes of one namespace that differ: replaced, deleted (the whole namespace, where it
    is gone) or new."""
    old, new = before.by_key(), now.by_key() if now is not None else {}
    changed, added = "a class attribute ", "a class attribute "  # a class by its attribute alone
    if isinstance(owner, str):
        changed, added = f"{owner}.", f"new {owner}."
    return ([changed + key for key, parts in old.items()
             if len(parts) != len(new.get(key, ())) or not all(map(_same, parts, new[key]))]
            + [added + key for key in new.keys() - old.keys() if not _bookkeeping(owner, key)])


def _has_children() -> bool:
    """Whether a process this worker started still exists (POSIX; Windows' Job Object ends them)."""
    if not hasattr(os, "waitpid") or os.name != "posix":
        return False
    try:
        return os.waitpid(-1, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return False


def restore_randomness(before: Snapshot) -> None:
    """Every step's random generators start where a fresh worker's would."""
    import numpy
    import torch

    torch_state, numpy_state, python_state = before.rng
    torch.set_rng_state(torch_state)
    numpy.random.set_state(numpy_state)
    random.setstate(python_state)
