"""Hidden suite of Step 05 (pages 25-34): q, k, v per head, attention weights, multi-head attention.

Each fixture case is one test; `support.judge` says what it checks.
"""
from grader.suites.support import judge

#: Weight of one case of each function; the step's points are shared out in this proportion.
POINTS = {"qkv_heads": 1, "attention_weights": 1, "multi_head_attention": 1}


def test_case(case, student, step_statuses):
    judge(case, student.call(case), step_statuses)
