"""Gradescope's autograder: the bundle an instructor uploads, and what its `run_autograder` does.

Gradescope's specification (gradescope-autograders.readthedocs.io, "Autograder Specifications" and
"Troubleshooting"): the zip holds `setup.sh` and `run_autograder` at its root and is unpacked into
/autograder/source. setup.sh runs once, as root, while the Ubuntu image is built. For each
submission the upload is unpacked into /autograder/submission, a copy of run_autograder runs in
/autograder and must leave /autograder/results/results.json; without one the student sees "the
autograder failed to execute correctly". What it prints goes to results/stdout, shown to
instructors only. Containers get 1/2 CPU, 768 MB and 10 minutes unless the assignment's settings
raise them.

Run inside the container as `python -m grader.platforms.gradescope ROOT --timeout S`; nothing at
module level imports torch, so a bad upload is answered before any worker starts.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import stat
import tempfile
import time
import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader import paths
from grader.platforms.uploads import BadUpload, copy_step_files, find_step_files
from grader.secret_files import SECRET_FILES, compiled_copies
from grader.steps import DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from grader.results import StepResult, SubmissionResult

ROOT_VARIABLE = "VITGRADE_AUTOGRADER_ROOT"
"""Overrides /autograder, so tests run the bundle in a temporary Gradescope-like layout."""
DEFAULT_ROOT = Path("/autograder")
DEFAULT_TIME_LIMIT = 600
"""Gradescope's default timeout for a whole submission, seconds."""
MARGIN_SHARE = 0.10
"""Share of the platform's limit kept back from the steps, for the grader's start-up (Python, torch
and the fixtures' hashes; under 2 s here, a few seconds more with the zygote's torch import on half
a CPU) and for results.json: half of it before the grader is killed, half after."""
MIN_MARGIN = 30
"""Seconds kept back at least, whatever the limit."""
MIN_STEP_SECONDS = 40
"""What one step needs at least: the solutions' slowest step (08_occlusion, 30 forward passes) took
19 s on this kit's 2-core build machine under load; Gradescope gives half a CPU, so twice that."""
_STEPS = 8
#: Kit folders and files the bundle carries (tests/ and .git never: nothing grading needs).
_KIT_FILES = ("pyproject.toml", "README.md")
_KIT_FOLDERS = ("grader", "solutions", "exercises")
_STORED = (".safetensors", ".png", ".jpg")  # already compressed, or float noise deflate cannot shrink
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so the same kit always gives the same bytes


@dataclass(frozen=True)
class Budget:
    """How a platform's time limit is shared out: every step's limit, and the margin kept back.

    Eight steps that each run into their own limit end `margin` seconds before the platform's limit;
    the grader is stopped halfway through the margin at the latest, so its start-up has half the
    margin and results.json (the grader's own, or the fallback's) the other half.
    """

    time_limit: int
    """The platform's limit for one submission, seconds."""
    margin: int
    """Seconds no step's limit may use."""
    per_step: float
    """Every step's time limit, seconds."""

    @property
    def stop_after(self) -> int:
        """When the whole grader is stopped, seconds after it started."""
        return self.time_limit - self.margin // 2

    @property
    def steps_within(self) -> int:
        """Seconds after the grader started by which every step has ended: a start-up longer than
        planned shortens the steps' limits, never the margin."""
        return self.time_limit - self.margin


def budget(time_limit: int, steps: int = _STEPS) -> Budget:
    """The share-out of `time_limit` (see Budget): the margin is `MARGIN_SHARE` of it, at least
    `MIN_MARGIN` seconds, and `steps` limits of equal length fill the rest (rounded down to 0.1 s)."""
    margin = max(math.ceil(MARGIN_SHARE * time_limit), MIN_MARGIN)
    per_step = math.floor(10 * (time_limit - margin) / steps) / 10
    return Budget(time_limit=time_limit, margin=margin, per_step=per_step)


