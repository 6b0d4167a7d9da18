"""How well the feedback names mistakes it was not written for: the fresh set (tests/mutants/fresh.py)
and the older unseen set (tests/mutants/unseen.py), each mistake graded on the cases of the function
it breaks, hidden cases included, and its failing messages sorted into

- named: at least one claim about the structure of the error, and every claim one the mistake has;
- misnamed: a claim the mistake does not have (it sends the student to the wrong place);
- location only: where and how far, nothing about what;
- not caught: full marks.

Claims are read from the results' findings, never from their words: a diagnosis finding claims the
kinds of structure (mutants.fresh.CLAIMS) registered with it, an edit the search found those its kind
of edit changes (grader.suites.findings.EDIT_KINDS, MOVE_KINDS), the kit's other checks those of
CHECK_CLAIMS, and a catalogue match ("known.") counts as named. A finding's kinds are the ways the one
structure it names may be described (`subtracted:b_E` is a term with the wrong sign): it claims what the
mistake has when one of them is a kind of the mistake.

The catalogue (grader/mistakes) is measured on its own, case by case, without grading (`--catalogue`):
each mistake's output on each case, computed by the lecture maths with its edit, is given to the search as a student's
would be; it counts as named when the search names one edit for it (the catalogue's own match comes first
when grading, so this measures the search alone).

Run: `PYTHONPATH=$PWD:$PWD/tests python tests/measure_diagnosis.py [-v]` (about 5 minutes on one core), or
with `--catalogue` for the catalogue.

With `--release`, the novel set (tests/mutants/novel.py; with `--blind`, `--blind2`, ... `--blind37` a blind set,
tests/mutants/blind.py ... blind37.py, written without reading the diagnosis) is measured twice, as a student
and an instructor meet it: the student's side is a release made by `vitgrade release`, without the lecture
maths and the search (left out here too, should a release still hold them), whose own grader is launched from
the release's folder in a virtual environment where the kit is not importable (`check STEP --submission DIR
--format json --output F`, the submission being the independent implementation with one step mistaken); the
instructor's side is `grade` of the same folder with the kit, hidden cases included. It also counts the
visible tests whose sentences differ between the two sides.
"""
from __future__ import annotations

import os

# The judge runs here, in this process: one OpenBLAS thread, as `vitgrade` gives it (grader/cli), so that the
# search's CPU-second budget is spent as it is when grading, not on threads spinning beside it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import importlib
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from grader.expected.arguments import Unreadable
from grader.expected.store import load_cases, load_manifest
from grader.judge.grading import Grader, GradeOptions
from grader.mistakes import CATALOGUE
from grader.numerics import Closeness, case_tolerance
from grader.paths import FIXTURES, KIT_ROOT, step_file
from grader.reports.contract import from_json
from grader.results import StepResult, TestResult
from grader.steps import get_step
from grader import search
from grader.suites.findings import kinds_of
import numpy as np
from mutants.catalogue import Mutant
from mutants.fresh import FRESH, INDEPENDENT, Fresh
from mutants.novel import NOVEL
from mutants.unseen import CLAIMS as UNSEEN_CLAIMS
from mutants.unseen import UNSEEN

#: What the kit's own checks claim, by the start of their finding id (the diagnosis's own findings
#: say it themselves: grader.suites.findings.FINDINGS); `wrong_values` and `wrong_count` say where, not what.
CHECK_CLAIMS = {"shape": frozenset({"shape"}), "type": frozenset({"type"}), "dtype": frozenset({"type"}),
                "input_modified": frozenset({"input"}), "error": frozenset({"shape"}),
                "no_raise": frozenset({"raise"}), "extra_normalization": frozenset({"term"})}


@dataclass
class Verdict:
    """One mistake's feedback, sorted."""

    mistake: str
    outcome: str
    """`named`, `misnamed`, `location` or `not caught`."""
    claims: list[str]
    """The claims read from its messages, with `!` before those the mistake does not have."""
    messages: str


def claims_of(test: TestResult) -> frozenset[str] | None:
    """The kinds of structure a failing test's finding claims; None where it claims nothing."""
    finding = test.finding
    if finding is None:
        return None
    if finding.id.startswith(("diagnosis.", "edit.")):
        return kinds_of(finding.id)
    return CHECK_CLAIMS.get(finding.id.split(".")[0])


