"""`vitgrade show attention|occlusion PHOTO --out FILE.png`: draw what the assembled steps compute.

The commands parse, run the chosen implementation's steps on the photograph, and hand the numbers
to `grader.pictures`, which draws them.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated
from collections.abc import Callable

import typer

from grader.cli.common import fail, out, progress
from grader.cli.implementation import (CHECKPOINT_HELP, DEFAULT_IMPL, FIXTURES_CHECKPOINT, IMPL_HELP, SUBMISSION_HELP,
                                       Impl, WrongOutput, checkpoint_source, folder_of, load_step,
                                       reporting_failures, shown)
from grader.paths import step_file

if TYPE_CHECKING:
    import numpy as np
    import torch
    from PIL import Image

    from grader.checkpoint import Checkpoint
    from grader.params import ViTParams
    from grader.pictures import Provenance

app = typer.Typer(help="Draw what the ViT does on a photograph: attention weights (page 33) or "
                  "occlusion (pages 43-44).", no_args_is_help=True)

PATCHES = 196  # P1..P196; token n is patch Pn, token 0 is CLS
_PHOTO_HELP = "An image file Pillow can read (PNG, JPEG, ...)."
_OUT_HELP = "The picture to write; must end in .png."


@app.command()
def attention(
    photo: Annotated[Path, typer.Argument(metavar="PHOTO", help=_PHOTO_HELP, show_default=False)],
    out_file: Annotated[Path, typer.Option("--out", metavar="FILE.png", help=_OUT_HELP,
                                           show_default=False)],
    block: Annotated[int, typer.Option(metavar="B", help="Block, 1 to 12.")] = 4,
    head: Annotated[int, typer.Option(metavar="H", help="Head, 1 to 3.")] = 1,
    query: Annotated[str, typer.Option(metavar="P74|CLS", help="The query token: CLS or P1 to P196.")]
    = "P74",
    impl: Annotated[Impl, typer.Option(help=IMPL_HELP)] = DEFAULT_IMPL,
    submission: Annotated[Path | None, typer.Option(metavar="DIR", help=SUBMISSION_HELP)] = None,
    checkpoint: Annotated[str, typer.Option(metavar="SOURCE", help=CHECKPOINT_HELP)] = FIXTURES_CHECKPOINT,
) -> None:
    """Draw one query's attention weights over PHOTO (page 33).

    Runs the steps up to the block: embed (04), the earlier blocks (06),
    the block's first LayerNorm (06), then qkv_heads and attention_weights
    (05). Each source patch is tinted teal by the query's weight on it,
    scaled to the map's maximum; the query is outlined violet, the
    strongest source white. Defaults: block 4, head 1, query P74.
    """
    from grader.checkpoint import DEPTH, HEADS

    _check_out(out_file)
    if not 1 <= block <= DEPTH:
        fail(f"--block must be between 1 and {DEPTH}, got {block}")
    if not 1 <= head <= HEADS:
        fail(f"--head must be between 1 and {HEADS}, got {head}")
    token = _token(query)
    folder = folder_of(impl, submission)
    pixels, image, ck = _inputs(photo, checkpoint)

    from grader.pictures import attention_picture, percent, token_name

    weights = _attention_row(folder, image, ck.params(), block, head, token)  # (197,)
    picture = attention_picture(pixels, weights, token, block, head, _provenance(photo, folder, ck))
    _save(picture, out_file)
    strongest = int(weights[1:].argmax())
    out.print(f"wrote {out_file} ({picture.width} x {picture.height}): attention of query "
              f"{token_name(token)} in block {block}, head {head} on {photo.name}; strongest source "
              f"P{strongest + 1} {percent(weights[1 + strongest])}, CLS {percent(weights[0])}"
              f"{_standin_note(ck)}", markup=False)


@app.command()
def occlusion(
    photo: Annotated[Path, typer.Argument(metavar="PHOTO", help=_PHOTO_HELP, show_default=False)],
    out_file: Annotated[Path, typer.Option("--out", metavar="FILE.png", help=_OUT_HELP,
                                           show_default=False)],
    target: Annotated[str | None, typer.Option(
        metavar="CLASS", help="An ImageNet class index (256) or name (Newfoundland); default: the "
        "photo's top-1 class.", show_default=False)] = None,
    impl: Annotated[Impl, typer.Option(help=IMPL_HELP)] = DEFAULT_IMPL,
    submission: Annotated[Path | None, typer.Option(metavar="DIR", help=SUBMISSION_HELP)] = None,
    checkpoint: Annotated[str, typer.Option(metavar="SOURCE", help=CHECKPOINT_HELP)] = FIXTURES_CHECKPOINT,
) -> None:
    """Draw how covering parts of PHOTO changes P(target) (pages 43-44).

    Runs 08_occlusion.py's quadrant_probabilities and occlusion_map with
    the model = 07_head.py's vit_forward on the checkpoint: four 112 x 112
    covers, then 196 single-patch covers in one batch. Red squares mark
    drops, blue rises, on a symmetric scale in percentage points.
    """
    _check_out(out_file)
    index = None if target is None else _class_index(target)
    folder = folder_of(impl, submission)
    pixels, image, ck = _inputs(photo, checkpoint)

    from grader.pictures import largest_drop, occlusion_picture, percent, points
    from grader.launch.sandbox import keep_freed_memory

    keep_freed_memory()  # 202 forwards here: each activation reuses freed memory, as in a worker
    with progress("running the ViT", 1 + 4 + PATCHES + 1) as advance:  # top-1, quadrants, map
        index, original, quadrants, change = _occlusion(folder, image, ck.params(), index, advance)
    name = _class_name(index)
    chosen = "the photo's top-1 class" if target is None else "chosen with --target"
    picture = occlusion_picture(pixels, name, f"class {index}, {chosen}", original, quadrants,
                                change, _provenance(photo, folder, ck))
    _save(picture, out_file)
    drop = largest_drop(change)
    found = (f"largest drop P{drop + 1}: {points(change.flat[drop])}" if drop is not None
             else "no single-patch cover lowers it")
    out.print(f"wrote {out_file} ({picture.width} x {picture.height}): occlusion of {photo.name} for "
              f"{name} [{index}], {percent(original)} uncovered; {found}{_standin_note(ck)}",
              markup=False)


# --- arguments ----------------------------------------------------------------------------------

def _check_out(path: Path) -> None:
    """Refuse a bad --out before minutes of work, not after."""
    if path.suffix.lower() != ".png":
        fail(f"--out {path} must end in .png")
    folder = path.parent
    if not folder.exists():
        fail(f"--out {path}: the folder {folder} does not exist")
    if not folder.is_dir():
        fail(f"--out {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(f"--out {path}: cannot write in {folder}")
    if path.is_dir():
        fail(f"--out {path} is a folder")


def _token(query: str) -> int:
    """`CLS` -> 0, `P74` -> 74: the token index of a query, as the lecture names it."""
    if query.strip().upper() == "CLS":
        return 0
    match = re.fullmatch(r"[Pp]([1-9][0-9]*)", query.strip())
    if match is None or int(match[1]) > PATCHES:
        fail(f"unknown patch {query!r}: --query is CLS or one of P1…P{PATCHES}")
    return int(match[1])


def _class_index(name: str) -> int:
    """An ImageNet class from its index, its synset id, its description, or one of its names."""
    from difflib import get_close_matches

    from timm.data import ImageNetInfo

    info = ImageNetInfo()
    classes = range(info.num_classes())
    try:
        index = int(name)
    except ValueError:
        pass
    else:
        if index in classes:
            return index
        fail(f"--target {index}: a class index is 0 to {len(classes) - 1}")
    wanted = name.strip().casefold()
    names = {i: [n.strip() for n in info.index_to_description(i).split(",")] for i in classes}
    found = ([i for i in classes if wanted in (info.index_to_description(i).casefold(),
                                                info.index_to_label_name(i).casefold())]
             or [i for i in classes if wanted in (n.casefold() for n in names[i])])
    if len(found) == 1:
        return found[0]
    if found:
        fail(f"--target {name!r} names {len(found)} ImageNet classes "
             f"({', '.join(f'{info.index_to_description(i)} [{i}]' for i in found)}); pass the index")
    spelled = {n.casefold(): n for ns in names.values() for n in ns}
    close = [spelled[c] for c in get_close_matches(wanted, sorted(spelled), n=3)]
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    fail(f"--target {name!r} is not an ImageNet class index or name{hint}")


def _class_name(index: int) -> str:
    """The first of a class's names: `Newfoundland` for 256 (`Newfoundland, Newfoundland dog`)."""
    from timm.data import ImageNetInfo

    return ImageNetInfo().index_to_description(index).split(",")[0]


