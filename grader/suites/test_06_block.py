"""Hidden suite of Step 06 (pages 34-37): LayerNorm, the MLP with exact GELU, the pre-LN block.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {"layer_norm": 1, "mlp": 1, "block": 2}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
