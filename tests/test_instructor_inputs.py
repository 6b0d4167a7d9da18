"""The instructor's path to the lecture's numbers, proven up to the network: fixtures built from the
hub id out of a Hugging Face cache (offline), with photographs of their own. (Grading with fixtures
so built, every step, is tests/test_first_course.py's `vitgrade validate`.)

The cache (tests/hub_cache.py) holds a ViT-Ti/16 made here, not the stand-in, where timm looks it
up. One step is built (`02_project`: the checkpoint's own projection of the sample photograph), to
keep the test cheap.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from grader.checkpoint import HUB_ID
from grader.photos import SAMPLE, SECOND, fixture_photo, load_pixels
from hub_cache import make_hub_home, offline_environment
from together import run_together

BUILT_STEP = "02_project"
# Run the CLI with the build limited to one step; everything else is the instructor's command.
ONE_STEP_CLI = ("import functools, grader.expected.build as b; "
                f"b.build = functools.partial(b.build, steps=({BUILT_STEP!r},)); "
                "from grader.cli import main; main()")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def hub_home(tmp_path_factory) -> tuple[Path, Path]:
    """HF_HOME holding timm/<HUB_ID>: (HF_HOME, the blob the snapshot links to)."""
    home = tmp_path_factory.mktemp("hf-home")
    return home, make_hub_home(home)


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> dict[str, Path]:
    """The kit's photographs in other forms: a grayscale JPEG and a translucent RGBA PNG."""
    folder = tmp_path_factory.mktemp("photos")
    gray, rgba = folder / "dog_gray.jpg", folder / "cup_rgba.png"
    with Image.open(SAMPLE.path) as image:
        image.convert("L").save(gray, quality=95)
    with Image.open(SECOND.path) as image:
        translucent = image.convert("RGBA")
        translucent.putalpha(128)
        translucent.save(rgba)
    return {"sample": gray, "second": rgba}


#: Loads the cache as timm does and prints whether every tensor is the blob's (argv[1]).
TIMM_LOADS = ("import sys, timm, torch; from safetensors.torch import load_file; "
              f"model = timm.create_model({HUB_ID!r}, pretrained=True); "
              "expected = load_file(sys.argv[1]); "
              "print(all(torch.equal(t, expected[n]) for n, t in model.state_dict().items()))")


@pytest.fixture(scope="module")
def offline(hub_home, photos, tmp_path_factory) -> dict:
    """Two offline runs at once, each a single-threaded torch import and load: timm loading the
    cache itself, and the fixtures built from it into `out`."""
    home, blob = hub_home
    out = tmp_path_factory.mktemp("fixtures")
    build = [sys.executable, "-c", ONE_STEP_CLI, "fixtures", "build", "--checkpoint", HUB_ID,
             "--photo", str(photos["sample"]), "--second-photo", str(photos["second"]), "--out", str(out)]
    offline_env = offline_environment(home)
    runs = run_together({"timm": {"args": [sys.executable, "-c", TIMM_LOADS, str(blob)], "env": offline_env},
                         "build": {"args": build, "env": offline_env}},
                        tmp_path_factory.mktemp("offline-output"), timeout=300)
    return {**runs, "out": out}


