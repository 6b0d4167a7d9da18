"""The isolation matrix: one broken step costs that step alone, in every runner, whatever breaks.

Each submission is the reference solutions with ONE step broken in one way (a syntax error; an
exception, `sys.exit`, `os._exit` at import; closing every inherited descriptor at import; killing
its parent process at import; a segfault, `os._exit`, an endless loop, a memory bomb inside a call;
garbage written to every descriptor 3-63 inside a call; writes to fds 1 and 2). Every way comes in
several variants (different code, the same way of breaking); by default each step gets one of them,
in turn, and `--all-variants` grades every variant in every step.

Each runner grades every submission and the unbroken solutions (the baseline):
  default     the zygote, as `vitgrade grade` grades one submission (with the step run ahead)
  portable    the portable runner, on this Linux simulating macOS (tests/portable/macos)
  jobs2       a class folder of all of them, `vitgrade grade CLASS --jobs 2`
  gradescope  the bundle's own grading path, `grader.platforms.gradescope.run_autograder`

A violation is: a step other than the broken one whose points, status or any test's status differ
from the baseline's; a broken step whose failure does not say what happened (or blames the student
for what the kit did: garbled messages, an unexpected end, an internal error); a way that must cost
nothing (writes to fds 1 and 2) costing something; a submission with no result at all. The script
prints a table (one row per step and way, one column per runner) and exits 1 on any violation.

    python tests/isolation_matrix.py                       # everything (about an hour on two busy cores)
    python tests/isolation_matrix.py --steps 01,08 --ways segfault_call,kill_parent_import --runners default
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KIT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(KIT))

from grader import paths  # noqa: E402
from grader.steps import STEP_IDS, get_step  # noqa: E402

#: macOS simulated: no fork, fd passing, prctl/unshare/mount; `resource` kept, so that the memory
#: bombs meet the workers' RLIMIT_DATA rather than this machine's end of memory.
SIMULATION = KIT / "tests" / "portable" / "macos"
RUNNERS = ("default", "portable", "jobs2", "gradescope")
TIMEOUT = 15.0  # seconds per step: enough for every correct step on a busy machine, and for the matrix
#: Phrases that put on the student what only the kit can cause (every way but the garbage one may
#: not see "garbled"; none may see the others).
KIT_FAULTS = ("ended unexpectedly", "internal grader error", "could not prepare", "calls made ahead")
GARBLED = "garbled"
#: 07_head's report of the student's own chain (steps 01-06 their own), worth no points: a broken
#: earlier step breaks it by design.
OWN_CHAIN = "your own chain"


@dataclass(frozen=True)
class Way:
    """One way a step breaks: where its code runs, the variants of that code, and what an honest
    result of the broken step says."""

    id: str
    where: str  # "import": lines at the file's top level, after its functions; "call": a function's body
    variants: tuple[str, ...]
    clue: str  # a regular expression every failure of the broken step matches (its honest reason)
    fails: bool = True  # the step cannot pass (False: the kit may survive it, correct code keeping its points)
    free: bool = False  # the student's own output: costs nothing at all
    garbles: bool = False  # "garbled" is the honest word for what this way does


WAYS: tuple[Way, ...] = (
    Way("syntax_error", "import", (
        "def broken(:\n    pass\n",
        "values = (1, 2,\n",
        "  indented = True\n",
        "return 5\n",
    ), r"syntax error|SyntaxError|IndentationError"),
    Way("raise_import", "import", (
        "raise RuntimeError('unfinished')\n",
        "1 / 0\n",
        "import vitgrade_no_such_module\n",
    ), r"importing your file failed"),
    Way("sys_exit_import", "import", (
        "import sys\nsys.exit(0)\n",
        "raise SystemExit('bye')\n",
        "import sys\nsys.exit(3)\n",
    ), r"SystemExit"),
    Way("os_exit_import", "import", (
        "import os\nos._exit(0)\n",
        "import os as _o\n_o._exit(7)\n",
    ), r"exit status|ended the worker"),
    Way("close_fds_import", "import", (
        "import os\nos.closerange(3, 65536)\n",
        "import os\nfor _fd in [int(n) for n in os.listdir('/proc/self/fd')]:\n"
        "    try:\n        os.close(_fd) if _fd > 2 else None\n    except OSError:\n        pass\n",
    ), r"descriptor", fails=False),
    Way("kill_parent_import", "import", (
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
        "import os, signal, time\nos.kill(os.getppid(), signal.SIGTERM)\ntime.sleep(0.5)\n",
    ), r"SIGKILL|SIGTERM", fails=False),
    Way("segfault_call", "call", (
        "import ctypes\nctypes.string_at(0)",
        "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)",
        "import ctypes\nctypes.memset(8, 0, 64)",
    ), r"SIGSEGV|segmentation"),
    Way("os_exit_call", "call", (
        "import os\nos._exit(4)",
        "import os as _o\n_o._exit(0)",
    ), r"exit status|ended the worker"),
    Way("loop_call", "call", (
        "while True:\n    pass",
        "import itertools\nfor _ in itertools.count():\n    pass",
        "import time\ntime.sleep(10 ** 6)",
    ), r"time limit|timed out|Timed out"),
    Way("memory_call", "call", (
        "kept = []\nwhile True:\n    kept.append(bytearray(1 << 26))",
        "import torch\nkept = [torch.ones(1 << 28) for _ in range(1 << 12)]",
        "import numpy\nkept = [numpy.ones(1 << 27) for _ in range(1 << 12)]",
    ), r"[Mm]emory|SIGKILL|time limit|[Tt]imed out"),  # filling gigabytes may take longer than the limit
    Way("garbage_fds_call", "call", (
        "import os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, b'garbage' * 64)\n"
        "    except OSError:\n        pass",
        "import os, struct\nfor fd in range(3, 64):\n    try:\n"
        "        os.write(fd, struct.pack('<QQ', 17, 0) + b'{\"type\": \"ready\"}')\n    except OSError:\n        pass",
    ), r"garbled|descriptor", fails=False, garbles=True),
    Way("stdout_stderr_call", "call", (
        "import os, sys\nos.write(1, b'to fd 1\\n')\nos.write(2, b'to fd 2\\n')\n"
        "sys.__stdout__.write('to sys.__stdout__\\n')\nsys.__stdout__.flush()",
        "import os\nos.write(1, b'x' * 200000)\nos.write(2, b'\\xff\\xfe not utf-8\\n')",
    ), r"^$", fails=False, free=True),
)
WAY_IDS = tuple(w.id for w in WAYS)


def broken_source(step_id: str, way: Way, variant: int) -> str:
    """The solution of `step_id` broken in `way`: the import ways add lines after its functions; the
    call ways replace one of its functions (the first, last, ... in turn by variant) by one whose
    body breaks, then hands the call on to the correct one."""
    source = paths.step_file(paths.SOLUTIONS, step_id).read_text()
    code = way.variants[variant % len(way.variants)]
    if way.id == "syntax_error" and variant % len(way.variants) == 3:
        return code + source  # a `return` first
    if way.where == "import":
        return f"{source}\n\n{code}"
    functions = get_step(step_id).functions
    name = functions[-1 if variant % 2 else 0]
    body = "\n".join("    " + line for line in code.splitlines())
    return (f"{source}\n\n_correct_{name} = {name}\n\n\ndef {name}(*args, **kwargs):\n{body}\n"
            f"    return _correct_{name}(*args, **kwargs)\n")


@dataclass
class Case:
    """One broken submission."""

    step: str
    way: Way
    variant: int

    @property
    def name(self) -> str:
        return f"{self.step}--{self.way.id}--v{self.variant % len(self.way.variants)}"


def write_submission(folder: Path, cases: list[Case]) -> Path:
    """The solutions copied into `folder`, each case's step broken its way (none: the baseline)."""
    folder.mkdir(parents=True, exist_ok=True)
    broken = {case.step: case for case in cases}
    for step_id in STEP_IDS:
        case = broken.get(step_id)
        text = paths.step_file(paths.SOLUTIONS, step_id).read_text() if case is None else \
            broken_source(case.step, case.way, case.variant)
        (folder / f"{step_id}.py").write_text(text)
    folder.chmod(0o755)
    return folder


