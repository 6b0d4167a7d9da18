"""tests/together.py: runs started later by a chain still get the session's environment and folder
as they were when the runs were set up, not what a test running meanwhile has set."""
from __future__ import annotations

import os

from together import Together


def test_a_chained_run_started_during_a_monkeypatched_test_gets_the_environment_from_before(
        tmp_path, monkeypatch):
    go = tmp_path / "go"
    runs = {  # one chain: the second run starts only once the first has seen `go`
        "first": {"args": ["sh", "-c", f'while [ ! -e "{go}" ]; do sleep 0.01; done']},
        "second": {"args": ["sh", "-c", 'printf "%s|%s" "${VITGRADE_SANDBOX-unset}" "$PWD"']},
    }
    monkeypatch.delenv("VITGRADE_SANDBOX", raising=False)
    before = os.getcwd()
    with Together(runs, tmp_path / "output", timeout=60, chains=1) as together:
        monkeypatch.setenv("VITGRADE_SANDBOX", "partial")  # as a test beside the early runs does
        monkeypatch.chdir(tmp_path)
        go.touch()
        assert together.finished("first").returncode == 0
        second = together.finished("second")
    assert second.returncode == 0 and second.stdout == f"unset|{before}"
