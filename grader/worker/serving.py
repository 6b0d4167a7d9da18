"""Serving the judge's calls in a worker, the only kind of process that runs student code.

Runs in the last of three processes forked from the zygote (see `zygote.py`), or in the portable
runner's worker (`portable_worker.py`); everything here that runs before the student's file is
loaded is trusted, everything after is not, and nothing the worker returns is believed beyond being
data.
"""
from __future__ import annotations

import codecs
import contextlib
import ctypes
import functools
import gc
import inspect
import io
import os
import re
import socket
import sys
import threading
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any
from collections.abc import Callable

import numpy as np

from grader.launch import protocol
from grader.steps import SIZES_PASSED_ON
from grader.worker import instruments

class CallLog:
    """What the current call touched: earlier steps it used, the sizes it passed them, and library
    calls it should not make."""

    def __init__(self) -> None:
        self.step = ""  # the step being graded: its forbidden operators are recorded (instruments.py)
        self.used: set[str] = set()
        self.passed: set[tuple[str, str, int, bool]] = set()  # (function, size, value, left at its default)
        self.forbidden: set[str] = set()

    def clear(self) -> None:
        """Forget the last call: another starts."""
        self.used.clear()
        self.passed.clear()
        self.forbidden.clear()


LOG = CallLog()
memory_limit = 0  # bytes, set by `serve`: a MemoryError's message names it


class _StepRecorder:
    """Stands in for an earlier step's module and notes when the step under test calls into it."""

    def __init__(self, step_id: str, module: ModuleType) -> None:
        self._step_id, self._module = step_id, module

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._module, name)
        if not callable(value):
            return value
        step_id = self._step_id

        def recorded(*args, **kwargs):
            LOG.used.add(step_id)
            with instruments.not_recorded():  # the earlier step's operators are judged in its own step
                _note_sizes(name, value, args, kwargs)
                return value(*args, **kwargs)

        return recorded


@functools.cache
def _signature(function: Callable) -> inspect.Signature:
    """The signature of an earlier step's function, read once: every call into it is bound to it."""
    return inspect.signature(function)


def _note_sizes(name: str, function: Callable, args: tuple, kwargs: dict) -> None:
    """Note the sizes (SIZES_PASSED_ON) a call into an earlier step passes, and whether each was left
    at its default; a call whose arguments do not bind says so itself when it runs."""
    try:
        bound = _signature(function).bind(*args, **kwargs)
    except Exception:  # noqa: BLE001 - a student's function may have any signature, or none readable
        return
    given = set(bound.arguments)
    bound.apply_defaults()
    for size in SIZES_PASSED_ON:
        value = bound.arguments.get(size)
        if isinstance(value, int) and not isinstance(value, bool):
            LOG.passed.add((name, size, value, size not in given))


REFERENCES: dict[str, ModuleType] = {}  # step id -> the reference solution, loaded before the view


def load_references(references: dict[str, str]) -> None:
    """Import the reference solutions of earlier steps while their folder is still visible (the
    sandbox's view hides it); trusted code, run before any student code."""
    from grader.student import load_step_file

    for step_id, path in references.items():
        REFERENCES[step_id] = load_step_file(Path(path))


def drop_references_from(step_id: str) -> None:
    """Forget the reference solutions of `step_id` and of every later step, before the student's
    file of `step_id` loads: the worker parent loaded them all for the submission's later steps,
    and a step's code must find no correct answer to itself in its process (`sys.modules` reaches
    a loaded module without any import). Collected at once, and checked: none of them is left."""
    import weakref

    from grader.steps import STEP_IDS
    from grader.student import forget_steps

    left = [weakref.ref(REFERENCES.pop(s)) for s in STEP_IDS[STEP_IDS.index(step_id):] if s in REFERENCES]
    forget_steps(list(REFERENCES.values()))  # every other loaded step file leaves sys.modules
    gc.collect()  # a module and its functions hold each other
    if any(module() is not None for module in left):
        raise RuntimeError(f"a reference solution of {step_id} or a later step is still loaded")


