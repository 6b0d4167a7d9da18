"""Hostile, appended by its test to step 08 as the solutions write it: this later definition of
`quadrant_probabilities` replaces theirs and ends its worker on every call."""
import os


def quadrant_probabilities(model, image, target):
    os._exit(5)
