"""Hidden suite of Step 06 (pages 34-37): LayerNorm, the MLP with exact GELU, the pre-LN block.

One test per fixture case (the judge parametrizes `case` from the step's fixture files). Each case
calls the student's function in the sandboxed worker and checks type, dtype, shape, values, that
the inputs are left untouched, and that no library call does the step's work for it.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {'layer_norm': 1, 'mlp': 1, 'block': 2}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
