"""The mutant catalogue (tests/mutants/catalogue.py): realistic wrong submissions the grader must catch.

Each mutant is one step's solution with one realistic student mistake edited in. Each is graded
alone, as a submission holding just its step file, hidden tests included (the grader substitutes
the reference solutions for the earlier steps). One mutant per step is also put into the
solutions, and that whole submission's other steps are graded (visible tests, to stay fast) to
show that a mistake in one step costs points only in that step.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.mistakes import CATALOGUE
from grader.paths import SOLUTIONS, step_file
from grader.results import StepResult
from grader.steps import STEP_IDS, STEPS
from grader.suites.findings import kinds_of
from mutants.catalogue import MUTANTS, Mutant

MIN_PER_STEP = 4

#: Realistic mistakes the grader does not catch yet: fixture gaps, reported rather than hidden.
#: Strict xfail, so that once the fixtures catch them these entries must be removed.
NOT_CAUGHT: dict[str, str] = {}

#: The mutant of each step that is also graded as a whole submission (isolation).
ISOLATION = ("01_flatten/pixel_major", "02_project/no_bias", "03_position/in_place", "04_cls/appended",
             "05_attention/no_scale", "06_block/post_ln", "07_head/mean_pooling", "08_occlusion/black")


BY_ID = {m.id: m for m in MUTANTS}


def _params(mutants: list[Mutant]) -> list:
    return [pytest.param(m, id=m.id, marks=[pytest.mark.xfail(strict=True, reason=NOT_CAUGHT[m.id])]
                         if m.id in NOT_CAUGHT else []) for m in mutants]


@pytest.fixture(scope="module")
def visible_grader(grader_with):
    return grader_with(hidden=False, references=True, steps=STEP_IDS)


@pytest.fixture(scope="module")
def submission_of(tmp_path_factory):
    """A submission folder holding the mutant as its step file; with `whole`, the other seven
    step files are the solutions."""
    def build(mutant: Mutant, whole: bool = False) -> Path:
        folder = tmp_path_factory.mktemp(mutant.name)
        for step_id in STEP_IDS if whole else ():
            shutil.copyfile(step_file(SOLUTIONS, step_id), step_file(folder, step_id))
        step_file(folder, mutant.step).write_text(mutant.source())
        return folder
    return build


@pytest.fixture(scope="module")
def graded(grader, submission_of):
    """A mutant's own step, hidden tests included, graded once however many tests ask."""
    cache: dict[str, StepResult] = {}

    def grade(mutant: Mutant) -> StepResult:
        if mutant.id not in cache:
            (cache[mutant.id],) = grader.grade(submission_of(mutant), steps=(mutant.step,)).steps
        return cache[mutant.id]
    return grade


def _failures(result: StepResult) -> str:
    return "\n".join(f"  {t.name} [{t.status}]: {t.message.splitlines()[0] if t.message else ''}"
                     for t in result.tests if t.status != "passed") or "  (none)"


# ------------------------------------------------------------------ the catalogue itself

def test_every_step_has_enough_mutants():
    for step_id in STEP_IDS:
        count = sum(m.step == step_id for m in MUTANTS)
        assert count >= MIN_PER_STEP, f"{step_id} has {count} mutants, want {MIN_PER_STEP}"
    assert {m.step for m in MUTANTS} <= set(STEP_IDS), "a mutant folder is not a step id"
    assert set(NOT_CAUGHT) <= set(BY_ID) and set(ISOLATION) <= set(BY_ID)
    assert sorted(BY_ID[i].step for i in ISOLATION) == list(STEP_IDS), "one isolation mutant per step"


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.id for m in MUTANTS])
def test_mutant_is_one_documented_edit_of_the_solution(mutant):
    source = step_file(SOLUTIONS, mutant.step).read_text()
    assert source.count(mutant.old) == 1, f"{mutant.id}: its edit must match the solution exactly once"
    assert mutant.old != mutant.new and mutant.what
    if mutant.catalogue_id:
        step = next(s for s in STEPS if s.id == mutant.step)
        ids = {m.id for f in step.functions for m in CATALOGUE.get(f, [])}
        assert mutant.catalogue_id in ids, f"no known mistake {mutant.catalogue_id!r} in {step.id}"


# ------------------------------------------------------------------ grading

def test_solutions_pass_every_step(solutions_result):
    """The control: unchanged, the same grader (tests/conftest.py) gives every step full marks."""
    result = solutions_result
    assert [s.id for s in result.steps] == list(STEP_IDS)
    for step in result.steps:
        assert step.status == "passed" and step.score == step.max_score, f"{step.id}:\n{_failures(step)}"
    assert {t.visibility for s in result.steps for t in s.tests} == {"visible", "hidden"}


