"""The committed fixtures: verified by hash, rebuilt byte for byte from the stand-in, small."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import paths
from grader.cli import app
from grader.expected.store import FixtureError, load_cases, load_manifest, verify
from grader.steps import STEP_IDS

MANIFEST = load_manifest()
FILES = sorted(MANIFEST["files"])


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fixtures")
    shutil.copytree(paths.FIXTURES, folder, dirs_exist_ok=True)
    return folder


def test_committed_fixtures_verify():
    result = CliRunner().invoke(app, ["fixtures", "verify"])
    assert result.exit_code == 0, result.output
    assert verify() == []


@pytest.mark.parametrize("relative", FILES)
def test_flipping_one_byte_names_that_file(copy: Path, relative: str):
    target = copy / relative
    original = target.read_bytes()
    flipped = bytearray(original)
    flipped[len(flipped) // 2] ^= 0x01
    target.write_bytes(bytes(flipped))
    try:
        result = CliRunner().invoke(app, ["fixtures", "verify", "--fixtures", str(copy)])
    finally:
        target.write_bytes(original)
    assert result.exit_code == 2
    assert relative in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("vitgrade: error")]) == 1


def test_a_tampered_step_file_is_refused_when_loading(copy: Path):
    target = copy / "visible" / "05_attention.safetensors"
    original = target.read_bytes()
    target.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))
    try:
        with pytest.raises(FixtureError, match="visible/05_attention.safetensors"):
            load_cases("05_attention", "visible", copy)
    finally:
        target.write_bytes(original)


def test_fixtures_folder_stays_under_40_mb():
    size = sum(p.stat().st_size for p in paths.FIXTURES.rglob("*") if p.is_file())
    assert size < 40e6, f"fixtures/ is {size / 1e6:.1f} MB"


def test_manifest_says_what_the_fixtures_came_from():
    checkpoint = MANIFEST["checkpoint"]
    assert checkpoint["kind"] in ("real", "stand-in") and len(checkpoint["sha256"]) == 64
    assert {p["role"] for p in MANIFEST["photos"].values()} == {"sample", "second"}
    assert all("CC0" in p["license"] for p in MANIFEST["photos"].values())
    assert set(MANIFEST["versions"]) >= {"torch", "timm"}
    for step in STEP_IDS:
        for visibility in ("visible", "hidden"):
            entry = MANIFEST["files"][f"{visibility}/{step}.safetensors"]
            assert entry["tensors"] and all(isinstance(s, list) for s in entry["tensors"].values())


def test_every_step_has_visible_and_hidden_cases_of_every_function():
    from grader.steps import STEPS

    for step in STEPS:
        for visibility in ("visible", "hidden"):
            functions = {case.function for case in load_cases(step.id, visibility)}
            assert functions == set(step.functions), (step.id, visibility)


def test_hidden_cases_do_not_repeat_visible_inputs():
    """Hidden tests must catch code that only fits the sample photograph."""
    for step in STEP_IDS:
        visible = {array.tobytes() for case in load_cases(step, "visible") for array in case.tensors.values()
                   if array.size > 1000}
        hidden = [case for case in load_cases(step, "hidden")]
        assert any(all(a.tobytes() not in visible for a in case.tensors.values()) for case in hidden), step


@pytest.mark.slow
def test_rebuilding_from_the_standin_reproduces_the_committed_fixtures(tmp_path: Path):
    from grader.expected.build import build

    rebuilt = build("stand-in", tmp_path)
    assert rebuilt["files"] == MANIFEST["files"]
    assert rebuilt["checkpoint"] == MANIFEST["checkpoint"]
    assert json.loads((tmp_path / "manifest.json").read_text()) == MANIFEST
