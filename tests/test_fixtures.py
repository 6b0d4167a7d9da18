"""The committed fixtures: verified by hash, rebuilt from the stand-in within float32 rounding, small.

The hashes pin the committed bytes (tamper detection); a rebuild reproduces the numbers, not the
bytes: its floats may differ in their last bits from one machine to another (grader.expected.agree)."""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from grader import paths
from grader.cli.app import app
from grader.expected.agree import compare_file, compare_folders
from grader.expected.store import FixtureError, load_cases, load_manifest, verify
from grader.numerics import DEFAULT_TOLERANCE, REPRODUCIBLE, allowed
from grader.steps import STEP_IDS
from together import early

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


REBUILD = "fixtures: rebuilt from the stand-in"


@early(REBUILD, "test_rebuilding_from_the_standin_reproduces_the_committed_fixtures")
def _rebuild(folder: Path) -> dict:
    """One rebuild from the stand-in with this machine's kernels, by the command instructors run."""
    return {"args": [sys.executable, "-m", "grader.cli", "fixtures", "build", "--out", str(folder / "rebuilt")],
            "cwd": paths.KIT_ROOT, "env": {**os.environ, "PYTHONPATH": str(paths.KIT_ROOT)}}


@pytest.fixture(scope="module")
def rebuilt(early_runs) -> tuple[Path, dict]:
    run = early_runs.finished(REBUILD)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    folder = Path(run.args[run.args.index("--out") + 1])
    return folder, load_manifest(folder)


def _shapes(manifest: dict) -> dict[str, dict]:
    return {name: entry["tensors"] for name, entry in manifest["files"].items()}


@pytest.mark.slow
def test_rebuilding_from_the_standin_reproduces_the_committed_fixtures(rebuilt):
    """Same files, cases, shapes and integers; floats within REPRODUCIBLE of their tolerance at
    their tensor's scale. Not the same bytes: another CPU's kernels change the last bits (and
    with them every hash), so only the inputs that are copied, not computed, keep their hash."""
    folder, manifest = rebuilt
    assert manifest["checkpoint"] == MANIFEST["checkpoint"]
    assert manifest["photos"] == MANIFEST["photos"] and manifest["seed"] == MANIFEST["seed"]
    assert _shapes(manifest) == _shapes(MANIFEST)
    copied = [name for name in FILES if name.startswith(("checkpoint/", "photos/"))]
    assert {n: manifest["files"][n]["sha256"] for n in copied} == {n: MANIFEST["files"][n]["sha256"] for n in copied}
    disagreements = compare_folders(folder, paths.FIXTURES, MANIFEST)
    assert len(disagreements) == len(FILES) - len(copied)
    assert [(d.file, d.worst, d.where, d.exact) for d in disagreements if not d.ok] == []


def _perturbed(source: Path, target: Path, change) -> None:
    """A copy of a fixture file with its tensors changed by `change(key, array)`, metadata kept."""
    from safetensors.numpy import load, save

    data = source.read_bytes()
    header = json.loads(data[8:8 + int.from_bytes(data[:8], "little")])
    arrays = {key: change(key, array) for key, array in load(data).items()}
    target.write_bytes(save(arrays, metadata=header.get("__metadata__")))


