"""Runs student code in sandboxed worker processes and judges it with the hidden suite.

The judge (`grader`: whole submissions; `suite_session`: the hidden suite in pytest; `remote`: its
side of each worker) never imports torch and never runs student code. The runner (`runners`
chooses one) starts the workers: the zygote on Linux, the portable runner elsewhere.
"""