def sort_feedback(mistake: str, result: StepResult, truth: frozenset[str]) -> Verdict:
    """Named, misnamed, location only or not caught, from the failing tests' findings."""
    failing = [t for t in result.tests if t.status != "passed"]
    messages = "\n".join(f"  {t.name} [{t.status}]: {t.message}" for t in failing)
    if not failing and result.score == result.max_score:
        return Verdict(mistake, "not caught", [], messages)
    known = [t.finding.id for t in failing if t.finding and t.finding.id.startswith("known.")]
    found = [(t.finding.id, kinds) for t in failing if (kinds := claims_of(t)) is not None]
    shown = sorted({name if kinds & truth else f"!{name}" for name, kinds in found} | set(known))
    if any(not kinds & truth for _, kinds in found):
        return Verdict(mistake, "misnamed", shown, messages)
    if found or known:
        return Verdict(mistake, "named", shown, messages)
    return Verdict(mistake, "location", shown, messages)


def grade_one(grader: Grader, folder: Path, mutant: Mutant, function: str) -> StepResult:
    """The mutant's step file alone, graded on its function's cases, hidden ones included."""
    folder.mkdir(parents=True, exist_ok=True)
    step_file(folder, mutant.step).write_text(mutant.source())
    options = replace(grader.options, functions=(function,), hidden=True)
    return grader.grade_step(get_step(mutant.step), folder, {}, options)


def measure(grader: Grader, root: Path) -> dict[str, list[Verdict]]:
    """Every fresh and older unseen mistake graded and sorted."""
    fresh = [sort_feedback(m.id, grade_one(grader, root / "fresh" / m.name, m, m.function), m.claims)
             for m in FRESH]
    unseen = [sort_feedback(m.id, grade_one(grader, root / "unseen" / m.name, m, m.function),
                            UNSEEN_CLAIMS[m.id]) for m in UNSEEN]
    return {"fresh": fresh, "unseen": unseen}


def measure_catalogue() -> tuple[int, int, list[str]]:
    """(named, wrong outputs, the unnamed ones): every catalogued mistake's output on every case of its
    function that the judge can rebuild (the ViT-model occlusion cases are left out), searched."""
    from grader.steps import STEP_IDS

    checkpoint = str(FIXTURES / load_manifest()["checkpoint"]["file"])
    named, total, unnamed = 0, 0, []
    for step in STEP_IDS:
        for case in load_cases(step, "visible") + load_cases(step, "hidden"):
            case.extra["checkpoint"] = checkpoint
            tolerance = case_tolerance(case.extra)
            for mistake in CATALOGUE.get(case.function, []):
                for part, wrong, expected in _wrong_outputs(case, mistake, tolerance):
                    total += 1
                    if search.find_edit(case, expected, wrong, tolerance, part) is not None:
                        named += 1
                    else:
                        unnamed.append(f"{mistake.function}/{mistake.id} on {case.name}")
    return named, total, unnamed


def _wrong_outputs(case, mistake, tolerance) -> list[tuple[int | None, np.ndarray, np.ndarray]]:
    """(part, the mistake's output, the expected one) for each output it gets wrong; none where the
    call cannot be rebuilt or the output is no array."""
    if "raises" in case.extra or not isinstance(case.expected, (tuple, np.ndarray)):
        return []
    try:
        output = mistake.compute(*search.arguments(case))
    except Unreadable:
        return []
    if isinstance(case.expected, tuple):
        pairs = [(i, np.asarray(o, np.float64), e) for i, (o, e) in enumerate(zip(output, case.expected))]
    elif isinstance(case.expected, np.ndarray):
        pairs = [(None, np.asarray(output, np.float64), case.expected)]
    else:
        return []
    close = Closeness(tolerance)
    return [(part, o, e) for part, o, e in pairs if not close(o, e)]


# ---------------------------------------------------------------- the release's own check against grade

#: What a release must not hold for the measure to be the student's: the maths and the search over it.
ANSWER_CODE = ("grader/lecture_maths.py", "grader/search")


def _outside_the_kit() -> dict[str, str]:
    """The environment with no path to the kit (this measure runs with it on PYTHONPATH)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VITGRADE_ROOT")}


def make_release(root: Path) -> tuple[Path, Path]:
    """(the release's folder, a python whose environment cannot import the kit)."""
    release = root / "release"
    subprocess.run([sys.executable, "-m", "grader.cli", "release", str(release), "--force"], cwd=KIT_ROOT,
                   check=True, capture_output=True)
    for relative in ANSWER_CODE:
        (release / relative).unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(root / "venv")], check=True)
    python = root / "venv" / "bin" / "python"
    kit_visible = subprocess.run([str(python), "-c", "import grader"], cwd=root, capture_output=True,
                                 env=_outside_the_kit())
    assert kit_visible.returncode != 0, "the kit is importable in the release's environment"
    return release, python


