"""`vitgrade bench`: the speed and memory benchmark (see grader/bench.py)."""
from __future__ import annotations

from typing import Annotated

import typer


def bench(
    repeats: Annotated[int, typer.Option(min=1, help="Runs per forward-pass figure (the median counts).")] = 5,
    quick: Annotated[bool, typer.Option("--quick", help="Skip the ten-submission --jobs figure.")] = False,
) -> None:
    """Measure speed and memory as ratios to references timed in the same run, and how far inside
    each test's tolerance correct code lands and outside it every known mistake (a few minutes).

    Exit status 0 when every target is met, 1 otherwise.
    """
    from grader.bench import main

    raise typer.Exit(main(repeats, quick))