# ---------------------------------------------------------------- a runner's results, one shape

#: step id -> {"score", "status", "tests": {name: (status, message)}, "notes": [...]}
Graded = dict[str, dict[str, Any]]


def from_contract(document: dict[str, Any]) -> Graded:
    """The result contract (JSON) as the matrix compares it."""
    return {step["id"]: {"score": float(step["score"]), "status": step["status"],
                         "tests": {t["name"]: (t["status"], t.get("message") or "") for t in step["tests"]},
                         "notes": list(step.get("notes") or [])}
            for step in document["steps"]}


def from_gradescope(document: dict[str, Any]) -> Graded:
    """results.json as the matrix compares it: tests named `STEP · test`, points per test; the
    step's status is not in it (None), the overview text stands in for its notes."""
    graded: Graded = {}
    for test in document.get("tests", []):
        step_id, name = test["name"].split(" · ", 1)
        step = graded.setdefault(step_id, {"score": 0.0, "status": None, "tests": {}, "notes": []})
        step["score"] = round(step["score"] + float(test["score"]), 4)
        step["tests"][name] = (test["status"], test.get("output") or "")
    for step in graded.values():
        step["notes"] = [str(document.get("output", ""))]
    return graded


# ---------------------------------------------------------------- grading, in a child process per runner

