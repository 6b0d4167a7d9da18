"""Grading whole submissions: every requested step, in order, with reference earlier steps where
the solutions are present, then a tamper check of the fixtures.

One submission is one pytest session (`suite_session`) over a plan of step runs, served by one
worker from the runner (`grader.launch.runners`): a fresh process per step from a parent no
student code ran in.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from grader import paths
from grader.expected.store import (VISIBILITIES, FixtureError, load_cases, load_manifest, sha256_of,
                                   stale_fingerprints, verify)
from grader.judge import scan
from grader.judge.ahead import RunAhead
from grader.judge.suite_session import StepRun, run_session
from grader.launch import runners
from grader.launch.protocol import ProtocolError
from grader.launch.step_worker import StepWorker, SubmissionWorker
from grader.paths import MANIFEST
from grader.results import StepResult, SubmissionResult, TestResult
from grader.steps import DEFAULT_MEMORY, DEFAULT_TIMEOUT, STEP_IDS, STEPS, Step
from grader.suites.support import wire_arguments


@dataclass
class GradeOptions:
    """How to grade; the CLI's options, with the defaults students get."""

    hidden: bool = True
    """Include hidden cases (only where the hidden fixtures exist)."""
    references: bool = True
    """Use the reference solutions of earlier steps where present (one mistake costs once)."""
    timeout: float = DEFAULT_TIMEOUT
    memory: int = DEFAULT_MEMORY
    fixtures: Path = paths.FIXTURES
    steps: tuple[str, ...] = STEP_IDS
    functions: tuple[str, ...] | None = None
    """Only the cases of these functions (None: all); the kit's own tests grade one function's mistake."""
    on_step: Callable[[str], None] | None = None
    """Called as each step starts (progress display); None when grading in a pool of processes."""
    ahead: bool = True
    """Run the step with the model forwards ahead, beside the others, where the runner allows it;
    off where several judges share the cores already."""
    threads: int | None = None
    """Torch threads in each worker (None: torch's choice); one where several judges share the cores."""


def _references(step: Step, use: bool) -> dict[str, str]:
    """Reference files of the steps before `step`, never of `step` itself."""
    if not use:
        return {}
    refs = {}
    for earlier in STEP_IDS[: STEP_IDS.index(step.id)]:
        path = paths.step_file(paths.SOLUTIONS, earlier)
        if not path.exists():
            return {}
        refs[earlier] = str(path)
    return refs


@dataclass
class _Planned:
    """One run of a submission's session before it starts: a step graded with some options."""

    run: StepRun
    references: dict[str, str]
    options: GradeOptions
    kind: str  # "main": the step's result; "status": whether an earlier step passes; "own chain"
    init: dict  # what its worker is told: the step, its functions, references and limits


