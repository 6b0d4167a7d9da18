"""The result contract (docs/results.md) as JSON text."""
from __future__ import annotations

import json

from grader.results import Finding, SandboxReport, StepResult, SubmissionResult, TestResult


def to_json(results: list[SubmissionResult]) -> str:
    """The result contract: one object for one submission, a list of them for several.

    Nothing is cleaned or added: the text parses back to exactly `to_contract()`, and two runs
    give identical text because the contract holds no timings.

    Args:
        results: The graded submissions.

    Returns:
        JSON text (indent 2, keys in contract order, trailing newline).
    """
    contracts = [result.to_contract() for result in results]
    document = contracts[0] if len(contracts) == 1 else contracts
    return json.dumps(document, indent=2, sort_keys=False) + "\n"


def from_json(text: str) -> list[SubmissionResult]:
    """Results back from the contract's JSON (one object or a list of them).

    For gradebooks and class reports of submissions graded elsewhere, e.g. one CI job per student.
    The contract holds no notes, timings or maps; step pages come from the registry.

    Args:
        text: What `to_json` wrote.

    Returns:
        The submissions, in the order of the text.

    Raises:
        ValueError: the text is not the result contract.
    """
    try:
        document = json.loads(text)
        contracts = document if isinstance(document, list) else [document]
        return [_result(contract) for contract in contracts]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not a vitgrade result ({type(error).__name__}: {error})") from None


def _result(contract: dict) -> SubmissionResult:
    from grader.steps import STEP_IDS, get_step

    steps = [StepResult(id=s["id"], title=s["title"], score=s["score"], max_score=s["max_score"],
                        status=s["status"], pages=get_step(s["id"]).pages if s["id"] in STEP_IDS else "",
                        tests=[_test(t) for t in s["tests"]])
             for s in contract["steps"]]
    return SubmissionResult(submission=contract["submission"], checkpoint=dict(contract["checkpoint"]),
                            steps=steps, sandbox=_sandbox(contract.get("sandbox")),
                            not_graded=str(contract.get("not_graded", "")), fixtures=str(contract.get("fixtures", "")),
                            stale_fingerprints=str(contract.get("stale_fingerprints", "")),
                            repository=str(contract.get("repository", "")), commit=str(contract.get("commit", "")),
                            attempt=contract.get("attempt"), lateness=contract.get("lateness"))


def _sandbox(given: dict | None) -> SandboxReport:
    """The sandbox a result was graded in; `unknown` for results written before it was recorded."""
    if not given:
        return SandboxReport(level="unknown")
    return SandboxReport(level=given["level"], layers=list(given["layers"]), missing=list(given["missing"]))


_TEST_KEYS = ("name", "visibility", "status", "score", "max_score", "message")


def _test(contract: dict) -> TestResult:
    """One test back, with its finding where the contract holds one."""
    finding = contract.get("finding")
    return TestResult(**{k: contract[k] for k in _TEST_KEYS},
                      finding=Finding(**{k: finding[k] for k in _FINDING_KEYS}) if finding else None)


_FINDING_KEYS = ("id", "title", "sentence", "page")