@pytest.fixture(scope="module")
def built(offline) -> Path:
    result = offline["build"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert HUB_ID in result.stdout and "(real)" in result.stdout
    return offline["out"]


@pytest.mark.slow
def test_timm_loads_the_laid_out_cache_offline(offline):
    result = offline["timm"]
    assert result.stdout.split() == ["True"], result.stdout + result.stderr


@pytest.mark.slow
def test_manifest_names_the_hub_id_and_the_files(built, hub_home, photos):
    _, blob = hub_home
    manifest = json.loads((built / "manifest.json").read_text())
    assert manifest["checkpoint"]["id"] == HUB_ID and manifest["checkpoint"]["kind"] == "real"
    assert manifest["checkpoint"]["sha256"] == _sha256(blob) == blob.name
    checkpoint_file = manifest["checkpoint"]["file"]
    assert _sha256(built / checkpoint_file) == manifest["files"][checkpoint_file]["sha256"]
    recorded = {entry["role"]: (name, entry) for name, entry in manifest["photos"].items()}
    assert set(recorded) == {"sample", "second"}
    for role, given in photos.items():
        name, entry = recorded[role]
        assert name == given.name and entry["origin"] == str(given.resolve())
        assert entry["sha256"] == _sha256(given) == _sha256(built / "photos" / name)
        assert manifest["files"][f"photos/{name}"]["sha256"] == entry["sha256"]
    assert {f"visible/{BUILT_STEP}.safetensors", f"hidden/{BUILT_STEP}.safetensors"} <= set(manifest["files"])
    result = CliRunner().invoke(_app(), ["fixtures", "verify", "--fixtures", str(built)])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_fixtures_hold_the_given_photographs_as_the_checkpoint_sees_them(built, photos):
    from safetensors.numpy import load_file

    visible = load_file(built / "visible" / f"{BUILT_STEP}.safetensors")
    hidden = load_file(built / "hidden" / f"{BUILT_STEP}.safetensors")
    gray, rgba = visible["pixels/sample"], hidden["pixels/second"]
    assert (gray == load_pixels(photos["sample"]).numpy()).all()
    assert (gray[:, 0] == gray[:, 1]).all() and (gray[:, 1] == gray[:, 2]).all()  # grayscale became RGB
    assert (rgba == load_pixels(photos["second"]).numpy()).all()
    assert (rgba == load_pixels(SECOND.path).numpy()).all()  # alpha dropped, as timm's loader does


def _app():
    from grader.cli.app import app

    return app


@pytest.fixture(scope="module")
def bad_photos(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """Photographs `fixtures build` must refuse, with the words its one-line error must contain."""
    folder = tmp_path_factory.mktemp("bad-photos")
    text = folder / "notes.jpg"
    text.write_text("not an image\n")
    small = folder / "thumbnail.png"
    Image.new("RGB", (200, 150)).save(small)
    deep = folder / "sixteen_bit.png"
    Image.new("I;16", (300, 300)).save(deep)
    huge = folder / "huge.png"
    Image.new("1", (10_000, 9_000)).save(huge)  # 90 megapixels at one bit each: a small file
    truncated = folder / "truncated.png"
    truncated.write_bytes(SAMPLE.path.read_bytes()[:20_000])
    return {"not an image": (text, "not a readable image"), "too small": (small, "too small"),
            "16-bit": (deep, "8-bit"), "huge": (huge, "too large"), "truncated": (truncated, "truncated"),
            "missing": (folder / "missing.jpg", "no such photograph")}


@pytest.mark.parametrize("kind", ["not an image", "too small", "16-bit", "huge", "truncated", "missing"])
@pytest.mark.parametrize("option", ["--photo", "--second-photo"])
def test_bad_photographs_are_refused_in_one_line(bad_photos, tmp_path, kind, option):
    path, words = bad_photos[kind]
    result = CliRunner().invoke(_app(), ["fixtures", "build", option, str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("vitgrade: error:") and words in lines[0], result.output
    assert not (tmp_path / "out").exists()  # refused before anything was built


def test_the_same_photograph_twice_is_refused(tmp_path):
    result = CliRunner().invoke(_app(), ["fixtures", "build", "--photo", str(SECOND.path),
                                         "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "second photograph" in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("mode", ["L", "LA", "P", "RGBA", "CMYK", "1"])
def test_other_colour_modes_are_accepted_and_recorded(tmp_path, mode):
    path = tmp_path / ("photo.jpg" if mode == "CMYK" else "photo.png")
    with Image.open(SAMPLE.path) as image:
        image.convert(mode).save(path)
    photo = fixture_photo(path)
    assert photo.path == path.resolve() and photo.origin == str(path.resolve())
    assert load_pixels(path).shape == (1, 3, 224, 224)

