"""`from grader import check` as a notebook runs it: a real `.ipynb` executed headless in a Jupyter
kernel (nbclient, ipykernel), its HTML output read back."""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from grader import paths

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from mutants.catalogue import MUTANTS  # noqa: E402 - after the skips: nbformat comes with nbclient

_INLINE_PNG = re.compile(r'<img alt="(expected|yours) map" src="data:image/png;base64,[A-Za-z0-9+/=]+">')


def _kit_copy(folder: Path) -> Path:
    """A copy of the kit whose exercises the test may edit: the exercises copied, the rest linked."""
    for name in ("grader", "fixtures", "solutions"):
        (folder / name).symlink_to(paths.KIT_ROOT / name, target_is_directory=True)
    shutil.copytree(paths.EXERCISES, folder / "exercises")
    return folder


def _step_status(page: str, step_id: str) -> str:
    """The status words in the step table's row of `step_id`."""
    row = re.search(rf"<tr><td><span[^>]*>(.*?)</span></td><td><b>{step_id}</b>", page)
    assert row, f"no row for {step_id} in the step table"
    return row.group(1).split(" ", 1)[1]


def _html(cell) -> str:
    """The HTML a cell showed as its result, its only output."""
    assert [output["output_type"] for output in cell.outputs] == ["execute_result"], cell.outputs
    return cell.outputs[0]["data"]["text/html"]


@pytest.mark.slow
def test_check_in_a_notebook_renders_html_and_regrades_in_the_warm_kernel(tmp_path):
    kit = _kit_copy(tmp_path)
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell('from grader import check\ncheck("01_flatten")'),
        nbformat.v4.new_code_cell('check("01_flatten")'),
        nbformat.v4.new_code_cell('check("05_attention")'),
        nbformat.v4.new_code_cell('import sys\n"torch" in sys.modules'),
    ])
    nbformat.write(notebook, kit / "checks.ipynb")
    notebook = nbformat.read(kit / "checks.ipynb", as_version=4)
    # The kernel grades this copy (VITGRADE_ROOT) with the grader under test (PYTHONPATH).
    env = {**os.environ, "VITGRADE_ROOT": str(kit),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(paths.KIT_ROOT), os.environ.get("PYTHONPATH")]))}
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(kit)}})
    seconds = []
    with client.setup_kernel(env=env, cwd=str(kit)):
        for index, cell in enumerate(notebook.cells):
            if index == 1:  # the student fills in the step and saves the file
                shutil.copy(paths.SOLUTIONS / "01_flatten.py", kit / "exercises" / "01_flatten.py")
            if index == 2:
                no_scale = next(m for m in MUTANTS if m.id == "05_attention/no_scale")
                (kit / "exercises" / "05_attention.py").write_text(no_scale.source())
            started = time.perf_counter()
            client.execute_cell(cell, index)
            seconds.append(time.perf_counter() - started)
    nbformat.write(notebook, tmp_path / "executed.ipynb")

    first, second, attention = (_html(cell) for cell in notebook.cells[:3])
    for page in (first, second):
        assert "<code>exercises/01_flatten.py</code>" in page, "the graded file is not named"
    assert _step_status(first, "01_flatten") == "not attempted"
    assert _step_status(second, "01_flatten") == "passed", "the edited file was not graded anew"
    assert seconds[1] * 2 <= seconds[0], f"the second check ({seconds[1]:.2f} s) was not twice as fast " \
                                         f"as the first ({seconds[0]:.2f} s), which starts the workers"

    assert _step_status(attention, "05_attention") == "failed"
    failing = attention[attention.index("attention_weights"):]
    assert "You forgot to divide the scores by sqrt(d)" in failing
    assert {match.group(1) for match in _INLINE_PNG.finditer(failing)} == {"expected", "yours"}

    assert notebook.cells[3].outputs[0]["data"]["text/plain"] == "False", "the kernel imported torch"


def test_html_shows_what_student_code_wrote_and_never_runs_it():
    from grader.reports.html import to_html
    from grader.results import SandboxReport, StepResult, SubmissionResult, TestResult

    attack = '<script>alert("x")</script><img src=x onerror=alert(1)>\x1b[31m'
    test = TestResult(name=f"attention_weights · {attack}", visibility="visible", status="failed", score=0.0,
                      max_score=5.0, message=f"wrong values {attack}", output=attack, output_bytes=len(attack),
                      maps={"title": attack, "expected": [[0.0, 1.0], [2.0, 3.0]],
                            "actual": [[float("nan"), 1.0], [2.0, 3.0]]})
    step = StepResult(id="05_attention", title="Multi-head self-attention", pages="25-34", score=0.0,
                      max_score=5.0, status="failed", tests=[test], notes=[attack])
    result = SubmissionResult(submission="x", checkpoint={"id": "i", "kind": "stand-in", "sha256": "s"},
                              steps=[step], sandbox=SandboxReport(level="full"))

    page = to_html(result)
    assert "<script" not in page and "<img src=x" not in page
    assert page.count("&lt;script&gt;") == 5  # name, message, output, map title and note, all shown
    assert "\x1b" not in page
    assert "yellow: not a number" in page


@pytest.mark.slow  # starts a grader of its own twice
def test_check_starts_its_workers_anew_when_they_are_gone(early_runs):
    """A kernel outlives its workers (killed, out of memory): the next check starts them again."""
    import signal

    from grader import notebook
    from test_watch import _descendants

    before = set(_descendants(os.getpid()))  # the session's shared grader has workers too
    try:
        assert notebook.check("01_flatten", solutions=True).passed
        # Not the session's early runs, which start beside this test: killing a class grade's
        # worker there costs that run its points, and killing the run itself loses its report.
        with early_runs.holding_starts() as early:
            kept = set(_descendants(os.getpid(), excluding=early)) - before
        assert kept, "the kept grader runs no process"
        for pid in kept:
            os.kill(pid, signal.SIGKILL)
        again = notebook.check("01_flatten", solutions=True)
        assert again.passed, str(again)
    finally:
        notebook._close()