def test_the_rebuild_comparison_fails_beyond_its_bound(tmp_path: Path):
    """A float moved by twice the bound, or one integer changed, is a disagreement; the committed
    file against itself is none. The comparison can fail, so its passing means something."""
    committed = paths.FIXTURES / "visible" / "05_attention.safetensors"
    assert compare_file(committed, committed, "same").worst == 0 and compare_file(committed, committed, "same").ok
    shifts: list[float] = []  # in tolerances at scale, as stored after float32 rounding

    def moved(key: str, array: np.ndarray) -> np.ndarray:
        if key != "c01/out":  # block 1's attention weights, in [0, 1]
            return array
        tolerance = float(allowed(float(np.abs(array).max()), DEFAULT_TOLERANCE))  # the attention cases state none
        shifted = array.copy()
        shifted.flat[0] += np.float32(2 * REPRODUCIBLE * tolerance)
        shifts.append((float(shifted.flat[0]) - float(array.flat[0])) / tolerance)
        return shifted

    _perturbed(committed, tmp_path / "moved.safetensors", moved)
    disagreement = compare_file(tmp_path / "moved.safetensors", committed, "moved")
    assert not disagreement.ok and disagreement.where == "c01/out"
    assert disagreement.worst == pytest.approx(shifts[0], rel=1e-12)  # float64 arithmetic on the same floats

    hidden = paths.FIXTURES / "hidden" / "08_occlusion.safetensors"
    _perturbed(hidden, tmp_path / "indices.safetensors",
               lambda key, array: array + 1 if array.dtype == np.int32 else array)
    assert compare_file(tmp_path / "indices.safetensors", hidden, "indices").exact


def test_fixtures_build_says_that_a_rebuild_changes_the_hashes(monkeypatch, tmp_path: Path):
    """Instructors learn why `git status` shows every fixture changed after a rebuild elsewhere."""
    import grader.expected.build

    monkeypatch.setattr(grader.expected.build, "build", lambda *args, **kwargs: MANIFEST)
    result = CliRunner().invoke(app, ["fixtures", "build", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "every hash changes" in result.output and "float32 rounding" in result.output


def test_case_lists_agree_on_their_words_and_within_a_percent_on_their_floats():
    """A tolerance computed from a case's seeded inputs moves with their last bits between machines;
    names, arguments and kept mistakes may not move at all."""
    from grader.expected.agree import CASE_FLOAT_AGREEMENT, _same_case_lists

    committed = {"cases": '[{"name": "layer_norm", "extra": {"tolerance": [0.002, 0.0001]}}]'}
    nudged = {"cases": '[{"name": "layer_norm", "extra": {"tolerance": [0.002002, 0.0001]}}]'}
    moved = {"cases": '[{"name": "layer_norm", "extra": {"tolerance": [%r, 0.0001]}}]'
             % (0.002 * (1 + 2 * CASE_FLOAT_AGREEMENT))}
    renamed = {"cases": '[{"name": "mlp", "extra": {"tolerance": [0.002, 0.0001]}}]'}
    assert _same_case_lists(nudged, committed)
    assert not _same_case_lists(moved, committed) and not _same_case_lists(renamed, committed)


def test_a_fingerprint_kept_as_float16_matches_its_output_and_no_other():
    """The kept values go in as float16 of value / their largest magnitude: read back, the output they came
    from matches (a rounding of 2⁻¹² of the scale, inside FINGERPRINT_TOLERANCE), and an output off by
    three times the tolerance does not; a value too large for float16 (logits × 10⁵) survives the scaling."""
    import torch

    from grader.expected.build import _fingerprint
    from grader.expected.store import _fingerprint as read_fingerprint
    from grader.numerics import FINGERPRINT_TOLERANCE

    output = torch.from_numpy(np.random.default_rng(3).normal(size=(2, 50, 8)) * 1e5).float()
    arrays: dict = {}
    spec = _fingerprint(output, "c00/edit/0", arrays)
    assert arrays[spec["values"]].dtype == torch.float16
    fingerprint = read_fingerprint(spec, {key: value.numpy() for key, value in arrays.items()})
    assert fingerprint.matches(output.numpy())
    off = output.double().numpy() + 3 * FINGERPRINT_TOLERANCE * float(output.abs().max())
    assert not fingerprint.matches(off)


def test_kept_float16_values_one_rounding_step_apart_agree_and_two_do_not():
    """Two builds' float32 values a rounding apart may land on neighbouring float16 numbers: that step is no
    disagreement, a second one is."""
    from grader.expected.agree import _difference

    committed = np.array([0.5, -0.25, 1.0], dtype=np.float16)
    one_step = np.nextafter(committed, np.float16(2))
    assert _difference(one_step, committed) == 0.0
    two_steps = np.nextafter(one_step, np.float16(2))
    assert _difference(two_steps, committed) > 0.0
