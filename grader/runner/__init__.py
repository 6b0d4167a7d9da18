"""Runs student code in sandboxed worker processes and judges it with the hidden suites.

The judge (this package's `session` and `plugin`, running pytest) never imports torch and never
runs student code. A zygote process imports torch once and forks one sandboxed worker per step.
"""
