"""A second line behind the worker's instruments (`grader/worker/instruments.py`): what a step
file's text names.

The worker sees what actually runs; this reads the file (never runs it, so the judge can do it) for
the library functions a step exists to implement, timm, the kit's private modules, and the ways
around the watches (`sys.modules`, `torch.ops`, loading files by path). A name found here is only a
note: an unused import or a comment-like string must not cost marks.
"""
from __future__ import annotations

import ast
from pathlib import Path

from grader.steps import Step, forbidden, get_step

#: Namespaces a forbidden name is looked up in (`F.unfold`, not a tensor's own `.unfold` view).
_LIBRARY_BASES = {"F", "functional", "torch", "nn", "aten", "ops", "_C", "_nn", "_VariableFunctions"}
#: Ways around the worker's watches.
_DOORS = {("sys", "modules"): "sys.modules", ("torch", "ops"): "torch.ops", ("torch", "_C"): "torch._C",
          ("util", "spec_from_file_location"): "importlib.util.spec_from_file_location",
          ("_python_dispatch",): "torch.utils._python_dispatch"}


def _forbidden_names(step_id: str) -> set[str]:
    """The last parts of the step's forbidden names, its own and every earlier step's: text names
    `F.unfold` or `from torch.nn.functional import unfold` as often as the full path."""
    return {dotted.rpartition(".")[2] for dotted in forbidden(step_id).names}


def _dotted(node: ast.AST) -> list[str]:
    """`torch.nn.functional` -> ["torch", "nn", "functional"]; [] for anything but names."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return inner + [node.attr] if inner else []
    return []


def _private_kit_module(name: str, step: Step) -> bool:
    return (name == "grader" or name.startswith("grader.")) and not step.may_import(name)


def findings(source: str, step_id: str) -> list[str]:
    """What the file names that a step should not use, each with its line, in file order."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []  # the worker reports the syntax error itself
    step, names, found = get_step(step_id), _forbidden_names(step_id), []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            found += [(line, alias.name) for alias in node.names
                      if alias.name.split(".")[0] == "timm" or _private_kit_module(alias.name, step)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "timm" or _private_kit_module(node.module, step):
                found.append((line, node.module))
            else:
                found += [(line, f"{node.module}.{a.name}") for a in node.names
                          if _private_kit_module(f"{node.module}.{a.name}", step)]
            found += [(line, f"{node.module}.{a.name}") for a in node.names if a.name in names]
            if "_python_dispatch" in node.module:
                found.append((line, node.module))
        elif isinstance(node, ast.Attribute):
            path = _dotted(node)
            if len(path) >= 2 and path[-1] in names and path[-2] in _LIBRARY_BASES:
                found.append((line, ".".join(path)))
            for door, label in _DOORS.items():
                if tuple(path[-len(door):]) == door and (len(door) > 1 or len(path) > 1):
                    found.append((line, label))
        elif isinstance(node, ast.Call) and _dotted(node.func) in (["__import__"], ["importlib", "import_module"]):
            found.append((line, _dotted(node.func)[-1]))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("timm"):
            found.append((line, repr(node.value)))
    unique = sorted(set(found))
    return [f"{name} (line {line})" for line, name in unique]


def note(path: Path, step_id: str) -> list[str]:
    """The findings as one note for the report, or none."""
    try:
        source = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = findings(source, step_id)
    if not found:
        return []
    return [f"{Path(path).name} names {', '.join(found)}: exercises write the step's computation "
            "themselves, with torch and the public grader API (ViTParams, BlockParams, earlier_step) only. "
            "This note reads the file's text; what actually ran is checked by the tests above."]
