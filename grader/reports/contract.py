"""DESIGN.md's result contract as JSON text."""
from __future__ import annotations

import json

from grader.results import SubmissionResult


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
