"""Hidden suite of Step 01 (pages 6-9, 48-49): normalize the pixels, cut 16x16 patches, count tokens.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {"normalize": 2, "patchify": 3, "count_tokens": 1}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
