"""Hidden suite of Step 02 (pages 10-13, 53): the patch projection as a row-vector linear map.

One test per fixture case (the judge parametrizes `case` from the step's fixture files). Each case
calls the student's function in the sandboxed worker and checks type, dtype, shape, values, that
the inputs are left untouched, and that no library call does the step's work for it.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {'conv_to_linear': 2, 'project': 2}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