class Grader:
    """One grading run: fixtures verified and loaded once, one runner shared by every submission."""

    def __init__(self, options: GradeOptions, early: runners.EarlyRunner | None = None) -> None:
        """`early`: the runner its command started early, taken here (None: a new one, started now)."""
        self.options = options
        # First: its torch import overlaps the fixture checks below.
        self.runner = early.take() if early is not None else runners.new_runner()
        try:
            self.manifest = load_manifest(options.fixtures)
            self._manifest_sha256 = sha256_of(Path(options.fixtures) / MANIFEST)
            problems = verify(options.fixtures, self.manifest)
            if problems:
                raise FixtureError(f"fixtures do not match the manifest: {problems[0]}")
            # Absolute: the worker opens it from inside its view, whose current folder is the root.
            self.checkpoint_file = str((Path(options.fixtures) / self.manifest["checkpoint"]["file"]).absolute())
            # Every case is read now, while the runner imports torch, and before any student code
            # runs: where the files stay writable (no read-only view), no step can then change what
            # later steps are judged by.
            self._cases: dict[tuple[str, str], list] = {}
            for step_id in STEP_IDS:
                for visibility in VISIBILITIES:
                    self.cases(step_id, visibility)
            # The runner's survey (waited for here) says whether its workers see the fixtures.
            self.confine = self.runner.confines_files()
        except BaseException:
            self.runner.close()
            raise
        self._worker: SubmissionWorker | None = None

    def cases(self, step_id: str, visibility: str) -> list:
        """A step's cases, read (and hash-checked) as the grader starts."""
        key = (step_id, visibility)
        if key not in self._cases:
            self._cases[key] = load_cases(step_id, visibility, self.options.fixtures, self.manifest)
            for case in self._cases[key]:  # the diagnosis of a wrong value may read parameters
                case.extra["checkpoint"] = self.checkpoint_file
        return self._cases[key]

    def _tampering(self) -> list[str]:
        """Fixture files changed since grading started, the manifest itself included."""
        manifest = Path(self.options.fixtures) / MANIFEST
        changed = [] if manifest.is_file() and sha256_of(manifest) == self._manifest_sha256 else \
            [f"{MANIFEST}: {'modified' if manifest.is_file() else 'missing'}"]
        return changed + verify(self.options.fixtures, self.manifest)

    def close(self) -> None:
        self.runner.close()

    def grade(self, submission: Path, steps: tuple[str, ...] | None = None,
              ahead: bool | None = None) -> SubmissionResult:
        """All chosen steps of one submission; `ahead` overrides the options' choice of running the
        step with the model forwards ahead (a pool's last submission, with a core left idle)."""
        submission = Path(submission).resolve()
        chosen = [step for step in STEPS if step.id in (steps or self.options.steps)]
        plan = self._plan(chosen, submission, {}, self.options)
        self._run_session(submission, plan, self.options.ahead if ahead is None else ahead)
        results = self._main_results(plan, submission)
        checkpoint = {k: self.manifest["checkpoint"][k] for k in ("id", "kind", "sha256")}
        tampering = self._tampering()
        return SubmissionResult(submission=_display(submission), checkpoint=checkpoint, steps=results,
                                sandbox=self.runner.report(self.options.memory), tampering=tampering,
                                fixtures=self._manifest_sha256,
                                stale_fingerprints=stale_fingerprints(self.manifest, self._manifest_sha256))

    def grade_step(self, step: Step, submission: Path, statuses: dict[str, str],
                   options: GradeOptions | None = None) -> StepResult:
        """One step alone, given what is known of earlier steps' statuses (the kit's own tests)."""
        submission = Path(submission).resolve()
        plan = self._plan([step], submission, statuses, options or self.options)
        self._run_session(submission, plan, self.options.ahead)
        return self._main_results(plan, submission)[0]

    # ------------------------------------------------------------ the plan of one session

    def _plan(self, chosen: list[Step], submission: Path, known: dict[str, str],
              options: GradeOptions) -> list[_Planned]:
        """The runs of one session in order: each chosen step, preceded (without references) by
        a visible-only run of each earlier step whose status is still unknown, and followed in
        07_head (with references) by the student's own chain."""
        statuses = dict(known)  # filled in as the session's runs finish
        planned: list[_Planned] = []
        settled = set(known)
        for step in chosen:
            refs = _references(step, options.references)
            first = len(planned)
            if not refs:
                quiet = replace(options, hidden=False, references=False)
                for earlier in STEPS[: STEP_IDS.index(step.id)]:
                    if earlier.id not in settled and paths.step_file(submission, earlier.id).exists():
                        planned.append(self._planned(earlier, {}, quiet, "status", statuses))
                        settled.add(earlier.id)
            planned.append(self._planned(step, refs, options, "main", statuses))
            settled.add(step.id)
            if refs and step.id == "07_head" and "vit_forward" in (options.functions or ("vit_forward",)):
                main = planned[-1].run
                own = replace(options, hidden=False, references=False, functions=("vit_forward",))
                chain = self._planned(step, {}, own, "own chain", statuses)
                # After a call that ran out the step's time with the references, the own chain
                # would run the same code again, for another whole time limit.
                chain.run.wanted = lambda main=main: (main.result is not None and not main.timed_out
                                                      and main.result.status != "not_attempted")
                planned.append(chain)
            if options.on_step is not None:
                planned[first].run.on_start = lambda step_id=step.id, on_step=options.on_step: on_step(step_id)
        return planned

    def _planned(self, step: Step, refs: dict[str, str], options: GradeOptions, kind: str,
                 statuses: dict[str, str]) -> _Planned:
        cases = self.cases(step.id, "visible") + (self.cases(step.id, "hidden") if options.hidden else [])
        if options.functions is not None:
            cases = [c for c in cases if c.function in options.functions]
        if kind == "own chain":
            cases = cases[:1]  # the one test reported (worth no points)
        init = dict(step=step.id, functions=list(step.functions), step_references=list(refs),
                    memory=options.memory, timeout=options.timeout, threads=options.threads)
        run = StepRun(step=step, cases=cases, limit_seconds=options.timeout, label=kind)
        run.spawn = lambda: self._spawn(run, init)
        # The earlier steps this step calls are the references: none of them can block it.
        run.earlier_statuses = (lambda: {}) if refs else (lambda: dict(statuses))
        if kind != "own chain":
            run.finished = lambda result: statuses.__setitem__(step.id, result.status)
        return _Planned(run, refs, options, kind, init)

    # ------------------------------------------------------------ running it

    def _run_session(self, submission: Path, plan: list[_Planned], ahead_allowed: bool) -> None:
        references: dict[str, str] = {}
        for planned in plan:
            references.update(planned.references)
        self._submission_init = dict(submission=str(submission), references=references,
                                     checkpoint=self.checkpoint_file, stubs=_stubs(plan, submission),
                                     warm=_checkpoint_parts(plan))
        self._runner_failure: BaseException | None = None
        ahead: RunAhead | None = None
        try:
            chosen = _to_run_ahead(plan) if ahead_allowed and self.runner.runs_ahead() else None
            if chosen is not None:
                for planned in plan:  # the others take their short turns on one core
                    planned.init["threads"] = 1
                ahead = self._run_ahead(chosen)
            run_session([planned.run for planned in plan])
        finally:
            if ahead is not None:
                ahead.end()
            self._end_worker()
        if self._runner_failure is not None:  # the runner itself is gone: no result is trustworthy
            raise self._runner_failure

    def _spawn(self, run: StepRun, init: dict) -> StepWorker:
        """A worker process for `run`. Starting it moves the step's deadline: no student code runs
        before it has started, and waiting for a torch import (the zygote's once, a portable
        worker's) or a fresh submission worker is not the student's time."""
        starting = time.monotonic()
        try:
            if self._worker is None or not self._worker.alive:
                self._end_worker()
                try:
                    self._worker = self.runner.spawn(self._submission_init)
                except (OSError, EOFError, ProtocolError) as error:
                    self._runner_failure = error
                    raise
            return self._worker.step(init)
        finally:
            run.deadline += time.monotonic() - starting

    def _run_ahead(self, planned: _Planned) -> RunAhead:
        """`planned`'s step started now, beside the others (`grader.judge.ahead`)."""
        run = planned.run
        try:
            return RunAhead(self.runner, self._submission_init, run, planned.init,
                            lambda functions: _calls(run, functions))
        except (OSError, EOFError, ProtocolError) as error:
            self._runner_failure = error
            raise

    def _end_worker(self) -> None:
        """End the submission's worker and whatever it left behind."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None
            self.runner.reap()

    def _main_results(self, plan: list[_Planned], submission: Path) -> list[StepResult]:
        """Each chosen step's result, with its static-scan notes and, in 07_head, the own chain."""
        results: list[StepResult] = []
        for planned in plan:
            result = planned.run.result
            if result is None:
                continue
            if planned.kind == "main":
                result.notes += scan.note(paths.step_file(submission, planned.run.step.id), planned.run.step.id)
                results.append(result)
            elif planned.kind == "own chain" and results[-1].status != "not_attempted":
                results[-1].tests.append(_own_chain_test(result, results[:-1]) if planned.run.wanted()
                                         else _own_chain_not_run())
        return results


