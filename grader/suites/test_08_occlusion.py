"""Hidden suite of Step 08 (pages 41-44): cover pixels with gray and measure the change.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.steps import get_step
from grader.suites.support import judge

#: Weight of one case of each function, from the step table.
POINTS = get_step("08_occlusion").weights


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