def bind_earlier_steps(step_id: str, submission: Path, references: list[str]) -> None:
    """Earlier steps resolve to the loaded references named in `references`, else to the
    submission's own files (a step missing from the submission falls back to its unwritten stub)."""
    from grader.paths import EXERCISES
    from grader.steps import STEP_IDS
    from grader.student import bind_step

    for earlier in STEP_IDS[: STEP_IDS.index(step_id)]:
        if earlier in references:
            module: Any = REFERENCES[earlier]
        else:
            path = submission / f"{earlier}.py"
            module = _LazyModule(path if path.exists() else EXERCISES / f"{earlier}.py")
        bind_step(earlier, _StepRecorder(earlier, module))  # type: ignore[arg-type]


class _LazyModule:
    """A step file imported on first use, so a broken earlier file only hurts calls that need it."""

    def __init__(self, path: Path) -> None:
        self._path, self._module = path, None

    def load(self) -> ModuleType:
        if self._module is None:
            from grader.student import load_step_file

            self._module = load_step_file(self._path)
        return self._module

    def __getattr__(self, name: str) -> Any:
        return getattr(self.load(), name)


def preload() -> None:
    """Everything a worker needs, imported once before any student code: the zygote's forks share
    it copy-on-write, a portable worker imports it while it waits for its submission.

    The caller turns the garbage collector off before it first imports this module (which imports
    torch): the import makes about 180,000 objects and almost no garbage, and collecting while it
    runs costs a seventh of it. The objects are frozen here, then the collector is turned back on:
    a worker's collections skip them, so they neither cost time nor write to the pages that the
    zygote's forks share copy-on-write."""
    import safetensors.torch  # noqa: F401
    import torch

    import grader.checkpoint.timm_names  # noqa: F401 - the checkpoint's parameters, read by name
    import grader.expected.arguments  # noqa: F401 - the judge's arguments, read as torch values
    import grader.params  # noqa: F401
    import grader.paths  # noqa: F401
    import grader.photos  # noqa: F401 - the worker's pixel arguments, after the view is entered
    import grader.worker.probe_model  # noqa: F401
    import grader.worker.vit  # noqa: F401 - the occlusion tests' ViT, built after the view is entered
    import grader.steps  # noqa: F401
    import grader.student  # noqa: F401

    torch.zeros(1) @ torch.zeros(1, 1)  # warm the allocator before forking
    gc.freeze()
    gc.enable()


# ---------------------------------------------------------------- values in and out

def decode_value(spec: dict[str, Any], arrays: dict[str, np.ndarray], context: Context) -> Any:
    """The object the student receives for one argument's spec (grader.expected.arguments)."""
    from grader.expected.arguments import TorchReader, read

    return read(spec, arrays, TorchReader(context))


def tensors_of(value: Any) -> list:
    """Every tensor an argument holds (a tensor, or the tensors of a parameter dataclass)."""
    import dataclasses

    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = []
        for field in dataclasses.fields(value):
            inner = getattr(value, field.name)
            for item in inner if isinstance(inner, tuple) else (inner,):
                found += tensors_of(item)
        return found
    return []


def _as_sent(spec: Any, context: Context) -> list | None:
    """The checkpoint's own tensors behind a parameter argument: the student got a copy, so these
    still hold what was sent, and an in-place change is found against them without a second copy
    (the ViT's parameters are 23 MB, each a page fault per 4 KiB in a fresh worker). None for any
    other argument: the caller keeps a copy of it."""
    if not isinstance(spec, dict) or not ("param" in spec or "params" in spec):
        return None
    from grader.expected.arguments import checkpoint_part

    return tensors_of(checkpoint_part(spec, context.params()))


