"""The worker processes: the processes that import torch, and the only ones that run student code.

The zygote (`zygote`: imports torch once, forks each submission's sandboxed worker, and a fresh
process per step) on Linux, the portable runner's worker (`portable_worker`) elsewhere. In either,
`serving` loads a step's file and serves the judge's calls, which `instruments` records (the
operators, library functions and imports the student's code reaches); `vit` and `probe_model` are
the models handed to step 08; `intact` says whether a step left the portable worker's interpreter
as it found it. Nothing in `grader.judge` or `grader.launch` imports torch.
"""
