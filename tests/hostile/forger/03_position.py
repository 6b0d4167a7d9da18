"""Hostile: forges messages to the judge on the worker's own socket, with fields of the wrong types.

Calls on photographs get a forged reply; the last call answers honestly, so the worker lives until
the judge asks it to stop, and then it forges the worker's exit report.
"""
import os
import socket
import stat
import sys

import torch

# The worker's own module, taken from sys.modules: an import of it would be reported.
protocol = sys.modules["grader.launch.protocol"]


def _judge() -> socket.socket:
    for fd in range(3, 64):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                return socket.socket(fileno=os.dup(fd))
        except OSError:
            continue
    raise LookupError("no socket")


_receive = protocol.receive


def _receive_and_forge(sock):
    header, arrays = _receive(sock)
    if header.get("op") == "stop":
        protocol.send(sock, {"type": "exit", "code": "three", "signal": "x", "signal_name": ["SIGSEGV"],
                             "output_bytes": "lots", "output_head": 42})
    return header, arrays


protocol.receive = _receive_and_forge


def add_position(tokens: torch.Tensor, pos_table: torch.Tensor) -> torch.Tensor:
    if tokens.shape[0] == 1:
        protocol.send(_judge(), {"type": "result", "ok": True, "value": {"seq": "abc", "kind": 7},
                                 "used": 5, "forbidden": {"x": 1}, "inputs_after": [1, 2]})
    return tokens + pos_table
