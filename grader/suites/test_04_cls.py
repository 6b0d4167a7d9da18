"""Hidden suite of Step 04 (pages 18-23): prepend CLS, then the whole embedding.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {"prepend_cls": 1, "embed": 2}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