def submission_with(folder: Path, mutant: Fresh) -> Path:
    """Every step of the independent implementation, the mutant's step mistaken."""
    folder.mkdir(parents=True, exist_ok=True)
    for source in INDEPENDENT.glob("*.py"):
        shutil.copyfile(source, folder / source.name)
    step_file(folder, mutant.step).write_text(mutant.source())
    return folder


def release_check(release: Path, python: Path, folder: Path, step: str) -> StepResult:
    """The release's own `check STEP`, launched from its folder."""
    output = folder / "result.json"
    subprocess.run([str(python), "-m", "grader.cli", "check", step, "--submission", str(folder), "--format", "json",
                    "--output", str(output)], cwd=release, capture_output=True, timeout=600, env=_outside_the_kit())
    return next(s for s in from_json(output.read_text())[0].steps if s.id == step)


def different_sentences(student: StepResult, instructor: StepResult) -> list[str]:
    """The visible tests whose findings' sentences differ between the two sides."""
    theirs = {t.name: t for t in instructor.tests}
    return [t.name for t in student.tests if t.name in theirs
            and _sentence(t) != _sentence(theirs[t.name])]


def _sentence(test: TestResult) -> str:
    return test.finding.sentence if test.status != "passed" and test.finding else ""


def measure_release(grader: Grader, root: Path,
                    mistakes: list[Fresh]) -> tuple[list[Verdict], list[Verdict], list[str]]:
    """A set through the release's check and the instructor's grade, and the sentences that differ."""
    release, python = make_release(root)
    student, instructor, differ = [], [], []
    options = replace(grader.options, hidden=True)
    for mutant in mistakes:
        folder = submission_with(root / "novel" / mutant.name, mutant)
        checked = release_check(release, python, folder, mutant.step)
        graded = grader.grade_step(get_step(mutant.step), folder, {}, options)
        student.append(sort_feedback(mutant.id, checked, mutant.claims))
        instructor.append(sort_feedback(mutant.id, graded, mutant.claims))
        differ += [f"{mutant.id}: {name}" for name in different_sentences(checked, graded)]
    return student, instructor, differ


def _release_set() -> list[Fresh]:
    """The novel set, or with `--blind` (`--blind2`, ..., `--blind37`) a set written from the independent
    implementation and the lecture alone (tests/mutants/blind.py ... blind37.py; each after the
    diagnosis had been changed for the one before's misses, so that the newest set is unseen by every
    change)."""
    for flag in sys.argv:
        if re.fullmatch(r"--blind\d*", flag):  # --blind, --blind2, ...: tests/mutants/blind.py, blind2.py, ...
            name = flag.removeprefix("--")
            return getattr(importlib.import_module(f"mutants.{name}"), name.upper())
    return NOVEL


def summary(name: str, verdicts: list[Verdict]) -> str:
    """`fresh: 61 of 88 named (69 %), 3 misnamed, 20 location only, 4 not caught`."""
    count = {outcome: sum(v.outcome == outcome for v in verdicts)
             for outcome in ("named", "misnamed", "location", "not caught")}
    n = len(verdicts)
    return (f"{name}: {count['named']} of {n} named ({count['named'] / n:.0%}), {count['misnamed']} misnamed, "
            f"{count['location']} location only, {count['not caught']} not caught")


def main() -> None:
    if "--catalogue" in sys.argv:
        named, total, unnamed = measure_catalogue()
        for line in unnamed:
            print(f"unnamed    {line}")
        print(f"catalogue: {named} of {total} wrong outputs named by the search ({named / total:.0%})")
        return
    grader = Grader(GradeOptions(hidden=True, references=True, timeout=90.0))
    try:
        with tempfile.TemporaryDirectory() as folder:
            if "--release" in sys.argv:
                student, instructor, differ = measure_release(grader, Path(folder), _release_set())
                measured = {"release check": student, "instructor grade": instructor}
            else:
                measured, differ = measure(grader, Path(folder)), []
    finally:
        grader.close()
    verbose = "-v" in sys.argv
    for line in differ:
        print(f"sentence differs  {line}")
    for verdicts in measured.values():
        for verdict in verdicts:
            if verdict.outcome != "named" or verbose:
                print(f"{verdict.outcome:10} {verdict.mistake}  {'; '.join(verdict.claims)}")
                if verbose:
                    print(verdict.messages)
    for name, verdicts in measured.items():
        print(summary(name, verdicts))
    if "--release" in sys.argv:
        print(f"visible tests whose sentence differs between the two sides: {len(differ)}")


if __name__ == "__main__":
    main()
