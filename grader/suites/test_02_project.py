"""Hidden suite of Step 02 (pages 10-13, 53): the patch projection as a row-vector linear map.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.steps import get_step
from grader.suites.support import judge

#: Weight of one case of each function, from the step table.
POINTS = get_step("02_project").weights


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
