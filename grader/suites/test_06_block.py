"""Hidden suite of Step 06 (pages 34-37): LayerNorm, the MLP with exact GELU, the pre-LN block.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.steps import get_step
from grader.suites.support import judge

#: Weight of one case of each function, from the step table.
POINTS = get_step("06_block").weights


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