def _batch(runner: str, out: Path, submissions: list[Path]) -> None:
    """(In a child process) grade `submissions` one after the other with one runner, each result
    written to `out` as soon as it is graded: a judge that dies loses no earlier result."""
    if runner == "gradescope":
        _batch_gradescope(out, submissions)
        return
    from grader.results import as_dict
    from grader.judge.grading import Grader, GradeOptions

    grader = Grader(GradeOptions(timeout=TIMEOUT))
    try:
        for submission in submissions:
            document = as_dict(grader.grade(submission))
            (out / f"{submission.name}.json").write_text(json.dumps(document))
            print(f"graded {submission.name}", flush=True)
    finally:
        grader.close()


def _batch_gradescope(out: Path, submissions: list[Path]) -> None:
    """run_autograder on each submission as the bundle runs it (step by step within a deadline),
    every Grader it makes served by one runner: the torch import once, not once per submission."""
    from grader.platforms import gradescope
    from grader.launch import runners

    shared = runners.new_runner()

    class KeptOpen:  # closing a Grader leaves the shared runner running for the next submission
        def __getattr__(self, name: str) -> Any:
            return getattr(shared, name)

        def close(self) -> None:
            pass

    runners.new_runner = KeptOpen  # type: ignore[assignment]
    try:
        for submission in submissions:
            root = Path(tempfile.mkdtemp(prefix="gradescope-", dir=out.parent))
            shutil.copytree(submission, root / "submission")
            within = len(STEP_IDS) * TIMEOUT + 60
            gradescope.run_autograder(root, TIMEOUT, deadline=time.monotonic() + within)
            shutil.copy(root / "results" / "results.json", out / f"{submission.name}.json")
            shutil.rmtree(root, ignore_errors=True)
            print(f"graded {submission.name}", flush=True)
    finally:
        shared.close()


def _environment(runner: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(KIT), "OMP_NUM_THREADS": "1"}
    env.pop("VITGRADE_RUNNER", None)
    if runner == "portable":
        env["PYTHONPATH"] = os.pathsep.join([str(SIMULATION), str(KIT)])
    return env


def grade_all(runner: str, submissions: list[Path], out: Path, log: Any) -> dict[str, Any]:
    """Every submission's result with `runner` ({name: document}); a submission the runner left
    without a result is graded again alone, so that one judge's death is charged to its cause."""
    out.mkdir(parents=True, exist_ok=True)
    if runner == "jobs2":
        _grade_class(submissions, out, log)
    else:
        _run_batch(runner, submissions, out, log)
        for submission in [s for s in submissions if not (out / f"{s.name}.json").exists()]:
            print(f"  {runner}: no result for {submission.name}; graded again alone", file=log, flush=True)
            _run_batch(runner, [submission], out, log)
    return {s.name: json.loads((out / f"{s.name}.json").read_text())
            for s in submissions if (out / f"{s.name}.json").exists()}


