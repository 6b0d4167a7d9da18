"""Hidden suite of Step 07 (pages 38-40, 50-52, 54): final CLS, the class head, the whole ViT.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.steps import get_step
from grader.suites.support import judge

#: Weight of one case of each function, from the step table.
POINTS = get_step("07_head").weights


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
