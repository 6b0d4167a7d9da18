"""`vitgrade predict`: the assembled ViT on a photograph, as people and CI see it."""
from __future__ import annotations

import functools
import json
import re
import shutil
from pathlib import Path

import pytest
import torch
from PIL import Image
from rich.console import Console
from typer.testing import CliRunner, Result

import grader.cli.predict
from grader.checkpoint import load_checkpoint
from grader.cli.app import app
from grader.paths import EXERCISES, SOLUTIONS
from grader.photos import SAMPLE, SECOND, load_image
from grader.student import load_step_file

LINE = re.compile(r"^\s*(\d+)\s+(\d+\.\d\d)%\s+(.+) \[(\d+)\]$")  # "   1   49.98%  screw [783]"
STANDIN_WARNING = "NOT the lecture's predictions"


@functools.cache
def label(index: int) -> str:
    """ImageNet's name of class `index`, as timm ships it (imported here: timm takes seconds to import,
    and collecting the quick tier should not pay for it)."""
    from timm.data import ImageNetInfo

    return ImageNetInfo().index_to_description(index)


def predict(*args) -> Result:
    result = CliRunner().invoke(app, ["predict", *map(str, args)])
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


@pytest.fixture(scope="module")
def unseen(tmp_path_factory) -> Path:
    """A JPEG the kit has never seen: seeded colour blobs, not square, so the crop matters."""
    generator = torch.Generator().manual_seed(1)
    small = torch.randint(0, 256, (3, 6, 9), generator=generator, dtype=torch.uint8)
    pixels = torch.nn.functional.interpolate(small[None].float(), size=(240, 360), mode="bilinear")
    path = tmp_path_factory.mktemp("photos") / "blobs.jpg"
    Image.fromarray(pixels[0].permute(1, 2, 0).byte().numpy()).save(path, quality=90)
    return path


@pytest.fixture(params=["cat", "coffee", "unseen"])
def photo(request, unseen) -> Path:
    return {"cat": SAMPLE.path, "coffee": SECOND.path, "unseen": unseen}[request.param]


@pytest.fixture(scope="module")
def standin():
    return load_checkpoint("stand-in")


def expected_top(photo: Path, k: int, standin) -> list[tuple[int, float]]:
    """The solutions' own top-k, computed directly."""
    vit_forward = load_step_file(SOLUTIONS / "07_head.py").vit_forward
    with torch.inference_mode():
        logits = vit_forward(load_image(photo), standin.params())
    values, indices = logits.softmax(-1)[0].topk(k)
    return [(int(i), float(p)) for i, p in zip(indices, values)]


# --- what people read ---------------------------------------------------------------------------

def test_plain_lines_off_a_terminal(photo, standin):
    result = predict(photo)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{photo.name}: top 5 of 1,000 ImageNet classes")
    rows = [LINE.match(line) for line in lines[1:6]]
    assert all(rows), lines
    expected = expected_top(photo, 5, standin)
    for rank, (row, (index, p)) in enumerate(zip(rows, expected), 1):
        assert int(row[1]) == rank and int(row[4]) == index
        assert row[3] == label(index)
        assert row[2] == f"{100 * p:.2f}"
    assert lines[6] == f"checkpoint: {standin.info.describe()}"
    assert STANDIN_WARNING in lines[7]
    assert result.stderr == ""


def test_rich_table_on_a_terminal(monkeypatch, standin):
    monkeypatch.setattr(grader.cli.predict, "out", Console(force_terminal=True, width=120))
    result = predict(SAMPLE.path, "--top", 3)
    assert result.exit_code == 0, result.output
    assert "probability" in result.stdout and "━" in result.stdout  # the table's header rule
    index, p = expected_top(SAMPLE.path, 1, standin)[0]
    assert label(index) in result.stdout
    assert f"{100 * p:.2f}%" in result.stdout
    assert STANDIN_WARNING in result.stdout


# --- what CI reads ------------------------------------------------------------------------------

def test_json_schema_is_exact(photo, standin):
    result = predict(photo, "--format", "json", "--top", 3)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    info = standin.info
    assert data == {
        "checkpoint": {"id": info.id, "kind": "stand-in", "sha256": info.sha256},
        "predictions": [{"index": i, "label": label(i),
                         "probability": pytest.approx(p, abs=1e-6)}
                        for i, p in expected_top(photo, 3, standin)],
    }
    assert STANDIN_WARNING in result.stderr  # stdout stays pure JSON


def test_json_top_1000_is_every_class():
    data = json.loads(predict(SECOND.path, "--format", "json", "--top", 1000).stdout)
    assert sorted(p["index"] for p in data["predictions"]) == list(range(1000))
    assert sum(p["probability"] for p in data["predictions"]) == pytest.approx(1, abs=1e-4)


# --- errors: one line, exit 2 -------------------------------------------------------------------

def test_the_stubs_say_which_function_is_not_written():
    result = predict(SAMPLE.path, "--impl", "exercises")
    assert_one_line_error(result, "exercises/07_head.py: vit_forward is not written yet")


@pytest.fixture
def submission(tmp_path) -> Path:
    """A copy of the solutions, to break one step at a time."""
    folder = tmp_path / "submission"
    shutil.copytree(SOLUTIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_a_submission_names_its_unfinished_step(submission):
    shutil.copy(EXERCISES / "05_attention.py", submission / "05_attention.py")
    result = predict(SAMPLE.path, "--submission", submission)
    assert_one_line_error(result, "05_attention.py: multi_head_attention is not written yet")


def test_a_crash_in_the_implementation_is_one_line(submission):
    source = (submission / "06_block.py").read_text()
    crash = "\n\ndef mlp(x, W_1, b_1, W_2, b_2):\n    return x @ W_1 @ W_1  # (B, N, 4D) @ (D, 4D): shapes clash\n"
    (submission / "06_block.py").write_text(source + crash)
    result = predict(SAMPLE.path, "--submission", submission)
    assert_one_line_error(result, "06_block.py:", "in mlp", "RuntimeError")


def test_a_syntax_error_is_one_line(submission):
    (submission / "03_position.py").write_text("def add_position(tokens, pos_table:\n")
    result = predict(SAMPLE.path, "--submission", submission)
    assert_one_line_error(result, "03_position.py:1", "SyntaxError")


@pytest.mark.parametrize("args, words", [
    (["--top", 0], ["--top"]),
    (["--top", 1001], ["--top"]),
    (["--submission", "no-such-folder"], ["no-such-folder"]),
], ids=["top-0", "top-1001", "no-submission-folder"])
def test_bad_options(args, words):
    assert_one_line_error(predict(SAMPLE.path, *args), *words)


def test_a_text_file_is_not_a_photo(tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("not an image\n")
    assert_one_line_error(predict(text), "notes.jpg")


def test_a_missing_photo(tmp_path):
    assert_one_line_error(predict(tmp_path / "missing.png"), "missing.png")