def _modified(args: list, before: list[list]) -> list[int]:
    """Positions of arguments whose tensors changed during the call."""
    import torch

    return [position for position, (value, saved) in enumerate(zip(args, before))
            if any(not (a.shape == b.shape and torch.equal(a, b)) for a, b in zip(tensors_of(value), saved))]


MAX_ITEMS = 16  # a step returns at most a few tensors; longer or nested sequences are only described


def encode_value(value: Any, arrays: dict[str, np.ndarray], key: str, depth: int = 0) -> Any:
    """Describe a returned value as JSON, moving tensors into `arrays`."""
    import torch

    if isinstance(value, torch.Tensor):
        tensor = value.detach().cpu()
        dtype = str(tensor.dtype).replace("torch.", "")
        if tensor.dtype in (torch.bfloat16, torch.complex64, torch.complex128):
            tensor = tensor.float() if not tensor.is_complex() else tensor.real.float()
        arrays[key] = tensor.contiguous().numpy()
        return {"t": key, "kind": "tensor", "dtype": dtype}
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        arrays[key] = np.ascontiguousarray(value)
        return {"t": key, "kind": "ndarray", "dtype": str(value.dtype)}
    if isinstance(value, (tuple, list)):
        if depth or len(value) > MAX_ITEMS:  # e.g. `.tolist()` of an image: JSON far over the header limit
            return {"kind": "other", "type": type(value).__name__,
                    "repr": f"a {type(value).__name__} of {len(value)} items"}
        return {"seq": [encode_value(v, arrays, f"{key}.{i}", depth + 1) for i, v in enumerate(value)],
                "kind": type(value).__name__}
    if isinstance(value, (bool, int, float)) or value is None:
        return {"v": value, "kind": type(value).__name__}
    return {"kind": "other", "type": type(value).__name__, "repr": repr(value)[:200]}


# ---------------------------------------------------------------- errors, as the student sees them

_STEP_FILE = re.compile(r"^\d\d_[a-z]+\.py$")


def describe_error(error: BaseException, student_files: tuple[str, ...]) -> dict[str, Any]:
    """The error with a traceback trimmed to the student's own frames (never grader code)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if os.path.realpath(f.filename) in student_files]
    where = frames[-1] if frames else None
    # The innermost step file on the stack, wherever it lives (a missing step falls back to its
    # stub): a NotImplementedError raised there blocks the step being graded.
    steps = [f for f in traceback.extract_tb(error.__traceback__) if _STEP_FILE.match(Path(f.filename).name)]
    origin = Path(steps[-1].filename).stem if steps else None
    trimmed = "".join(traceback.format_list(frames)) + "".join(
        traceback.format_exception_only(type(error), error))
    message = str(error)[:2000]
    if isinstance(error, MemoryError) and not message:
        message = f"out of memory: the worker may use {memory_limit / 2**30:g} GiB"
    return {
        "type": type(error).__name__,
        "message": message,
        "traceback": trimmed[-4000:],
        "origin_step": origin,
        "line": where.lineno if where else None,
    }


class Context:
    """The checkpoint and models the judge can refer to by name, built once per worker."""

    def __init__(self, checkpoint: str | None) -> None:
        self._checkpoint = checkpoint
        self._state: dict | None = None
        self._params = self._vit_model = None

    def warm(self, parts: list[str]) -> None:
        """Build `parts` now ("params", "vit"): before forking, so that every worker shares them."""
        if "params" in parts:
            self.params()
        if "vit" in parts:
            self.model("vit", None)

    def state(self) -> dict:
        """The checkpoint's tensors by timm's names, read once into the parameters."""
        if self._state is None:
            from safetensors.torch import load_file

            self._state = load_file(self._checkpoint)
        return self._state

    def params(self):
        if self._params is None:
            from grader.checkpoint.timm_names import lecture_params

            self._params = lecture_params(self.state())
        return self._params

    def model(self, name: str, weights: np.ndarray | None) -> Callable:
        import torch

        if name == "probe":
            from grader.worker.probe_model import ProbeModel

            return _unrecorded(ProbeModel(torch.from_numpy(weights.copy())))
        if name == "vit":
            if self._vit_model is None:
                from grader.worker.vit import CheckpointViT

                self._vit_model = _unrecorded(CheckpointViT(self.params()))
            return self._vit_model
        raise ValueError(f"unknown model {name!r}")


def record_own_calls(module: ModuleType, names: list[str]) -> None:
    """Calls between the step's own functions are noted in LOG.used by function name (step ids
    never look like one), so that `block` failing after using a failing `mlp` of the same file is
    reported as the step's own failure, not as blocked by an earlier step."""
    for name in names:
        function = getattr(module, name, None)
        if not callable(function):
            continue

        def recorded(*args, __function=function, __name=name, **kwargs):
            LOG.used.add(__name)
            return __function(*args, **kwargs)

        setattr(module, name, functools.update_wrapper(recorded, function))


