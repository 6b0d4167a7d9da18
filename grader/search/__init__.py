"""Naming a mistake that no catalogue holds: the lecture's computation rerun with one edit at a time.

When a result is wrong and no known mistake matches, `find_edit` recomputes the function (numpy, from
the case's inputs and, where needed, the checkpoint's parameters) with one edit of the lecture's
computation at a time (`grader.lecture_maths`): a named quantity replaced by another of the same shape,
a term left out, subtracted or added twice, a factor left out, squared or inverted, a sign, an axis, an
order, a fill value or a row changed, or one of the lecture's known moves (normalise after the residual,
the MLP before the attention). It names the edit only when exactly one reproduces the student's numbers
within the test's tolerance (edits giving the same numbers count as one), and only when the search ran
to the end within its time budget: a search cut short cannot know that no other edit fits.

The search is instructor-side only, as the lecture maths it reruns: the student release leaves both out,
and names a visible case's edits by the fingerprints the fixture builder stored (`edit_outputs`).

Here: the search itself and the space it walks (`candidates`); `edits.py` holds the edits of any quantity
by its role, `moves.py` the lecture's moves per function, `words.py` the words each edit is said in."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from grader import lecture_maths as maths
from grader import mistakes, numerics
from grader.expected.arguments import numpy_arguments
from grader.results import Finding
from grader.suites.findings import generic
from grader.search import edits
from grader.search.edits import role_edits
from grader.search.moves import moves
from grader.search.words import WORDS, Candidate

#: CPU seconds (this process's, so that other load on the machine does not count) one failing test
#: may spend searching; a search that would need more finds nothing rather than a guess.
BUDGET_SECONDS = 3.0
#: The functions whose every edit reruns the model on a batch of covers (196 full images for the
#: occlusion map: about 0.1-0.6 CPU-s an edit, 2.7 s for all of them here) get more.
BUDGETS = {"occlusion_map": 6.0}

#: Functions whose earlier quantities are other functions' own (a wrong LayerNorm inside a block fails
#: the layer_norm tests, which name it): only these quantities are edited there, or put in place of another
#: (the weights the block picks out of its parameters are its own).
OWN: dict[str, set[str]] = {
    "block": {"x", "ln1", "attn", "u", "ln2", "mlp", "out", "residual_1", "residual_2", *maths.BLOCK_PARAMETERS},
}


def candidates(function: str, trace: Any, every: bool = False) -> Iterator[Candidate]:
    """Every edit of the recorded computation that fits its shapes, the lecture's known moves last. With
    `every`, also the edits that rerun a whole encoder of many blocks (the fixture builder has the time)."""
    own = OWN.get(function)
    for name, role in trace.roles.items():
        if name not in WORDS or (own is not None and name not in own):
            continue
        for candidate in role_edits(name, role, trace):
            source = candidate.id.split(":")[2] if candidate.id.startswith("replaced:") else None
            if own is None or source is None or source in own:
                yield candidate
    yield from moves(function, trace, every)


# ---------------------------------------------------------------- the call, rebuilt in numpy

def arguments(case: Any) -> list[Any]:
    """The case's arguments as numpy values, in call order; the probe model as `Probe`."""
    return numpy_arguments(case, {"probe": Probe})


