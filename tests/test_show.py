"""`vitgrade show attention|occlusion`: the PNGs, what they mark and where, and one-line errors.

Occlusion runs 202 ViT forwards; each photograph is run once, and every occlusion test reads the
shared run. Those runs take the stand-in's first two blocks only (SHALLOW): the depth changes the
numbers the picture draws, not what it draws or where, and all twelve blocks cost the suite about 30
CPU-seconds a photograph more (the full depth is `vitgrade show`'s own, run in tests of attention).
"""
from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
from PIL import Image
from typer.testing import CliRunner, Result

from grader import pictures
from grader.checkpoint import load_checkpoint
from grader.cli.app import app
from grader.paths import EXERCISES, SOLUTIONS
from grader.photos import SAMPLE, SECOND, load_image
from grader.student import load_step_file

ATTENTION_LINE = re.compile(
    r"^wrote (?P<path>.+\.png) \((?P<w>\d+) x (?P<h>\d+)\): attention of query (?P<query>\w+) in "
    r"block (?P<block>\d+), head (?P<head>\d+) on (?P<photo>\S+); strongest source P(?P<source>\d+) "
    r"(?P<weight>\S+), CLS (?P<cls>\S+) \(stand-in checkpoint: NOT the lecture's numbers\)$")
OCCLUSION_LINE = re.compile(
    r"^wrote (?P<path>.+\.png) \((?P<w>\d+) x (?P<h>\d+)\): occlusion of (?P<photo>\S+) for "
    r"(?P<name>.+) \[(?P<target>\d+)\], (?P<p>\S+) uncovered; largest drop P(?P<patch>\d+): "
    r"(?P<points>-\S+) points \(stand-in checkpoint: NOT the lecture's numbers\)$")
P74 = 73  # zero-based patch index of page 33's query


