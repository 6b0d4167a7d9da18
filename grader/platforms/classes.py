"""A class graded on one machine (`vitgrade grade CLASS`): every folder a submission, each result
kept as soon as it is graded, a run stopped by Ctrl-C or SIGTERM keeping what it graded, and
`--resume` grading only what is missing or changed. Instructors only: the student release leaves
grader/platforms out."""
from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader import paths
from grader.platforms.uploads import REASON_FILE, no_step_file_reason
from grader.results import SubmissionResult
from grader.signals import STOPPING, answered_by
from grader.steps import DEFAULT_MEMORY, STEP_IDS, get_step
from grader.submissions import Keep, Progress, grade_in_turn, is_submission, unseen

if TYPE_CHECKING:
    from grader.launch.runners import EarlyRunner
    from grader.platforms.fetch import Repository
    from grader.judge.grading import GradeOptions


class ClassError(Exception):
    """A class that cannot be graded as given; the message says why, in one line."""


@dataclass(frozen=True)
class Submission:
    """One submission folder as found on the command line or in a class folder."""

    folder: Path
    """Where its step files are."""
    not_graded: str = ""
    """Why it cannot be graded (a class's folder with no step file); empty when it can."""
    repository: Path | None = None
    """The cloned repository whose `exercises/` is `folder`; None where `folder` is the submission."""

    @property
    def home(self) -> Path:
        """The folder that stands for it: the repository, or the folder of step files."""
        return self.repository or self.folder

    @property
    def name(self) -> str:
        """The folder's name: the gradebook's row and the name of its result file."""
        return self.home.name

    def fetched(self) -> dict[str, str]:
        """What `vitgrade fetch` recorded of it (repository URL, ref, commit); empty where nothing."""
        from grader.platforms.fetch import FETCHED_FILE

        record = self.home / FETCHED_FILE
        if not record.is_file() or record.is_symlink():
            return {}
        try:
            given = json.loads(record.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            return {}
        if not isinstance(given, dict):
            return {}
        commit = str(given.get("commit", ""))
        return {"repository": str(given.get("repository", "")),
                "commit": commit if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", commit) else ""}


def expand_submissions(folders: list[Path]) -> list[Submission]:
    """A folder of step files, or a repository with them in `exercises/`, is one submission; a
    folder of such folders is a class of them.

    In a class every folder is a submission, also one with no step file: it scores 0 and says why,
    so a misnamed upload never leaves a student out of the gradebook. A cloned repository's README,
    .git and anything else beside its `exercises/` are not graded; its row is named by its folder.

    Raises:
        ClassError: a folder that is missing, holds no submission, or two submissions of one name.
    """
    found: list[Submission] = []
    for folder in folders:
        if not folder.is_dir():
            raise ClassError(f"no such folder: {folder}")
        if (one := _found(folder.resolve())) is not None:
            found.append(one)
            continue
        inner = sorted(p.resolve() for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "__")))
        members = [_found(p) for p in inner]
        if not any(members) and not any((p / REASON_FILE).is_file() for p in inner):
            raise ClassError(f"{folder} holds no step files (01_flatten.py ... 08_occlusion.py), in exercises/ "
                             "or not, and no submission folders")
        found += [member or Submission(p, _no_step_files(p)) for p, member in zip(inner, members)]
    names = [submission.name for submission in found]
    if len(found) > 1 and len(set(names)) < len(names):
        twice = sorted({name for name in names if names.count(name) > 1})
        raise ClassError(f"two submissions are named {twice[0]}: a gradebook names each by its folder, so grade "
                         "them apart")
    return found


def _found(folder: Path) -> Submission | None:
    """`folder` as a submission: its own step files, or those of its `exercises/`; None if neither."""
    if is_submission(folder):
        return Submission(folder)
    exercises = folder / "exercises"
    if exercises.is_dir() and not exercises.is_symlink() and is_submission(exercises):
        return Submission(exercises, repository=folder)
    return None


def _no_step_files(folder: Path) -> str:
    """Why a class's folder scores 0: its REASON.txt, else what its `exercises/` (or itself) holds."""
    exercises = folder / "exercises"
    if (folder / REASON_FILE).is_file() or not exercises.is_dir() or exercises.is_symlink():
        return no_step_file_reason(folder)
    return "exercises/: " + no_step_file_reason(exercises)


_POOL_GRADER = None  # each process of a --jobs pool keeps one Grader (and runner) for all its submissions
_POOL_ERROR: Exception | None = None  # why its Grader could not start: raised by its first submission


