"""What every hidden suite shares: call a student function on a fixture case, then judge it.

Each suite (`test_NN_name.py`) is one test per fixture case, parametrized by the judge from the
step's fixture files. A case calls the student's function in the sandboxed worker; `judge` checks
the type, dtype, shape and values of the result, that no input was changed in place, and that no
library call did the step's work, and names a known mistake when the output matches one.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from grader.expected.arguments import tensor_keys
from grader.expected.store import Case, Fingerprint
from grader.numerics import case_tolerance, zeros_fit
from grader.results import PROBABILITY_MAP, Finding
from grader.steps import NORMALIZATION, NORMALIZATION_NAMES, SIZES_PASSED_ON, WITHOUT_NORMALIZATION, get_step
from grader.suites.diagnosis import diagnose, diagnose_count, said_beside
from grader.suites.feedback import INSTRUMENTS, Feedback, compare, shape_text
from grader.suites.findings import FINDINGS, generic
from grader.suites.returned import Returned

FLOAT_DTYPES = ("float32", "float64")
#: The findings that only say where a call went wrong (`wrong_values.mlp`, `shape.mlp`), not what.
LOCATION_ONLY = ("wrong_values.", "shape.")
OUTPUT_NAMES = {"qkv_heads": ("q", "k", "v")}


def wire_arguments(case: Case) -> tuple[list, dict, dict[str, np.ndarray]]:
    """The case's arguments as the worker protocol sends them: their specs, with the tensors they read."""
    arrays = {key: case.tensors[key] for spec in case.args for key in tensor_keys(spec)}
    return case.args, {}, arrays


def judge(case: Case, returned: Returned, step_statuses: dict[str, str]) -> None:
    """Raise Feedback unless the student's call returned what the checkpoint did."""
    if "raises" in case.extra and not (not returned.ok and returned.error.get("type") == "NotImplementedError"):
        _check_own_work(case, returned)  # raising as promised earns nothing with timm at the file's top
        _check_raises(case, returned, case.extra["raises"], step_statuses)
        return
    if not returned.ok:
        raise _with_sizes_passed(case, returned, _error_feedback(case, returned.error, step_statuses))
    _check_own_work(case, returned)
    _check_inputs_untouched(case, returned)
    # Numbers made by a failing function of this step that the call used say that function's mistake,
    # not this one's: an edit or a structure read off them would name a mistake this function lacks.
    explain = not _own_failing(case, returned, step_statuses)
    try:
        _check_value(case, case.expected, returned.value, returned.kind, returned.dtype, returned.type_name,
                     explain=explain)
    except Feedback as feedback:
        raise _blocked(case, returned, step_statuses, feedback) or _with_sizes_passed(case, returned, feedback) \
            from None


def sizes_given(case: Case) -> dict[str, tuple[int, str]]:
    """The sizes the case gives its function: size -> (value, where the function reads it), e.g.
    `num_heads` -> (2, "num_heads") or (2, "params.num_heads"). The checkpoint's own ViTParams is
    left out: its sizes are the lecture's, which code that writes them in passes too."""
    given: dict[str, tuple[int, str]] = {}
    for spec in case.args:
        name, value, params = spec.get("name"), spec.get("value"), spec.get("vit_params")
        if name in SIZES_PASSED_ON and isinstance(value, int) and not isinstance(value, bool):
            given[name] = (value, name)
        for size in SIZES_PASSED_ON if isinstance(params, dict) else ():
            if isinstance(params.get(size), int):
                given[size] = (params[size], f"{name}.{size}")
    return given


