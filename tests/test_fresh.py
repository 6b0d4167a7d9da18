"""The fresh unseen set (tests/mutants/fresh.py) stays what it claims to be: one-line edits of the
independent implementation, across all eight steps, described with known kinds of structure, and
apart from the mistakes the kit was written for.
"""
from __future__ import annotations

from grader.mistakes import CATALOGUE
from grader.steps import STEP_IDS, get_step
from mutants.catalogue import MUTANTS
from mutants.fresh import CLAIMS, FRESH, INDEPENDENT
from mutants.unseen import UNSEEN

MIN_FRESH = 60


def test_the_fresh_set_covers_every_step_with_enough_mistakes():
    assert len(FRESH) >= MIN_FRESH
    assert {m.step for m in FRESH} == set(STEP_IDS)
    assert len({m.id for m in FRESH}) == len(FRESH), "two fresh mistakes share an id"


def test_each_fresh_mistake_is_one_edit_of_the_independent_implementation():
    for mutant in FRESH:
        original = (INDEPENDENT / f"{mutant.step}.py").read_text()
        assert original.count(mutant.old) == 1, f"{mutant.id}: its edit must match exactly once"
        assert mutant.source() != original, f"{mutant.id} changes nothing"
        compile(mutant.source(), mutant.id, "exec")
        assert mutant.function in get_step(mutant.step).functions, mutant.id


def test_each_fresh_mistake_says_what_is_wrong_in_known_kinds_of_structure():
    for mutant in FRESH:
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
