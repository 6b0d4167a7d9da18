"""The portable worker's check that a step left its interpreter as it found it (`intact`): each
kind of change it promises to see is seen, and undoing it leaves nothing to report."""
from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import torch

from grader import paths
from grader.launch import sandbox
from grader.launch.portable import Spawned
from grader.launch.zygote_runner import ZygoteRunner
from grader.worker import intact


@pytest.fixture(autouse=True)
def _no_other_tests_children(monkeypatch):
    """A portable worker has no child process of its own; this pytest process holds the runners of
    other tests, which start and end as they please. These tests are about the interpreter, so the
    children check is left out here (tests/test_portable.py ends a step that leaves a child)."""
    monkeypatch.setattr(intact, "_has_children", lambda: False)


def test_a_patched_function_a_new_attribute_a_setting_and_a_thread_are_each_seen():
    before = intact.snapshot()
    assert intact.differences(before) == []
    gelu, dtype = torch.nn.functional.gelu, torch.get_default_dtype()
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    try:
        torch.nn.functional.gelu = lambda x, approximate="none": x
        torch.vitgrade_left_behind = True
        torch.set_default_dtype(torch.float64)
        thread.start()
        found = intact.differences(before)
    finally:
        torch.nn.functional.gelu = gelu
        del torch.vitgrade_left_behind
        torch.set_default_dtype(dtype)
        release.set()
        thread.join()
    assert "torch.nn.functional.gelu" in found
    assert "new torch.vitgrade_left_behind" in found
    assert "default dtype" in found
    assert "a thread still running" in found
    assert intact.differences(before) == []


def test_a_patched_method_of_a_torch_class_is_seen():
    before = intact.snapshot()
    assert "softmax" not in vars(torch.Tensor)  # inherited from the C base: patching adds it
    try:
        torch.Tensor.softmax = lambda self, dim: self
        found = intact.differences(before)
    finally:
        del torch.Tensor.softmax
    assert "a class attribute softmax" in found
    assert intact.differences(before) == []


def test_a_function_s_code_or_defaults_and_a_deleted_attribute_are_seen_an_equal_scalar_is_not():
    from grader.launch import protocol

    before = intact.snapshot()
    function, code, defaults = protocol.send, protocol.send.__code__, protocol.send.__defaults__
    limit = protocol.MAX_HEADER
    try:
        protocol.send.__code__ = (lambda sock, header, arrays=None: None).__code__
        protocol.send.__defaults__ = (None,)
        del protocol.receive
        protocol.MAX_HEADER = int(str(limit))  # the same value, a new object
        found = intact.differences(before)
    finally:
        function.__code__, function.__defaults__ = code, defaults
        protocol.MAX_HEADER = limit
        protocol.receive = before.namespaces["grader.launch.protocol"].by_key()["receive"][0]
    assert found.count("grader.launch.protocol.send") == 1  # once, however many of its parts changed
    assert "grader.launch.protocol.receive" in found
    assert not [name for name in found if "MAX_HEADER" in name]
    assert intact.differences(before) == []


@pytest.fixture
def another_copy(tmp_path, monkeypatch) -> Path:
    """The current folder holds another `grader` package (another checkout, a release), one that
    says so as soon as it is imported."""
    (tmp_path / "grader").mkdir()
    (tmp_path / "grader" / "__init__.py").write_text("raise ImportError('the copy in the current folder')\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow  # two torch imports
def test_the_workers_run_the_judge_s_copy_of_the_kit_whatever_the_current_folder_holds(another_copy):
    """Started from a folder with another copy of the kit, the zygote and a portable worker import the
    judge's: two copies disagree on their messages and on which code is the kit's own, and correct
    code scored 0, accused of switching off the recording of its operators."""
    environment = sandbox.worker_environment(dict(os.environ))
    spawned = Spawned(environment, loopback=False)
    zygote = ZygoteRunner()
    try:
        spawned.wait_started()  # the copy in the current folder raises at its first import
        assert zygote.plan().layers()
    finally:
        spawned.kill()
        zygote.close()


@pytest.fixture(scope="module")
def venv_with_the_kit(tmp_path_factory) -> Path:
    """A virtual environment with the kit installed from a wheel (its dependencies from this Python's
    site-packages), and a symlink to it."""
    folder = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(folder / "wheel"), str(paths.KIT_ROOT)], check=True, timeout=300, capture_output=True)
    # No pip of its own (ensurepip would take most of the fixture's time): this Python's pip installs into it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True, timeout=300)
    _reach_this_pythons_packages(folder / "venv")
    wheel = next((folder / "wheel").glob("vitgrade-*.whl"))
    # Not PYTHONPATH: where it names a checkout, pip takes the kit for installed and writes no bin/vitgrade.
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    subprocess.run([sys.executable, "-m", "pip", "--python", str(folder / "venv" / "bin" / "python"), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)],
                   check=True, timeout=300, capture_output=True, env=environment)
    (folder / "link").symlink_to(folder / "venv", target_is_directory=True)
    return folder


def _reach_this_pythons_packages(venv: Path) -> None:
    """The venv finds the packages of the Python running the tests (torch, typer ...), wherever they
    are: `--system-site-packages` would give it its base interpreter's, which in a venv of its own
    (the README's) has none. Folders named in a .pth file are put on sys.path as they are: their own
    .pth files, such as an editable install of the kit, are not read."""
    (purelib,) = venv.glob("lib/python*/site-packages")
    (purelib / "_tests_python.pth").write_text("\n".join(site.getsitepackages()) + "\n")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the venv's layout and symlinks as on Linux")
@pytest.mark.parametrize("how", ["symlinked venv", "PYTHONPATH at this checkout"])
def test_correct_code_keeps_its_points_in_a_venv_beside_another_copy(venv_with_the_kit, another_copy, tmp_path, how):
    """The kit installed in a venv (reached through a symlink, or with PYTHONPATH at another copy),
    run from a folder that holds a third copy: the judge and its workers run one copy, and correct
    code scores full marks."""
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copy(paths.step_file(paths.SOLUTIONS, "01_flatten"), submission)
    env = {**os.environ, "VITGRADE_ROOT": str(paths.KIT_ROOT)}
    env.pop("PYTHONPATH", None)
    folder = "link" if how == "symlinked venv" else "venv"
    if how == "PYTHONPATH at this checkout":
        env["PYTHONPATH"] = str(paths.KIT_ROOT)
    report = tmp_path / "report.json"
    run = subprocess.run([str(venv_with_the_kit / folder / "bin" / "vitgrade"), "check", "01_flatten", "--submission",
                          str(submission), "--format", "json", "--output", str(report)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert report.exists(), run.stderr
    assert json.loads(report.read_text())["score"] == 10.0, report.read_text()
