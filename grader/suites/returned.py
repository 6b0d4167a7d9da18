"""One call of a student function as the judge sees it: what the worker returned, printed and touched.

Made by the runner from the worker's reply (`grader.launch.step_worker`), read by the suite.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Returned:
    """One call's outcome as the judge sees it."""

    ok: bool
    value: Any = None  # np.ndarray, python scalar, tuple of those, or None
    kind: str = ""  # "tensor", "ndarray", "tuple", "int", ... or the type name of anything else
    dtype: str | None = None
    type_name: str = ""
    error: dict[str, Any] = field(default_factory=dict)
    used: list[str] = field(default_factory=list)
    passed: list[tuple[str, str, int, bool]] = field(default_factory=list)
    """The sizes the call passed to earlier steps' functions: (function, size, value, left at its default)."""
    forbidden: list[str] = field(default_factory=list)
    modified: list[int] = field(default_factory=list)  # positions of arguments changed in place
    seconds: float = 0.0
    printed: str = ""  # the start of what the call printed (stdout and stderr, from Python code)
    printed_bytes: int = 0  # how much it printed in all


class Described(str):
    """A returned object the worker could only describe: shows as its description, is never data."""

    def __repr__(self) -> str:
        return str(self)
