"""Everything a call writes belongs to that call: `print`, sys.__stdout__, os.write to descriptors 1
and 2, C code's printf, each kept in the call's output and passed on to the worker's own output (for a
call that crashes the worker). Run in a subprocess: the capture redirects the process's descriptors.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from grader import paths

#: A call's writes by every route, then its reply as JSON on the real stdout; then calls that keep a
#: copy of descriptor 1, the second also closing descriptors 3-63 (the worker's output among them).
CALLS = r"""
import ctypes, json, os, sys
from grader.worker.serving import captured_output

real = os.dup(1)
os.write(1, b"before\n")
with captured_output() as printed:
    print("print")
    os.write(1, b"fd1\n")
    os.write(2, b"fd2\n")
    sys.__stdout__.write("dunder\n")  # buffered: flushed as the call ends
    ctypes.CDLL(None).printf(b"printf\n")  # C's stdio buffer: flushed as the call ends
os.write(1, b"after\n")
os.write(real, ("\nREPLY " + json.dumps(printed.reply()) + "\n").encode())
os.close(real)
for attempt in (1, 2):
    with captured_output() as printed:
        kept = os.dup(1)  # the call's pipe, held open after the call
        os.write(kept, b"kept\n")
        if attempt == 2:
            os.closerange(3, 64)
    os.write(1, b"between\n")
"""


@pytest.mark.slow
def test_every_route_of_writing_belongs_to_the_call_and_nothing_the_call_does_to_descriptors_stops_the_worker():
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-c", CALLS], capture_output=True, text=True, timeout=120,
                         cwd=paths.KIT_ROOT)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    out, _, rest = run.stdout.partition("\nREPLY ")
    reply, _, after = rest.partition("\n")
    printed = json.loads(reply)
    routes = ("print", "fd1", "fd2", "dunder", "printf")
    assert sorted(printed["head"].split()) == sorted(routes)  # each once, none from before or after
    assert printed["bytes"] == sum(len(route) + 1 for route in routes)
    assert sorted(out.split()) == sorted(("before", "after", *routes))  # passed on (stderr's too, into stdout)
    # A kept copy costs the call READER_PATIENCE; with its output closed, the worker writes nothing more.
    assert after.split()[:2] == ["kept", "between"] and "between" not in after.split()[2:]
    assert time.monotonic() - started < 60
