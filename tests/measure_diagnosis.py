"""How well the feedback names mistakes it was not written for: the fresh set (tests/mutants/fresh.py)
and the older unseen set (tests/mutants/unseen.py), each mistake graded on the cases of the function
it breaks, hidden cases included, and its failing messages sorted into

- named: at least one claim about the structure of the error, and every claim one the mistake has;
- misnamed: a claim the mistake does not have (it sends the student to the wrong place);
- location only: where and how far, nothing about what;
- not caught: full marks.

A claim is read from the message by the phrases of CLAIM_PHRASES, each with the kinds of structure
(mutants.fresh.CLAIMS) that would make it true. A catalogue match ("Known mistake") counts as named.

Run: `PYTHONPATH=$PWD:$PWD/tests python tests/measure_diagnosis.py` (about 5 minutes on one core).
"""
from __future__ import annotations

import re
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from grader.paths import step_file
from grader.results import StepResult
from grader.runner.grader import Grader, GradeOptions
from grader.steps import get_step
from mutants.catalogue import Mutant
from mutants.fresh import FRESH
from mutants.unseen import UNSEEN

#: The phrases by which a message claims a structure, with the kinds that make each claim true.
CLAIM_PHRASES: list[tuple[str, frozenset[str]]] = [(pattern, frozenset(kinds.split())) for pattern, kinds in [
    (r"the wrong sign", "sign"),
    (r"the expected one transposed", "order shape axis"),
    (r"This output holds the expected", "term order"),
    (r"Every value of your result is zero", "constant"),
    (r"× the expected one(?:\s\(= [^)]*\))?: the pattern is\s+right", "scale"),
    (r"times its own factor", "scale"),
    (r"off by the same constant", "shift"),
    (r"per-feature offset", "shift term"),
    (r"one constant per row", "shift"),
    (r"wrong scale and shift", "scale shift"),
    (r"your input `[^`]+` itself", "term inputs"),
    (r"the right ones in (?:the wrong|another) order", "order"),
    (r"(?:before|after) the final LayerNorm|mean of all normalized rows", "term"),
    (r"Only the CLS row|Only the patch rows|Only \d+ of \d+", "part"),
    (r"division by the standard deviation\s+is off", "scale term"),
    (r"approximate", "approximate"),
    (r"float16", "approximate type"),
    (r"Your cover spans", "part"),
    (r"filled with", "fill"),
    (r"nothing was covered", "fill part"),
    (r"they are not probabilities|are log-probabilities|Your values are probabilities", "term activation"),
    (r"these are scores, not weights", "term activation"),
    (r"columns sum to 1", "axis"),
    (r"not 1: normalize each query", "axis activation"),
    (r"softmax of the right scores times", "term scale"),
    (r"rows? missing", "shape part"),
    (r"returned shape", "shape"),
    (r"modified its input", "input"),
    (r"of dtype torch|must return a Python int|must return a torch.Tensor", "type"),
    (r"raised \w+Error", "shape"),
]]

#: The older unseen set, described in the same kinds (it names its expected phrase, not its kinds).
UNSEEN_CLAIMS = {
    "01_flatten/half_range": "scale shift", "01_flatten/float16": "approximate type",
    "01_flatten/patches_reversed": "order", "02_project/bgr": "order", "02_project/bias_twice": "term shift",
    "03_position/first_row_skipped": "part term", "03_position/multiplied": "term",
    "04_cls/cls_is_mean": "part term", "04_cls/cls_rolled": "order", "05_attention/heads_reversed": "order",
    "05_attention/scale_by_d": "term", "05_attention/scores_returned": "activation term",
    "05_attention/global_softmax": "axis", "05_attention/no_output_bias": "term shift",
    "05_attention/heads_joined_reversed": "order", "06_block/sigmoid_gelu": "approximate activation",
    "06_block/eps_outside_sqrt": "term scale", "06_block/residual_twice": "term inputs",
    "07_head/log_softmax": "activation term", "07_head/second_row": "term part",
    "08_occlusion/off_by_one": "part", "08_occlusion/image_mean": "fill",
    "08_occlusion/clockwise": "order", "08_occlusion/covered_probability": "shift term",
}


@dataclass
class Verdict:
    """One mistake's feedback, sorted."""

    mistake: str
    outcome: str
    """`named`, `misnamed`, `location` or `not caught`."""
    claims: list[str]
    """The claims read from its messages, with `!` before those the mistake does not have."""
    messages: str


def claims_in(message: str) -> list[tuple[str, frozenset[str]]]:
    """The structure claims a message makes: (the phrase found, the kinds that make it true)."""
    text = " ".join(message.split())
    return [(match.group(0), kinds) for pattern, kinds in CLAIM_PHRASES
            for match in [re.search(pattern, text)] if match]


def sort_feedback(mistake: str, result: StepResult, truth: frozenset[str]) -> Verdict:
    """Named, misnamed, location only or not caught, from the failing tests' messages."""
    failing = [t for t in result.tests if t.status != "passed"]
    messages = "\n".join(f"  {t.name} [{t.status}]: {t.message}" for t in failing)
    if not failing and result.score == result.max_score:
        return Verdict(mistake, "not caught", [], messages)
    found = [claim for t in failing for claim in claims_in(t.message)]
    shown = sorted({phrase if kinds & truth else f"!{phrase}" for phrase, kinds in found})
    if any(not kinds & truth for _, kinds in found):
        return Verdict(mistake, "misnamed", shown, messages)
    if found or any("Known mistake" in t.message for t in failing):
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
                            frozenset(UNSEEN_CLAIMS[m.id].split())) for m in UNSEEN]
    return {"fresh": fresh, "unseen": unseen}


def summary(name: str, verdicts: list[Verdict]) -> str:
    """`fresh: 61 of 88 named (69 %), 3 misnamed, 20 location only, 4 not caught`."""
    count = {outcome: sum(v.outcome == outcome for v in verdicts)
             for outcome in ("named", "misnamed", "location", "not caught")}
    n = len(verdicts)
    return (f"{name}: {count['named']} of {n} named ({count['named'] / n:.0%}), {count['misnamed']} misnamed, "
            f"{count['location']} location only, {count['not caught']} not caught")


def main() -> None:
    grader = Grader(GradeOptions(hidden=True, references=True))
    try:
        with tempfile.TemporaryDirectory() as folder:
            measured = measure(grader, Path(folder))
    finally:
        grader.close()
    verbose = "-v" in sys.argv
    for verdicts in measured.values():
        for verdict in verdicts:
            if verdict.outcome != "named" or verbose:
                print(f"{verdict.outcome:10} {verdict.mistake}  {'; '.join(verdict.claims)}")
                if verbose:
                    print(verdict.messages)
    for name, verdicts in measured.items():
        print(summary(name, verdicts))


if __name__ == "__main__":
    main()