def show(*args) -> Result:
    result = CliRunner().invoke(app, ["show", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def assert_one_line_error(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    message = result.stderr.strip()
    assert message.startswith("vitgrade: error: ") and "\n" not in message, message
    assert "Traceback" not in result.output
    for word in words:
        assert word in message, message


def drawn(path: Path, size: tuple[int, int]) -> np.ndarray:
    """The PNG as (height, width, 3) uint8, after checking its size and mode."""
    with Image.open(path) as image:
        assert image.format == "PNG" and image.mode == "RGB" and image.size == size
        return np.asarray(image)


def inked(pixels: np.ndarray, box: tuple[int, int, int, int]) -> int:
    """How many pixels inside `box` differ from the background."""
    left, top, right, bottom = box
    return int((pixels[top:bottom, left:right] != pictures.BACKGROUND).any(axis=-1).sum())


def edge_points(box: tuple[int, int, int, int], inset: int) -> list[tuple[int, int]]:
    """(x, y) in the middle of each side of a square frame, `inset` pixels inside its box."""
    left, top, right, bottom = box
    mid_x, mid_y = (left + right) // 2, (top + bottom) // 2
    return [(left + inset, mid_y), (right - 1 - inset, mid_y), (mid_x, top + inset),
            (mid_x, bottom - 1 - inset)]


@pytest.fixture(scope="module")
def unseen(tmp_path_factory) -> Path:
    """A JPEG the kit has never seen: a diagonal colour gradient with seeded noise, not square."""
    y, x = np.mgrid[0:240, 0:320]
    noise = np.random.default_rng(7).integers(-40, 40, (240, 320, 3))
    pixels = np.stack([x * 255 / 320, y * 255 / 240, 255 - (x + y) * 255 / 560], axis=-1) + noise
    path = tmp_path_factory.mktemp("photos") / "gradient.jpg"
    Image.fromarray(pixels.clip(0, 255).astype(np.uint8)).save(path, quality=90)
    return path


@pytest.fixture(scope="module")
def photos(unseen) -> dict[str, Path]:
    return {"cat": SAMPLE.path, "coffee": SECOND.path, "unseen": unseen}


@pytest.fixture(scope="module")
def params():
    return load_checkpoint("stand-in").params()


#: How many of the checkpoint's blocks the occlusion runs keep.
SHALLOW = 2


def shallow(params):
    """The ViT with its first SHALLOW blocks only."""
    return dataclasses.replace(params, blocks=params.blocks[:SHALLOW])


class ShallowCheckpoint:
    """A loaded checkpoint whose `params()` are cut to SHALLOW blocks; all else is the checkpoint's."""

    def __init__(self, checkpoint) -> None:
        self._checkpoint, self._params = checkpoint, shallow(checkpoint.params())

    def params(self):
        return self._params

    def __getattr__(self, name: str):
        return getattr(self._checkpoint, name)


@pytest.fixture(scope="module")
def solutions() -> dict[str, object]:
    return {step: load_step_file(SOLUTIONS / f"{step}.py")
            for step in ("04_cls", "05_attention", "06_block", "07_head", "08_occlusion")}


# --- attention ----------------------------------------------------------------------------------

def expected_row(solutions, params, photo: Path, block: int, head: int, token: int) -> torch.Tensor:
    """The query's weights computed here with the solutions, as page 33 describes."""
    embedding, attention, encoder = (solutions[s] for s in ("04_cls", "05_attention", "06_block"))
    with torch.inference_mode():
        x = embedding.embed(load_image(photo), params)
        for p in params.blocks[:block - 1]:
            x = encoder.block(x, p, params.num_heads)
        p = params.blocks[block - 1]
        q, k, _ = attention.qkv_heads(encoder.layer_norm(x, p.ln1_weight, p.ln1_bias), p.W_qkv,
                                      p.b_qkv, params.num_heads)
        return attention.attention_weights(q, k)[0, head - 1, token]  # (197,)


@pytest.mark.parametrize("name", ["cat", "coffee", "unseen"])
def test_attention_marks_the_query_and_its_strongest_source(name, photos, solutions, params,
                                                            tmp_path):
    result = show("attention", photos[name], "--out", tmp_path / "attention.png")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no progress off a terminal
    line = ATTENTION_LINE.match(result.stdout.strip())
    assert line, result.stdout
    assert (line["query"], line["block"], line["head"]) == ("P74", "4", "1")  # page 33's defaults
    pixels = drawn(tmp_path / "attention.png", pictures.ATTENTION_SIZE)
    assert (int(line["w"]), int(line["h"])) == pictures.ATTENTION_SIZE

    row = expected_row(solutions, params, photos[name], 4, 1, 1 + P74)
    strongest = int(row[1:].argmax())
    assert int(line["source"]) == strongest + 1
    assert line["weight"] == pictures.percent(float(row[1 + strongest]))
    assert line["cls"] == pictures.percent(float(row[0]))

    query = pictures.patch_box(pictures.ATTENTION_PHOTO, P74)
    assert query == (16 + 3 * 48, 16 + 5 * 48, 16 + 4 * 48, 16 + 6 * 48)  # P74: row 6, column 4
    for x, y in edge_points(query, pictures.HAIRLINE + pictures.OUTLINE // 2):
        assert tuple(pixels[y, x]) == pictures.VIOLET, (x, y)
    inset = pictures.NESTED if strongest == P74 else 0  # the white frame nests inside the violet
    source = pictures.patch_box(pictures.ATTENTION_PHOTO, strongest)
    for x, y in edge_points(source, inset + pictures.HAIRLINE + 1):
        assert tuple(pixels[y, x]) == pictures.WHITE, (x, y)
    assert inked(pixels, pictures.ATTENTION_LEGEND) > 3000


def test_attention_of_cls_in_the_last_block(photos, solutions, params, tmp_path):
    result = show("attention", photos["coffee"], "--query", "cls", "--block", 12, "--head", 3,
                  "--out", tmp_path / "cls.png")
    assert result.exit_code == 0, result.output
    line = ATTENTION_LINE.match(result.stdout.strip())
    assert line and (line["query"], line["block"], line["head"]) == ("CLS", "12", "3")
    row = expected_row(solutions, params, photos["coffee"], 12, 3, 0)
    assert int(line["source"]) == int(row[1:].argmax()) + 1
    pixels = drawn(tmp_path / "cls.png", pictures.ATTENTION_SIZE)
    left, top = pictures.ATTENTION_PHOTO
    photo = pixels[top:top + pictures.PHOTO, left:left + pictures.PHOTO]
    assert not (photo == pictures.VIOLET).all(axis=-1).any()  # CLS is not a patch: no outline


# --- occlusion ----------------------------------------------------------------------------------

class Occlusions:
    """`show occlusion` run once per photograph, on first use (coffee follows Newfoundland by name),
    and what it computed: its inputs and outputs, so a test reads the map it drew from without
    running 196 covers through the ViT a second time."""

    def __init__(self, photos: dict[str, Path], folder: Path) -> None:
        self.photos, self.folder = photos, folder
        self.runs: dict[str, tuple[Result, Path]] = {}
        self.computed: dict[str, tuple[tuple, tuple]] = {}

    def __call__(self, name: str) -> tuple[Result, Path]:
        if name not in self.runs:
            import grader.cli.show as show_module

            calls: list[tuple[tuple, tuple]] = []
            real, real_inputs = show_module._occlusion, show_module._inputs

            def recorded(*args):
                outputs = real(*args)
                calls.append((args, outputs))
                return outputs

            def shallow_inputs(*args):
                pixels, image, checkpoint = real_inputs(*args)
                return pixels, image, ShallowCheckpoint(checkpoint)

            path = self.folder / f"{name}.png"
            target = ["--target", "Newfoundland"] if name == "coffee" else []
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(show_module, "_occlusion", recorded)
                patch.setattr(show_module, "_inputs", shallow_inputs)
                result = show("occlusion", self.photos[name], *target, "--impl", "solutions", "--out", path)
            self.runs[name] = result, path
            if calls:
                (self.computed[name],) = calls
        return self.runs[name]


@pytest.fixture(scope="module")
def occlusion_of(photos, tmp_path_factory) -> Occlusions:
    return Occlusions(photos, tmp_path_factory.mktemp("occlusion"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cat", "coffee", "unseen"])
def test_occlusion_draws_the_covers_the_map_and_its_legend(name, occlusion_of, photos, solutions,
                                                           params):
    result, path = occlusion_of(name)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    line = OCCLUSION_LINE.match(result.stdout.strip())
    assert line, result.stdout
    if name == "coffee":
        assert (line["name"], line["target"]) == ("Newfoundland", "256")
    else:  # the default target is the photo's top-1 class
        with torch.inference_mode():
            logits = solutions["07_head"].vit_forward(load_image(photos[name]), shallow(params))
        assert int(line["target"]) == int(logits.argmax())
    pixels = drawn(path, pictures.OCCLUSION_SIZE)

    for i, quadrant in enumerate(pictures.QUADRANTS, 1):  # each cover where it says
        x, y = pictures.THUMBS[i]
        half = pictures.THUMB // 2
        row, col = quadrant.row, quadrant.column
        assert tuple(pixels[y + row * half + half // 2, x + col * half + half // 2]) == pictures.GRAY_COVER
    drop = pictures.patch_box(pictures.OCCLUSION_PHOTO, int(line["patch"]) - 1)
    for x, y in edge_points(drop, pictures.HAIRLINE + 1):  # its dark frame
        assert tuple(pixels[y, x]) == pictures.TAG, (x, y)
    assert inked(pixels, pictures.OCCLUSION_LEGEND) > 5000
    for x, y in pictures.THUMBS:  # the captions under the original and the four covers
        assert inked(pixels, (x, y + pictures.THUMB, x + pictures.THUMB, pictures.OCCLUSION_PHOTO[1])) > 200


@pytest.mark.slow
def test_the_largest_drop_is_the_argmin_of_the_map(occlusion_of, photos, params):
    """The patch and points the picture names are the lowest of the map the solutions computed
    for this photo, its target and the checkpoint's parameters."""
    result, _ = occlusion_of("unseen")
    line = OCCLUSION_LINE.match(result.stdout.strip())
    assert line, result.stdout
    (_, image, used_params, _, _), (target, _, _, change) = occlusion_of.computed["unseen"]
    assert torch.equal(image, load_image(photos["unseen"]))
    assert torch.equal(used_params.W_E, params.W_E) and len(used_params.blocks) == SHALLOW
    assert target == int(line["target"])
    lowest = int(change.argmin())  # change: (14, 14)
    assert int(line["patch"]) == lowest + 1
    assert f"{line['points']} points" == pictures.points(float(change.flatten()[lowest]))


# --- errors: one line, exit 2 -------------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--query", "P197"], ["'P197'", "P1…P196"]),
    (["--query", "P0"], ["'P0'"]),
    (["--block", 13], ["--block", "13"]),
    (["--block", 0], ["--block", "0"]),
    (["--head", 4], ["--head", "4"]),
    (["--impl", "exercises"], ["exercises/04_cls.py: embed is not written yet"]),
    (["--submission", "no-such-folder"], ["no-such-folder"]),
], ids=["P197", "P0", "block-13", "block-0", "head-4", "stubs", "no-submission-folder"])
def test_bad_attention_arguments(args, words, tmp_path):
    assert_one_line_error(show("attention", SAMPLE.path, *args, "--out", tmp_path / "a.png"), *words)


@pytest.mark.parametrize("args, words", [
    (["--target", "Newfoundlnd"], ["'Newfoundlnd'", "did you mean 'Newfoundland'"]),
    (["--target", "crane"], ["crane [134]", "crane [517]"]),
    (["--target", "1000"], ["--target 1000"]),
    (["--impl", "exercises"], ["exercises/07_head.py: vit_forward is not written yet"]),
], ids=["misspelt-class", "ambiguous-class", "class-1000", "stubs"])
def test_bad_occlusion_arguments(args, words, tmp_path):
    assert_one_line_error(show("occlusion", SAMPLE.path, *args, "--out", tmp_path / "o.png"), *words)


@pytest.mark.parametrize("command", ["attention", "occlusion"])
def test_an_unreadable_photo(command, tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("not an image\n")
    assert_one_line_error(show(command, text, "--out", tmp_path / "a.png"), "notes.jpg")
    assert_one_line_error(show(command, tmp_path / "missing.png", "--out", tmp_path / "a.png"),
                          "missing.png")
    assert not (tmp_path / "a.png").exists()


@pytest.mark.parametrize("out, words", [
    ("picture.jpg", ["must end in .png"]),
    ("no-such-folder/picture.png", ["no-such-folder", "does not exist"]),
    ("file.txt/picture.png", ["file.txt", "is not a folder"]),
], ids=["not-png", "missing-folder", "folder-is-a-file"])
def test_bad_out(out, words, tmp_path):
    (tmp_path / "file.txt").write_text("")
    assert_one_line_error(show("attention", SAMPLE.path, "--out", tmp_path / out), *words)


def submission_with_stub(folder: Path, step_id: str) -> Path:
    """A copy of the solutions with one step's stub; a fresh folder, since step files load once."""
    shutil.copytree(SOLUTIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(EXERCISES / f"{step_id}.py", folder / f"{step_id}.py")
    return folder


def test_a_submission_names_its_unfinished_step(tmp_path):
    folder = submission_with_stub(tmp_path / "a", "05_attention")
    result = show("attention", SAMPLE.path, "--submission", folder, "--out", tmp_path / "a.png")
    assert_one_line_error(result, "05_attention.py: multi_head_attention is not written yet")  # block 1
    result = show("attention", SAMPLE.path, "--submission", folder, "--block", 1, "--out",
                  tmp_path / "a.png")  # no block before it: the first call is the head's own
    assert_one_line_error(result, "05_attention.py: qkv_heads is not written yet")
    folder = submission_with_stub(tmp_path / "o", "08_occlusion")
    result = show("occlusion", SAMPLE.path, "--submission", folder, "--out", tmp_path / "o.png")
    assert_one_line_error(result, "08_occlusion.py: quadrant_probabilities is not written yet")
