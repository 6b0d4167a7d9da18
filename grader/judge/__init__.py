"""The judge: grades whole submissions, runs the hidden suite in pytest, and runs a step ahead.

It never imports torch and never runs student code: the student's functions are called in the
worker processes (`grader.worker`), started and reached through `grader.launch`.
"""