CALL_PRINTING_KEPT_CHARACTERS = 4096  # characters of one call's printing sent back to the judge


class CallOutput(io.TextIOBase):
    """Everything one call writes, by any route: stands in for sys.stdout and sys.stderr, and takes
    what reaches descriptors 1 and 2 (see `DescriptorCapture`). Keeps the first
    CALL_PRINTING_KEPT_CHARACTERS characters, counts the rest, so that printing megabytes costs the
    judge nothing. Everything also goes on, as bytes, to `forward` (the worker's own output, which
    the sandbox captures for the whole step), so that what a call wrote before it crashed the worker
    is still found, under that call's test."""

    encoding, errors = "utf-8", "replace"  # what code that prints may ask a stream for

    def __init__(self, forward: Callable[[bytes], Any] | None = None) -> None:
        super().__init__()
        self.kept: list[str] = []
        self.size = 0  # characters kept so far
        self.total = 0  # bytes written, as UTF-8
        self.forward = forward
        self._lock = threading.Lock()  # the descriptors' reader writes here too

    def writable(self) -> bool:
        return True

    def write(self, text: Any) -> int:
        text = text if isinstance(text, str) else str(text)
        self.take(text, text.encode("utf-8", "replace"))
        return len(text)

    def take(self, text: str, data: bytes) -> None:
        """Keep `text` (which is `data` decoded) and forward `data`."""
        with self._lock:
            self.total += len(data)
            if self.size < CALL_PRINTING_KEPT_CHARACTERS:
                self.kept.append(text[: CALL_PRINTING_KEPT_CHARACTERS - self.size])
                self.size += len(self.kept[-1])
            if self.forward is not None:
                with contextlib.suppress(Exception):  # a closed or odd output must not fail the call
                    self.forward(data)

    def reply(self) -> dict[str, Any]:
        return {"head": "".join(self.kept), "bytes": self.total}


class DescriptorCapture:
    """Descriptors 1 and 2 point at a pipe during one call, and a thread hands what arrives to the
    call's CallOutput: os.write, sys.__stdout__ and C code's writes belong to the call that made
    them, and are shown only where its test is shown (a hidden test's stay hidden). Where the
    descriptors cannot be redirected (the student's code closed them), only `print` is captured."""

    def __init__(self, output: CallOutput) -> None:
        self.output = output
        self.saved = os.dup(1)  # raises where descriptor 1 is closed: nothing to redirect
        self.read_end, write_end = os.pipe()
        _flush_everything()  # what was buffered before the call is not the call's
        os.dup2(write_end, 1)
        os.dup2(write_end, 2)
        os.close(write_end)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def forward(self, data: bytes) -> None:
        os.write(self.saved, data)

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        with contextlib.suppress(OSError):  # the student's code closed the pipe: nothing more comes
            while data := os.read(self.read_end, 1 << 16):
                self.output.take(decoder.decode(data), data)
        self.output.take(decoder.decode(b"", final=True), b"")

    def close(self) -> None:
        """Everything the call buffered is written and read; the descriptors are the worker's again.
        A copy of the pipe that the student's code kept (a dup, a child) keeps it open: its reader is
        then left behind after READER_PATIENCE, with what comes later, which no test shows."""
        _flush_everything()
        for descriptor in (1, 2):
            try:
                os.dup2(self.saved, descriptor)
            except OSError:  # the student's code closed the worker's output: nothing is written any more
                _to_nowhere(descriptor)
        self.reader.join(READER_PATIENCE)
        # The student's code may have closed either already (every descriptor 3-63, say).
        for descriptor in ([] if self.reader.is_alive() else [self.read_end]) + [self.saved]:
            with contextlib.suppress(OSError):
                os.close(descriptor)


