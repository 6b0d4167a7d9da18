"""The photographs and the checkpoint's transform."""
from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest
import torch
from PIL import Image

from grader.paths import KIT_ROOT
from grader.photos import PHOTOS, SAMPLE, SECOND, PhotoError, load_image, load_pixels, normalize_pixels

# sha256 of skimage/data/chelsea.png and coffee.png in the scikit-image 0.26.0 wheel.
UPSTREAM_SHA256 = {
    "cat": "596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb",
    "coffee": "cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7",
}
BOTH = [pytest.param(photo, id=photo.name) for photo in PHOTOS]


def _timm_transform():
    """timm's full eval transform, resolved from the model as a timm user would."""
    import timm
    from timm.data import create_transform, resolve_data_config

    with torch.device("meta"):  # only the config is needed, not initialised weights
        model = timm.create_model("vit_tiny_patch16_224", pretrained=False)
    return create_transform(**resolve_data_config(model=model))


def test_records():
    assert PHOTOS == (SAMPLE, SECOND)
    assert SAMPLE.path.name == "cat.png" and SECOND.path.name == "coffee.png"
    for photo in PHOTOS:
        assert "CC0" in photo.license and photo.credit and photo.title
        assert "scikit-image 0.26.0" in photo.origin and "skimage/data/" in photo.origin


@pytest.mark.parametrize("photo", BOTH)
def test_files_are_byte_for_byte_copies(photo):
    assert hashlib.sha256(photo.path.read_bytes()).hexdigest() == UPSTREAM_SHA256[photo.name]


@pytest.mark.parametrize("photo", BOTH)
def test_pixels_shape_and_dtype(photo):
    pixels = load_pixels(photo.path)
    assert pixels.shape == (1, 3, 224, 224) and pixels.dtype == torch.uint8


def test_transform_is_the_checkpoints():
    from timm.data import resolve_data_config
    from timm.models import get_pretrained_cfg

    config = resolve_data_config(
        pretrained_cfg=get_pretrained_cfg("vit_tiny_patch16_224.augreg_in21k_ft_in1k").to_dict())
    assert config["interpolation"] == "bicubic" and config["crop_pct"] == 0.9  # 224 / 0.9 -> 248
    assert config["mean"] == config["std"] == (0.5, 0.5, 0.5)


@pytest.mark.parametrize("photo", BOTH)
def test_normalized_image_equals_timm_bit_for_bit(photo):
    with Image.open(photo.path) as image:
        expected = _timm_transform()(image.convert("RGB")).unsqueeze(0)  # (1, 3, 224, 224)
    assert load_image(photo.path).dtype == torch.float32
    assert torch.equal(load_image(photo.path), expected)
    assert torch.equal(normalize_pixels(load_pixels(photo.path)), expected)


def test_every_pixel_value_normalizes_as_torchvision_does():
    """All 256 values, not only those the photographs hold, through timm's own ToTensor + Normalize."""
    from timm.data import resolve_data_config
    from timm.models import get_pretrained_cfg
    from torchvision import transforms

    config = resolve_data_config(
        pretrained_cfg=get_pretrained_cfg("vit_tiny_patch16_224.augreg_in21k_ft_in1k").to_dict())
    every = torch.arange(256, dtype=torch.uint8).reshape(16, 16, 1).expand(16, 16, 3).numpy()  # HWC
    expected = transforms.Normalize(config["mean"], config["std"])(transforms.ToTensor()(every))  # (3, 16, 16)
    got = normalize_pixels(torch.from_numpy(every).permute(2, 0, 1))  # (3, 16, 16)
    assert got.dtype == torch.float32 and torch.equal(got, expected)


@pytest.mark.parametrize("mode", ["L", "RGBA", "P", "CMYK"])
def test_other_colour_modes_load_as_rgb(tmp_path, mode):
    with Image.open(SAMPLE.path) as image:
        rgb = image.convert("RGB")
    path = tmp_path / ("photo.jpg" if mode == "CMYK" else "photo.png")
    rgb.convert(mode).save(path)
    pixels = load_pixels(path)
    assert pixels.shape == (1, 3, 224, 224) and pixels.dtype == torch.uint8
    if mode == "L":
        assert torch.equal(pixels[:, 0], pixels[:, 1]) and torch.equal(pixels[:, 1], pixels[:, 2])
    if mode == "RGBA":  # fully opaque alpha: the same pixels as the RGB original
        assert torch.equal(pixels, load_pixels(SAMPLE.path))


def test_translucent_png_loads(tmp_path):
    path = tmp_path / "translucent.png"
    Image.new("RGBA", (300, 200), (200, 100, 50, 0)).save(path)
    pixels = load_pixels(path)
    assert pixels.shape == (1, 3, 224, 224)
    assert pixels[0, :, 0, 0].tolist() == [200, 100, 50]  # alpha dropped, as timm's loader does


def test_text_file_is_not_a_photo(tmp_path):
    path = tmp_path / "notes.png"
    path.write_text("not an image\n")
    with pytest.raises(PhotoError, match="not a readable image") as error:
        load_pixels(path)
    assert "\n" not in str(error.value)


def test_missing_photo(tmp_path):
    with pytest.raises(PhotoError, match="no such photograph"):
        load_image(tmp_path / "missing.jpg")


def test_importing_photos_stays_light():
    code = "import sys, grader.photos; print('torch' in sys.modules, 'timm' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout.split() == ["False", "False"]