def _run_batch(runner: str, submissions: list[Path], out: Path, log: Any) -> None:
    command = [sys.executable, str(Path(__file__).resolve()), "--batch", runner, str(out), *map(str, submissions)]
    budget = len(submissions) * (len(STEP_IDS) * TIMEOUT + 120)
    with subprocess.Popen(command, env=_environment(runner), cwd=KIT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as process:
        started = time.monotonic()
        for line in process.stdout:  # type: ignore[union-attr]
            print(f"  {runner}: {line.rstrip()}  ({time.monotonic() - started:.0f} s)", file=log, flush=True)
        try:
            process.wait(timeout=budget)
        except subprocess.TimeoutExpired:
            process.kill()


def _grade_class(submissions: list[Path], out: Path, log: Any) -> None:
    """`vitgrade grade CLASS --jobs 2`: the submissions as one class folder, each result kept."""
    with tempfile.TemporaryDirectory(prefix="class-", dir=out.parent) as work:  # beside the results, as --keep says
        klass = Path(work) / "class"
        klass.mkdir()
        for submission in submissions:
            (klass / submission.name).symlink_to(submission, target_is_directory=True)
        report = Path(work) / "class.json"
        command = [sys.executable, "-m", "grader.cli", "grade", str(klass), "--jobs", "2", "--timeout", str(TIMEOUT),
                   "--format", "json", "--output", str(report)]
        print(f"  jobs2: {' '.join(command[1:])}", file=log, flush=True)
        run = subprocess.run(command, env=_environment("jobs2"), cwd=KIT, capture_output=True, text=True,
                             timeout=len(submissions) * (len(STEP_IDS) * TIMEOUT + 60))
        if not report.exists():
            print(f"  jobs2: no report (exit {run.returncode}): {run.stderr.strip()[-500:]}", file=log, flush=True)
            return
        document = json.loads(report.read_text())
        for result in document if isinstance(document, list) else document.get("submissions", [document]):
            name = Path(result["submission"]).name
            (out / f"{name}.json").write_text(json.dumps(result))


# ---------------------------------------------------------------- judging the results

@dataclass
class Verdict:
    """What the matrix found for one submission in one runner."""

    cell: str  # short: the broken step's points and status, or what went wrong
    violations: list[str] = field(default_factory=list)
    gone_alone: list[str] = field(default_factory=list)  # violations that graded again alone did not repeat


def judge(case: Case, graded: Graded | None, baseline: Graded) -> Verdict:
    if graded is None:
        return Verdict("NO RESULT", ["no result at all: the judge did not survive the submission"])
    broken, expected = graded.get(case.step), baseline[case.step]
    cell = "MISSING" if broken is None else (
        f"{broken['score']:g}/{expected['score']:g}" + ("" if broken["status"] is None else f" {broken['status']}"))
    return Verdict(cell, violations([case], graded, baseline))


def violations(cases: list[Case], graded: Graded, baseline: Graded) -> list[str]:
    """Everything wrong with one graded submission whose steps `cases` are broken (one each): the
    other steps as in the baseline, each broken step honest."""
    broken = {case.step for case in cases}
    problems: list[str] = []
    for step_id, expected in baseline.items():
        got = graded.get(step_id)
        if got is None:
            problems.append(f"{step_id} missing from the result")
        elif step_id not in broken:
            problems += _kept(step_id, got, expected)
    for case in cases:
        if case.step in graded:
            problems += _honesty(case, graded[case.step], baseline[case.step])
    return problems


def _kept(step_id: str, got: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """Whether an unbroken step kept exactly its points, status and test statuses."""
    problems = []
    if got["score"] != expected["score"] or got["status"] != expected["status"]:
        problems.append(f"{step_id} {got['score']:g} ({got['status']}), "
                        f"not {expected['score']:g} ({expected['status']})")
    for name, (status, message) in got["tests"].items():
        if not name.startswith(OWN_CHAIN) and expected["tests"].get(name, (None,))[0] != status:
            problems.append(f"{step_id} · {name}: {status}: {message.splitlines()[0] if message else ''}")
    return problems


def _honesty(case: Case, broken: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """What the broken step's own result must say: the way's clue, no blame for the kit's faults."""
    way, problems = case.way, []
    failures = [(name, message) for name, (status, message) in broken["tests"].items() if status != "passed"]
    words = [message for _, message in failures] + broken["notes"]
    faults = KIT_FAULTS + (() if way.garbles else (GARBLED,))
    for text in words:
        for fault in faults:
            if fault in text:
                problems.append(f"{case.step} blames the student for the kit: …{_around(text, fault)}…")
    if way.free:
        if broken["score"] != expected["score"]:
            problems.append(f"{case.step} lost points for writing to fds 1 and 2: "
                            f"{broken['score']:g}/{expected['score']:g}")
        return problems
    if way.fails and not failures:
        problems.append(f"{case.step} passed although broken ({way.id})")
    for name, message in failures:
        if not re.search(way.clue, message):
            first = message.splitlines()[0] if message else "(no message)"
            problems.append(f"{case.step} · {name} does not say what happened ({way.id}): {first[:160]}")
    return problems


def _around(text: str, phrase: str) -> str:
    at = text.find(phrase)
    return text[max(0, at - 60): at + 60].replace("\n", " ")


# ---------------------------------------------------------------- the command

def _choose(given: str | None, every: tuple[str, ...], what: str) -> tuple[str, ...]:
    if not given:
        return every
    chosen = []
    for word in given.split(","):
        found = [item for item in every if item == word or item.startswith(word.zfill(2) + "_")]
        if not found:
            raise SystemExit(f"unknown {what} {word!r}; choose from {', '.join(every)}")
        chosen += found
    return tuple(chosen)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python tests/isolation_matrix.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", help="steps to break, by id or number, comma-separated "
                        f"(default: all): {','.join(STEP_IDS)}")
    parser.add_argument("--ways", help=f"ways to break them, comma-separated (default: all): {','.join(WAY_IDS)}")
    parser.add_argument("--runners", help=f"runners, comma-separated (default: all): {','.join(RUNNERS)}")
    parser.add_argument("--all-variants", action="store_true",
                        help="every variant of every way in every step (default: one variant per step, in turn)")
    parser.add_argument("--keep", type=Path, help="write the submissions and results here, and keep them "
                        "(default: a temporary folder, removed at the end)")
    parser.add_argument("--json", type=Path, help="also write every verdict here, as JSON")
    parser.add_argument("--batch", nargs="+", help=argparse.SUPPRESS)  # RUNNER OUT SUBMISSION...: the child
    return parser


def cases_for(steps: tuple[str, ...], ways: tuple[str, ...], all_variants: bool) -> list[Case]:
    chosen = [w for w in WAYS if w.id in ways]
    if all_variants:
        return [Case(s, w, v) for s in steps for w in chosen for v in range(len(w.variants))]
    return [Case(s, w, STEP_IDS.index(s)) for s in steps for w in chosen]


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    if arguments.batch:
        runner, out, *submissions = arguments.batch
        _batch(runner, Path(out), [Path(s) for s in submissions])
        return 0
    steps = _choose(arguments.steps, STEP_IDS, "step")
    ways = _choose(arguments.ways, WAY_IDS, "way")
    runners = _choose(arguments.runners, RUNNERS, "runner")
    cases = cases_for(steps, ways, arguments.all_variants)
    work = arguments.keep or Path(tempfile.mkdtemp(prefix="vitgrade-matrix-"))
    try:
        baseline_folder = write_submission(work / "submissions" / "baseline", [])
        folders = [write_submission(work / "submissions" / case.name, [case]) for case in cases]
        verdicts: dict[tuple[str, str], Verdict] = {}
        for runner in runners:
            started = time.monotonic()
            print(f"{runner}: grading {len(folders) + 1} submissions", file=sys.stderr, flush=True)
            documents = grade_all(runner, [baseline_folder, *folders], work / "results" / runner, sys.stderr)
            read = from_gradescope if runner == "gradescope" else from_contract
            if "baseline" in documents and not _full_marks(read(documents["baseline"])):  # a busy machine's
                print(f"{runner}: the solutions lost points; graded again alone", file=sys.stderr, flush=True)
                documents.update(grade_all(runner, [baseline_folder], work / "again" / runner, sys.stderr))
            if "baseline" not in documents or not _full_marks(read(documents["baseline"])):
                print(f"{runner}: the unbroken solutions got no full marks", file=sys.stderr)
                verdicts.update({(c.name, runner): Verdict("NO BASELINE", ["the solutions got no full marks"])
                                 for c in cases})
                continue
            baseline = read(documents["baseline"])
            for case in cases:
                document = documents.get(case.name)
                verdicts[case.name, runner] = judge(case, read(document) if document else None, baseline)
            _grade_again_alone(runner, [c for c in cases if verdicts[c.name, runner].violations], work, verdicts,
                               baseline)
            print(f"{runner}: done in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
        return _report(cases, runners, verdicts, arguments.json)
    finally:
        if arguments.keep is None:
            shutil.rmtree(work, ignore_errors=True)


def _full_marks(baseline: Graded) -> bool:
    """Whether the unbroken solutions passed every test (what every broken submission is compared with)."""
    return all(status == "passed" for step in baseline.values() for status, _ in step["tests"].values())


def _grade_again_alone(runner: str, cases: list[Case], work: Path, verdicts: dict[tuple[str, str], Verdict],
                       baseline: Graded) -> None:
    """Each submission with a violation, graded again alone (a class of one for jobs2): a violation
    that does not repeat was the machine's load (a correct step past its time limit on busy
    cores), and is reported apart; one that repeats stays a violation."""
    read = from_gradescope if runner == "gradescope" else from_contract
    for case in cases:
        print(f"{runner}: {case.name} graded again alone", file=sys.stderr, flush=True)
        folder = work / "submissions" / case.name
        documents = grade_all(runner, [folder], work / "again" / runner, sys.stderr)
        document = documents.get(case.name)
        again = judge(case, read(document) if document else None, baseline)
        if not again.violations:
            first = verdicts[case.name, runner]
            verdicts[case.name, runner] = Verdict(again.cell, [], first.violations)


def _report(cases: list[Case], runners: tuple[str, ...], verdicts: dict[tuple[str, str], Verdict],
            json_file: Path | None) -> int:
    """The table, then every violation; 1 if there is any."""
    width = max(len(c.name) for c in cases) if cases else 10
    print(f"{'submission':<{width}}  " + "  ".join(f"{r:<18}" for r in runners))
    violations, gone = [], []
    for case in cases:
        cells = []
        for runner in runners:
            verdict = verdicts[case.name, runner]
            mark = "BAD " if verdict.violations else "ok* " if verdict.gone_alone else "ok "
            cells.append(f"{mark + verdict.cell:<18}")
            violations += [f"{case.name} [{runner}]: {v}" for v in verdict.violations]
            gone += [f"{case.name} [{runner}]: {v}" for v in verdict.gone_alone]
        print(f"{case.name:<{width}}  " + "  ".join(cells))
    print(f"\n{len(cases)} submissions x {len(runners)} runners: {len(violations)} violations")
    for violation in violations:
        print(f"  {violation}")
    if gone:
        print(f"\nok*: {len(gone)} violations that graded again alone did not repeat (the machine's load):")
        for violation in gone:
            print(f"  {violation}")
    if json_file is not None:
        json_file.write_text(json.dumps({f"{name} [{runner}]": {"cell": v.cell, "violations": v.violations}
                                         for (name, runner), v in verdicts.items()}, indent=1))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