def _inputs(photo: Path, checkpoint: str) -> tuple[Image.Image, torch.Tensor, Checkpoint]:
    """The photo as drawn (224 x 224 RGB) and as the model reads it (normalized), and the weights."""
    from PIL import Image

    from grader.checkpoint import CheckpointError, load_checkpoint
    from grader.photos import PhotoError, load_pixels, normalize_pixels

    try:
        pixels = load_pixels(photo)  # (1, 3, 224, 224) uint8
        ck = load_checkpoint(checkpoint_source(checkpoint))
    except (PhotoError, CheckpointError) as error:
        fail(str(error))
    drawn = Image.fromarray(pixels[0].permute(1, 2, 0).numpy(), "RGB")  # (224, 224, 3)
    return drawn, normalize_pixels(pixels), ck


# --- running the implementation -----------------------------------------------------------------

def _attention_row(folder: Path, image: torch.Tensor, params: ViTParams, block: int, head: int,
                   token: int) -> np.ndarray:
    """The token's attention weights over CLS, P1..P196 in block `block`, head `head` (from 1)."""
    import torch

    embedding = load_step(folder, "04_cls", "embed")
    attention = load_step(folder, "05_attention", "qkv_heads", "attention_weights")
    encoder = load_step(folder, "06_block", "layer_norm", "block")
    tokens, width, heads = 1 + PATCHES, params.W_E.shape[1], params.num_heads
    with reporting_failures(folder), torch.inference_mode():
        x = _checked(embedding.embed(image, params), (1, tokens, width), folder, "04_cls", "embed")
        for p in params.blocks[:block - 1]:
            x = _checked(encoder.block(x, p, heads), (1, tokens, width), folder, "06_block", "block")
        p = params.blocks[block - 1]
        x = _checked(encoder.layer_norm(x, p.ln1_weight, p.ln1_bias), (1, tokens, width), folder,
                     "06_block", "layer_norm")  # LN1: attention reads normalized rows (page 34)
        qkv = attention.qkv_heads(x, p.W_qkv, p.b_qkv, heads)
        if not isinstance(qkv, (tuple, list)) or len(qkv) != 3:
            got = f"{len(qkv)} values" if isinstance(qkv, (tuple, list)) else type(qkv).__name__
            raise WrongOutput(f"{shown(step_file(folder, '05_attention'))}: qkv_heads returned "
                              f"{got}, expected the three tensors q, k, v")
        q, k = (_checked(t, (1, heads, tokens, width // heads), folder, "05_attention", "qkv_heads")
                for t in qkv[:2])  # each (1, H, 197, d)
        weights = _checked(attention.attention_weights(q, k), (1, heads, tokens, tokens), folder,
                           "05_attention", "attention_weights")
    return weights[0, head - 1, token].double().numpy()  # (197,)


def _occlusion(folder: Path, image: torch.Tensor, params: ViTParams, target: int | None,
               advance: Callable) -> tuple[int, float, np.ndarray, np.ndarray]:
    """Target (the top-1 class if None), P(target), the four quadrant P's, and the 14 x 14 changes."""
    import torch

    vit_forward = load_step(folder, "07_head", "vit_forward").vit_forward
    steps = load_step(folder, "08_occlusion", "quadrant_probabilities", "occlusion_map")

    def model(images: torch.Tensor) -> torch.Tensor:
        """The implementation's ViT on the checkpoint, as step 08 expects; counts its images."""
        advance(0, description=f"running the ViT on {len(images)} image{'s' * (len(images) > 1)}")
        logits = _checked(vit_forward(images, params), (len(images), 1000), folder, "07_head",
                          "vit_forward")
        advance(len(images))
        return logits

    with reporting_failures(folder), torch.inference_mode():
        probabilities = model(image).softmax(dim=-1)[0]  # (1000,)
        target = int(probabilities.argmax()) if target is None else target
        quadrants = _checked(steps.quadrant_probabilities(model, image, target), (4,), folder,
                             "08_occlusion", "quadrant_probabilities")
        change = _checked(steps.occlusion_map(model, image, target), (14, 14), folder,
                          "08_occlusion", "occlusion_map")
    return (target, float(probabilities[target]), quadrants.double().numpy(),
            change.double().numpy())


def _checked(result: object, shape: tuple[int, ...], folder: Path, step_id: str,
             function: str) -> torch.Tensor:
    """The implementation's result if it is a finite tensor of `shape`; else one clear line."""
    import torch

    where = f"{shown(step_file(folder, step_id))}: {function}"
    if not isinstance(result, torch.Tensor):
        raise WrongOutput(f"{where} returned {type(result).__name__}, expected a tensor of shape "
                          f"{shape}")
    if tuple(result.shape) != shape:
        raise WrongOutput(f"{where} returned shape {tuple(result.shape)}, expected {shape}")
    if not torch.isfinite(result).all():
        raise WrongOutput(f"{where} returned NaN or infinite values")
    return result.float()


# --- output -------------------------------------------------------------------------------------

def _provenance(photo: Path, folder: Path, ck: Checkpoint) -> Provenance:
    from grader.pictures import Provenance

    return Provenance(photo=photo.name, steps=f"{shown(folder)}/", checkpoint=ck.info.describe(),
                      standin=ck.info.kind == "stand-in")


def _save(picture: Image.Image, path: Path) -> None:
    try:
        picture.save(path, format="PNG")
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")


def _standin_note(ck: Checkpoint) -> str:
    return " (stand-in checkpoint: NOT the lecture's numbers)" if ck.info.kind == "stand-in" else ""