def _with_sizes_passed(case: Case, returned: Returned, feedback: Feedback) -> Feedback:
    """The feedback, with a sentence for each size the call passed to an earlier step's function
    other than the case gave it (seen by the worker: proof, not a guess). It is the finding unless
    the numbers already matched a known mistake or a named edit, whose sentence it then joins unless
    that already says where the size is to be read."""
    if feedback.status in ("blocked", "not_attempted"):
        return feedback
    given = sizes_given(case)
    found = [(function, size, value, default) for function, size, value, default in returned.passed
             if size in given and value != given[size][0]]
    named = feedback.finding if feedback.finding is not None and feedback.finding.id.startswith(("known.", "edit.")) \
        else None
    for function, size, value, default in found:
        wanted, where = given[size]
        if named is not None and where in named.sentence:  # the named mistake already says where to read it
            continue
        passed = (f"with {size} left at its default, {value}" if default else f"with {size} = {value}")
        sentence = (f"{case.function} called {function} {passed}, but this case's {where} is {wanted}: pass on "
                    f"the {where} {case.function} was given, not a number written in (page {SIZES_PASSED_ON[size]}).")
        feedback.message += f"\n{sentence}"
        if named is None:
            failed = feedback.status == "error"  # the call raised: its error is shown above the sentence
            name = "size_not_passed_on_call_failed" if failed else "size_not_passed_on"
            feedback.finding = Finding(f"diagnosis.{name}", FINDINGS[name][0], sentence, SIZES_PASSED_ON[size])
    return feedback


def _check_own_work(case: Case, returned: Returned) -> None:
    """Fail a call whose work a library did (a forbidden operator, or timm, in the call or as the
    file loaded), or that reached into the operator recording."""
    tampered = [entry for entry in returned.forbidden if INSTRUMENTS in entry]
    if tampered:
        doors = ", ".join(entry.replace(f" ({INSTRUMENTS})", "") for entry in tampered)
        raise _failure(f"{case.function} reached into the grader's instruments: it switched off the recording "
                       f"of the operators it runs ({doors}), so what it computed cannot be checked; "
                       "write the step with ordinary torch operations.",
                       "instruments", "reached into the grader's operator recording")
    if returned.forbidden:
        calls = ", ".join(returned.forbidden)
        page = WITHOUT_NORMALIZATION.get(case.function)
        if page is not None and all(_normalizes(entry) for entry in returned.forbidden):
            raise _failure(f"{case.function} uses {calls}: the lecture's {case.function} normalizes nothing (page "
                           f"{page}), so that normalization is a computation too many; take it out.",
                           "extra_normalization", "a normalization where the lecture has none")
        raise _failure(f"{case.function} uses {calls}: this step asks you to write that computation "
                       "yourself (exercises stay exercises).", "forbidden", "a library did the step's work")


def _normalizes(forbidden: str) -> bool:
    """Whether a forbidden call the worker saw is a library normalization (by operator or by name)."""
    return NORMALIZATION.label in forbidden or forbidden in NORMALIZATION_NAMES


def _check_raises(case: Case, returned: Returned, exception: str, step_statuses: dict[str, str]) -> None:
    """A case whose docstring promises an exception: raising exactly that one passes."""
    if not returned.ok and returned.error.get("type") == exception:
        return
    given = ", ".join(f"{spec['name']}={spec['value']!r}" for spec in case.args if "value" in spec)
    if not returned.ok and returned.error.get("type") in OTHER_EXCEPTIONS:
        kind = returned.error["type"]
        raise Feedback(f"{case.function}({given}) raised {kind} where its docstring promises {exception} "
                       f"(Raises:); {OTHER_EXCEPTIONS[kind]} Write `raise {exception}(...)`.",
                       finding=Finding(f"no_raise.{case.function}", f"{case.function}: no {exception} where promised"))
    if not returned.ok:
        raise _error_feedback(case, returned.error, step_statuses)
    raise Feedback(f"{case.function}({given}) returned {returned.value!r}; its docstring promises {exception} "
                   f"here (Raises:), e.g. `raise {exception}(...)` when the arguments do not fit.",
                   finding=Finding(f"no_raise.{case.function}", f"{case.function}: no {exception} where promised"))


