"""Linux confinement for a worker: its own PID, mount, network and IPC namespaces, a read-only
file system with the hidden material covered, no capabilities, and a memory limit.

Full confinement needs root (CI machines and containers); elsewhere the worker still runs in its
own process with the memory limit, and the report says that the sandbox was partial.
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path

CLONE_NEWNS, CLONE_NEWPID = 0x00020000, 0x20000000
CLONE_NEWNET, CLONE_NEWIPC = 0x40000000, 0x08000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT = 1, 2, 4, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 24, 38
PR_SET_CHILD_SUBREAPER = 36
_CAP_VERSION_3 = 0x20080522
_LAST_CAP = 63


def _load_libc() -> ctypes.CDLL | None:
    """The C library, or None where there is none to load by that route (Windows)."""
    try:
        return ctypes.CDLL(None, use_errno=True)
    except (OSError, TypeError):
        return None


_libc = _load_libc()


class Unavailable(OSError):
    """A confinement layer this platform does not offer at all (no such libc function or module)."""


def _libc_function(name: str):
    """`name` from libc, looked up only when needed: macOS has no prctl or unshare, Windows no libc."""
    function = getattr(_libc, name, None) if _libc is not None else None
    if function is None:
        raise Unavailable(f"{name} is not available on this platform")
    return function


def _prctl(option: int, arg: int = 0) -> int:
    return _libc_function("prctl")(option, arg, 0, 0, 0)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def can_confine() -> bool:
    """Namespaces and mounts need root; a student's laptop gets the partial sandbox."""
    geteuid = getattr(os, "geteuid", None)  # Windows has none
    return geteuid is not None and geteuid() == 0 and os.environ.get("VITGRADE_SANDBOX", "full") != "partial"


def set_subreaper() -> None:
    """Orphans of the workers re-parent to this process, so none can outlive grading."""
    _check(_prctl(PR_SET_CHILD_SUBREAPER, 1), "subreaper")


def die_with_parent(sig: int = 9) -> None:
    """This process gets `sig` when its parent ends, so no worker outlives the grader."""
    _check(_prctl(PR_SET_PDEATHSIG, sig), "parent-death signal")


def enter_namespaces() -> None:
    """New namespaces for this process's future children (the PID namespace) and itself."""
    _check(_libc_function("unshare")(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC), "unshare")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    enc = lambda s: None if s is None else s.encode()  # noqa: E731 - ctypes wants bytes or NULL
    _check(_libc_function("mount")(enc(source), enc(target), enc(fstype), flags, enc(data)), f"mount {target}")


def _mount_points() -> list[str]:
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4].replace("\\040", " ")
        points.append(point)
    return points


def seal_filesystem(hide: list[Path]) -> None:
    """Inside the new mount namespace: cover `hide` with empty tmpfs, make every mount read-only,
    give the worker a private writable /dev/shm, and a /proc that shows only its own PID namespace.

    Must run as PID 1 of the new PID namespace, before capabilities are dropped.
    """
    _mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    for folder in hide:
        if folder.is_dir():
            _mount("tmpfs", str(folder), "tmpfs", MS_NOSUID | MS_NODEV, "size=4k,mode=0555")
    _cover_private_files()
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV, None)
    for point in _mount_points():
        if point.startswith(("/proc", "/sys", "/dev")) and point not in ("/dev/shm",):
            continue
        try:
            _mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY, None)
        except OSError:
            pass  # a mount we cannot remount stays as it is; the root and work tree are what matter
    # /tmp stays read-only (a submission may live there); /dev/shm is the private scratch space.
    if os.path.isdir("/dev/shm"):
        _mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=256m")
        os.environ["TMPDIR"] = "/dev/shm"


#: Files no student code needs, covered with /dev/null: the worker keeps uid 0 (Python itself may
#: live under /root), and uid 0 can read root's 0600 files even without capabilities.
PRIVATE_FILES = ("/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/root/.ssh", "/root/.git-credentials",
                 "/root/.netrc", "/root/.config/gh", "/root/.docker", "/root/.aws", "/root/.pypirc")


def _cover_private_files() -> None:
    for private in PRIVATE_FILES:
        path = Path(private)
        try:
            if path.is_dir():
                _mount("tmpfs", private, "tmpfs", MS_NOSUID | MS_NODEV, "size=4k,mode=0555")
            elif path.exists():
                _mount("/dev/null", private, None, MS_BIND, None)
        except OSError:
            pass  # best effort: one we cannot cover stays unreadable to nobody else either


#: Environment variables a worker inherits; everything else (CI tokens, keys) stays with the judge.
ENVIRONMENT = ("PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TERM", "PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX",
               "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "TMPDIR")


def worker_environment(environ: dict[str, str]) -> dict[str, str]:
    """The allow-listed part of `environ`, for the zygote and so for every worker."""
    kept = {k: v for k, v in environ.items() if k in ENVIRONMENT or k.startswith(("LC_", "VITGRADE_"))}
    return {**kept, "PYTHONDONTWRITEBYTECODE": "1"}


def drop_privileges() -> None:
    """No capabilities now or after any exec: the worker cannot remount, ptrace, or signal the judge."""
    for cap in range(_LAST_CAP + 1):
        _prctl(PR_CAPBSET_DROP, cap)

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    header, data = Header(_CAP_VERSION_3, 0), (Data * 2)()
    _check(_libc_function("capset")(ctypes.byref(header), ctypes.byref(data)), "capset")
    _check(_prctl(PR_SET_NO_NEW_PRIVS, 1), "no_new_privs")


def limit_memory(limit_bytes: int) -> None:
    """Cap the worker's heap (RLIMIT_DATA). RLIMIT_AS cannot be used: importing torch alone maps
    about 3 GB of address space, while its private data stays small."""
    try:
        import resource  # Unix only
    except ImportError:
        raise Unavailable("resource limits are not available on this platform") from None
    resource.setrlimit(resource.RLIMIT_DATA, (limit_bytes, limit_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
