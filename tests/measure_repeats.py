"""How many mistakes of some blind sets an earlier set already holds, judged by their numbers.

A blind set measures the kit on mistakes nobody had seen; what that measure means depends on how the
set was drawn. Sets written to leave out every earlier mistake hold only kinds nobody had met; sets
drawn as mistakes come repeat the common kinds, as a class's submissions do. This script says which:
each mistake of the sets named on the command line is run, as a student's step would be, on every
visible case of the function it breaks (the cases that take the checkpoint's ViT left out, for
time), and compared with every mistake of the same function in fresh.py, novel.py and the blind sets
numbered below the lowest one named. Two mistakes repeat each other when every case gives the same
shape and the same values within the kit's bound for one mistake computed two ways
(`numerics.FINGERPRINT_TOLERANCE` at the values' scale; a different mistake differs by far more),
raises the same exception, or changes the same inputs in place.

Run: `PYTHONPATH=$PWD:$PWD/tests python tests/measure_repeats.py blind31 blind32 ...` (a few minutes).
"""
from __future__ import annotations

import importlib
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import torch  # noqa: E402 - after the thread count, which OpenBLAS reads once

from grader.expected.store import Case, load_cases, load_manifest  # noqa: E402
from grader.paths import FIXTURES  # noqa: E402
from grader import numerics  # noqa: E402
from grader.expected.arguments import TorchReader, read  # noqa: E402
from grader.student import load_step_file  # noqa: E402
from grader.worker.serving import Context  # noqa: E402
from mutants.fresh import INDEPENDENT, Fresh  # noqa: E402

STEPS = sorted(path.stem for path in INDEPENDENT.glob("*.py"))
#: What a call gave on one case: ("values", shape, values), ("raised", name) or ("changed", inputs).
Outcome = tuple


def mistakes(name: str) -> list[Fresh]:
    return getattr(importlib.import_module(f"mutants.{name}"), name.upper())


def earlier_sets(lowest: int) -> list[str]:
    """fresh, novel and every blind set numbered below `lowest` (blind.py is the first)."""
    return ["fresh", "novel", "blind"] + [f"blind{i}" for i in range(2, lowest)]


def visible_cases() -> dict[str, list[Case]]:
    return {step: load_cases(step, "visible") for step in STEPS}


def student_arguments(case: Case, context: Context) -> list[Any]:
    """The case's arguments as a student's function receives them: read as the worker reads them."""
    return [read(spec, case.tensors, TorchReader(context)) for spec in case.args]


def outcomes(mutant: Fresh, cases: list[Case], root: Path, context: Context) -> list[Outcome]:
    """The mistaken step, beside the other steps unedited, called on each case of its function."""
    folder = Path(tempfile.mkdtemp(dir=root))
    for step in STEPS:
        (folder / f"{step}.py").write_text(mutant.source() if step == mutant.step
                                           else (INDEPENDENT / f"{step}.py").read_text())
    function = getattr(load_step_file(folder / f"{mutant.step}.py"), mutant.function)
    return [outcome for case in cases if case.function == mutant.function
            and not any(spec.get("model") == "vit" for spec in case.args)
            for outcome in _call(function, case, context)]


def _call(function: Any, case: Case, context: Context) -> Iterator[Outcome]:
    given = student_arguments(case, context)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = function(*given)
    except Exception as error:  # noqa: BLE001 - a raise is the outcome
        yield ("raised", type(error).__name__)
        return
    if isinstance(result, tuple):  # q, k, v
        result = torch.cat([t.flatten().double() for t in result])
    if isinstance(result, torch.Tensor):
        values = result.detach().double().numpy()
        yield ("values", values.shape, values)
    else:
        yield ("value", repr(result))
    yield ("changed", tuple(isinstance(a, torch.Tensor) and not torch.equal(a, b)
                            for a, b in zip(given, student_arguments(case, context))))


def alike(ours: list[Outcome], theirs: list[Outcome]) -> bool:
    if len(ours) != len(theirs):
        return False
    for a, b in zip(ours, theirs):
        if a[0] != b[0]:
            return False
        if a[0] == "values":
            if a[1] != b[1] or not numerics.close(a[2], b[2], numerics.at_scale(numerics.FINGERPRINT_TOLERANCE, b[2])):
                return False
        elif a != b:
            return False
    return True


def main() -> None:
    names = sys.argv[1:]
    if not names or not all(re.fullmatch(r"blind\d+", name) for name in names):
        sys.exit("name the blind sets to look at, e.g. blind31 blind32")
    cases = visible_cases()
    context = Context(str(FIXTURES / load_manifest()["checkpoint"]["file"]))  # the workers' checkpoint
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        known: dict[tuple[str, str], list[tuple[str, list[Outcome]]]] = {}
        for name in earlier_sets(min(int(n.removeprefix("blind")) for n in names)):
            for mutant in mistakes(name):
                known.setdefault((mutant.step, mutant.function), []).append(
                    (f"{name}:{mutant.name}", outcomes(mutant, cases[mutant.step], root, context)))
        repeats = total = 0
        for name in names:
            for mutant in mistakes(name):
                ours = outcomes(mutant, cases[mutant.step], root, context)
                match = next((other for other, theirs in known.get((mutant.step, mutant.function), [])
                              if alike(ours, theirs)), None)
                total, repeats = total + 1, repeats + (match is not None)
                print(f"{'repeats' if match else 'new    '} {name}:{mutant.id}  {match or ''}", flush=True)
    print(f"{repeats} of {total} mistakes give the numbers of a mistake of an earlier set")


if __name__ == "__main__":
    main()