#: Exceptions a student raises on purpose in place of the one promised, and why they are not it.
OTHER_EXCEPTIONS = {
    "AssertionError": "an assert raises AssertionError, and Python skips it altogether under `python -O`.",
    "Exception": "a bare Exception is not the promised kind: a caller catching it would catch everything.",
    "TypeError": "TypeError says an argument has the wrong type; these have the right types, wrong values.",
    "RuntimeError": "RuntimeError says something failed while running; these arguments are wrong values.",
}


def _failing_used(case: Case, returned: Returned, step_statuses: dict[str, str]) -> list[str]:
    """The functions and earlier steps the call used that fail (each has a status here only where the
    student's own code ran: no reference was bound for it)."""
    return [s for s in returned.used if s != case.function and step_statuses.get(s, "passed") != "passed"]


def _own_failing(case: Case, returned: Returned, step_statuses: dict[str, str]) -> list[str]:
    """The functions of this step the call used that fail."""
    return _of_this_step(case, _failing_used(case, returned, step_statuses))


def _of_this_step(case: Case, names: list[str]) -> list[str]:
    functions = get_step(case.step).functions
    return [name for name in names if name in functions]


def _blocked(case: Case, returned: Returned, step_statuses: dict[str, str], feedback: Feedback) -> Feedback | None:
    """Blocked by S only when the call ran the student's own earlier step S (no references were
    bound: then S has a status here) and S fails, while every function of this step it used passes.
    Returns None when the failure is the step's own."""
    failing = _failing_used(case, returned, step_statuses)
    own = _of_this_step(case, failing)
    earlier = [s for s in failing if s not in own]
    if own:
        feedback.message += (f"\n{case.function} uses your {', '.join(own)}, which fails too: "
                             "fix that function first.")
        if feedback.finding is None or feedback.finding.id.startswith(LOCATION_ONLY):
            feedback.finding = Finding.follows(case.function, own)
        return None
    if not earlier:
        return None
    return Feedback(f"blocked by {', '.join(earlier)}: {case.function} uses your "
                    f"{', '.join(earlier)}, which does not pass yet. Fix that step first.\n{feedback.message}",
                    status="blocked", maps=feedback.maps, finding=feedback.finding)


def _error_feedback(case: Case, error: dict[str, Any], step_statuses: dict[str, str]) -> Feedback:
    kind, message, origin = error.get("type", "Error"), error.get("message", ""), error.get("origin_step")
    if kind == "NotImplementedError":
        if origin and origin != case.step:
            return Feedback(f"blocked by {origin}: {case.function} calls {origin}, which is not written "
                            f"yet ({message or 'NotImplementedError'}).", status="blocked")
        return Feedback(f"{case.function} is not written yet (it raises NotImplementedError).",
                        status="not_attempted")
    trace = error.get("traceback", "").rstrip()
    text = f"{case.function} raised {kind}: {message}" + (f"\n{trace}" if trace else "")
    if any(words in message for words in IN_PLACE_ERRORS):
        return Feedback(f"{text}\n{IN_PLACE_HINT}", status="error",
                        finding=Finding("input_modified.in_place_error", "an in-place write into a shared tensor"))
    return Feedback(text, status="error",
                    finding=Finding(f"error.{case.function}.{kind}", f"{case.function} raised {kind}"))


#: PyTorch's words when an in-place operation writes into memory it shares: an expanded view (one
#: row stands for every image), or a tensor autograd still needs.
IN_PLACE_ERRORS = ("more than one element of the written-to tensor refers to a single memory location",
                   "is being used in an in-place operation")
IN_PLACE_HINT = ("An in-place write (add_, +=, x[...] = ...) went into a tensor that shares its memory, such as "
                 "an input or a view of one made by expand: compute a new tensor instead (tokens + table), "
                 "and leave the inputs as they were given.")


def _check_inputs_untouched(case: Case, returned: Returned) -> None:
    for position in returned.modified:
        if 0 <= position < len(case.args):
            name = case.args[position]["name"]
            raise _failure(f"{case.function} modified its input `{name}` in place; work on a copy "
                           "(e.g. `x.clone()`), the caller still needs the original.",
                           "input_modified", "an input changed in place")


