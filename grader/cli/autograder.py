"""`vitgrade autograder gradescope`: the bundle a course platform grades a class with."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grader import paths
from grader.cli.common import fail, out

app = typer.Typer(help="Autograder bundles for course platforms (one container per submission).",
                  no_args_is_help=True)


@app.command()
def gradescope(
    out_file: Annotated[Path, typer.Option("--out", metavar="ZIP", help="Where to write the bundle.")] = Path(
        "autograder.zip"),
    time_limit: Annotated[int, typer.Option(
        metavar="S", help="The assignment's timeout in Gradescope's autograder settings, seconds; a tenth "
        "of it (30 s at least) is kept for starting the grader and writing results.")] = 600,
    visibility: Annotated[str, typer.Option(metavar="WHEN", help=(
        "When students see the hidden tests' results and their total score, in Gradescope's words: "
        "after_published (when you publish grades), after_due_date, hidden (never) or visible (at once). "
        "Until then they see the visible tests' points and how many hidden tests were graded."))] = "after_published",
    points: Annotated[float | None, typer.Option(metavar="N", help=(
        "The assignment's autograder points, where it has manual questions beside them: the score "
        "Gradescope records is scaled from the kit's total to N."))] = None,
) -> None:
    """Write Gradescope's autograder.zip: setup.sh and run_autograder at its root, then the kit
    (solutions and hidden fixtures; no tests/, no .git).

    In Gradescope: Programming Assignment, Configure Autograder, upload the zip.
    Base image: Ubuntu 22.04 or newer. Memory: 2 GB or more (the default 768 MB is too little).
    Students upload their step files, their exercises/ folder, or a zip of either.

    Exit status: 0 written, 2 fixtures not matching their manifest or ZIP not writable.
    """
    from grader.expected.store import FixtureError
    from grader.platforms.gradescope import MIN_STEP_SECONDS, Shown, budget, shortest_time_limit, write_bundle
    from grader.reports.gradescope import VISIBILITIES

    if visibility not in VISIBILITIES:
        fail(f"--visibility {visibility}: choose one of {', '.join(VISIBILITIES)}")
    if points is not None and not 0 < points < float("inf"):
        fail(f"--points {points:g}: the assignment's autograder points are a positive number")

    if time_limit < shortest_time_limit():
        fail(f"--time-limit {time_limit} is too short: each of the 8 steps needs {MIN_STEP_SECONDS} s on "
             f"Gradescope's half CPU, so set the assignment's timeout to {shortest_time_limit()} s or more")
    try:
        names = write_bundle(out_file, paths.KIT_ROOT, time_limit, Shown(visibility, points))
    except FixtureError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write {out_file}: {error.strerror or error}")
    shares = budget(time_limit)
    hidden = sum(n.startswith("fixtures/hidden/") for n in names)
    out.print(f"wrote {out_file}: {len(names)} files, {out_file.stat().st_size / 1e6:.1f} MB", markup=False)
    out.print(f"  setup.sh, run_autograder, grader/, solutions/, exercises/, fixtures/ ({hidden} hidden "
              "fixture files)", markup=False)
    out.print(f"  {shares.per_step:g} s per step; {shares.margin} s of the {time_limit} s kept for start-up and "
              f"results (--time-limit {time_limit})", markup=False)
    out.print(f"  students see hidden tests' results and their total score {_WHEN[visibility]} "
              f"(--visibility {visibility})", markup=False)
    if points is not None:
        out.print(f"  the score is scaled to the assignment's {points:g} autograder points (--points)", markup=False)


_WHEN = {"after_published": "once grades are published", "after_due_date": "after the due date",
         "hidden": "never", "visible": "at once"}
