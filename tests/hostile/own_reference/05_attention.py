"""Hostile: step 05 answered by the reference solution of step 05, which the worker parent loaded
for the steps after it. No import names the kit: `sys.modules` reaches any module already loaded."""
import sys


def _reference():
    for name, module in list(sys.modules.items()):
        if name.startswith("vitgrade_steps_") and name.endswith(".s05_attention") and module is not sys.modules[__name__]:
            return module
    worker = sys.modules.get("grader.worker.serving")
    if worker is not None and "05_attention" in getattr(worker, "REFERENCES", {}):
        return worker.REFERENCES["05_attention"]
    raise LookupError("no reference solution of step 05 in this process")


def qkv_heads(x, W_qkv, b_qkv, num_heads):
    return _reference().qkv_heads(x, W_qkv, b_qkv, num_heads)


def attention_weights(q, k):
    return _reference().attention_weights(q, k)


def multi_head_attention(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    return _reference().multi_head_attention(x, W_qkv, b_qkv, W_o, b_o, num_heads)
