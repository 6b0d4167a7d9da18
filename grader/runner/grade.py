"""Grading whole submissions: every requested step, in order, with reference earlier steps where
the solutions are present, then a tamper check of the fixtures."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from collections.abc import Callable

from grader import paths
from grader.expected.store import VISIBILITIES, FixtureError, load_cases, load_manifest, sha256_of, verify
from grader.paths import MANIFEST
from grader.results import SandboxReport, StepResult, SubmissionResult, TestResult
from grader.runner import sandbox, scan
from grader.runner.judge import StepRun, run_suite
from grader.runner.portable import start_workers
from grader.runner.session import DEFAULT_MEMORY
from grader.steps import DEFAULT_TIMEOUT, STEP_IDS, STEPS, Step


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


def _linux_report(plan: sandbox.Plan, memory: int) -> SandboxReport:
    """The probe's findings as reports show them, the memory limit with its figure."""
    layers = [f"memory limit {memory / 2**30:g} GiB" if layer == "memory limit" else layer
              for layer in plan.layers()]
    return SandboxReport(level=plan.level(), layers=layers, missing=list(plan.missing))


class Grader:
    """One grading run: fixtures verified and loaded once, one zygote shared by every step."""

    def __init__(self, options: GradeOptions) -> None:
        self.options = options
        self.zygote = start_workers()  # first: its torch import overlaps the fixture checks below
        try:
            self.manifest = load_manifest(options.fixtures)
            self._manifest_sha256 = sha256_of(Path(options.fixtures) / MANIFEST)
            problems = verify(options.fixtures, self.manifest)
            if problems:
                raise FixtureError(f"fixtures do not match the manifest: {problems[0]}")
            # The zygote's probe (waited for here) says which layers its workers get.
            plan = None if getattr(self.zygote, "portable", False) else sandbox.Plan.from_json(self.zygote.sandbox())
        except BaseException:
            self.zygote.close()
            raise
        # Absolute: the worker opens it from inside its view, whose current folder is the root.
        self.checkpoint_file = str((Path(options.fixtures) / self.manifest["checkpoint"]["file"]).absolute())
        self._plan = plan
        self.confine = plan is not None and plan.view  # the fixtures are out of the workers' reach
        self._cases: dict[tuple[str, str], list] = {}
        if not self.confine:
            # Without the read-only view the files are writable: read every case before any student
            # code runs, so that no step can change what later steps are judged by.
            for step_id in STEP_IDS:
                for visibility in VISIBILITIES:
                    self.cases(step_id, visibility)

    def cases(self, step_id: str, visibility: str) -> list:
        """A step's cases, read (and hash-checked) once; the full sandbox keeps the files read-only."""
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
        self.zygote.close()

    def _sandbox_report(self) -> SandboxReport:
        """What the workers got: the zygote's probed layers, or the portable runner's own report."""
        if self._plan is None:
            return self.zygote.report(self.options.memory)
        return _linux_report(self._plan, self.options.memory)

    def grade(self, submission: Path, steps: tuple[str, ...] | None = None) -> SubmissionResult:
        submission = Path(submission).resolve()
        results: list[StepResult] = []
        statuses: dict[str, str] = {}
        for step in STEPS:
            if step.id not in (steps or self.options.steps):
                continue
            if self.options.on_step is not None:
                self.options.on_step(step.id)
            result = self.grade_step(step, submission, statuses)
            statuses[step.id] = result.status
            results.append(result)
        self.zygote.reap()
        checkpoint = {k: self.manifest["checkpoint"][k] for k in ("id", "kind", "sha256")}
        tampering = self._tampering()
        return SubmissionResult(submission=_display(submission), checkpoint=checkpoint, steps=results,
                                sandbox=self._sandbox_report(), tampering=tampering)

    def grade_step(self, step: Step, submission: Path, statuses: dict[str, str],
                   options: GradeOptions | None = None) -> StepResult:
        options = options or self.options
        cases = self.cases(step.id, "visible") + (self.cases(step.id, "hidden") if options.hidden else [])
        if options.functions is not None:
            cases = [c for c in cases if c.function in options.functions]
        refs = _references(step, options.references)
        if refs:  # the earlier steps this step calls are the references: none of them can block it
            statuses = {}
        else:
            statuses = {**self._earlier_statuses(step, submission, statuses), **statuses}
        result = self._run(step, submission, cases, refs, statuses, options)
        result.notes += scan.note(paths.step_file(submission, step.id), step.id)
        if refs and step.id == "07_head" and result.status != "not_attempted" \
                and "vit_forward" in (options.functions or ("vit_forward",)):
            result.tests.append(self._own_chain(step, submission))
        return result

    def _run(self, step: Step, submission: Path, cases: list, refs: dict[str, str],
             statuses: dict[str, str], options: GradeOptions) -> StepResult:
        init = dict(step=step.id, submission=str(submission), functions=list(step.functions),
                    references=refs, checkpoint=self.checkpoint_file, memory=options.memory,
                    timeout=options.timeout)
        run = StepRun(step=step, cases=cases, spawn=lambda: self._spawn(run, init),
                      deadline=time.monotonic() + options.timeout, limit_seconds=options.timeout,
                      step_statuses=statuses)
        result = run_suite(run)
        self.zygote.reap()
        return result

    def _spawn(self, run: StepRun, init: dict):
        """A worker for `run`. Starting it moves the step's deadline: no student code runs before it
        has started, and waiting for a torch import (the zygote's once, each portable worker's, also
        after a crash) is not the student's time."""
        starting = time.monotonic()
        worker = self.zygote.spawn(init)
        run.deadline += time.monotonic() - starting
        return worker

    def _earlier_statuses(self, step: Step, submission: Path, known: dict[str, str]) -> dict[str, str]:
        """Without references a failing earlier step blocks later ones: find out which fail."""
        quiet = replace(self.options, hidden=False, references=False)
        found: dict[str, str] = {}
        for earlier in STEPS[: STEP_IDS.index(step.id)]:
            if earlier.id not in known and paths.step_file(submission, earlier.id).exists():
                cases = self.cases(earlier.id, "visible")
                found[earlier.id] = self._run(earlier, submission, cases, {}, {**known, **found}, quiet).status
        return found

    def _own_chain(self, step: Step, submission: Path) -> TestResult:
        """The student's whole chain, their own earlier steps included: reported, worth no points."""
        options = replace(self.options, hidden=False, references=False)
        cases = [c for c in self.cases(step.id, "visible") if c.function == "vit_forward"]
        result = self._run(step, submission, cases, {}, {}, options)
        test = result.tests[0] if result.tests else None
        if test is not None and test.status == "passed":
            message = "your own chain (your steps 01-06 feeding your vit_forward) reproduces the checkpoint"
        else:
            message = "your own chain does not reproduce the checkpoint yet:\n" + (test.message if test else "")
        return TestResult(name="your own chain · vit_forward · sample photo", visibility="visible",
                          status=test.status if test else "error", score=0.0, max_score=0.0, message=message)


def _display(submission: Path) -> str:
    """Relative to the current folder when inside it (reports then do not leak home folders)."""
    try:
        return str(submission.relative_to(Path.cwd()))
    except ValueError:
        return str(submission)
