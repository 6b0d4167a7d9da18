"""Tolerance headroom, a `vitgrade bench` figure: how far inside each graded test's tolerance a
correct implementation lands when it computes differently, and how far outside it every catalogued
mistake lands.

Every fixture case (visible and hidden) is called in this process, as the judge's worker calls it,
with the solutions as the correct implementation, computed in several ways: the native kernels
(also with one and with eight threads), in float64 inside, in another honest style where the
kit has one (tests/hostile/honest_styles: einsum and a loop over heads, LayerNorm from `var`,
`Tensor.unfold` patches), and with the kernels of
other CPUs (AVX2; SSE4.2 without AVX), forced in a subprocess. An error is measured in tolerances:
max |got - expected| / (atol + rtol·|expected|) over the output, 1 being the edge of passing.

A mistake's separation is the largest such error over the tests of its function (the mistake
catalogue, grader/mistakes) or of its step (the mutant catalogue, tests/mutants): the test that
shows it best is the one that catches it. A mistake caught without any tolerance (an exception, a
wrong shape or type, an input changed in place) has infinite separation.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from grader import paths
from grader.numerics import CORRECT_HEADROOM, MISTAKE_SEPARATION, Tolerance, case_tolerance, in_tolerances

#: Other CPUs this machine can stand in for: torch's, MKL's and oneDNN's kernels forced down.
KERNELS = {
    "AVX2 kernels": {"ATEN_CPU_CAPABILITY": "avx2", "MKL_ENABLE_INSTRUCTIONS": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"},
    "no AVX (SSE4.2)": {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
                        "ONEDNN_MAX_CPU_ISA": "SSE41"},
}
HONEST_STYLES = paths.KIT_ROOT / "tests" / "hostile" / "honest_styles"
MUTANTS = paths.KIT_ROOT / "tests" / "mutants" / "catalogue.py"
CAUGHT_EXACTLY = math.inf


@dataclass(frozen=True)
class Headroom:
    """The largest error of a correct implementation on one graded test."""

    test: str
    worst: float  # in tolerances: 1 is the edge of passing
    variant: str  # the way of computing that reached it


@dataclass(frozen=True)
class Separation:
    """How far outside the tolerance one catalogued mistake lands where it shows best."""

    mistake: str
    separation: float  # in tolerances; CAUGHT_EXACTLY when no tolerance is involved
    test: str  # the test that shows it best


def graded_cases() -> list[Any]:
    """Every fixture case of every step, visible and hidden."""
    from grader.expected.store import VISIBILITIES, load_cases
    from grader.steps import STEP_IDS

    return [case for step in STEP_IDS for visibility in VISIBILITIES for case in load_cases(step, visibility)]


def test_name(case: Any) -> str:
    return f"{case.step} {case.visibility} · {case.name}"


def error_in_tolerances(value: Any, expected: Any, tolerance: Tolerance) -> float:
    """max |value - expected| / (atol + rtol·|expected|); CAUGHT_EXACTLY for a wrong type or shape."""
    import torch

    if isinstance(expected, tuple):
        if not isinstance(value, tuple) or len(value) != len(expected):
            return CAUGHT_EXACTLY
        return max(error_in_tolerances(v, e, tolerance) for v, e in zip(value, expected))
    if not isinstance(expected, np.ndarray):
        exact = isinstance(value, int) and not isinstance(value, bool) and value == expected
        return 0.0 if exact else CAUGHT_EXACTLY
    if not isinstance(value, torch.Tensor) or tuple(value.shape) != expected.shape:
        return CAUGHT_EXACTLY
    error = in_tolerances(value.detach().double().numpy(), expected, tolerance)
    return float(np.nan_to_num(error, nan=CAUGHT_EXACTLY).max(initial=0.0))


# ---------------------------------------------------------------- calling a case in this process

class Arguments:
    """Decodes a case's arguments as the worker does, in float32 or float64."""

    def __init__(self) -> None:
        from grader.expected.store import load_manifest
        from grader.worker.serving import Context

        checkpoint = paths.FIXTURES / load_manifest()["checkpoint"]["file"]
        self.context = Context(str(checkpoint))
        self._vit64: Any = None

    def decode(self, case: Any, float64: bool = False) -> list[Any]:
        from grader.expected.arguments import TorchReader, read

        values = [read(spec, case.tensors, TorchReader(self.context)) for spec in case.args]  # as the worker reads them
        if not float64:
            return values
        return [self._model64(spec, case) if "model" in spec else _as_float64(value)
                for spec, value in zip(case.args, values)]

    def _model64(self, spec: dict[str, Any], case: Any) -> Callable:
        """The grader's model computing in float64 too: nothing of the chain stays float32."""
        import torch

        if spec["model"] == "probe":
            from grader.worker.probe_model import ProbeModel

            return ProbeModel(torch.from_numpy(case.tensors[spec["weights"]].copy()).double())
        if self._vit64 is None:
            from grader.worker.vit import CheckpointViT

            self._vit64 = CheckpointViT(self.context.params(), dtype=torch.float64)
        return self._vit64