def _start_pool_process(options: GradeOptions, shared: bool, lines: list | None, taken: Any) -> None:
    """With `shared` (more than one judge), one torch thread per worker: the judges already share
    the cores between them. `lines` lead to copies of the class process's zygote, one per judge
    (`taken` counts those taken); without them (the portable runner) the judge starts its own.
    Ctrl-C reaches the whole process group: only the class's own process answers it, by ending
    the pool; a runner started here inherits the indifference."""
    import os
    import signal
    from multiprocessing.util import Finalize

    from grader.launch import runners

    global _POOL_GRADER, _POOL_ERROR
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if shared:  # and no step run ahead beside the others, the cores being taken (but see _among_last)
        os.environ["OMP_NUM_THREADS"] = "1"
        options = replace(options, ahead=False, threads=1)
    # A runner of its own imports torch while the judge imports the hidden suite (0.2 s).
    early = runners.EarlyRunner(runners.new_runner() if lines is None else
                                runners.copy_of_zygote(_take_one(lines, taken)))
    from grader.judge.grading import Grader
    try:
        _POOL_GRADER = Grader(options, early)
    except Exception as error:  # raised with the first submission: the command names it, not a broken pool
        _POOL_ERROR = error
        return
    Finalize(_POOL_GRADER, _POOL_GRADER.close, exitpriority=10)


def _take_one(lines: list, taken: Any) -> Any:
    """The first line no other judge has taken; the others are closed here (each judge holds its own)."""
    with taken.get_lock():
        mine, taken.value = taken.value, taken.value + 1
    for other in lines[:mine] + lines[mine + 1:]:
        other.close()
    return lines[mine]


def _grade_in_pool(item: tuple[int, Path, bool]) -> tuple[int, SubmissionResult]:
    if _POOL_ERROR is not None:
        raise _POOL_ERROR
    index, folder, last = item
    return index, _POOL_GRADER.grade(folder, ahead=True if last else None)


