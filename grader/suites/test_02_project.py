"""Hidden suite of Step 02 (pages 10-13, 53): the patch projection as a row-vector linear map.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {"conv_to_linear": 2, "project": 2}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
