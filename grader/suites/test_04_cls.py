"""Hidden suite of Step 04 (pages 18-23): prepend CLS, then the whole embedding.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.steps import get_step
from grader.suites.support import judge

#: Weight of one case of each function, from the step table.
POINTS = get_step("04_cls").weights


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
