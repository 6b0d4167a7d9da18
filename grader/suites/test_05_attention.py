"""Hidden suite of Step 05 (pages 25-34): q, k, v per head, attention weights, multi-head attention.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.steps import get_step
from grader.suites.support import judge

#: Weight of one case of each function, from the step table.
POINTS = get_step("05_attention").weights


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
