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

import os
import random
import sys
import threading
import types
import warnings
from dataclasses import dataclass
from typing import Any

#: Top-level packages whose module attributes, classes and functions are compared: what student
#: code computes with, and what the worker judges and replies with.
WATCHED = ("torch", "numpy", "safetensors", "grader", "builtins", "math", "operator", "functools",
           "json", "socket", "struct", "io", "sys", "os", "importlib", "contextlib", "random")


_GONE = object()  # an attribute deleted during the step


@dataclass
class Snapshot:
    """Identities of everything watched, and the settings a step may change."""

    identities: dict[tuple, Any]
    settings: dict[str, Any]
    threads: set[int]
    rng: tuple[Any, Any, Any]


def _watched(name: str) -> bool:
    return name.split(".", 1)[0] in WATCHED


SCALARS = (int, float, complex, str, bytes, bool, type(None))


def _identity(value: Any) -> Any:
    """A scalar by its value (the worker sets the same limits again each step), else by id()."""
    return value if isinstance(value, SCALARS) and value == value else id(value)  # NaN: by id


def _identities() -> dict[tuple, Any]:
    """The identity of every attribute of the watched modules, of their classes' attributes and of
    their Python functions' code and defaults: replacing or patching any of them changes one."""
    with warnings.catch_warnings():  # looking at a deprecated alias is not using it
        warnings.simplefilter("ignore")
        return _identities_now()


def _identities_now() -> dict[tuple, Any]:
    found: dict[tuple, Any] = {}
    classes: dict[int, type] = {}
    for name, module in list(sys.modules.items()):
        namespace = getattr(module, "__dict__", None) if _watched(name) else None
        if not isinstance(namespace, dict):
            continue
        for key, value in list(namespace.items()):
            found[(name, key)] = _identity(value)
            if isinstance(value, type):
                classes[id(value)] = value
            elif isinstance(value, types.FunctionType):
                found[(name, key, "code")] = id(value.__code__)
                found[(name, key, "defaults")] = id(value.__defaults__)
                found[(name, key, "kwdefaults")] = id(value.__kwdefaults__)
    for cls in classes.values():
        for key, value in list(vars(cls).items()):
            found[(id(cls), key)] = _identity(value)
    return found


def _bookkeeping(key: tuple) -> bool:
    """A new attribute Python adds itself: a submodule imported for the first time (the module is
    compared from then on), a warnings registry."""
    owner, attribute = key[0], key[1]
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

    return Snapshot(_identities(), _settings(), {t.ident for t in threading.enumerate()},
                    (torch.get_rng_state(), numpy.random.get_state(), random.getstate()))


def differences(before: Snapshot) -> list[str]:
    """What differs from `before` (names only, for the judge): empty when intact. Modules first
    imported during the step are not compared (what they could change elsewhere is)."""
    now = _identities()
    owners = {key[0] for key in before.identities}  # modules by name, classes by id
    changed = [f"{key[0]}.{key[1]}" if isinstance(key[0], str) else f"a class attribute {key[1]}"
               for key, value in before.identities.items() if now.get(key, _GONE) != value]
    changed += [f"new {key[0]}.{key[1]}" if isinstance(key[0], str) else f"a class attribute {key[1]}"
                for key in now.keys() - before.identities.keys() if key[0] in owners and not _bookkeeping(key)]
    settings = _settings()
    changed += [name for name, value in before.settings.items() if settings[name] != value]
    changed += ["a thread still running" for t in threading.enumerate() if t.ident not in before.threads]
    if _has_children():
        changed.append("a child process")
    return changed


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