def _grade_parallel(todo: list[tuple[int, Path]], options: GradeOptions, jobs: int, keep: Keep,
                    progress: Progress, early: EarlyRunner | None) -> None:
    """Submissions shared out over `jobs` judge processes, each result kept as soon as it is graded;
    the judges are ours, so their pickled results are trusted (student code only ever runs in the
    sandboxed workers below them). Stopped, the judges are ended at once and the pool shut down:
    no process or semaphore is left behind.

    Raises:
        BrokenProcessPool: a judge process died (killed, out of memory).
    """
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # Windows has no forkserver, and a Python without os.fork (the simulated one) cannot run it.
    forks = hasattr(os, "fork") and "forkserver" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if forks else "spawn")
    judges = min(jobs, len(todo))
    # Copies of the zygote the command started early; None with the portable runner (each judge starts its own)
    lines = early.share(judges) if early is not None else None
    with progress("grading submissions", len(todo)) as advance:
        pool = ProcessPoolExecutor(max_workers=judges, mp_context=context, initializer=_start_pool_process,
                                   initargs=(options, judges > 1, lines, context.Value("i", 0)))
        try:
            for future in as_completed([pool.submit(_grade_in_pool, (*item, _among_last(i, len(todo), judges)))
                                        for i, item in enumerate(todo)]):
                keep(*future.result())
                advance(1)
        except BaseException:
            _end_judges(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            for line in lines or []:  # each judge had its own copy; a copy whose judge died ends now
                line.close()


def _among_last(position: int, submissions: int, judges: int) -> bool:
    """Whether the submission at `position` is among the last `judges` to start: one by one the
    judges run out of work while these are graded, so each runs its model forwards ahead in a
    second worker (one thread each) and takes a core the others leave idle (without, the last of
    ten ended 0.7-0.8 s after the one before it, one core idle meanwhile)."""
    return judges > 1 and position >= submissions - judges


JUDGE_END_PATIENCE = 5.0  # seconds a judge has to end after SIGTERM before it is killed


def _end_judges(pool: Any) -> None:
    """End every judge process now, mid-step too (their zygotes and workers die with them). One
    that outlives SIGTERM is killed: the executor waits for every judge to end before the command
    can exit, so a stuck one would hold the stopped run forever."""
    from multiprocessing.connection import wait

    judges = list((pool._processes or {}).values())  # only the executor knows them, and forgets them
    if hasattr(pool, "terminate_workers"):  # Python 3.14
        pool.terminate_workers()
    else:  # when shut down
        pool.shutdown(wait=False, cancel_futures=True)
        for process in judges:
            process.terminate()
    # A judge's sentinel is ready once it ended; waiting on it, not joining, leaves its exit status
    # to the executor's own thread, which reads it.
    running = {process.sentinel: process for process in judges}
    deadline = time.monotonic() + JUDGE_END_PATIENCE
    while running and (patience := deadline - time.monotonic()) > 0:
        for sentinel in wait(list(running), timeout=patience):
            del running[sentinel]
    for process in running.values():
        process.kill()


@dataclass
class ClassRun:
    """What grading a class gave, also when it was stopped half-way."""

    results: list[SubmissionResult]
    """Every submission graded, read back from its kept result, or found ungradable; class order."""
    graded: int
    """How many of them were graded in this run."""
    left: int
    """Submissions not graded because grading was stopped."""
    stopped_by: str = ""
    """What stopped grading (`SIGINT`, `SIGTERM`, a grading process that died), empty when it ran to the end."""


def grade_class(submissions: list[Submission], steps: tuple[str, ...], *, hidden: bool, timeout: float,
                memory: int = DEFAULT_MEMORY, jobs: int = 1, kept: Path | None = None, resume: bool = False,
                progress: Progress = unseen, early: EarlyRunner | None = None) -> ClassRun:
    """Grade a class, each result written to `kept` as soon as it is graded.

    Ctrl-C or SIGTERM stop grading as before, but what was graded stays: the finished results are
    returned (and already kept), the rest counted.

    Args:
        submissions: The class, as `expand_submissions` found it.
        steps: The steps to grade.
        hidden: Include the hidden tests.
        timeout: Time limit per step, seconds.
        memory: Memory limit per worker, bytes.
        jobs: Submissions graded at once.
        kept: The results folder: `<name>.json` (the result contract) and `<name>.sha256` (what it
            was graded from) per submission; None keeps nothing.
        resume: Read back each kept result whose submission and grading options are unchanged,
            and grade only the others.
        progress: Where grading shows how far it is.
        early: The runner the command started early: the grader takes it, or a pool's judges share
            it (None: they start their own).

    Raises:
        FixtureError: the fixtures are missing or do not match their manifest.
        ClassError: the results folder cannot be written.
    """
    from grader.judge.grading import GradeOptions

    options = GradeOptions(hidden=hidden, references=True, timeout=timeout, memory=memory, steps=steps)
    found: list[SubmissionResult | None] = [None] * len(submissions)
    grading = _grading_key(options)
    keys = [_submission_key(submission, grading) for submission in submissions]
    todo: list[tuple[int, Path]] = []
    for index, submission in enumerate(submissions):
        if resume and kept is not None and (earlier := _kept(kept, submission.name, keys[index])):
            found[index] = earlier
        elif submission.not_graded:
            found[index] = _as_found(_not_graded(submission, steps), submission)
            _keep(kept, submission.name, found[index], keys[index])
        else:
            todo.append((index, submission.folder))

    def keep(index: int, result: SubmissionResult) -> None:
        found[index] = _as_found(result, submissions[index])
        _keep(kept, submissions[index].name, found[index], keys[index])

    pooled = len(todo) > 1
    stopped_by = _grade_until_stopped(todo, options, jobs, keep, pooled, progress, early)
    results = [result for result in found if result is not None]
    left = len(found) - len(results)
    return ClassRun(results, graded=len(todo) - left, left=left, stopped_by=stopped_by)


def _grade_until_stopped(todo: list[tuple[int, Path]], options: GradeOptions, jobs: int, keep: Keep,
                         pooled: bool, progress: Progress, early: EarlyRunner | None) -> str:
    """Grade `todo`; the name of the signal that stopped it, or empty when all were graded.

    Pooled, the grading runs in judge processes that ignore Ctrl-C, and this process alone answers
    Ctrl-C and SIGTERM by ending them: the signal is never lost in the middle of a step (the test
    session a step runs in would report it as the step's own interruption), and nothing is left
    half-done. Not pooled (one submission to grade), Ctrl-C stops grading where it is.
    """
    from concurrent.futures.process import BrokenProcessPool

    if not pooled:
        grade_in_turn(todo, options, keep, progress, early)
        return ""
    try:
        with _stopped_by_signals():
            _grade_parallel(todo, options, jobs, keep, progress, early)
    except _Stopped as stop:
        return stop.signal_name
    except BrokenProcessPool:
        return "a grading process that died (killed, or out of memory)"
    return ""


class _Stopped(Exception):
    """Grading was stopped by a signal."""

    def __init__(self, signal_name: str) -> None:
        super().__init__(signal_name)
        self.signal_name = signal_name


@contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """SIGTERM (a CI timeout, a `kill`) and Ctrl-C both raise `_Stopped`; once stopped, a second
    signal cannot interrupt the clean-up that keeps what was graded."""
    import signal

    def stop(number: int, frame: object) -> None:
        for stopping in STOPPING:
            signal.signal(stopping, signal.SIG_IGN)
        raise _Stopped(signal.Signals(number).name)

    with answered_by(stop):
        yield


def _as_found(result: SubmissionResult, submission: Submission) -> SubmissionResult:
    """The result named by the folder that stands for the submission (a repository, not its
    exercises/), with the repository and commit it was fetched from."""
    record = submission.fetched()
    return replace(result, submission=_shown(submission.home), repository=record.get("repository", ""),
                   commit=record.get("commit", ""))


def _grading_key(options: GradeOptions) -> str:
    """What, besides the step files, decides a result: the options and the fixtures' manifest."""
    manifest = Path(options.fixtures) / "manifest.json"
    return json.dumps({"steps": list(options.steps), "hidden": options.hidden, "timeout": options.timeout,
                       "references": options.references, "memory": options.memory,
                       "fixtures": hashlib.sha256(manifest.read_bytes()).hexdigest() if manifest.is_file() else ""})


def _submission_key(submission: Submission, grading: str) -> str:
    """sha256 of what grading reads of a submission (its step files, links as links) and of how
    it is graded: --resume regrades a submission exactly when this changed."""
    digest = hashlib.sha256(grading.encode())
    for step_id in STEP_IDS:
        path = submission.folder / f"{step_id}.py"
        if path.is_symlink():
            content = b"link:" + os.readlink(path).encode()
        elif path.is_file():
            content = path.read_bytes()
        else:
            content = b"absent"
        digest.update(f"{step_id}\0{len(content)}\0".encode() + content)
    digest.update(b"not graded:" + submission.not_graded.encode())
    digest.update(b"fetched:" + json.dumps(submission.fetched(), sort_keys=True).encode())
    return digest.hexdigest()


def _keep(folder: Path | None, name: str, result: SubmissionResult, key: str) -> None:
    """Write one result, then its key: a key is only ever beside a whole result."""
    from grader.reports import to_json

    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        paths.write_whole(folder / f"{name}.json", to_json([result]))
        paths.write_whole(folder / f"{name}.sha256", key + "\n")
    except OSError as error:
        raise ClassError(f"cannot write the results folder {folder}: {error.strerror or error}") from None


def _kept(folder: Path, name: str, key: str) -> SubmissionResult | None:
    """The kept result of `name`, if it was graded from exactly what `key` describes."""
    from grader.reports.contract import from_json

    try:
        if (folder / f"{name}.sha256").read_text(encoding="utf-8").strip() != key:
            return None
        return from_json((folder / f"{name}.json").read_text(encoding="utf-8"))[0]
    except (OSError, UnicodeDecodeError, ValueError, IndexError):
        return None


def _not_graded(submission: Submission, steps: tuple[str, ...]) -> SubmissionResult:
    """0 for every step, and why: a class's folder with no step file still has its row."""
    return not_graded(_shown(submission.home), submission.not_graded, steps)


def not_graded(submission: str, reason: str, steps: tuple[str, ...] = STEP_IDS) -> SubmissionResult:
    """A result of 0 for every step of `steps`, saying why nothing was graded."""
    from grader.expected.store import load_manifest
    from grader.results import SandboxReport, StepResult

    checkpoint = load_manifest(paths.FIXTURES)["checkpoint"]
    graded = [get_step(step_id) for step_id in steps]
    return SubmissionResult(
        submission=submission,
        checkpoint={k: checkpoint[k] for k in ("id", "kind", "sha256")},
        steps=[StepResult(id=step.id, title=step.title, pages=step.pages, score=0.0, max_score=step.points,
                          status="not_attempted", notes=[reason]) for step in graded],
        sandbox=SandboxReport(level="not run", missing=["no code ran: nothing to grade"]),
        not_graded=reason)


def by_roster(results: list[SubmissionResult], repositories: list[Repository]) -> tuple[list[SubmissionResult], int]:
    """One result per roster line, in roster order: the one its own grading produced (named by the
    repository's folder, and fetched from that repository where it says), else 0 and why.

    Returns:
        The results, and how many of those given belong to no roster line (left out).
    """
    from grader.reports.gradebook import folder_name

    rows: list[SubmissionResult] = []
    claimed: set[int] = set()
    for repository in repositories:
        own = [i for i, result in enumerate(results) if folder_name(result.submission) == repository.folder
               and result.repository in ("", repository.shown)]
        claimed.update(own)
        if len(own) == 1:
            rows.append(results[own[0]])
        else:
            reason = (f"{len(own)} results claim {repository.shown}: grade it once" if own else
                      f"no result for {repository.shown}: its grading did not finish")
            rows.append(replace(not_graded(repository.folder, reason), repository=repository.shown))
    return rows, len(results) - len(claimed)


def _shown(folder: Path) -> str:
    """A folder as results name it: relative to the current folder when inside it."""
    try:
        return str(folder.relative_to(Path.cwd()))
    except ValueError:
        return str(folder)
