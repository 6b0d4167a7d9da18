"""Messages between the judge and a worker: a JSON header and tensors as safetensors bytes.

Never pickle: the judge reads what untrusted code wrote, so every message is plain JSON plus a
safetensors payload, both size-checked before they are parsed.
"""
from __future__ import annotations

import json
import socket
import struct
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported with the first tensors: the zygote starts, and surveys, before numpy loads
    import numpy as np

MAX_HEADER = 1 << 20  # 1 MiB of JSON
MAX_PAYLOAD = 1 << 29  # 512 MiB of tensors
EXIT_BROKEN = 70  # the worker's exit status when serving the judge itself failed (not the student's call)
EXIT_NO_MEMORY = 71  # ... and when that failure was running out of memory
WORKER_PRINTING_KEPT_BYTES = 16 * 1024  # bytes of a worker's printing kept (either runner), the rest counted
JUDGE_VARIABLE = "VITGRADE_JUDGE_PID"  # a portable worker's environment: the judge it ends with
_LENGTHS = struct.Struct("<QQ")


class ProtocolError(Exception):
    """The other side sent something that is not a well-formed message."""


def encode_arrays(arrays: dict[str, np.ndarray]) -> bytes:
    if not arrays:
        return b""
    import numpy as np
    from safetensors.numpy import save

    return save({k: np.ascontiguousarray(v) for k, v in arrays.items()})


def decode_arrays(payload: bytes) -> dict[str, np.ndarray]:
    if not payload:
        return {}
    import numpy as np
    from safetensors.numpy import load

    try:
        return {k: np.array(v) for k, v in load(payload).items()}
    except Exception as error:  # a malformed payload from untrusted code
        raise ProtocolError(f"unreadable tensor payload: {error}") from None


def send(sock: socket.socket, header: dict[str, Any], arrays: dict[str, np.ndarray] | None = None) -> None:
    body = json.dumps(header).encode()
    payload = encode_arrays(arrays or {})
    sock.sendall(_LENGTHS.pack(len(body), len(payload)) + body + payload)


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    chunks, remaining = [], n
    while remaining:
        chunk = sock.recv(min(remaining, 1 << 20))
        if not chunk:
            raise EOFError("the worker closed the connection")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(sock: socket.socket) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """One message; raises EOFError when the other side is gone, ProtocolError when it is garbage."""
    header_len, payload_len = _LENGTHS.unpack(_read_exactly(sock, _LENGTHS.size))
    if header_len > MAX_HEADER or payload_len > MAX_PAYLOAD:
        raise ProtocolError(f"message too large ({header_len} + {payload_len} bytes)")
    try:
        header = json.loads(_read_exactly(sock, header_len))
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, or nested too deeply
        raise ProtocolError(f"unreadable header: {type(error).__name__}") from None
    if not isinstance(header, dict):
        raise ProtocolError("header is not an object")
    return header, decode_arrays(_read_exactly(sock, payload_len))
