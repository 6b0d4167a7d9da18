"""Hostile: tries to reach the reference solution, the hidden fixtures, the kit's tests and its git
history while being graded."""
import importlib.util
import os
import subprocess
from pathlib import Path

import grader

# The kit's folders, found without importing grader.paths (the worker reports that import).
KIT_ROOT = Path(grader.__file__).resolve().parent.parent
FIXTURES, SOLUTIONS = KIT_ROOT / "fixtures", KIT_ROOT / "solutions"


def _reference():
    spec = importlib.util.spec_from_file_location("stolen", SOLUTIONS / "05_attention.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def qkv_heads(x, W_qkv, b_qkv, num_heads):
    return _reference().qkv_heads(x, W_qkv, b_qkv, num_heads)


def attention_weights(q, k):
    with open(FIXTURES / "hidden" / "05_attention.safetensors", "rb") as stolen:
        stolen.read()
    raise RuntimeError("read the hidden fixtures")


def multi_head_attention(x, W_qkv, b_qkv, W_o, b_o, num_heads):
    folders = (KIT_ROOT, SOLUTIONS, FIXTURES / "hidden", KIT_ROOT / "tests", KIT_ROOT / ".git")
    listing = {str(folder): sorted(os.listdir(folder)) if folder.exists() else "absent" for folder in folders}
    source = subprocess.run(["git", "-C", str(KIT_ROOT), "show", "HEAD:solutions/05_attention.py"],
                            capture_output=True, text=True)
    if source.returncode:
        raise RuntimeError(f"listing {listing}; git: {source.stderr.strip()}")
    namespace: dict = {}
    exec(compile(source.stdout, "stolen", "exec"), namespace)
    return namespace["multi_head_attention"](x, W_qkv, b_qkv, W_o, b_o, num_heads)