def _as_float64(value: Any) -> Any:
    """Float tensors (also inside parameter dataclasses) as float64; everything else unchanged."""
    import torch

    from grader.expected.arguments import with_arrays

    if isinstance(value, torch.Tensor):
        return value.double() if value.is_floating_point() else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return with_arrays(value, _as_float64)
    return value


def call_error(function: Callable, args: list[Any], case: Any) -> float:
    """The error of one call in tolerances; CAUGHT_EXACTLY if it raises or changes an input."""
    import torch

    from grader.worker.serving import tensors_of  # what the worker checks for in-place changes

    before = [t.clone() for value in args for t in tensors_of(value)]
    promised = case.extra.get("raises")  # a case whose docstring promises this exception
    try:
        with torch.inference_mode():
            value = function(*args)
    except Exception as error:  # noqa: BLE001 - a mistake that raises is caught without a tolerance
        return 0.0 if type(error).__name__ == promised else CAUGHT_EXACTLY
    if promised:
        return CAUGHT_EXACTLY
    after = [t for value in args for t in tensors_of(value)]
    if any(not torch.equal(a, b) for a, b in zip(after, before)):
        return CAUGHT_EXACTLY
    return error_in_tolerances(value, case.expected, case_tolerance(case.extra))


def bind_solutions() -> dict[str, Any]:
    """Every step resolves to its solution, as the grader binds earlier steps; returns the modules."""
    from grader.steps import STEP_IDS
    from grader.student import bind_step, load_step_file

    modules = {step: load_step_file(paths.SOLUTIONS / f"{step}.py") for step in STEP_IDS}
    for step, module in modules.items():
        bind_step(step, module)
    return modules


@contextmanager
def threads(count: int) -> Iterator[None]:
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


# ---------------------------------------------------------------- correct implementations

def correct_errors(cases: list[Any], arguments: Arguments, modules: dict[str, Any], float64: bool = False,
                   thread_count: int | None = None) -> dict[str, float]:
    """Each test's error, in tolerances, of the solutions computed one way."""
    errors = {}
    with threads(thread_count) if thread_count else _nothing():
        for case in cases:
            function = getattr(modules[case.step], case.function, None)
            if function is not None:
                errors[test_name(case)] = call_error(function, arguments.decode(case, float64), case)
    return errors


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def honest_style_modules() -> dict[str, Any]:
    """The kit's honest implementations in other styles, by step (only where one exists)."""
    from grader.student import load_step_file

    if not HONEST_STYLES.is_dir():
        return {}
    return {path.stem: load_step_file(path) for path in sorted(HONEST_STYLES.glob("[0-9]*.py"))}


def kernel_errors(env: dict[str, str]) -> dict[str, float]:
    """The solutions' errors with other kernels: torch reads them once, so in a fresh process."""
    result = subprocess.run([sys.executable, "-m", "grader.headroom", "--native-errors"], cwd=paths.KIT_ROOT,
                            env={**os.environ, **env}, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"the headroom run with {env} failed: {tail}")
    return {name: float(value) for name, value in json.loads(result.stdout).items()}


def headroom(say: Callable[[str], None]) -> list[Headroom]:
    """Every graded test's worst error of a correct implementation, over all the ways of computing."""
    cases = graded_cases()
    arguments, modules, honest = Arguments(), bind_solutions(), honest_style_modules()
    ways: dict[str, Callable[[], dict[str, float]]] = {
        "native": lambda: correct_errors(cases, arguments, modules),
        "one thread": lambda: correct_errors(cases, arguments, modules, thread_count=1),
        "eight threads": lambda: correct_errors(cases, arguments, modules, thread_count=8),
        "float64 inside": lambda: correct_errors(cases, arguments, modules, float64=True),
        "another honest style": lambda: correct_errors(
            [c for c in cases if hasattr(honest.get(c.step), c.function)], arguments, honest),
        **{name: (lambda env=env: kernel_errors(env)) for name, env in KERNELS.items()},
    }
    worst: dict[str, Headroom] = {}
    for index, (variant, run) in enumerate(ways.items(), 1):
        say(f"headroom {index}/{len(ways)}: correct code, {variant}")
        for test, error in run().items():
            if test not in worst or error > worst[test].worst:
                worst[test] = Headroom(test, error, variant)
    return list(worst.values())


# ---------------------------------------------------------------- mistakes

def catalogue_separations(cases: list[Any], arguments: Arguments) -> list[Separation]:
    """Each known mistake of grader/mistakes at its largest error over its function's tests."""
    try:
        from grader.mistakes import CATALOGUE
    except ImportError:  # the student release leaves the catalogue out
        return []
    best: dict[str, Separation] = {}
    for case in cases:
        for mistake in CATALOGUE.get(case.function, []):
            name = f"{case.step} {case.function}: {mistake.id}"
            error = call_error(mistake.compute, arguments.decode(case), case)
            if name not in best or error > best[name].separation:
                best[name] = Separation(name, error, test_name(case))
    return list(best.values())


