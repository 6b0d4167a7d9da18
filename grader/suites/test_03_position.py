"""Hidden suite of Step 03 (pages 15-17): add the learned position table.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.steps import get_step
from grader.suites.support import judge

#: Weight of one case of each function, from the step table.
POINTS = get_step("03_position").weights


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
