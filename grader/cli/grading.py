"""What `check`, `grade`, `list` and `validate` share: resolving steps and submissions, running
the grader with a progress display, and writing results in the chosen format."""
from __future__ import annotations

from pathlib import Path
from collections.abc import Iterable

from grader import paths
from grader.cli.common import EXIT_FAILED, EXIT_OK, fail, interactive, out, progress
from grader.results import SubmissionResult
from grader.steps import STEP_IDS, UnknownStep, get_step


def resolve_steps(step_ids: Iterable[str] | None, all_steps: bool = False) -> tuple[str, ...]:
    """Step ids from the command line, each checked; none given (or --all) means every step."""
    if all_steps or not step_ids:
        return STEP_IDS
    try:
        chosen = {get_step(s).id for s in step_ids}
    except UnknownStep as error:
        fail(str(error))
    return tuple(s for s in STEP_IDS if s in chosen)


def resolve_folder(submission: Path | None, solutions: bool, default: Path = paths.EXERCISES) -> Path:
    if solutions and submission is not None:
        fail("give either --submission or --solutions, not both")
    folder = paths.SOLUTIONS if solutions else (submission or default)
    if not folder.is_dir():
        fail(f"no such folder: {folder}" + (" (the student release has no solutions)" if solutions else ""))
    return folder.resolve()


def is_submission(folder: Path) -> bool:
    return any((folder / f"{s}.py").exists() for s in STEP_IDS)


def expand_submissions(folders: list[Path]) -> list[Path]:
    """A folder of step files is one submission; a folder of such folders is a class of them."""
    found: list[Path] = []
    for folder in folders:
        if not folder.is_dir():
            fail(f"no such folder: {folder}")
        if is_submission(folder):
            found.append(folder.resolve())
            continue
        inner = sorted(p.resolve() for p in folder.iterdir() if p.is_dir() and is_submission(p))
        if not inner:
            fail(f"{folder} holds no step files (01_flatten.py ... 08_occlusion.py) and no submission folders")
        found += inner
    return found


def run_grader(submissions: list[Path], steps: tuple[str, ...], *, hidden: bool, timeout: float,
               references: bool = True, jobs: int = 1) -> list[SubmissionResult]:
    """Grade each submission; several at once with `jobs` > 1 (one process per submission)."""
    from grader.expected.store import FixtureError
    from grader.runner.grader import GradeOptions

    options = GradeOptions(hidden=hidden, references=references, timeout=timeout, steps=steps)
    try:
        if jobs > 1 and len(submissions) > 1:
            return _grade_parallel(submissions, options, jobs)
        return _grade_serial(submissions, options)
    except FixtureError as error:
        fail(str(error))


def _grade_serial(submissions: list[Path], options) -> list[SubmissionResult]:
    from grader.runner.grader import Grader

    total = len(submissions) * len(options.steps)
    with progress("grading", total) as advance:
        options.on_step = lambda step_id: advance(1, f"grading {step_id}")
        grader = Grader(options)
        try:
            return [grader.grade(s) for s in submissions]
        finally:
            grader.close()


_POOL_GRADER = None  # each process of a --jobs pool keeps one Grader (and zygote) for all its submissions


def _start_pool_process(options) -> None:
    """One torch thread per worker: `jobs` processes already share the cores between them."""
    import atexit
    import os

    from grader.runner.grader import Grader

    global _POOL_GRADER
    os.environ["OMP_NUM_THREADS"] = "1"
    _POOL_GRADER = Grader(options)
    atexit.register(_POOL_GRADER.close)


def _grade_in_pool(submission: Path) -> SubmissionResult:
    return _POOL_GRADER.grade(submission)


def _grade_parallel(submissions: list[Path], options, jobs: int) -> list[SubmissionResult]:
    """Submissions shared out over `jobs` judge processes; the judges are ours, so their pickled
    results are trusted (student code only ever runs in the sandboxed workers below them)."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    # Windows has no forkserver, and a Python without os.fork (the simulated one) cannot run it.
    forks = hasattr(os, "fork") and "forkserver" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if forks else "spawn")
    with progress("grading submissions", len(submissions)) as advance, \
            ProcessPoolExecutor(max_workers=min(jobs, len(submissions)), mp_context=context,
                                initializer=_start_pool_process, initargs=(options,)) as pool:
        results = []
        for result in pool.map(_grade_in_pool, submissions):
            results.append(result)
            advance(1)
        return results


def exit_code(results: list[SubmissionResult]) -> int:
    return EXIT_OK if all(r.passed for r in results) else EXIT_FAILED


def write(text: str, output: Path | None) -> None:
    """To the file if given (UTF-8), else to stdout as it is."""
    if output is None:
        out.file.write(text)
        out.file.flush()
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        fail(f"cannot write {output}: {error.strerror}")
    if interactive():
        from grader.cli.common import err

        err.print(f"wrote {output}", markup=False)