def _check_value(case: Case, expected: Any, value: Any, kind: str, dtype: str | None, type_name: str,
                 label: str = "", explain: bool = True) -> None:
    """Raise Feedback unless `value` is `expected`; with `explain`, the message says the mistake or the
    structure of the error where they can be told."""
    what = f"{case.function}{label}"
    if isinstance(expected, tuple):
        names = OUTPUT_NAMES.get(case.function, tuple(f"[{i}]" for i in range(len(expected))))
        if not isinstance(value, tuple) or len(value) != len(expected):
            raise _failure(f"{what} must return {len(expected)} tensors ({', '.join(names)}); "
                           f"it returned {type_name}", "type", "the wrong type returned")
        parts = dict(zip(names, expected))
        for i, (e, v) in enumerate(zip(expected, value)):
            _check_array(case, e, v, "tensor" if isinstance(v, np.ndarray) else type(v).__name__,
                         None, f" output {names[i]}", mistake_part=i, parts=parts, explain=explain)
        return
    if isinstance(expected, np.ndarray):
        _check_array(case, expected, value, kind, dtype, label, explain=explain)
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise _failure(f"{what} must return a Python int; it returned {value!r} ({type_name})",
                       "type", "the wrong type returned")
    if value != expected:
        known = _known(case, value)
        finding = known or diagnose_count(case, value)
        raise Feedback(f"{what} returned {value}, expected {expected}."
                       + (_known_text(known) if known else f"\n{finding.sentence}" if finding else ""),
                       finding=finding or Finding(f"wrong_count.{case.function}", f"{case.function}: a wrong count"))


def _check_array(case: Case, expected: np.ndarray, value: Any, kind: str, dtype: str | None, label: str,
                 mistake_part: int | None = None, parts: dict[str, np.ndarray] | None = None,
                 explain: bool = True) -> None:
    what = f"{case.function}{label}"
    if kind == "ndarray":
        raise _failure(f"{what} returned a numpy array; return a torch.Tensor", "type", "the wrong type returned")
    if not isinstance(value, np.ndarray):
        raise _failure(f"{what} must return a torch.Tensor; it returned {kind}", "type", "the wrong type returned")
    promised = case.extra.get("dtype")
    if dtype is not None and (dtype not in FLOAT_DTYPES or promised not in (None, dtype)):
        raise _failure(f"{what} returned a tensor of dtype torch.{dtype}; expected torch.{promised or 'float32'}",
                       "dtype", "the wrong dtype returned")
    tolerance = case_tolerance(case.extra)
    if value.shape != expected.shape:
        text, finding = _explanation(case, expected, value, tolerance, mistake_part, parts) if explain else ("", None)
        raise Feedback(f"{what} returned shape {shape_text(value.shape)}, expected {shape_text(expected.shape)}."
                       + text, finding=finding or Finding(f"shape.{case.function}", f"{case.function}: a wrong shape"))
    problem = compare(value, expected, case.axes, case.extra.get("grid"), tolerance)  # type: ignore[arg-type]
    if problem:
        text, finding = _explanation(case, expected, value, tolerance, mistake_part, parts) if explain else ("", None)
        raise Feedback(f"{what}: wrong values.\n{problem}" + text, maps=_maps(case, expected, value),
                       finding=finding or Finding(f"wrong_values.{case.function}", f"{case.function}: wrong values"))


def _failure(message: str, finding_id: str, title: str) -> Feedback:
    """A failure whose finding is the check that failed, the same for every function."""
    return Feedback(message, finding=Finding(finding_id, title, " ".join(message.split())))


