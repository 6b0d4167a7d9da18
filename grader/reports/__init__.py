"""The report writers: every format grading results are shown or stored in.

Machine formats return text for the CLI to write (as UTF-8): the result contract (`to_json`),
JUnit XML for CI (`to_junit`), Gradescope's `results.json` (`to_gradescope`) and a CSV
gradebook (`to_csv`). The terminal views print to a rich console: one submission step by step
(`render`), several as a table (`render_summary`).
"""
from grader.reports.contract import to_json
from grader.reports.gradebook import to_csv
from grader.reports.gradescope import to_gradescope
from grader.reports.junit import to_junit
from grader.reports.terminal import render, render_summary

__all__ = ["render", "render_summary", "to_csv", "to_gradescope", "to_json", "to_junit"]