def mutant_separations(cases: list[Any], arguments: Arguments, say: Callable[[str], None]) -> list[Separation]:
    """Each wrong step file of tests/mutants at its largest error over its step's tests."""
    import importlib.util

    from grader.student import load_step_file

    if not MUTANTS.exists():  # the student release has no tests
        return []
    spec = importlib.util.spec_from_file_location("vitgrade_headroom_mutants", MUTANTS)
    catalogue = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = catalogue  # type: ignore[union-attr] - its dataclasses look themselves up
    spec.loader.exec_module(catalogue)  # type: ignore[union-attr]
    separations = []
    with tempfile.TemporaryDirectory(prefix="vitgrade-headroom-") as folder:
        for index, mutant in enumerate(catalogue.MUTANTS, 1):
            if index % 10 == 1:
                say(f"mistakes: mutant {index}/{len(catalogue.MUTANTS)}")
            path = Path(folder) / f"mutant{index:02d}" / f"{mutant.step}.py"
            path.parent.mkdir()
            path.write_text(mutant.source())
            try:
                module = load_step_file(path)
            except Exception:  # noqa: BLE001 - a file that does not import is caught exactly
                separations.append(Separation(f"mutant {mutant.id}", CAUGHT_EXACTLY, "importing it"))
                continue
            best = Separation(f"mutant {mutant.id}", 0.0, "none of its step's tests")
            for case in (c for c in cases if c.step == mutant.step):
                function = getattr(module, case.function, None)
                error = CAUGHT_EXACTLY if function is None else call_error(function, arguments.decode(case), case)
                if error > best.separation:
                    best = Separation(best.mistake, error, test_name(case))
            separations.append(best)
    return separations


def separations(say: Callable[[str], None]) -> list[Separation]:
    cases = graded_cases()
    arguments = Arguments()
    bind_solutions()
    say("mistakes: the known-mistake catalogue")
    return catalogue_separations(cases, arguments) + mutant_separations(cases, arguments, say)


# ---------------------------------------------------------------- report

def report(correct: list[Headroom], mistakes: list[Separation], lines_each: int = 5) -> str:
    """The worst tests and the weakest mistakes (every one that misses its target, at least
    `lines_each` of each), and whether the targets hold."""
    correct = sorted(correct, key=lambda h: -h.worst)
    numeric = sorted((m for m in mistakes if m.separation != CAUGHT_EXACTLY), key=lambda m: m.separation)
    shown_correct = max(lines_each, sum(h.worst > CORRECT_HEADROOM for h in correct))
    shown_mistakes = max(lines_each, sum(m.separation < MISTAKE_SEPARATION for m in numeric))
    out = [f"tolerance headroom: {len(correct)} graded tests; {len(mistakes)} catalogued mistakes, "
           f"{len(mistakes) - len(numeric)} of them caught without a tolerance (error, shape, type, input changed)",
           f"  correct code computed other ways, worst error in tolerances (target <= {CORRECT_HEADROOM:g}):"]
    out += [f"    {h.worst:9.3g}  {'ok ' if h.worst <= CORRECT_HEADROOM else 'NO '} {h.test}  [{h.variant}]"
            for h in correct[:shown_correct]]
    out += [f"  mistakes, separation in tolerances where each shows best (target >= {MISTAKE_SEPARATION:g}):"]
    out += [f"    {m.separation:9.3g}  {'ok ' if m.separation >= MISTAKE_SEPARATION else 'NO '} {m.mistake}  [{m.test}]"
            for m in numeric[:shown_mistakes]]
    met = targets_met(correct, mistakes)
    out.append("  targets met" if met else "  targets missed by the lines marked NO")
    return "\n".join(out)


def targets_met(correct: list[Headroom], mistakes: list[Separation]) -> bool:
    return (all(h.worst <= CORRECT_HEADROOM for h in correct)
            and all(m.separation >= MISTAKE_SEPARATION for m in mistakes))


def measure(say: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True)
            ) -> tuple[list[Headroom], list[Separation]]:
    """Both halves of the figure: correct code's headroom and the mistakes' separation."""
    return headroom(say), separations(say)


def _native_errors() -> None:
    """The subprocess side of `kernel_errors`: the solutions' errors, as JSON on stdout."""
    errors = correct_errors(graded_cases(), Arguments(), bind_solutions())
    json.dump(errors, sys.stdout)


if __name__ == "__main__":
    if "--native-errors" in sys.argv:
        _native_errors()
    else:
        measured = measure()
        print(report(*measured))
        sys.exit(0 if targets_met(*measured) else 1)