def _explanation(case: Case, expected: np.ndarray, value: np.ndarray, tolerance: tuple,
                 part: int | None, parts: dict[str, np.ndarray] | None) -> tuple[str, Finding | None]:
    """The known mistake the output equals; where none does, what the structure of the error shows:
    the lines to add to the message, and the finding they state (None when there is none)."""
    known = _known(case, value, part)
    if known:
        return _known_text(known), known
    # a visible case's edits were all tried at fixture build: the search would find nothing the lookup
    # did not; the structure of the error, checked on the numbers, still says beside it how it shows
    edit = _edit_named(case, expected, value, part)
    findings = diagnose(case, expected, value, tolerance, parts,  # type: ignore[arg-type]
                        search_edits=case.edits is None and edit is None)
    if edit is not None:  # the diagnosis found no edit of its own: what it found is the structure
        findings = said_beside(edit, findings[0] if findings else None)
    return "".join(f"\n{finding.sentence}" for finding in findings), (findings[0] if findings else None)


def _known(case: Case, value: Any, part: int | None = None) -> Finding | None:
    """The catalogued mistake whose output the value equals, as a finding."""
    for mistake_id, (fingerprint, title, page) in case.mistakes.items():
        if part is not None and isinstance(fingerprint, tuple):
            fingerprint = fingerprint[part]
        if _matches(fingerprint, value):
            return Finding(f"known.{mistake_id}", title, title, page)
    return None


def _edit_named(case: Case, expected: np.ndarray, value: Any, part: int | None) -> Finding | None:
    """The one edit of the lecture's computation, evaluated at fixture build, whose output the value
    equals; None when none does or several different ones do (the student's is then not known). An edit
    whose fingerprint also matches the expected output (it changes another output, or too little to
    tell at the fingerprint's tolerance), nor does one whose kept values are zeros within the test's
    tolerance (it fits every output near zero); a value of zeros within the test's tolerance is matched by
    every mistake that is near zero too, and no edit is named for it."""
    tolerance = case_tolerance(case.extra)
    if isinstance(value, np.ndarray) and zeros_fit(value, tolerance):
        return None
    fitting = []
    for finding, fingerprint in case.edits or ():
        if part is not None and isinstance(fingerprint, tuple):
            fingerprint = fingerprint[part]
        if _matches(fingerprint, value) and not _matches(fingerprint, expected) \
                and not (isinstance(fingerprint, Fingerprint) and zeros_fit(fingerprint.values, tolerance)):
            fitting.append(finding)
    fitting = [f for f in fitting if not generic(f.id)] or fitting  # an operation put anywhere comes last
    return fitting[0] if len(fitting) == 1 else None


def _known_text(known: Finding | None) -> str:
    return f"\nKnown mistake: {known.title} (lecture page {known.page})" if known else ""


def _matches(fingerprint: Any, value: Any) -> bool:
    if isinstance(fingerprint, Fingerprint):
        if not isinstance(value, np.ndarray):
            return False
        return fingerprint.matches(value)
    if isinstance(fingerprint, tuple):
        return False
    return fingerprint == value and not isinstance(value, bool)


def _maps(case: Case, expected: np.ndarray, value: np.ndarray) -> dict[str, Any] | None:
    """14x14 pictures of what differs, for attention weights and occlusion maps."""
    grid = case.extra.get("grid")
    if not grid or not np.isfinite(value).all():
        return None
    if case.function == "occlusion_map":
        scale = float(max(np.abs(expected).max(), 1e-9))
        return {"title": "change of the target probability per covered patch", "expected": expected.tolist(),
                "actual": value.tolist(), "scale": scale}
    if case.function == "attention_weights" and expected.shape[-1] == grid * grid + 1:
        error = np.abs(value - expected)
        b, h, q, _ = np.unravel_index(int(np.argmax(error)), error.shape)
        query = "CLS" if q == 0 else f"P{q}"
        row = lambda a: a[b, h, q, 1:].reshape(grid, grid)  # noqa: E731 - patch keys only
        return {"title": f"attention of query {query}, head {h + 1} over the patches",
                "expected": row(expected).tolist(), "actual": row(value).tolist(), "kind": PROBABILITY_MAP}
    return None
