"""`python -m grader.cli` runs the `vitgrade` command line."""
from grader.cli import main

if __name__ == "__main__":  # a spawned --jobs process imports this module again
    main()
