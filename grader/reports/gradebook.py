"""The CSV gradebook: one row per submission, one score and one status column per step."""
from __future__ import annotations

import csv
import re
from io import StringIO

from grader.reports.shared import points
from grader.results import SubmissionResult
from grader.steps import STEP_IDS

# A cell starting with one of these is run as a formula by spreadsheets (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def to_csv(results: list[SubmissionResult]) -> str:
    """The gradebook of several submissions.

    Columns are `submission` (the submission's folder name, e.g. the student's), `score`,
    `max_score`, then every step id of the registry (its score), then `<step id> status`, then
    `note` (why nothing was graded, for a folder with no step file), then `commit` (the full SHA
    its step files were fetched at, where `vitgrade fetch` recorded one); always all steps in
    registry order, so gradebooks of different runs line up. A step a submission was not graded on
    has empty cells.

    Args:
        results: The graded submissions, one row each, in this order.

    Returns:
        CSV text with a header row.
    """
    buffer = StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["submission", "score", "max_score", *STEP_IDS,
                     *(f"{step_id} status" for step_id in STEP_IDS), "note", "commit"])
    for result in results:
        steps = {step.id: step for step in result.steps}
        scores = [points(steps[i].score) if i in steps else "" for i in STEP_IDS]
        statuses = [steps[i].status if i in steps else "" for i in STEP_IDS]
        writer.writerow([_inert(folder_name(result.submission)), points(result.score),
                         points(result.max_score), *scores, *statuses, _inert(result.not_graded),
                         _inert(result.commit)])
    return buffer.getvalue()


def folder_name(submission: str) -> str:
    """The last part of a submission's path (`class/ada` -> `ada`), whichever separator it uses."""
    return re.split(r"[\\/]", submission.rstrip("/\\"))[-1] or submission


def _inert(cell: str) -> str:
    """`cell`, with a leading quote if a spreadsheet would otherwise evaluate it."""
    return "'" + cell if cell.startswith(_FORMULA_START) else cell
