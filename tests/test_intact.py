"""The portable worker's check that a step left its interpreter as it found it (`intact`): each
kind of change it promises to see is seen, and undoing it leaves nothing to report."""
from __future__ import annotations

import threading

import pytest
import torch

from grader.runner import intact


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
    from grader.runner import protocol

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
        protocol.receive = before.namespaces["grader.runner.protocol"].by_key()["receive"][0]
    assert found.count("grader.runner.protocol.send") == 1  # once, however many of its parts changed
    assert "grader.runner.protocol.receive" in found
    assert not [name for name in found if "MAX_HEADER" in name]
    assert intact.differences(before) == []
