"""What every command shares: one-line errors, consoles that go plain off a terminal, progress."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import NoReturn
from collections.abc import Iterator

import typer
from rich.console import Console

#: Exit statuses of the result contract (docs/results.md).
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)
#: For reports: long feedback lines wrap (indented) instead of running off or being cropped.
report_console = Console(highlight=False)


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """End the command with one line on stderr, never a traceback."""
    err.print(f"vitgrade: error: {message}", markup=False)
    raise typer.Exit(code)


def interactive() -> bool:
    """Progress bars and colour only for a person at a terminal."""
    return sys.stderr.isatty()


@contextmanager
def progress(description: str, total: int | None) -> Iterator:
    """A rich progress bar on stderr when interactive; a silent stand-in otherwise.

    Yields a function `advance(n=1, description=None)`.
    """
    if not interactive():
        yield lambda n=1, description=None: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task(description, total=total)

        def advance(n: int = 1, description: str | None = None) -> None:
            bar.update(task, advance=n, **({"description": description} if description else {}))

        yield advance
