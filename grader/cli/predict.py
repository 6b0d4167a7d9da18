"""`vitgrade predict PHOTO`: run an assembled ViT (step 07's `vit_forward`) on one photograph."""
from __future__ import annotations

import json
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Callable, Literal, Optional

import typer

from grader.cli.common import err, fail, out
from grader.paths import EXERCISES, KIT_ROOT, SOLUTIONS, step_file

if TYPE_CHECKING:
    import torch

    from grader.checkpoint import Checkpoint
    from grader.params import ViTParams

_HEAD = "07_head"


def predict(
    photo: Annotated[Path, typer.Argument(help="An image file Pillow can read (PNG, JPEG, ...).",
                                          show_default=False)],
    impl: Annotated[Literal["solutions", "exercises"], typer.Option(
        help="Whose ViT to run: the reference solutions or exercises/.")] = "solutions",
    submission: Annotated[Optional[Path], typer.Option(
        metavar="DIR", help="A folder of step files to run instead; overrides --impl.")] = None,
    top: Annotated[int, typer.Option(metavar="K", help="How many classes to show, 1 to 1000.")] = 5,
    format: Annotated[Literal["rich", "json"], typer.Option(
        help="rich: a table on a terminal, plain lines otherwise; json: one object.")] = "rich",
    checkpoint: Annotated[str, typer.Option(
        metavar="SOURCE", help="stand-in, the hub id of the lecture's checkpoint, or a "
        ".safetensors/.pth/.npz file.")] = "stand-in",
) -> None:
    """Classify PHOTO with the ViT assembled from the steps (vit_forward).

    The photo gets the checkpoint's transform (resize, centre crop,
    normalize), then 07_head.py's vit_forward, then a softmax over the
    1,000 ImageNet classes (pages 39-40).

    With the stand-in checkpoint (the default) these are NOT the lecture's
    predictions: its weights are seeded. --checkpoint hub gives the real ones.
    """
    if not 1 <= top <= 1000:
        fail(f"--top must be between 1 and 1000, got {top}")
    if submission is not None and not submission.is_dir():
        fail(f"--submission {submission} is not a folder")
    path = step_file(submission or (SOLUTIONS if impl == "solutions" else EXERCISES), _HEAD)

    from timm.data import ImageNetInfo

    from grader.checkpoint import CheckpointError, load_checkpoint
    from grader.photos import PhotoError, load_image

    try:
        image = load_image(photo)  # (1, 3, 224, 224), normalized
        ck = load_checkpoint(checkpoint)
    except (PhotoError, CheckpointError) as error:
        fail(str(error))
    logits = _run(_load_vit_forward(path), image, ck.params(), path)  # (1, 1000)
    probabilities, indices = logits.softmax(dim=-1)[0].topk(top)  # (top,), most likely first
    names = ImageNetInfo()
    predictions = [(int(i), names.index_to_description(int(i)), float(p))
                   for i, p in zip(indices, probabilities)]
    if format == "json":
        _print_json(ck, predictions)
    else:
        _print_human(ck, predictions, photo, path)


def _load_vit_forward(path: Path) -> Callable:
    """`vit_forward` of a 07_head.py; loading it also loads the earlier steps it uses."""
    from grader.student import load_step_file

    if not path.is_file():
        fail(f"{_shown(path)} does not exist")
    try:
        module = load_step_file(path)
    except Exception as error:  # the implementation's own code runs here; report it, don't crash
        fail(f"{_where(error, path.parent)}: could not be loaded: {_one_line(error)}")
    if not callable(getattr(module, "vit_forward", None)):
        fail(f"{_shown(path)} has no function vit_forward")
    return module.vit_forward


def _run(vit_forward: Callable, image: "torch.Tensor", params: "ViTParams",
         path: Path) -> "torch.Tensor":
    """Call the implementation; a failure inside it becomes one line naming file and function."""
    import torch

    try:
        with torch.inference_mode():
            logits = vit_forward(image, params)
    except NotImplementedError as error:  # a stub's `raise NotImplementedError("vit_forward")`
        frame = _deepest_frame(error, path.parent)
        fail(f"{_shown(Path(frame.filename))}: {frame.name} is not written yet")
    except Exception as error:
        frame = _deepest_frame(error, path.parent)
        fail(f"{_where(error, path.parent)} in {frame.name}: {_one_line(error)}")
    if not isinstance(logits, torch.Tensor) or tuple(logits.shape) != (1, 1000):
        got = tuple(logits.shape) if isinstance(logits, torch.Tensor) else type(logits).__name__
        fail(f"{_shown(path)}: vit_forward returned {got}, expected logits of shape (1, 1000)")
    return logits.float()


def _print_json(ck: "Checkpoint", predictions: list[tuple[int, str, float]]) -> None:
    info = ck.info
    result = {
        "checkpoint": {"id": info.id, "kind": info.kind, "sha256": info.sha256},
        "predictions": [{"index": i, "label": label, "probability": p}
                        for i, label, p in predictions],
    }
    typer.echo(json.dumps(result))
    if info.kind == "stand-in":  # stdout stays pure JSON; the warning still reaches a person
        err.print(_standin_warning(), markup=False)


def _print_human(ck: "Checkpoint", predictions: list[tuple[int, str, float]], photo: Path,
                 path: Path) -> None:
    heading = f"{photo.name}: top {len(predictions)} of 1,000 ImageNet classes, {_shown(path)}"
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


def _deepest_frame(error: BaseException, folder: Path) -> traceback.FrameSummary:
    """The innermost traceback frame inside the implementation's folder, else the innermost one."""
    frames = traceback.extract_tb(error.__traceback__)
    inside = [f for f in frames if Path(f.filename).resolve().parent == folder.resolve()]
    return (inside or frames)[-1]


def _where(error: BaseException, folder: Path) -> str:
    """`file:line` of the failure: a syntax error names its own file, anything else its frame."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{_shown(Path(error.filename))}:{error.lineno}"
    frame = _deepest_frame(error, folder)
    return f"{_shown(Path(frame.filename))}:{frame.lineno}"


def _shown(path: Path) -> str:
    """A path as people read it: relative to the kit when inside it, e.g. exercises/07_head.py."""
    try:
        return str(path.resolve().relative_to(KIT_ROOT.resolve()))
    except ValueError:
        return str(path)


def _one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
