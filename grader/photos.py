"""The kit's two photographs and the checkpoint's own eval transform (page 7: resize, centre crop).

Both photographs are copied byte for byte from scikit-image's sample data, which is CC0, so the kit
can ship them; scikit-image itself is not a dependency. Pixels are prepared by timm's eval transform
for `vit_tiny_patch16_224` (bicubic resize of the short side to 248, centre crop 224) and kept as
uint8, because step 01 asks students to write the normalization themselves.

torch and timm are imported inside the functions, so that importing this module stays cheap.
"""
from __future__ import annotations

import functools
import os
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from grader.paths import PHOTOS as _PHOTO_DIR

if TYPE_CHECKING:
    import torch

#: The timm architecture whose pretrained config defines the transform (the lecture's checkpoint).
_TRANSFORM_OF = "vit_tiny_patch16_224.augreg_in21k_ft_in1k"
_SKIMAGE = "scikit-image 0.26.0 wheel (scikit_image-0.26.0-cp311-cp311-manylinux_2_24_x86_64)"


@dataclass(frozen=True)
class Photo:
    """One photograph shipped with the kit, with what a manifest must say about it."""

    name: str
    """Short id used in fixture names, e.g. `cat`."""
    path: Path
    """The committed file."""
    title: str
    """What the photograph shows, for people."""
    license: str
    """The licence, as its source states it."""
    credit: str
    """Photographer and anyone else the source credits."""
    origin: str
    """Which package and file it was copied from, byte for byte."""


SAMPLE = Photo(
    name="cat",
    path=_PHOTO_DIR / "cat.png",
    title="Chelsea the cat",
    license="No copyright restrictions. CC0 by the photographer (Stefan van der Walt).",
    credit="Stefan van der Walt",
    origin=f"{_SKIMAGE}, skimage/data/chelsea.png",
)
SECOND = Photo(
    name="coffee",
    path=_PHOTO_DIR / "coffee.png",
    title="Coffee cup",
    license="No copyright restrictions. CC0 by the photographer (Rachel Michetti).",
    credit="Rachel Michetti; photograph courtesy of Pikolo Espresso Bar",
    origin=f"{_SKIMAGE}, skimage/data/coffee.png",
)
#: Visible fixtures come from SAMPLE, hidden fixtures from SECOND.
PHOTOS: tuple[Photo, ...] = (SAMPLE, SECOND)


class PhotoError(Exception):
    """A photograph that cannot be used; the message is one line for people."""


#: A photograph for fixtures must fill the checkpoint's 224 x 224 input without being enlarged.
MIN_SIDE = 224
#: Modes Pillow cannot turn into RGB without clipping (16-bit and floating-point pixels).
_UNCONVERTIBLE_MODES = frozenset({"I", "I;16", "I;16B", "I;16L", "I;16N", "F"})


def fixture_photo(path: str | os.PathLike) -> Photo:
    """Check a photograph given to `vitgrade fixtures build --photo` and describe it for the manifest.

    Grayscale, palette, CMYK and translucent photographs are accepted: they become RGB exactly as
    timm's and torchvision's loaders make them (alpha dropped), which is what the checkpoint sees.

    Raises:
        PhotoError: Missing, not an image, smaller than MIN_SIDE on its short side (the transform
            would enlarge it), larger than Pillow's decompression-bomb limit, or 16-bit/float pixels.
    """
    from PIL import Image

    resolved = Path(path).expanduser().resolve()
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)  # above the limit: refused, not decoded
        try:
            with _opened(resolved) as image:
                (width, height), mode = image.size, image.mode
        except Image.DecompressionBombWarning:
            raise PhotoError(_too_large(resolved)) from None
    if mode in _UNCONVERTIBLE_MODES:
        raise PhotoError(f"{path} has {mode} pixels (16-bit or floating point); save it as 8-bit RGB")
    if min(width, height) < MIN_SIDE:
        raise PhotoError(f"{path} is {width}x{height}: too small, the checkpoint's transform needs at "
                         f"least {MIN_SIDE} pixels on the short side and would enlarge it")
    _read_rgb(resolved)  # decodes every pixel: a truncated file fails here, in one line
    return Photo(name=resolved.stem, path=resolved, title=resolved.stem,
                 license="not recorded (given to `vitgrade fixtures build`)",
                 credit="not recorded", origin=str(resolved))


def load_pixels(path: str | os.PathLike) -> torch.Tensor:
    """Read a photograph and apply the checkpoint's eval transform, stopping before normalization.

    Args:
        path: Any image file Pillow reads; alpha, grayscale, palette and CMYK become RGB.

    Returns:
        (1, 3, 224, 224) uint8: bicubic resize of the short side to 248, centre crop 224.

    Raises:
        PhotoError: The file is missing or is not an image.
    """
    rgb = _read_rgb(Path(path))
    chw = _eval_transform()(rgb)  # (3, 224, 224) uint8
    return chw.unsqueeze(0)  # (1, 3, 224, 224)


def normalize_pixels(pixels_uint8: torch.Tensor) -> torch.Tensor:
    """The checkpoint's normalization (page 8), looked up: each uint8 value becomes its level.

    Args:
        pixels_uint8: (..., 3, H, W) uint8.

    Returns:
        The same shape, float32, in [-1, 1].
    """
    return _levels()[pixels_uint8.long()]


@functools.cache
def _levels() -> torch.Tensor:
    """(256,) float32: the value the checkpoint's transform gives each pixel value, 0 -> -1 ... 255 -> 1.

    Evenly spaced over [-1, 1]; in float32 these are, bit for bit, the numbers torchvision's ToTensor +
    Normalize compute (tests/test_photos.py compares all 256), so images equal timm's full transform.
    A lookup rather than that arithmetic: step 01 asks students to write the arithmetic themselves.
    """
    import torch

    return torch.arange(256, dtype=torch.float32).div(127.5).sub(1)


def load_image(path: str | os.PathLike) -> torch.Tensor:
    """A photograph as the model sees it: (1, 3, 224, 224) normalized float32."""
    return normalize_pixels(load_pixels(path))


def _read_rgb(path: Path):
    """Open with Pillow and convert to RGB, turning every failure into one PhotoError line."""
    with _opened(path) as image:
        # Dropping alpha, as convert does, is what timm's and torchvision's loaders do too.
        return image.convert("RGB")


@contextmanager
def _opened(path: Path):
    """Pillow's image at `path`; a missing file or one Pillow cannot read is one PhotoError line."""
    from PIL import Image, UnidentifiedImageError

    if not path.is_file():
        raise PhotoError(f"no such photograph: {path}")
    try:
        with Image.open(path) as image:
            yield image
    except Image.DecompressionBombError:
        raise PhotoError(_too_large(path)) from None
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise PhotoError(f"not a readable image: {path} ({error})") from None


def _too_large(path: Path) -> str:
    from PIL import Image

    return (f"{path} is too large: more than {Image.MAX_IMAGE_PIXELS:,} pixels, Pillow's limit against "
            "decompression bombs; scale it down")


def _eval_transform():
    """timm's eval transform for the lecture's checkpoint, ending in a uint8 tensor, not normalized."""
    from timm.data import create_transform, resolve_data_config
    from timm.models import get_pretrained_cfg

    config = resolve_data_config(pretrained_cfg=get_pretrained_cfg(_TRANSFORM_OF).to_dict())
    return create_transform(**config, normalize=False)
