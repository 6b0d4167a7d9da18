"""`python -m grader.cli` runs the `vitgrade` command line."""
from grader.cli import main

main()
