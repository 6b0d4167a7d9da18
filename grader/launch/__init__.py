"""Starting and ending the worker processes from the judge's side, and what both sides share.

`runners` chooses the runner (`Runner`): the zygote on Linux (`zygote_runner`, the judge's side of
`grader/worker/zygote.py`), the portable runner (`portable`) elsewhere. Both hand the judge a
`StepWorker` per step (`step_worker`), which speaks the `protocol` with the worker. `sandbox` and
`view` say how a worker is confined: the judge reads what the zygote's survey found, the zygote
applies it. Nothing here imports torch.
"""