def shortest_time_limit(steps: int = _STEPS) -> int:
    """The smallest platform limit that leaves every step `MIN_STEP_SECONDS` after the margin."""
    limit = steps * MIN_STEP_SECONDS + MIN_MARGIN
    while budget(limit, steps).per_step < MIN_STEP_SECONDS:
        limit += 1
    return limit


@dataclass(frozen=True)
class Shown:
    """What students are shown: when the hidden tests appear, and the points the score counts for."""

    visibility: str = "after_published"
    """One of Gradescope's visibilities (grader.reports.gradescope.VISIBILITIES) for the hidden tests
    and the total."""
    points: float | None = None
    """The assignment's autograder points, where the score is scaled to them (manual questions beside it)."""

    def options(self) -> str:
        """These choices on run_autograder's command line."""
        return f" --visibility {self.visibility}" + (f" --points {self.points:g}" if self.points is not None else "")


def submission_facts(metadata: Path) -> tuple[int | None, float | None]:
    """(attempt, seconds late) from Gradescope's submission_metadata.json: the attempt counts the
    previous submissions; lateness is measured from the student's own due date (an extension)
    where Gradescope gives one, else the assignment's, and is 0 on time. None where not known."""
    try:
        given = json.loads(metadata.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None, None
    if not isinstance(given, dict):
        return None, None
    previous = given.get("previous_submissions")
    attempt = len(previous) + 1 if isinstance(previous, list) else None
    users = given.get("users") if isinstance(given.get("users"), list) else []
    own = [user["assignment"] for user in users if isinstance(user, dict) and isinstance(user.get("assignment"), dict)]
    assignment = given.get("assignment") if isinstance(given.get("assignment"), dict) else {}
    due = next((a.get("due_date") for a in own if a.get("due_date")), None) or assignment.get("due_date")
    try:
        late = (datetime.fromisoformat(given["created_at"]) - datetime.fromisoformat(due)).total_seconds()
    except (KeyError, TypeError, ValueError):
        return attempt, None
    return attempt, round(max(late, 0.0), 3)


def bundle_files(kit: Path) -> dict[str, Path]:
    """Every kit file the bundle carries: path in the zip -> file.

    Raises:
        FixtureError: fixtures missing or not matching their manifest.
    """
    from grader.expected.store import FixtureError, load_manifest, verify

    fixtures = kit / "fixtures"
    manifest = load_manifest(fixtures)
    if problems := verify(fixtures, manifest):
        raise FixtureError(f"fixtures do not match the manifest, run `vitgrade fixtures verify`: {problems[0]}")
    files = {name: kit / name for name in _KIT_FILES if (kit / name).is_file()}
    for folder in _KIT_FOLDERS:
        for path in sorted((kit / folder).rglob("*")):
            relative = path.relative_to(kit)
            if path.is_file() and not _is_cache(relative):
                files[relative.as_posix()] = path
    for relative in ["manifest.json", *sorted(manifest["files"])]:
        files[f"fixtures/{relative}"] = fixtures / relative
    return files


def _is_cache(relative: Path) -> bool:
    return "__pycache__" in relative.parts or relative.suffix in (".pyc", ".pyo") or \
        any(part.startswith(".") for part in relative.parts)


def write_bundle(out: Path, kit: Path, time_limit: int = DEFAULT_TIME_LIMIT, shown: Shown | None = None) -> list[str]:
    """Gradescope's autograder.zip: setup.sh and run_autograder at the root, then the kit.

    Args:
        out: The zip to write.
        kit: The instructor's kit (solutions and hidden fixtures present).
        time_limit: The assignment's timeout in Gradescope's settings, seconds.
        shown: When students see the hidden tests, and the points the score is scaled to.

    Returns:
        The names written, in order.
    """
    shares = budget(time_limit)
    run = RUN_AUTOGRADER.format(stop_after=shares.stop_after, per_step=shares.per_step,
                                within=shares.steps_within, options=(shown or Shown()).options())
    scripts = {"setup.sh": SETUP_SH, "run_autograder": run}
    files = bundle_files(kit)
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w") as bundle:
        for name, text in scripts.items():
            bundle.writestr(_entry(name, executable=True), text)
        for name, path in files.items():
            bundle.writestr(_entry(name, executable=False), path.read_bytes())
    return [*scripts, *files]


def _entry(name: str, executable: bool) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
    mode = 0o755 if executable else 0o644
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_STORED if name.endswith(_STORED) else zipfile.ZIP_DEFLATED
    return info


def run_autograder(root: Path, step_timeout: float, shown: Shown | None = None,
                   deadline: float | None = None) -> None:
    """Grade root/submission with the hidden tests and write root/results/results.json.

    A bad upload gets score 0 and the reason, before any worker starts. The step files found are
    copied into a folder of their own, so the workers see them and nothing else of the upload.
    Each step's limit is `step_timeout`, shortened where needed so that every step has ended by
    `deadline` (a `time.monotonic()` value; None: no deadline). The attempt and its lateness
    (root/submission_metadata.json) go to the instructors' log and into the result.
    """
    results = root / "results" / "results.json"
    submission = root / "submission"
    facts = submission_facts(root / "submission_metadata.json")
    print(f"vitgrade: attempt {facts[0] if facts[0] is not None else 'unknown'}, "
          f"{'lateness unknown' if facts[1] is None else f'{facts[1]:.0f} s late'}", flush=True)
    try:
        upload = find_step_files(submission)
    except BadUpload as error:
        _write(results, rejected(str(error)))
        return
    with tempfile.TemporaryDirectory(prefix="vitgrade-submission-") as work:
        folder = copy_step_files(upload, Path(work) / "submission")
        for path in (Path(work), folder, *folder.rglob("*")):  # for a worker running as uid 65534
            path.chmod(0o755 if path.is_dir() else 0o644)
        document = _graded(folder, step_timeout, shown or Shown(), deadline, facts)
    document["output"] = upload.summary(submission) + "\n\n" + document["output"]
    _write(results, document)


def _graded(folder: Path, step_timeout: float, shown: Shown, deadline: float | None,
            facts: tuple[int | None, float | None]) -> dict[str, Any]:
    """The results.json of one clean submission folder, hidden tests included, with the attempt
    and lateness `facts`."""
    from dataclasses import replace

    from grader.expected.store import FixtureError
    from grader.reports import to_gradescope
    from grader.reports.gradescope import instructors_log
    from grader.judge.grading import GradeOptions, Grader

    try:
        grader = Grader(GradeOptions(hidden=True, references=True, timeout=step_timeout))
    except FixtureError as error:
        return rejected(f"The autograder's test data are damaged ({error}). Tell your instructor; "
                        "this is not your fault.")
    try:
        result = grader.grade(folder) if deadline is None else _grade_within(grader, folder, step_timeout, deadline)
    finally:
        grader.close()
    result = replace(result, attempt=facts[0], lateness=facts[1])
    print(instructors_log(result), flush=True)  # results/stdout: shown to instructors only
    return json.loads(to_gradescope(result, shown.visibility, shown.points))


#: A step's limit however late it starts: a step that starts after the deadline still says "timed out".
_SHORTEST_STEP = 1.0


def _grade_within(grader: Any, folder: Path, longest: float, deadline: float) -> SubmissionResult:
    """Grade step by step, each step's limit `longest`, or less where start-up or earlier steps took
    longer than planned: then the steps left share equally what is left before `deadline`. A step
    with less than a second left is not started and says so ("timed out"): on a machine too busy
    for the plan, results.json still comes before the platform's limit."""
    from dataclasses import replace

    from grader.steps import STEP_IDS

    graded, steps = [], []
    for index, step_id in enumerate(STEP_IDS):
        if graded and deadline - time.monotonic() < _SHORTEST_STEP:  # a busy machine: no time left to start it
            steps.append(_not_reached(step_id))
            continue
        grader.options = replace(grader.options, timeout=step_share(longest, deadline, len(STEP_IDS) - index))
        graded.append(grader.grade(folder, steps=(step_id,)))
        steps += graded[-1].steps
    return replace(graded[-1], steps=steps, tampering=sorted({name for result in graded for name in result.tampering}))


def _not_reached(step_id: str) -> StepResult:
    """A step the time ran out before: timed out, with why."""
    from grader.results import StepResult
    from grader.steps import get_step

    step = get_step(step_id)
    return StepResult(id=step.id, title=step.title, pages=step.pages, score=0.0, max_score=step.points,
                      status="timeout", notes=["Not run: the autograder's time limit was reached before this step."])


def step_share(longest: float, deadline: float, steps_left: int) -> float:
    """The next step's limit: `longest`, or an equal share of the time left before `deadline`
    (a `time.monotonic()` value) among the `steps_left` steps, and never under a second."""
    return max(min(longest, (deadline - time.monotonic()) / steps_left), _SHORTEST_STEP)


def rejected(reason: str) -> dict[str, Any]:
    """results.json for a submission that could not be graded: score 0 and why."""
    return {"score": 0, "output": f"Nothing was graded. {reason}", "output_format": "text",
            "visibility": "visible", "stdout_visibility": "hidden", "tests": []}


def _write(results: Path, document: dict[str, Any]) -> None:
    """Written whole or not at all, so Gradescope never reads half a file."""
    results.parent.mkdir(parents=True, exist_ok=True)
    paths.write_whole(results, json.dumps(document, indent=2) + "\n")


SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (the zip is unpacked in
# /autograder/source). It installs Python 3.10+ and the kit into /autograder/venv, then checks that
# timm imports, a ViT forward runs and the fixtures match their manifest, so a broken image fails
# here and not on a student's submission.
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="${VITGRADE_AUTOGRADER_ROOT:-/autograder}"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends python3 python3-venv python3-pip
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "vitgrade needs Python 3.10 or newer: choose Ubuntu 22.04 or newer as the base image" >&2
    exit 1
fi
python3 -m venv "$ROOT/venv"
"$ROOT/venv/bin/pip" install --no-cache-dir --upgrade pip
# The containers have no GPU: the CPU build of torch is a fraction of the CUDA build's size. torch and
# torchvision come together from the CPU index, in one command, so they match; timm needs
# torchvision, and PyPI's would bring the CUDA build of torch back (or a torchvision whose
# operators do not exist in this torch).
"$ROOT/venv/bin/pip" install --no-cache-dir --index-url https://download.pytorch.org/whl/cpu torch torchvision
"$ROOT/venv/bin/pip" install --no-cache-dir -e "$SOURCE"
"$ROOT/venv/bin/python" -c '
import timm, torch
model = timm.create_model("vit_tiny_patch16_224", pretrained=False).eval()
with torch.no_grad():
    logits = model(torch.zeros(1, 3, 224, 224))
assert logits.shape == (1, 1000) and torch.isfinite(logits).all(), "a ViT forward gave no finite logits"
assert torch.version.cuda is None, "the CUDA build of torch was installed, not the CPU build"
'
VITGRADE_ROOT="$SOURCE" "$ROOT/venv/bin/vitgrade" fixtures verify
"""

#: Every secret of the kit at $SOURCE, as shell words (the compiled copies as globs).
_CLOSED_SECRETS = " ".join([f'"$SOURCE/{secret}"' for secret in SECRET_FILES] +
                           [f'"$SOURCE"/{copies}' for copies in map(compiled_copies, SECRET_FILES) if copies])

# Doubled braces: this is a str.format template (when the grader is stopped, each step's limit, by
# when every step has ended, whether hidden results are shown at once).
RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission, in /autograder. It grades /autograder/submission with
# the hidden tests and always leaves /autograder/results/results.json: when the grader itself fails
# or runs out of time, the student gets score 0 and a message instead of "the autograder failed".
ROOT="${{VITGRADE_AUTOGRADER_ROOT:-/autograder}}"
RESULTS="$ROOT/results/results.json"
PYTHON="$ROOT/venv/bin/python"
[ -x "$PYTHON" ] || PYTHON=python3
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
cd "$ROOT" || exit 0
# The kit by its physical path: the workers' read-only view holds real paths, not links to them.
SOURCE="$(cd "$ROOT/source" 2>/dev/null && pwd -P)"
# Root without namespaces (Docker's defaults) runs the worker as uid 65534: what a student must never
# read (grader/secret_files.py), and Python's compiled copies of it, stay root's.
chmod -R go-rwx """ + _CLOSED_SECRETS + """ 2>/dev/null
# Started from the kit's folder, which `python -m` puts first on sys.path as it is: PYTHONPATH would
# split a folder whose name holds a colon, and then no grader, or another copy of it, would run.
(cd "$SOURCE" && VITGRADE_ROOT="$SOURCE" exec timeout --kill-after=5 {stop_after} \\
    "$PYTHON" -m grader.platforms.gradescope "$ROOT" --timeout {per_step} --within {within}{options})
status=$?
# Only a clean exit vouches for results.json: a crash may leave one written by the student's code.
if [ "$status" -ne 0 ] || [ ! -s "$RESULTS" ]; then
    case "$status" in
        124|137) reason="grading did not finish within {stop_after} seconds, or ran out of memory" ;;
        *) reason="the grader stopped unexpectedly (exit status $status)" ;;
    esac
    message="Nothing was graded: $reason. This is not your fault: tell your instructor (the log has the details)."
    printf '{{"score": 0, "output": "%s", "output_format": "text", "tests": []}}\\n' "$message" > "$RESULTS"
fi
exit 0
"""


#: What grading all steps needs at its peak (PSS of the whole process tree, README's benchmark), with room.
MEMORY_NEEDED = 1536 * 2**20
#: The container's memory limit, cgroup v2 then v1.
_CGROUP_LIMITS = (Path("/sys/fs/cgroup/memory.max"), Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"))


def memory_warning(files: tuple[Path, ...] = _CGROUP_LIMITS) -> str:
    """A line for the instructor's log when the container has less memory than grading needs
    (Gradescope's default is 768 MB): a grader killed for memory otherwise only says `Killed`."""
    for path in files:
        try:
            text = path.read_text().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < MEMORY_NEEDED:
            return (f"vitgrade: this container may use {int(text) / 2**20:.0f} MB; grading needs about "
                    f"{MEMORY_NEEDED / 2**20:.0f} MB: raise the memory in the autograder settings")
        return ""
    return ""


def main() -> None:
    """Entry point inside the container (see RUN_AUTOGRADER)."""
    started = time.monotonic()
    from grader.reports.gradescope import VISIBILITIES

    if warning := memory_warning():
        print(warning, flush=True)  # results/stdout: shown to instructors only
    parser = argparse.ArgumentParser(prog="python -m grader.platforms.gradescope")
    parser.add_argument("root", type=Path, nargs="?", default=Path(os.environ.get(ROOT_VARIABLE) or DEFAULT_ROOT),
                        help="Gradescope's /autograder (source/, submission/, results/)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="time limit per step, seconds")
    parser.add_argument("--within", type=float, default=None,
                        help="seconds from the start by which every step has ended (steps' limits shrink to fit)")
    parser.add_argument("--visibility", choices=VISIBILITIES, default=VISIBILITIES[0],
                        help="when students see the hidden tests and the total score")
    parser.add_argument("--points", type=float, default=None,
                        help="the assignment's autograder points: the score is scaled to them")
    arguments = parser.parse_args()
    deadline = None if arguments.within is None else started + arguments.within
    run_autograder(arguments.root, arguments.timeout, Shown(arguments.visibility, arguments.points), deadline)


if __name__ == "__main__":
    main()
