"""macOS, simulated on Linux: the simulation of ../sitecustomize.py with the `resource` module
kept, as macOS has it, so that each portable worker caps its heap with RLIMIT_DATA as it does there.
Put this folder first on PYTHONPATH where student code may fill the memory (a memory bomb with no
limit would fill this machine's before the step's time limit ends it)."""
import os
import runpy

runpy.run_path(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sitecustomize.py"),
               init_globals={"KEPT": frozenset({"resource"})})
