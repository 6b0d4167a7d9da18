"""What grading produces: small dataclasses that every report format is written from."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

STEP_STATUSES = ("passed", "failed", "not_attempted", "error", "timeout")
TEST_STATUSES = ("passed", "failed", "not_attempted", "blocked", "error", "timeout", "skipped")
#: A test's `maps["kind"]` when the maps are probabilities (attention weights).
PROBABILITY_MAP = "probability"


@dataclass(frozen=True)
class Finding:
    """What a failing test's output shows, as data: the known mistake it matched, or the structure
    of its error that the diagnosis found, or only what failed (`wrong_values.patchify`)."""

    id: str
    """Stable identifier: `known.pixel_major`, `diagnosis.scaled`, `shape`, `wrong_values.patchify`."""
    title: str
    """What it is, in words without numbers: the same for every student who made it."""
    sentence: str = ""
    """The sentence the student reads (numbers included); empty where nothing more than the
    location of the error is known."""
    page: int | None = None
    """The lecture page that explains it, where one does."""

    def to_contract(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "sentence": self.sentence, "page": self.page}

    @classmethod
    def ended_worker(cls, function: str) -> Finding:
        """A call of `function` ended its worker: an exit or a crash in the student's code."""
        return cls(f"{ENDED_WORKER}{function}", f"{function} ended its worker (a crash or an exit)")

    @property
    def is_ended_worker(self) -> bool:
        return self.id.startswith(ENDED_WORKER)

    @classmethod
    def follows(cls, function: str, failing: list[str]) -> Finding:
        """`function` failed where it uses `failing`, functions of its own step that fail too, and
        nothing more of its own is known: theirs is the mistake to fix first."""
        return cls(f"{FOLLOWS}{failing[0]}", f"{function} fails with {', '.join(failing)}, which it uses")

    @property
    def follows_another(self) -> bool:
        return self.id.startswith(FOLLOWS)


#: The start of the id of a finding that a call ended its worker (`ended_worker.cover`).
ENDED_WORKER = "ended_worker."
#: The start of the id of a finding that a function failed with a failing one of its step that it uses
#: (`follows.attention_weights`): counted under that one's own mistake.
FOLLOWS = "follows."


@dataclass
class TestResult:
    """One test of one step."""

    __test__ = False  # not a pytest test class, despite its name

    name: str
    """Readable id, e.g. `patchify · sample photo`."""
    visibility: str
    """`visible` (shown in full to students) or `hidden` (only in `grade`)."""
    status: str
    """One of TEST_STATUSES."""
    score: float
    max_score: float
    message: str = ""
    """Feedback for the student: what is wrong, where, by how much, which known mistake."""
    seconds: float = 0.0
    """Wall time of the call; left out of the JSON contract so results are deterministic."""
    maps: dict[str, Any] | None = None
    """Optional 14x14 expected/actual maps (nested lists) for side-by-side display; `"kind"` is
    PROBABILITY_MAP for probabilities, which are drawn from 0 rather than around it."""
    output: str = ""
    """The start of what the student's code printed during this test (not in the JSON contract)."""
    output_bytes: int = 0
    """How many bytes it printed in all."""
    finding: Finding | None = None
    """For a test that did not pass: what its output shows, as data (the class report groups by it)."""

    def to_contract(self) -> dict[str, Any]:
        """The contract's test object; `finding` only where the test has one."""
        contract = {"name": self.name, "visibility": self.visibility, "status": self.status,
                    "score": self.score, "max_score": self.max_score, "message": self.message}
        if self.finding is not None:
            contract["finding"] = self.finding.to_contract()
        return contract


