"""Hidden suite of Step 01 (pages 6-9, 48-49): normalize the pixels, cut 16x16 patches, count tokens.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.steps import get_step
from grader.suites.support import judge

#: Weight of one case of each function, from the step table.
POINTS = get_step("01_flatten").weights


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
