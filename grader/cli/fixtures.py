"""`vitgrade fixtures build|verify`: the fixture pipeline, for instructors."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grader import paths
from grader.cli.common import EXIT_USAGE, err, fail, out, progress

#: Why a rebuild shows up in `git status` although nothing changed (docs/numerics.md).
REBUILT_HASHES = (
    "manifest.json records the sha256 of these exact bytes. Rebuilt on another machine (other CPU "
    "kernels, thread count or BLAS), the floats differ in their last bits and every hash changes, "
    "while the numbers agree within float32 rounding, far inside the grading tolerance. Commit the "
    "fixture files and manifest.json together; `vitgrade fixtures verify` checks them against each other.")

app = typer.Typer(help="Build fixtures from a checkpoint, or verify them against the manifest.",
                  no_args_is_help=True)


@app.command()
def build(
    checkpoint: Annotated[str, typer.Option(
        metavar="SOURCE", help="stand-in, the hub id vit_tiny_patch16_224.augreg_in21k_ft_in1k, "
        "or a local .safetensors/.pth/.npz file.")] = "stand-in",
    out_dir: Annotated[Path, typer.Option("--out", metavar="DIR", help="Where to write.")] = paths.FIXTURES,
    photo: Annotated[Path | None, typer.Option(
        metavar="PATH", help="The sample photograph of the visible tests, e.g. the lecture's "
        "newfoundland_31.jpg (default: fixtures/photos/cat.png). Grayscale, palette and RGBA "
        "images become RGB as the checkpoint's loader makes them; at least 224 pixels a side.")] = None,
    second_photo: Annotated[Path | None, typer.Option(
        metavar="PATH",
        help="The second photograph, for the hidden tests (default: fixtures/photos/coffee.png).")] = None,
) -> None:
    """Compute every step's fixtures with the checkpoint's own forward pass and write the manifest,
    which records the checkpoint's id and sha256 and each photograph's sha256 and origin.

    The lecture's numbers: --checkpoint vit_tiny_patch16_224.augreg_in21k_ft_in1k --photo newfoundland_31.jpg
    """
    from grader.checkpoint import CheckpointError
    from grader.expected.build import build as build_fixtures
    from grader.photos import PhotoError, fixture_photo
    from grader.launch.sandbox import keep_freed_memory
    from grader.steps import STEP_IDS

    try:  # a bad photograph is refused before the checkpoint is loaded
        photos = {role: fixture_photo(path) for role, path in (("sample", photo), ("second", second_photo))
                  if path is not None}
    except PhotoError as error:
        fail(str(error))
    keep_freed_memory()  # the forwards of every case run here: activations reuse freed memory
    with progress("building fixtures", 2 + 2 * len(STEP_IDS)) as advance:
        try:
            manifest = build_fixtures(checkpoint, out_dir, advance=advance, photos=photos)
        except (CheckpointError, PhotoError) as error:
            fail(str(error))
    kind = manifest["checkpoint"]["kind"]
    out.print(f"wrote {len(manifest['files'])} files to {out_dir} from {manifest['checkpoint']['id']} ({kind})",
              markup=False)
    out.print(REBUILT_HASHES, markup=False)


@app.command()
def verify(
    fixtures: Annotated[Path, typer.Option(metavar="DIR", help="The fixture folder.")] = paths.FIXTURES,
) -> None:
    """Re-hash every fixture file; exit 2 naming the first that does not match the manifest."""
    from grader.expected.store import FixtureError, load_manifest, verify as verify_files

    try:
        problems = verify_files(fixtures, load_manifest(fixtures))
    except FixtureError as error:
        fail(str(error))
    if problems:
        for line in problems[1:]:
            err.print(f"vitgrade: also: {line}", markup=False)
        fail(problems[0], EXIT_USAGE)
    out.print(f"ok: every file in {fixtures} matches its manifest", markup=False)