@pytest.mark.slow
@pytest.mark.parametrize("mutant", _params(MUTANTS))
def test_mutant_loses_points(mutant, graded):
    """... and a visible test fails: the student's own `check` shows every catalogued mistake
    before the hidden tests cost it points."""
    result = graded(mutant)
    assert result.status in ("failed", "error", "timeout"), f"{mutant.id}: {result.status}"
    assert result.score < result.max_score, f"{mutant.id} kept full marks"
    assert any(t.visibility == "visible" and t.status != "passed" for t in result.tests), \
        f"{mutant.id} passes every visible test: only `grade` sees it\n{_failures(result)}"


@pytest.mark.slow
@pytest.mark.parametrize("mutant", _params([m for m in MUTANTS if m.catalogue_id]))
def test_known_mistake_is_named(mutant, graded):
    result = graded(mutant)
    step = next(s for s in STEPS if s.id == mutant.step)
    titles = {m.title for f in step.functions for m in CATALOGUE.get(f, []) if m.id == mutant.catalogue_id}
    messages = [t.message for t in result.tests if t.status != "passed"]
    assert any(f"Known mistake: {title}" in message for message in messages for title in titles), \
        f"{mutant.id}: no failing test names {mutant.catalogue_id!r}; failures:\n{_failures(result)}"


#: The catalogue's mistakes that really are approximations: every value within a few per cent of its own
#: (wrong constants: 256 for 255 is 0.4 %, D - 1 for D a factor √(191/192) = 0.9974 per row).
APPROXIMATIONS = {"01_flatten/divide_by_256", "06_block/eps_1e5", "06_block/tanh_gelu", "06_block/unbiased_variance"}


@pytest.mark.slow
@pytest.mark.parametrize("mutant", _params(MUTANTS))
def test_no_mistake_of_structure_is_called_an_approximation(mutant, graded):
    result = graded(mutant)
    approximate = [t.name for t in result.tests if t.finding and "approximate" in kinds_of(t.finding.id)]
    assert not approximate or mutant.id in APPROXIMATIONS, f"{mutant.id} called approximate in {approximate}"


@pytest.mark.slow
@pytest.mark.parametrize("mutant", [BY_ID[i] for i in ISOLATION if i in BY_ID], ids=lambda m: m.id)
def test_mistake_costs_points_only_in_its_own_step(mutant, graded, visible_grader, submission_of):
    """Solutions with one mutant file: that step loses points, every other step keeps full marks."""
    own = graded(mutant)
    assert own.score < own.max_score
    others = tuple(s for s in STEP_IDS if s != mutant.step)
    result = visible_grader.grade(submission_of(mutant, whole=True), steps=others)
    assert [s.id for s in result.steps] == list(others)
    for step in result.steps:
        assert step.score == step.max_score, f"{mutant.id} cost points in {step.id}:\n{_failures(step)}"
        # step 07 also reports the student's own chain, worth nothing, which this mistake breaks
        assert all(t.status == "passed" for t in step.tests if t.max_score > 0), _failures(step)


#: Mutants that pass an earlier step's function a size of their own, with where the case gives it.
SIZES_WRITTEN_IN = {"04_cls/patchify_default_size": "params.patch_size", "06_block/hardcoded_heads": "num_heads",
                    "07_head/hardcoded_heads": "params.num_heads"}


@pytest.mark.slow
@pytest.mark.parametrize("mutant_id", SIZES_WRITTEN_IN)
def test_a_size_written_in_is_named_from_the_call_the_worker_saw(mutant_id, graded):
    """The worker notes the sizes a call passes into an earlier step; one other than the case's is said,
    with both values, whether the call then crashed (a reshape) or returned wrong numbers."""
    result = graded(BY_ID[mutant_id])
    said = [t for t in result.tests if "not a number written in" in t.message]
    assert said, f"{mutant_id}: no test says the size was written in:\n{_failures(result)}"
    where = SIZES_WRITTEN_IN[mutant_id]
    assert all(t.status != "passed" and f"this case's {where} is" in t.message for t in said)
    assert any(t.finding.id.startswith("diagnosis.size_not_passed_on") for t in said), _failures(result)


@pytest.mark.slow
def test_in_place_cover_is_reported_by_the_cover_tests(graded):
    result = graded(BY_ID["08_occlusion/in_place_cover"])
    cover_tests = [t for t in result.tests if t.name.startswith("cover ·")]
    assert cover_tests and all("modified its input" in t.message for t in cover_tests), _failures(result)
