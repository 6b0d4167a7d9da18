"""The catalogue of known mistakes, per step function (instructor side only).

Each entry computes what a specific wrong implementation returns. `vitgrade fixtures build` runs
them on every fixture case and stores the results beside the expected outputs; the judge then
names a mistake whenever a student's output equals one of them. The release leaves this package
out: a wrong implementation one edit away from the right one would give the solution away.
"""
from grader.mistakes.catalogue import CATALOGUE, Mistake, known_by_edit

__all__ = ["CATALOGUE", "Mistake", "known_by_edit"]