def _stubs(plan: list[_Planned], submission: Path) -> list[str]:
    """The steps whose unwritten stubs stand in for the submission's missing files: earlier steps
    that a run calls without a reference."""
    needed = {earlier for planned in plan for earlier in STEP_IDS[: STEP_IDS.index(planned.run.step.id)]
              if earlier not in planned.references and not paths.step_file(submission, earlier).exists()}
    return sorted(needed)


def _checkpoint_parts(plan: list[_Planned]) -> list[str]:
    """What of the checkpoint the plan's cases hand to student functions: its parameters, the
    occlusion tests' ViT. The runner may build them once for every step instead of once per step."""
    specs = [spec for planned in plan for case in planned.run.cases for spec in case.args]
    parts = {"params" for spec in specs if "param" in spec or "params" in spec}
    parts |= {"vit" for spec in specs if spec.get("model") == "vit"}
    return sorted(parts)


def _to_run_ahead(plan: list[_Planned]) -> _Planned | None:
    """The step worth running beside the others: one that hands the checkpoint's ViT to student
    code (the model forwards), needs nothing of the steps before it (their references stand in),
    and is not the session's first run."""
    for planned in plan[1:]:
        if planned.kind == "main" and planned.references and "vit" in _checkpoint_parts([planned]):
            return planned
    return None