class Probe:
    """The occlusion cases' stand-in classifier (grader.worker.probe_model.ProbeModel) in numpy: each 16x16
    patch's mean per channel, then a fixed linear map to class logits. It is cheap, so the search reruns
    the model-taking functions with it; the ViT itself is never rerun inside the judge."""

    def __init__(self, weights: np.ndarray, patch_size: int = 16) -> None:
        self.weights, self.patch_size = weights, patch_size  # (3 * 14 * 14, classes)

    def __call__(self, images: np.ndarray) -> np.ndarray:
        B, C, H, W = images.shape
        P = self.patch_size
        means = images.reshape(B, C, H // P, P, W // P, P).mean(axis=(3, 5))  # (B, 3, 14, 14)
        return means.reshape(B, -1) @ self.weights  # (B, classes)


# ---------------------------------------------------------------- every edit, for the fixtures

def edit_outputs(case: Any) -> list[tuple[Finding, Any]]:
    """Every edit of the lecture's computation that changes the case's output (beyond its tolerance),
    one per distinct result, each with the finding that names it, as `find_edit` would name it. The
    fixture builder stores them as fingerprints, so that `check` names a mistake on a visible case by
    lookup, with no maths of its own; empty where the call cannot be rebuilt.

    The output is the call's whole result (a tuple for qkv_heads), as float64."""
    function = getattr(maths, case.function, None)
    if function is None:
        return []
    close = numerics.Closeness(numerics.case_tolerance(case.extra))
    try:
        call = _Call(case, function, arguments(case), None)
    except Exception:  # noqa: BLE001 - a call the lecture maths cannot rebuild has no edits to store
        return []
    correct = _whole(maths.run(call.function, call.args)[0])
    groups: list[_Group] = []
    for candidate in candidates(case.function, call.trace, every=True):
        output = _fingerprint_try(call.function, call.args, candidate, call.trace)
        output = None if output is None else _whole(output)
        if output is None or not _fits(output, correct) or all(map(close, _parts(output), _parts(correct))) \
                or not all(np.isfinite(o).all() for o in _parts(output)):
            continue
        group = next((g for g in groups if g.holds(output)), None)
        if group is None:
            groups.append(_Group([candidate], output))
        else:
            group.spellings.append(candidate)
    return [(_named(group.spellings, case.function), group.output) for group in groups]


class _Group:
    """The edits that give one output (`_same_numbers`), the tolerance of each of its parts computed
    once: a case has hundreds of edits, each compared with every group before it."""

    SAMPLED = 16  # values of each part compared first: two different outputs nearly always differ there

    def __init__(self, spellings: list[Candidate], output: Any) -> None:
        self.spellings, self.output = spellings, output
        self.tolerances = [_same_numbers_tolerance(part) for part in _parts(output)]
        self.samples = [self._sample(part) for part in _parts(output)]

    def holds(self, output: Any) -> bool:
        """`output` gives this group's numbers, part for part (its structure is the group's: `_fits`)."""
        parts, mine = _parts(output), _parts(self.output)
        return all(_same_numbers(self._sample(part), sample, tolerance)
                   for part, sample, tolerance in zip(parts, self.samples, self.tolerances)) \
            and all(_same_numbers(part, own, tolerance) for part, own, tolerance in zip(parts, mine, self.tolerances))

    @classmethod
    def _sample(cls, part: np.ndarray) -> np.ndarray:
        flat = part.reshape(-1)
        return flat[::max(1, flat.size // cls.SAMPLED)]


def _whole(output: Any) -> Any:
    return tuple(np.asarray(o, np.float64) for o in output) if isinstance(output, tuple) \
        else np.asarray(output, np.float64)


def _parts(output: Any) -> tuple[np.ndarray, ...]:
    return output if isinstance(output, tuple) else (output,)


def _fits(output: Any, correct: Any) -> bool:
    """The output has the correct one's structure: as many parts, each of its shape."""
    return len(_parts(output)) == len(_parts(correct)) and all(
        o.shape == c.shape for o, c in zip(_parts(output), _parts(correct)))


# ---------------------------------------------------------------- the search

def find_edit(case: Any, expected: np.ndarray, got: np.ndarray, tolerance: numerics.Tolerance,
              part: int | None = None, budget: float | None = None) -> Finding | None:
    """The one edit of the lecture's computation that reproduces `got`, as a finding (id `edit.<edit>`);
    None when no edit does, several different ones do, or the call cannot be rebuilt.

    Every edit is tried on the first image alone (each image's numbers depend on that image only),
    then the edits that fit it are confirmed on all images.

    Args:
        case: the failing fixture case (function, argument specs, input tensors, checkpoint path).
        expected, got: the expected and the student's array (for several outputs, output `part`'s).
        tolerance: (absolute, relative), as the test compared.
        part: which output, for functions returning several (qkv_heads).
        budget: CPU seconds the search may take (BUDGETS, or BUDGET_SECONDS); a search that would
            overrun finds nothing.
    """
    function = getattr(maths, case.function, None)
    if function is None or not np.isfinite(got).all() or numerics.zeros_fit(got, tolerance):
        return None
    if budget is None:
        budget = BUDGETS.get(case.function, BUDGET_SECONDS)
    deadline = time.process_time() + budget
    close = numerics.Closeness(tolerance)
    try:
        call = _Call(case, function, arguments(case), part)
        first = call.first_image()
    except Exception:  # noqa: BLE001 - a call the lecture maths cannot rebuild is one the search cannot explain
        return None
    if not close(call.correct, expected):  # the rebuilt call must give the expected output
        return None
    got_first, expected_first = first.of_first_image(got), first.of_first_image(expected)
    every = list(candidates(case.function, first.trace))
    # an operation put on any quantity names a mistake only where no edit of the computation itself fits:
    # those are tried last, and only then; an edit whose numbers are all near zero is never named (it fits
    # every output near zero, the probability of any unlikely class)
    for tier in ([c for c in every if not _generic(c)], [c for c in every if _generic(c)]):
        fitting = []
        for candidate in tier:
            if time.process_time() > deadline:
                return None
            output = first.of_first_image(call.edited(candidate)) if candidate.across_images \
                else first.edited(candidate)
            if output is not None and output.shape == got_first.shape and close(got_first, output) \
                    and not close(output, expected_first) and not numerics.zeros_fit(output, tolerance):
                fitting.append(candidate)
        matches = [(c, output) for c in fitting for output in [call.edited(c)]
                   if output is not None and output.shape == got.shape and close(got, output)]
        if matches:
            return _single(matches, case.function)
    return None


def _generic(candidate: Candidate) -> bool:
    return generic(f"edit.{candidate.id}")


#: What a rebuilt call's trace carries besides its quantities, for the moves: the block's parameters and
#: head count, the call's arguments, and for vit_forward the encoder's block outputs and the images.
CALL_CONTEXT = ("params", "heads_count", "call_args", "block_outputs", "images")


class _Call:
    """The case's call rebuilt in numpy: its arguments, its correct output and trace."""

    def __init__(self, case: Any, function: Callable[..., Any], args: list[Any], part: int | None) -> None:
        outputs = images = None
        if case.function == "vit_forward":  # its own quantities follow the encoder: run that once
            images, outputs = args[0], _block_outputs(maths.embed(*args), args[1])
            function, args = maths.vit_head, [outputs[-1], args[1]]
        self.case, self.function, self.args, self.part = case, function, args, part
        correct, self.trace = maths.run(function, args)
        self.correct = _part(correct, part)
        self.trace.values["params"], self.trace.values["heads_count"] = _block_context(case.function, args)
        self.trace.values.update(call_args=args, block_outputs=outputs, images=images)

    def first_image(self) -> _Call:
        """The same call on the first image alone, where the output's first axis is the images'."""
        if not self.case.axes or self.case.axes[0] != "image" or self.correct.shape[0] < 2:
            return self
        names = [spec["name"] for spec in self.case.args]
        if self.case.function == "vit_forward":
            names = ["x", "params"]
        args = [a[:1] if name in BATCHED and isinstance(a, np.ndarray) else a for name, a in zip(names, self.args)]
        first = _Call.__new__(_Call)
        first.case, first.function, first.args, first.part = self.case, self.function, args, self.part
        correct, first.trace = maths.run(self.function, args)
        first.correct = _part(correct, self.part)
        outputs, images = self.trace.values["block_outputs"], self.trace.values["images"]
        first.trace.values.update(params=self.trace.values["params"], heads_count=self.trace.values["heads_count"],
                                  call_args=args, block_outputs=None if outputs is None else [x[:1] for x in outputs],
                                  images=None if images is None else images[:1])
        return first

    def of_first_image(self, array: np.ndarray | None) -> np.ndarray | None:
        return array[:self.correct.shape[0]] if self.correct.ndim and array is not None else array

    def edited(self, candidate: Candidate) -> np.ndarray | None:
        output = _try(self.function, self.args, candidate, self.trace)
        return None if output is None else _part(output, self.part)


def _block_outputs(embedded: np.ndarray, params: Any) -> list[np.ndarray]:
    """The embedded rows, then each block's output in order (maths.encode after its embed)."""
    outputs = [embedded]
    for p in params.blocks:
        outputs.append(maths.block(outputs[-1], p, params.num_heads))
    return outputs


#: Arguments whose first axis is the images (by their names in the exercises' signatures).
BATCHED = {"pixels", "images", "image", "patches", "tokens", "x", "q", "k", "h"}


def _block_context(function: str, args: list[Any]) -> tuple[Any, Any]:
    """The block's parameters and heads, for the moves that recompute whole sublayers."""
    return (args[1], args[2]) if function == "block" else (None, None)


def _try(function: Callable[..., Any], args: list[Any], candidate: Candidate, correct: Any) -> Any:
    """The edited call's output, or None when the edit does not fit (shapes) or changes nothing."""
    trace = maths.Trace(candidate.edit, reuse=correct)
    trace.values.update({name: correct.values[name] for name in CALL_CONTEXT})
    try:
        with np.errstate(all="ignore"):
            output = function(*args, trace=trace)
    except (ValueError, IndexError, KeyError, TypeError, ZeroDivisionError, np.linalg.LinAlgError):
        return None
    if not trace.used:
        return None
    return output


def _fingerprint_try(function: Callable[..., Any], args: list[Any], candidate: Candidate, correct: Any) -> Any:
    """`_try` for a fingerprint: what other machines must reproduce (`edits.fingerprinting`)."""
    token = edits.fingerprinting.set(True)
    try:
        return _try(function, args, candidate, correct)
    finally:
        edits.fingerprinting.reset(token)


def _part(output: Any, part: int | None) -> np.ndarray:
    return np.asarray(output[part] if part is not None else output, np.float64)


def _single(matches: list[tuple[Candidate, np.ndarray]], function: str) -> Finding | None:
    """The finding when every matching edit gives the same numbers (one mistake, however spelled)."""
    if not matches:
        return None
    first, output = matches[0]
    if any(not _same_numbers(other, output) for _, other in matches[1:]):
        return None
    return _named([c for c, _ in matches], function)


def _named(spellings: list[Candidate], function: str) -> Finding:
    """The finding for edits that all give the same numbers: one mistake, however spelled. Two of the
    lecture's named moves that coincide on this case (with two blocks, the first left out and every
    block reading the embedded rows) are both said: the numbers cannot tell them apart."""
    # the lecture's named move says it best, then one quantity in place of another (for one output of
    # several, it claims nothing about the others), else the first edit
    spellings = sorted(spellings, key=_generic)  # (stable) an operation put anywhere says it last
    first = spellings[0]
    for prefixes in (("move:", "activation:"), ("replaced:",)):
        first = next((c for c in spellings if c.id.startswith(prefixes)), first)
        if first.id.startswith(prefixes):
            break
    for candidate in spellings:  # a catalogued mistake keeps its own id and title wherever it is found
        if (known := mistakes.known_by_edit(candidate.edit.key, function)) is not None:
            return Finding(f"known.{known.id}", known.title, f"{first.sentence} (page {first.page})", known.page)
    named_move = first.id.startswith("move:")
    alike = [c for c in spellings if named_move and c.id.startswith("move:") and c.id != first.id]
    moves = [first, *alike]
    if not alike:
        return Finding(f"edit.{first.id}", first.sentence, f"{first.sentence} (page {first.page})", first.page)
    sentence = " This case gives the same numbers for another mistake: ".join(
        f"{c.sentence} (page {c.page})" for c in moves)
    return Finding("edit." + "|".join(c.id for c in moves), first.sentence, sentence, first.page)


def _same_numbers(a: np.ndarray, b: np.ndarray, tolerance: numerics.Tolerance | None = None) -> bool:
    """Two edits give the same numbers (one mistake, spelled twice): they agree to float64 rounding.
    Two different mistakes that merely agree within the test's float32 tolerance on this case are two
    edits: the search cannot tell which one the student made, and names neither. `tolerance`: b's
    `_same_numbers_tolerance`, where the caller compares many outputs with one b."""
    return numerics.close(a, b, _same_numbers_tolerance(b) if tolerance is None else tolerance)


def _same_numbers_tolerance(b: np.ndarray) -> numerics.Tolerance:
    """`_same_numbers`' tolerance for numbers compared with `b`: float64 rounding at b's scale."""
    return numerics.at_scale(numerics.SAME_NUMBERS, b)
