"""vitgrade: the grader behind the Vision Transformer exercises.

Students import from here the parameter containers and `earlier_step`, and in a notebook `check`
(`from grader import check`; `check("05_attention")`), which is loaded only when asked for.
"""
from typing import Any

from grader.params import BlockParams, ViTParams
from grader.student import earlier_step

__all__ = ["BlockParams", "ViTParams", "check", "earlier_step"]


def __getattr__(name: str) -> Any:
    """`check` on first use: the step files and the grader's workers never need the notebook code."""
    if name == "check":
        from grader.notebook import check

        return check
    raise AttributeError(f"module 'grader' has no attribute {name!r}")
