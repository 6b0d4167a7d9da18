"""macOS and Windows, simulated on Linux for tests/test_portable.py: put first on PYTHONPATH, this
removes what the zygote needs — `os.fork`, `socket.send_fds`/`recv_fds`, the `resource` module and
libc's `prctl`, `unshare` and `mount` — from every Python started with it (the CLI and its workers).

Without `resource` the portable workers get no memory limit at all, which neither macOS (RLIMIT_DATA)
nor Windows (a Job Object) leaves them. `macos/sitecustomize.py` runs this file with `resource` kept:
put that folder first instead wherever student code may fill the memory."""
import ctypes
import os
import socket
import sys

KEPT = globals().get("KEPT", frozenset())  # set by a flavour that runs this file (macos/)

for _module, _names in ((os, ("fork",)), (socket, ("send_fds", "recv_fds"))):
    for _name in _names:
        if hasattr(_module, _name):
            delattr(_module, _name)


class _NoResource:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "resource":
            raise ModuleNotFoundError("No module named 'resource'", name=name)
        return None


if "resource" not in KEPT:
    sys.modules.pop("resource", None)
    sys.meta_path.insert(0, _NoResource)
_HIDDEN = frozenset({"prctl", "unshare", "mount"})


class _CDLL(ctypes.CDLL):
    def __getattr__(self, name):
        if name in _HIDDEN:
            raise AttributeError(name)
        return super().__getattr__(name)

    def __getitem__(self, name):
        if name in _HIDDEN:
            raise AttributeError(name)
        return super().__getitem__(name)


ctypes.CDLL = _CDLL
ctypes.cdll = ctypes.LibraryLoader(_CDLL)
