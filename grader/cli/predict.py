"""`vitgrade predict PHOTO`: run an assembled ViT (step 07's `vit_forward`) on one photograph."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from grader.cli.common import err, fail, out
from grader.cli.implementation import (CHECKPOINT_HELP, DEFAULT_IMPL, FIXTURES_CHECKPOINT, SUBMISSION_HELP, Impl,
                                       checkpoint_source, folder_of, load_step, reporting_failures, shown)
from grader.paths import step_file

if TYPE_CHECKING:
    import torch

    from grader.checkpoint import Checkpoint
    from grader.params import ViTParams

_HEAD = "07_head"


def predict(
    photo: Annotated[Path, typer.Argument(metavar="PHOTO", help="An image file Pillow can read (PNG, JPEG, ...).",
                                          show_default=False)],
    impl: Annotated[Impl, typer.Option(
        help="Whose ViT to run: the reference solutions or exercises/.")] = DEFAULT_IMPL,
    submission: Annotated[Path | None, typer.Option(metavar="DIR", help=SUBMISSION_HELP)] = None,
    top: Annotated[int, typer.Option(metavar="K", help="How many classes to show, 1 to 1000.")] = 5,
    format: Annotated[Literal["rich", "json"], typer.Option(
        help="rich: a table on a terminal, plain lines otherwise; json: one object.")] = "rich",
    checkpoint: Annotated[str, typer.Option(metavar="SOURCE", help=CHECKPOINT_HELP)] = FIXTURES_CHECKPOINT,
) -> None:
    """Classify PHOTO with the ViT assembled from the steps (vit_forward).

    The photo gets the checkpoint's transform (resize, centre crop,
    normalize), then 07_head.py's vit_forward, then a softmax over the
    1,000 ImageNet classes (pages 39-40).

    The checkpoint is the one the fixtures were built from unless --checkpoint
    says otherwise. With the committed stand-in these are NOT the lecture's
    predictions (its weights are seeded); --checkpoint hub gives the real ones.
    """
    if not 1 <= top <= 1000:
        fail(f"--top must be between 1 and 1000, got {top}")
    folder = folder_of(impl, submission)

    from timm.data import ImageNetInfo

    from grader.checkpoint import CheckpointError, load_checkpoint
    from grader.photos import PhotoError, load_image

    try:
        image = load_image(photo)  # (1, 3, 224, 224), normalized
        ck = load_checkpoint(checkpoint_source(checkpoint))
    except (PhotoError, CheckpointError) as error:
        fail(str(error))
    logits = _run(folder, image, ck.params())  # (1, 1000)
    probabilities, indices = logits.softmax(dim=-1)[0].topk(top)  # (top,), most likely first
    names = ImageNetInfo()
    predictions = [(int(i), names.index_to_description(int(i)), float(p))
                   for i, p in zip(indices, probabilities)]
    if format == "json":
        _print_json(ck, predictions)
    else:
        _print_human(ck, predictions, photo, step_file(folder, _HEAD))


def _run(folder: Path, image: torch.Tensor, params: ViTParams) -> torch.Tensor:
    """The implementation's vit_forward on one image; any failure inside it is one line."""
    import torch

    vit_forward = load_step(folder, _HEAD, "vit_forward").vit_forward
    with reporting_failures(folder), torch.inference_mode():
        logits = vit_forward(image, params)
    if not isinstance(logits, torch.Tensor) or tuple(logits.shape) != (1, 1000):
        got = tuple(logits.shape) if isinstance(logits, torch.Tensor) else type(logits).__name__
        fail(f"{shown(step_file(folder, _HEAD))}: vit_forward returned {got}, "
             f"expected logits of shape (1, 1000)")
    return logits.float()


def _print_json(ck: Checkpoint, predictions: list[tuple[int, str, float]]) -> None:
    info = ck.info
    result = {
        "checkpoint": {"id": info.id, "kind": info.kind, "sha256": info.sha256},
        "predictions": [{"index": i, "label": label, "probability": p}
                        for i, label, p in predictions],
    }
    typer.echo(json.dumps(result))
    if info.kind == "stand-in":  # stdout stays pure JSON; the warning still reaches a person
        err.print(_standin_warning(), markup=False)


def _print_human(ck: Checkpoint, predictions: list[tuple[int, str, float]], photo: Path,
                 path: Path) -> None:
    heading = f"{photo.name}: top {len(predictions)} of 1,000 ImageNet classes, {shown(path)}"
    if out.is_terminal:
        from rich.table import Table

        table = Table(title=heading, title_justify="left")
        for column, justify in (("#", "right"), ("class", "left"), ("index", "right"),
                                ("probability", "right")):
            table.add_column(column, justify=justify)
        for rank, (index, label, p) in enumerate(predictions, 1):
            table.add_row(str(rank), label, str(index), f"{p:.2%}")
        out.print(table, markup=False)
    else:
        out.print(heading, markup=False)
        for rank, (index, label, p) in enumerate(predictions, 1):
            out.print(f"{rank:>4}  {p:>7.2%}  {label} [{index}]", markup=False)
    out.print(f"checkpoint: {ck.info.describe()}", markup=False)
    if ck.info.kind == "stand-in":
        out.print(_standin_warning(), markup=False)


def _standin_warning() -> str:
    from grader.checkpoint import HUB_ID

    return (f"These are NOT the lecture's predictions: the stand-in's weights are seeded. For the "
            f"lecture's, pass --checkpoint hub (or a local file of {HUB_ID}).")
