"""The fresh unseen set (tests/mutants/fresh.py) stays what it claims to be: one-line edits of the
independent implementation, across all eight steps, described with known kinds of structure, and
apart from the mistakes the kit was written for. The release's sets (novel.py, blind.py ... blind4.py),
measured by tests/measure_diagnosis.py, are held to the same form.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from grader.mistakes import CATALOGUE
from grader.paths import step_file
from grader.steps import STEP_IDS, get_step
from mutants.blind import BLIND
from mutants.blind2 import BLIND2
from mutants.blind3 import BLIND3
from mutants.blind4 import BLIND4
from mutants.blind5 import BLIND5
from mutants.blind6 import BLIND6
from mutants.blind7 import BLIND7
from mutants.blind8 import BLIND8
from mutants.blind9 import BLIND9
from mutants.blind10 import BLIND10
from mutants.blind11 import BLIND11
from mutants.blind12 import BLIND12
from mutants.blind13 import BLIND13
from mutants.blind14 import BLIND14
from mutants.blind15 import BLIND15
from mutants.blind16 import BLIND16
from mutants.blind17 import BLIND17
from mutants.blind18 import BLIND18
from mutants.blind19 import BLIND19
from mutants.blind20 import BLIND20
from mutants.blind21 import BLIND21
from mutants.blind22 import BLIND22
from mutants.blind23 import BLIND23
from mutants.blind24 import BLIND24
from mutants.blind25 import BLIND25
from mutants.blind26 import BLIND26
from mutants.blind27 import BLIND27
from mutants.blind28 import BLIND28
from mutants.blind29 import BLIND29
from mutants.blind30 import BLIND30
from mutants.blind31 import BLIND31
from mutants.blind32 import BLIND32
from mutants.blind33 import BLIND33
from mutants.blind34 import BLIND34
from mutants.blind35 import BLIND35
from mutants.blind36 import BLIND36
from mutants.blind37 import BLIND37
from mutants.catalogue import MUTANTS
from mutants.fresh import CLAIMS, FRESH, INDEPENDENT
from mutants.novel import NOVEL
from mutants.unseen import UNSEEN

MIN_FRESH = 60


def test_the_fresh_set_covers_every_step_with_enough_mistakes():
    assert len(FRESH) >= MIN_FRESH
    assert {m.step for m in FRESH} == set(STEP_IDS)
    assert len({m.id for m in FRESH}) == len(FRESH), "two fresh mistakes share an id"


#: Every set of one-line edits of the independent implementation, by the name measure_diagnosis.py gives it.
EDIT_SETS = {"fresh": FRESH, "novel": NOVEL, "blind": BLIND, "blind2": BLIND2, "blind3": BLIND3, "blind4": BLIND4,
             "blind5": BLIND5, "blind6": BLIND6, "blind7": BLIND7,
             "blind8": BLIND8, "blind9": BLIND9, "blind10": BLIND10, "blind11": BLIND11,
             "blind12": BLIND12, "blind13": BLIND13, "blind14": BLIND14, "blind15": BLIND15, "blind16": BLIND16,
             "blind17": BLIND17, "blind18": BLIND18, "blind19": BLIND19, "blind20": BLIND20,
             "blind21": BLIND21, "blind22": BLIND22, "blind23": BLIND23, "blind24": BLIND24,
             "blind25": BLIND25, "blind26": BLIND26, "blind27": BLIND27, "blind28": BLIND28, "blind29": BLIND29,
             "blind30": BLIND30, "blind31": BLIND31, "blind32": BLIND32, "blind33": BLIND33,
             "blind34": BLIND34, "blind35": BLIND35, "blind36": BLIND36,
             "blind37": BLIND37}


@pytest.mark.parametrize("mutants", EDIT_SETS.values(), ids=EDIT_SETS.keys())
def test_each_mistake_is_one_edit_of_the_independent_implementation(mutants):
    assert len({m.id for m in mutants}) == len(mutants), "two mistakes of the set share an id"
    for mutant in mutants:
        original = (INDEPENDENT / f"{mutant.step}.py").read_text()
        assert original.count(mutant.old) == 1, f"{mutant.id}: its edit must match exactly once"
        assert mutant.source() != original, f"{mutant.id} changes nothing"
        compile(mutant.source(), mutant.id, "exec")
        assert mutant.function in get_step(mutant.step).functions, mutant.id


@pytest.mark.parametrize("mutants", EDIT_SETS.values(), ids=EDIT_SETS.keys())
def test_each_mistake_says_what_is_wrong_in_known_kinds_of_structure(mutants):
    for mutant in mutants:
        assert mutant.structure and mutant.claims, mutant.id
        assert mutant.claims <= set(CLAIMS), f"{mutant.id}: unknown kinds {mutant.claims - set(CLAIMS)}"


def test_no_fresh_mistake_is_a_catalogued_or_old_unseen_one_by_name():
    """The edits are of another implementation, so no text can coincide; the ideas are kept apart
    by name: no fresh mistake reuses the name of a mistake of the same function or step."""
    known = {(m.step, m.name) for m in MUTANTS + UNSEEN}
    known_ids = {(mistake.function, mistake.id) for mistakes in CATALOGUE.values() for mistake in mistakes}
    for mutant in FRESH:
        assert (mutant.step, mutant.name) not in known, mutant.id
        assert (mutant.function, mutant.name) not in known_ids, mutant.id


# ------------------------------------------------------------------ every docstring promise has a test

#: Fresh mistakes that break a promise of a stub's docstring, and the finding of the test that catches it.
PROMISES = {
    "01_flatten/wrong_guard": "no_raise.count_tokens",  # Raises: ValueError for a size not divisible
    "01_flatten/float64": "dtype",  # Returns: float32
    "08_occlusion/white_default": "edit.constant:fill:1",  # value: 0.0 by default, mid-gray
}


@pytest.mark.slow
@pytest.mark.parametrize("mistake", sorted(PROMISES))
def test_a_broken_docstring_promise_costs_points_and_says_which(mistake, grader, tmp_path):
    mutant = next(m for m in FRESH if m.id == mistake)
    step_file(tmp_path, mutant.step).write_text(mutant.source())
    options = replace(grader.options, functions=(mutant.function,), hidden=True)
    result = grader.grade_step(get_step(mutant.step), tmp_path, {}, options)
    failing = [t for t in result.tests if t.status == "failed"]
    assert result.score < result.max_score and failing, mistake
    assert {t.finding.id for t in failing if t.finding} == {PROMISES[mistake]}, [t.message for t in failing]