def _calls(run: StepRun, functions: list[str]) -> list:
    """The step's calls in the session's order, those of functions the file lacks left out (the
    session reports them missing without calling)."""
    return [(case.function, *wire_arguments(case)) for case in run.cases if case.function in functions]


OWN_CHAIN_TEST = "your own chain · vit_forward · sample photo"


def _own_chain_test(result: StepResult, earlier: list[StepResult]) -> TestResult:
    """The student's whole chain, their own earlier steps included: reported, worth no points.
    Blocked, in one line, where it failed on an earlier step file that does not import (its error
    names that file): that step's own tests show the error, and its traceback here would repeat it."""
    test = result.tests[0] if result.tests else None
    if test is not None and test.status == "passed":
        message = "your own chain (your steps 01-06 feeding your vit_forward) reproduces the checkpoint"
    elif test is not None and (blocking := _not_importing(earlier, test.message)):
        return TestResult(name=OWN_CHAIN_TEST, visibility="visible", status="blocked", score=0.0, max_score=0.0,
                          message=f"blocked by {blocking}: your own chain runs your {blocking}.py, which does not "
                                  f"import (its error is shown under {blocking})")
    else:
        message = "your own chain does not reproduce the checkpoint yet:\n" + (test.message if test else "")
    return TestResult(name=OWN_CHAIN_TEST, visibility="visible",
                      status=test.status if test else "error", score=0.0, max_score=0.0, message=message)


def _not_importing(earlier: list[StepResult], failure: str) -> str | None:
    """The first of the `earlier` steps whose file does not import (an `import.` finding) and whose
    file the chain's `failure` names; None where there is none."""
    for step in earlier:
        if f"{step.id}.py" in failure and any(t.finding is not None and t.finding.id.startswith("import.")
                                              for t in step.tests):
            return step.id
    return None


def _own_chain_not_run() -> TestResult:
    """The own chain after the step ran out of time with the reference steps: not run."""
    return TestResult(name=OWN_CHAIN_TEST, visibility="visible", status="timeout", score=0.0, max_score=0.0,
                      message="not run: the step's time limit was used up by an earlier call; your own "
                              "chain would run the same vit_forward again")


def _display(submission: Path) -> str:
    """Relative to the current folder when inside it (reports then do not leak home folders)."""
    try:
        return str(submission.relative_to(Path.cwd()))
    except ValueError:
        return str(submission)
