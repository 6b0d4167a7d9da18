"""`vitgrade fetch`: a class's step files from its students' repositories, ready for `vitgrade grade`."""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from grader.cli.common import EXIT_FAILED, EXIT_OK, err, fail, interactive, progress

if TYPE_CHECKING:
    from grader.platforms.fetch import Repository

TOKEN_VARIABLE = "VITGRADE_FETCH_TOKEN"


def fetch(
    roster: Annotated[Path, typer.Argument(metavar="ROSTER", help=(
        "One repository per line: owner/name (under --base-url) or a git URL (https://, ssh, file://); "
        "`#` starts a comment."), show_default=False)],
    into: Annotated[Path, typer.Option("--into", metavar="CLASS", help=(
        "The class folder to fill (new or empty): one folder per roster line."), show_default=False)],
    ref: Annotated[str, typer.Option(metavar="REF", help=(
        "Branch, tag or commit to read in every repository; default: each one's default branch."))] = "",
    base_url: Annotated[str, typer.Option(metavar="URL", help="Where owner/name lines live.")] = "https://github.com",
    timeout: Annotated[float, typer.Option(metavar="S", help="Seconds each repository may take.")] = 60.0,
    jobs: Annotated[int, typer.Option(metavar="N", help="Repositories fetched at once.")] = 4,
) -> None:
    """Fetch every roster repository's step files into CLASS, one folder per repository, for
    `vitgrade grade CLASS`.

    No student's tree is checked out: only exercises/01_flatten.py ... 08_occlusion.py are read,
    and only where they are regular files of at most 1 MB. Each folder holds those, FETCHED.json
    (the URL without credentials, the ref and the full commit SHA) and, where something was wrong,
    REASON.txt (the gradebook's note). A token in the environment variable VITGRADE_FETCH_TOKEN is
    sent to --base-url's host only, and never written anywhere.

    Exit status: 0 every repository fetched, 1 some ended with a reason, 2 usage (a roster line that
    names no repository, CLASS not empty).
    """
    from grader.platforms.fetch import fetch_class

    if jobs < 1 or not math.isfinite(timeout) or timeout <= 0:
        fail("--jobs and --timeout must be positive")
    if ref.startswith("-") or any(c.isspace() for c in ref):
        fail(f"--ref {ref!r}: a branch, tag or commit starts with no '-' and holds no space")
    repositories = roster_of(roster, base_url)
    if into.exists() and (not into.is_dir() or any(into.iterdir())):
        fail(f"{into} is not an empty folder: fetch into a new one, so it holds the roster and nothing else")
    with progress("fetching", len(repositories)) as advance:
        fetched = fetch_class(repositories, into, ref, token=os.environ.get(TOKEN_VARIABLE, ""),
                              base_url=base_url, timeout=timeout, jobs=jobs,
                              on_fetched=lambda one: advance(1, f"fetched {one.repository.folder}"))
    failed = [one for one in fetched if one.reason]
    for one in failed:
        err.print(f"{one.repository.folder}: {one.reason.splitlines()[0]}", markup=False)
    if interactive() or failed:
        err.print(f"fetched {len(fetched) - len(failed)} of {len(fetched)} repositories into {into}"
                  + (f"; {len(failed)} with a reason (REASON.txt)" if failed else ""), markup=False)
    raise typer.Exit(EXIT_FAILED if failed else EXIT_OK)


def roster_of(roster: Path, base_url: str) -> list[Repository]:
    """The repositories ROSTER names; one line and exit 2 where it cannot be read or a line names none."""
    from grader.platforms.fetch import RosterError, read_roster

    try:
        return read_roster(roster.read_text(encoding="utf-8"), base_url)
    except (OSError, UnicodeDecodeError) as error:
        fail(f"cannot read {roster}: {getattr(error, 'strerror', None) or error}")
    except RosterError as error:
        fail(f"{roster}: {error}")
