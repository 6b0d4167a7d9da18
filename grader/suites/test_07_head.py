"""Hidden suite of Step 07 (pages 38-40, 50-52, 54): final CLS, the class head, the whole ViT.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {"read_cls": 1, "classify": 1, "vit_forward": 2}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
