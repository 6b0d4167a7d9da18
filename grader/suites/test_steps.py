"""The hidden suite: one test per fixture case of every step, parametrized by the judge
(`grader.judge.suite_session`) with each step's cases in order; a case's points come from its
step's weights (`grader.steps`). `support.judge` says what each test checks.
"""
from grader.suites.support import judge


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