@dataclass
class StepResult:
    """One step of one submission."""

    id: str
    title: str
    pages: str
    score: float
    max_score: float
    status: str
    """One of STEP_STATUSES."""
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Step-level remarks the student may read: forbidden calls, what the static scan found, why the
    step was not run."""
    output_notes: list[str] = field(default_factory=list)
    """What the student's code wrote that no test owns (while its file was imported, between calls),
    for whoever may see every test: the student's own `check`, instructors. Never in Gradescope's
    visible output: no test's visibility covers it, so a hidden test's inputs could hide in it."""
    seconds: float = 0.0


@dataclass
class SandboxReport:
    """What confinement the workers got on this machine: every layer is surveyed, used where it works,
    and named where the machine refused it (a container without CAP_SYS_ADMIN, macOS, Windows)."""

    level: str
    """`full` (own namespaces, read-only view, no privileges), `partial` (Linux process with limits,
    no private view of the files) or `portable` (a spawned process, where fork or Linux's process
    tools are missing)."""
    layers: list[str] = field(default_factory=list)
    """The layers the workers got, e.g. `pid namespace`, `read-only view`, `memory limit 4 GiB`."""
    missing: list[str] = field(default_factory=list)
    """The layers left out, each with the machine's reason, e.g. `read-only view (no CAP_SYS_ADMIN)`."""

    def summary(self) -> str:
        """One line for a report footer: `partial: memory limit 4 GiB, ...; unavailable: ...`."""
        got = ", ".join(self.layers) or "no confinement"
        refused = f"; unavailable: {', '.join(self.missing)}" if self.missing else ""
        return f"{self.level}: {got}{refused}"


@dataclass
class SubmissionResult:
    """Everything graded for one submission folder."""

    submission: str
    checkpoint: dict[str, str]
    """{"id", "kind", "sha256"} of the checkpoint the fixtures came from."""
    steps: list[StepResult]
    sandbox: SandboxReport = field(default_factory=lambda: SandboxReport(level="unknown"))
    """What confinement the workers got (a level, the layers, the layers the machine refused);
    `unknown` only in results built by hand, never in one that grading produced."""
    tampering: list[str] = field(default_factory=list)
    """Fixture files found modified after grading (always empty when the sandbox is full)."""
    not_graded: str = ""
    """Why nothing of this submission could be graded (a class's folder with no step file); its
    steps then score 0. Empty for every submission that was graded."""
    fixtures: str = ""
    """The sha256 of the fixtures' manifest it was graded with (empty in results built by hand)."""
    stale_fingerprints: str = ""
    """Why the fixtures' known mistakes may not be this grader's (grader.expected.store.stale_fingerprints)."""
    repository: str = ""
    """The repository its step files were fetched from (`vitgrade fetch`), without credentials."""
    commit: str = ""
    """The full SHA of the commit they were read at; empty where not fetched."""
    attempt: int | None = None
    """Which submission of the student's this is (Gradescope: 1 for the first)."""
    lateness: float | None = None
    """Seconds after the student's due date it came (0 on time); None where the platform says nothing."""

    @property
    def score(self) -> float:
        return round(sum(s.score for s in self.steps), 2)

    @property
    def max_score(self) -> float:
        return round(sum(s.max_score for s in self.steps), 2)

    @property
    def passed(self) -> bool:
        return all(s.status == "passed" for s in self.steps)

    def to_contract(self) -> dict[str, Any]:
        """The result contract (docs/results.md) plus the `sandbox` the workers got, and each of
        `not_graded`, `repository`, `commit`, `attempt` and `lateness` where it is known: no
        timings, so two runs give identical JSON."""
        contract = {
            "score": self.score,
            "max_score": self.max_score,
            "submission": self.submission,
            "checkpoint": {k: self.checkpoint[k] for k in ("id", "kind", "sha256")},
            "steps": [{
                "id": s.id, "title": s.title, "score": s.score, "max_score": s.max_score,
                "status": s.status,
                "tests": [t.to_contract() for t in s.tests],
            } for s in self.steps],
            "sandbox": {"level": self.sandbox.level, "layers": list(self.sandbox.layers),
                        "missing": list(self.sandbox.missing)},
        }
        known = {"fixtures": self.fixtures, "not_graded": self.not_graded,
                 "stale_fingerprints": self.stale_fingerprints, "repository": self.repository,
                 "commit": self.commit, "attempt": self.attempt, "lateness": self.lateness}
        return {**contract, **{key: value for key, value in known.items() if value not in ("", None)}}


def as_dict(result: Any) -> dict[str, Any]:
    return asdict(result)
