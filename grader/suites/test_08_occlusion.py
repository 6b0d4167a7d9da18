"""Hidden suite of Step 08 (pages 41-44): cover pixels with gray and measure the change.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {"cover": 1, "quadrant_probabilities": 2, "occlusion_map": 2}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
