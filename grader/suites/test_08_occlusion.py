"""Hidden suite of Step 08 (pages 41-44): cover pixels with gray and measure the change.

One test per fixture case (the judge parametrizes `case` from the step's fixture files). Each case
calls the student's function in the sandboxed worker and checks type, dtype, shape, values, that
the inputs are left untouched, and that no library call does the step's work for it.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {'cover': 1, 'quadrant_probabilities': 2, 'occlusion_map': 2}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