READER_PATIENCE = 0.5  # seconds a call's output reader waits for a pipe kept open by student code


def _to_nowhere(descriptor: int) -> None:
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, descriptor)
    os.close(nowhere)


def _flush_everything() -> None:
    """Python's and C's buffered writes to descriptors 1 and 2, written now."""
    for stream in (sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            stream.flush()
    with contextlib.suppress(Exception):
        _LIBC.fflush(None)


_LIBC = ctypes.CDLL(None) if os.name == "posix" else None


@contextlib.contextmanager
def captured_output() -> Any:
    """What a call's code writes goes to a CallOutput: `print`, sys.stdout and sys.stderr, and
    (where the descriptors can be redirected) descriptors 1 and 2."""
    output, saved = CallOutput(), (sys.stdout, sys.stderr)
    try:
        descriptors = DescriptorCapture(output)
        output.forward = descriptors.forward
    except OSError:
        descriptors = None
    sys.stdout = sys.stderr = output
    try:
        yield output
    finally:
        sys.stdout, sys.stderr = saved
        if descriptors is not None:
            descriptors.close()


def _unrecorded(model: Callable) -> Callable:
    """The grader's model as the student receives it: its operators are not the student's."""
    def forward(images):
        with instruments.not_recorded():
            return model(images)
    return forward


def serve(sock: socket.socket, init: dict[str, Any], context: Context) -> None:
    """Load the student's file of one step, then answer calls until told to stop."""
    step_id, submission = init["step"], Path(init["submission"])
    student_file = submission / f"{step_id}.py"
    student_files = tuple(os.path.realpath(p) for p in submission.glob("*.py"))
    note_memory_limit(int(init["memory"]))
    if init.get("threads"):  # two steps at once share the cores: more threads would only wait on each other
        import torch

        torch.set_num_threads(int(init["threads"]))
    if not student_file.exists():
        protocol.send(sock, {"type": "load_error", "kind": "missing", "file": str(student_file)})
        _until_stopped(sock)
        return
    from grader.student import load_step_file

    install_recorders(step_id)
    evidence = LOG.forbidden
    try:  # the file's top level is the student's code too: what it runs there is recorded
        with captured_output() as printed, instruments.recording(step_id, evidence):
            module = load_step_file(student_file)
    except BaseException as error:  # noqa: BLE001 - any failure of the student's import is reported
        protocol.send(sock, {"type": "load_error", "kind": type(error).__name__, "file": student_file.name,
                             "error": describe_error(error, student_files), **_syntax_details(error),
                             "printed": printed.reply()})
        _until_stopped(sock)
        return
    # E.g. timm imported at the top of the file: held here, where no call of the student's can edit
    # it, and added to every call's record.
    at_import = frozenset(evidence | _replaced(evidence))
    record_own_calls(module, init["functions"])
    protocol.send(sock, {"type": "ready", "functions": sorted(
        n for n in init["functions"] if callable(getattr(module, n, None))), "printed": printed.reply()})
    while True:
        header, arrays = protocol.receive(sock)
        if header.get("op") != "call":
            return
        with captured_output() as printed:
            reply, out_arrays = _call(module, header, arrays, context, student_files, at_import)
        protocol.send(sock, {**reply, "printed": printed.reply()}, out_arrays)


def _until_stopped(sock: socket.socket) -> None:
    """After a file that did not load: wait for the judge's `stop`, as after any step. A worker
    that serves the next step (the portable runner's) must not take that `stop` for the next
    step's message, and one that ends (C3) must not leave the judge writing to a closed socket."""
    with contextlib.suppress(EOFError, OSError, protocol.ProtocolError):
        protocol.receive(sock)


def note_memory_limit(limit: int) -> None:
    """The limit a MemoryError's message names (bytes)."""
    global memory_limit
    memory_limit = limit


_GUARD: list[instruments.ImportGuard] = []  # one per process: its hooks cannot be removed, only re-aimed


def prepare_recorders() -> None:
    """The step-independent recorders (torch's library names, the doors past the recording), in a
    process that forks step processes (the zygote): done once there, each fork inherits them
    instead of touching every torch module's namespace again (tens of milliseconds of
    copy-on-write per step, 19 ms in a submission's worker parent)."""
    instruments.note_library_names()
    instruments.guard_instruments(LOG.forbidden.add)


def install_recorders(step_id: str) -> None:
    """The recorders of library names and imports, installed once per process and aimed at
    `step_id`'s rules (before any student code: a portable worker snapshots its interpreter after)."""
    from grader.steps import get_step

    prepare_recorders()  # nothing to do where the parent installed them
    LOG.step = step_id
    if _GUARD:
        _GUARD[0].step = get_step(step_id)
        return
    _GUARD.append(instruments.ImportGuard(LOG.forbidden, get_step(step_id)))
    _GUARD[0].install()


def forget_step() -> None:
    """What serving one step left in this process, undone for the next step of the same worker:
    the call log, the bindings and the student's loaded files (the references stay)."""
    from grader.student import forget_steps

    LOG.step = ""
    LOG.clear()
    forget_steps(list(REFERENCES.values()))


def _syntax_details(error: BaseException) -> dict[str, Any]:
    if isinstance(error, SyntaxError):
        return {"line": error.lineno, "text": (error.text or "").rstrip(), "message": error.msg}
    return {}


def _replaced(evidence: set[str]) -> set[str]:
    """The finding when the student's code replaced LOG's record (reaching it through sys.modules)."""
    return set() if LOG.forbidden is evidence else {instruments.ERASED}


def _call(module: ModuleType, header: dict, arrays: dict, context: Context,
          student_files: tuple[str, ...], at_import: frozenset[str] = frozenset()) -> tuple[dict, dict]:
    LOG.clear()
    evidence = LOG.forbidden
    try:
        function = getattr(module, header["fn"])
        args = [decode_value(a, arrays, context) for a in header.get("args", [])]
        kwargs = {k: decode_value(v, arrays, context) for k, v in header.get("kwargs", {}).items()}
        before = [_as_sent(spec, context) or [t.clone() for t in tensors_of(value)]
                  for spec, value in zip(header.get("args", []), args)]
        with instruments.recording(LOG.step, evidence):
            result = function(*args, **kwargs)
        out: dict[str, np.ndarray] = {}
        reply = {"type": "result", "ok": True, "value": encode_value(result, out, "r"),
                 "modified": _modified(args, before)}
    except BaseException as error:  # noqa: BLE001 - SystemExit and KeyboardInterrupt included
        out, reply = {}, {"type": "result", "ok": False, "error": describe_error(error, student_files)}
    reply["used"], reply["forbidden"] = sorted(LOG.used), sorted(evidence | _replaced(evidence) | at_import)
    reply["passed"] = [list(entry) for entry in sorted(LOG.passed)]
    reply["call"] = header.get("id")  # which call this answers (the judge checks it)
    return reply, out

