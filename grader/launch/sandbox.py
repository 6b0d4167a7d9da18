"""Linux confinement for a worker, layer by layer: what the machine allows is used, what it refuses
is left out and named.

The layers: own PID, mount, network and IPC namespaces (as root with CAP_SYS_ADMIN directly;
otherwise inside a new user namespace, which works without privileges where the kernel allows it);
a read-only view of the file system that holds only what the worker needs (an allow-list, built on an
empty tmpfs root); a private /proc; no capabilities; no_new_privs; memory and CPU-time limits; a
subreaper and a parent-death signal, so that nothing outlives grading.

`survey()` tries every layer once, in throwaway processes forked from the zygote; each step's worker
then gets exactly the layers the survey found working (see `grader/worker/zygote.py` for which process does what).
Importing this module is safe on every platform: a libc function or module that is missing (macOS
has no prctl or unshare, Windows no libc and no `resource`) makes its layer unavailable.
"""
from __future__ import annotations

import ctypes
import json
import os
import platform
import stat
from dataclasses import asdict, dataclass, field
from pathlib import Path

CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWUSER = 0x00020000, 0x20000000, 0x10000000
CLONE_NEWNET, CLONE_NEWIPC = 0x40000000, 0x08000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 24, 38
PR_SET_CHILD_SUBREAPER = 36
_CAP_VERSION_3 = 0x20080522
_LAST_CAP = 63
_CAP_SYS_ADMIN = 21
#: pivot_root has no libc wrapper: its system call number, per architecture.
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "arm64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}
#: Flags a user namespace may not clear on a mount it inherited: a read-only remount must repeat them.
_LOCKED_FLAGS = {os.ST_NOSUID: MS_NOSUID, os.ST_NODEV: MS_NODEV, os.ST_NOEXEC: MS_NOEXEC,
                 os.ST_NOATIME: MS_NOATIME, os.ST_NODIRATIME: MS_NODIRATIME,
                 os.ST_RELATIME: MS_RELATIME} if hasattr(os, "ST_NOSUID") else {}

VIEW_TMP_SIZE = "64m"  # the worker's only writable place: its /tmp, counted in RAM


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


def in_libc(name: str) -> bool:
    """Whether this platform's libc offers `name` (the zygote needs prctl, unshare and mount)."""
    return _libc is not None and getattr(_libc, name, None) is not None


def _prctl(option: int, arg: int = 0) -> int:
    return _libc_function("prctl")(option, arg, 0, 0, 0)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


# ---------------------------------------------------------------- the layers, one function each

def set_subreaper() -> None:
    """Orphans of the workers re-parent to this process, so none can outlive grading."""
    _check(_prctl(PR_SET_CHILD_SUBREAPER, 1), "subreaper")


def die_with_parent(sig: int = 9) -> None:
    """This process gets `sig` when its parent ends, so no worker outlives the grader."""
    _check(_prctl(PR_SET_PDEATHSIG, sig), "parent-death signal")


def enter_namespaces(user: bool) -> None:
    """New mount, network and IPC namespaces for this process, a new PID namespace for its children.

    With `user`, all of them inside a new user namespace where this process keeps its own uid and
    gid (the only mapping an unprivileged process may write) and gets capabilities that count only
    there: enough to mount, never enough to touch the host."""
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC
    if not user:
        _check(_libc_function("unshare")(flags), "unshare")
        return
    uid, gid = os.geteuid(), os.getegid()
    _check(_libc_function("unshare")(flags | CLONE_NEWUSER), "unshare")
    # setgroups must be denied before an unprivileged process may write its gid map.
    Path("/proc/self/setgroups").write_text("deny")
    Path("/proc/self/uid_map").write_text(f"{uid} {uid} 1")
    Path("/proc/self/gid_map").write_text(f"{gid} {gid} 1")


def drop_capabilities(become: int | None = None) -> None:
    """No capabilities now or after any exec: the worker cannot remount, ptrace, or signal the judge.

    With `become` (a uid), the process also turns into that user and group, with no supplementary
    groups: after the bounding set is emptied (which needs CAP_SETPCAP) and before the rest are
    cleared (setuid needs CAP_SETUID and CAP_SETGID)."""
    for cap in range(_LAST_CAP + 1):
        _prctl(PR_CAPBSET_DROP, cap)  # refused without CAP_SETPCAP: then there is nothing to drop
    if become is not None:
        os.setgroups([])
        os.setgid(become)
        os.setuid(become)

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    header, data = Header(_CAP_VERSION_3, 0), (Data * 2)()
    _check(_libc_function("capset")(ctypes.byref(header), ctypes.byref(data)), "capset")


def set_no_new_privs() -> None:
    """No exec can ever gain privileges again (setuid programs, file capabilities)."""
    _check(_prctl(PR_SET_NO_NEW_PRIVS, 1), "no_new_privs")


def _resource():
    try:
        import resource  # Unix only
    except ImportError:
        raise Unavailable("resource limits are not available on this platform") from None
    return resource


def limit_memory(limit_bytes: int) -> None:
    """Cap the worker's heap (RLIMIT_DATA). RLIMIT_AS cannot be used: importing torch alone maps
    about 3 GB of address space, while its private data stays small."""
    resource = _resource()
    resource.setrlimit(resource.RLIMIT_DATA, (limit_bytes, limit_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def limit_cpu(seconds: float) -> None:
    """A backstop behind the judge's wall-clock limit: SIGXCPU, then SIGKILL a few seconds later,
    even if the judge could not end the worker. `seconds` must cover every core busy for the step."""
    resource = _resource()
    soft = int(seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))


# ---------------------------------------------------------------- the read-only view

def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    enc = lambda s: None if s is None else s.encode()  # noqa: E731 - ctypes wants bytes or NULL
    _check(_libc_function("mount")(enc(source), enc(target), enc(fstype), flags, enc(data)), f"mount {target}")


def _pivot_root(new_root: str, put_old: str) -> None:
    number = _SYS_PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise Unavailable(f"pivot_root: unknown system call number on {platform.machine()}")
    _check(_libc_function("syscall")(number, new_root.encode(), put_old.encode()), "pivot_root")


#: Device files every Python process may need; the rest of /dev (disks, the host's ttys) stays out.
DEVICES = ("null", "zero", "full", "random", "urandom")


def enter_view(allowed: list[str]) -> list[str]:
    """Replace this process's file system by a read-only view of `allowed` (absolute paths; folders
    whole, files alone, top-level symlinks as symlinks), plus /dev basics, a private /proc and a
    small writable /tmp. Everything else is absent, not merely unreadable.

    Must run in a new mount namespace with CAP_SYS_ADMIN there, before capabilities are dropped,
    and as PID 1 of a new PID namespace for /proc to show only the worker's processes.
    Returns the layers of the view that the machine refused (e.g. a private /proc), by name."""
    refused = []
    # Sources as real paths, found now: after the pivot an absolute symlink would point nowhere.
    sources = {path: os.path.realpath(path) for path in _outermost(allowed)}
    top_links = {path: os.readlink(path) for path in sources if os.path.islink(path) and
                 os.path.dirname(path) == "/"}  # /lib -> usr/lib on merged-/usr systems
    _mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    # The new root is an empty tmpfs; the old root stays reachable below it until the view is built.
    _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    os.chdir("/tmp")
    os.mkdir("oldroot")
    _pivot_root(".", "oldroot")
    os.chdir("/")
    os.makedirs("/tmp", mode=0o1777)
    _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"size={VIEW_TMP_SIZE},mode=1777")
    for path, source in sources.items():
        if path in top_links:
            os.symlink(top_links[path], path)
        else:
            _bind_into_view(path, source)
    for folder in _folders_made_in_tmp(sources):
        _mount(folder, folder, None, MS_BIND | MS_REC, None)  # a mount point: made read-only below
    for device in DEVICES:
        _bind_into_view(f"/dev/{device}", f"/dev/{device}")
    os.symlink("/proc/self/fd", "/dev/fd")
    os.makedirs("/proc")
    try:
        _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    except OSError as error:
        refused.append(f"private /proc ({error.strerror or error})")
    writable = {"/tmp", "/proc"} | {f"/dev/{d}" for d in DEVICES}
    read_only = [p for p in _old_root_mount_points() if p not in writable]
    _check(_libc_function("umount2")(b"/oldroot", MNT_DETACH), "umount /oldroot")
    os.rmdir("/oldroot")
    for point in read_only:
        _remount_read_only(point)
    os.environ["TMPDIR"] = "/tmp"
    return refused


def _outermost(paths: list[str]) -> list[str]:
    """`paths` without those inside another one (binding the outer folder brings them along)."""
    unique = sorted({os.path.normpath(p) for p in paths})
    kept: list[str] = []
    for path in unique:
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def _folders_made_in_tmp(paths) -> list[str]:
    """The folders of /tmp that hold allowed paths (a kit or a submission under /tmp): made on the
    writable /tmp to reach them, they would let the worker write beside the real files' paths."""
    tops = {"/tmp/" + p[len("/tmp/"):].split("/")[0] for p in paths if p.startswith("/tmp/")}
    return sorted(top for top in tops if top not in paths)


def _bind_into_view(path: str, real_path: str) -> None:
    """Make `real_path` of the old root (now under /oldroot) appear at `path` in the new root."""
    source = "/oldroot" + real_path
    if not os.path.exists(source):
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.isdir(source):
        os.makedirs(path, exist_ok=True)
        _mount(source, path, None, MS_BIND | MS_REC, None)
    else:
        open(path, "w").close()
        _mount(source, path, None, MS_BIND, None)


def _old_root_mount_points() -> list[str]:
    """Every mount point of the new root, read while the old root (and its /proc) is still there."""
    lines = Path("/oldroot/proc/self/mountinfo").read_text().splitlines()
    points = [line.split()[4].replace("\\040", " ") for line in lines]
    return [p for p in points if p != "/oldroot" and not p.startswith("/oldroot/")]


def _remount_read_only(point: str) -> None:
    flags = os.statvfs(point).f_flag
    locked = sum(ms for st, ms in _LOCKED_FLAGS.items() if flags & st)
    _mount(None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | locked, None)


# ---------------------------------------------------------------- Landlock: a view without privileges

#: Landlock's system calls have the same numbers on every architecture (they came after the tables
#: were unified), and seccomp profiles that refuse namespaces allow them (Docker's and Podman's since 2022).
_SYS_LANDLOCK_CREATE_RULESET, _SYS_LANDLOCK_ADD_RULE, _SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
_LANDLOCK_CREATE_RULESET_VERSION, _LANDLOCK_RULE_PATH_BENEATH = 1, 1
# File-system access rights (linux/landlock.h): ABI 1 has the first 13, ABI 2 adds REFER, 3 TRUNCATE,
# 5 IOCTL_DEV. A right the ruleset handles is refused wherever no rule grants it.
_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FS_BY_ABI = {1: (1 << 13) - 1, 2: _FS_REFER, 3: _FS_TRUNCATE, 5: _FS_IOCTL_DEV}
_FS_READ = _FS_EXECUTE | _FS_READ_FILE | _FS_READ_DIR
#: The only rights a rule on a file (not a folder) may grant.
_FS_FILE = _FS_EXECUTE | _FS_WRITE_FILE | _FS_READ_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
#: ABI 4 (Linux 6.7): TCP bind and connect, refused on every port (no rule grants one).
_NET_BIND_TCP, _NET_CONNECT_TCP, _NET_ABI = 1 << 0, 1 << 1, 4
#: ABI 6 (Linux 6.12): no signal to, and no abstract unix socket of, a process outside the worker's
#: own domain: without a PID namespace, root's `kill(-1, SIGKILL)` otherwise ends the judge itself.
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL, _SCOPE_ABI = 1 << 0, 1 << 1, 6


class _RulesetAttr(ctypes.Structure):
    # The kernel reads only as many fields as the size passed says (see _ruleset_size).
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


def _ruleset_size(abi: int) -> int:
    """The bytes of _RulesetAttr a kernel of this ABI knows: an older one refuses a longer struct."""
    fields = 3 if abi >= _SCOPE_ABI else 2 if abi >= _NET_ABI else 1
    return fields * ctypes.sizeof(ctypes.c_uint64)


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # __attribute__((packed)) in linux/landlock.h
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The Landlock ABI version this kernel offers; 0 where it offers none (Linux before 5.13, a
    kernel built without it, macOS, Windows)."""
    if platform.system() != "Linux" or not in_libc("syscall"):
        return 0
    version = _libc_function("syscall")(_SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                                        ctypes.c_uint32(_LANDLOCK_CREATE_RULESET_VERSION))
    return max(int(version), 0)


def enter_landlock(readable: list[str], writable: list[str]) -> None:
    """From now on this process and every process it starts may open only `readable` (read and run;
    folders whole) and `writable` (also write, make and remove): every other path is refused, whatever
    its owner and mode, root's included. Where the kernel knows them, also no TCP (ABI 4), and no
    signal or abstract socket beyond this process and its children (ABI 6). Needs no privilege (sets
    no_new_privs); cannot be undone. Paths that do not exist, or that this process cannot reach, are
    left out."""
    abi = landlock_abi()
    if abi < 1:
        raise Unavailable("Landlock is not available (Linux 5.13 or newer)")
    handled = sum(rights for version, rights in _FS_BY_ABI.items() if version <= abi)
    syscall = _libc_function("syscall")
    attr = _RulesetAttr(handled, _NET_BIND_TCP | _NET_CONNECT_TCP, _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL)
    ruleset = syscall(_SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(_ruleset_size(abi)),
                      ctypes.c_uint32(0))
    _check(min(ruleset, 0), "landlock_create_ruleset")
    try:
        for paths, rights in ((readable, _FS_READ), (writable, handled)):
            for path in paths:
                _landlock_allow(ruleset, path, rights & handled)
        set_no_new_privs()
        _check(syscall(_SYS_LANDLOCK_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)), "landlock_restrict_self")
    finally:
        os.close(ruleset)


def _landlock_allow(ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # absent, or out of this user's reach: nothing to grant
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= _FS_FILE
        rule = _PathBeneathAttr(rights, fd)
        _check(_libc_function("syscall")(_SYS_LANDLOCK_ADD_RULE, ruleset, _LANDLOCK_RULE_PATH_BENEATH,
                                         ctypes.byref(rule), ctypes.c_uint32(0)), f"landlock rule for {path}")
    finally:
        os.close(fd)


# ---------------------------------------------------------------- the survey

@dataclass
class Plan:
    """Which layers every worker gets on this machine, as found by `survey()`."""

    namespaces: str | None = None
    """`plain` (root with CAP_SYS_ADMIN), `user` (inside a new user namespace) or None."""
    view: bool = False
    proc: bool = False
    capabilities: bool = False
    no_new_privs: bool = False
    memory: bool = False
    cpu: bool = False
    subreaper: bool = False
    parent_death: bool = False
    unprivileged: bool = False
    """The worker runs as uid NOBODY (root without namespaces, where that user can run Python)."""
    landlock: bool = False
    """Without the view: Landlock lets the worker open only what the view would hold (launch/view.py)."""
    landlock_scope: bool = False
    """With Landlock: the worker may signal no process but its own children, nor open TCP (Linux 6.12)."""
    missing: list[str] = field(default_factory=list)
    """Every layer left out, with the machine's reason."""

    def layers(self) -> list[str]:
        """The layers workers get, by name, for reports."""
        names = []
        if self.namespaces:
            names.append("pid, mount, network and IPC namespaces" +
                         (" (in a user namespace)" if self.namespaces == "user" else ""))
        named = [(self.view, "read-only view"), (self.proc, "private /proc"),
                 (self.capabilities, "no capabilities"), (self.no_new_privs, "no_new_privs"),
                 (self.memory, "memory limit"), (self.cpu, "CPU-time limit"),
                 (self.subreaper, "subreaper"), (self.parent_death, "parent-death signal"),
                 (self.unprivileged, "unprivileged user"), (self.landlock, "Landlock file access"),
                 (self.landlock_scope, "Landlock signal and network scope")]
        return names + [name for works, name in named if works]

    def level(self) -> str:
        """`full` with namespaces, the read-only view and no privileges; else `partial`."""
        full = self.namespaces and self.view and self.capabilities and self.no_new_privs
        return "full" if full else "partial"

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Plan:
        return cls(**data)


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def _has_sys_admin() -> bool:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("CapEff:"):
                return bool(int(line.split()[1], 16) >> _CAP_SYS_ADMIN & 1)
    except OSError:
        pass
    return False


def survey(view_paths: list[str], needed: dict[str, list[str]] | None = None,
          secrets: dict[str, str] | None = None) -> Plan:
    """Try every layer once, in throwaway processes forked from this one, and return what works.

    The survey walks the same process chain as a worker (namespaces in the first child, the view in
    the second as PID 1, privileges and limits in the third), with `view_paths` as the view.
    Without the view, the worker becomes uid NOBODY as root, if that user can read `needed` (what
    it reads, by what it is: "Python", ...), and Landlock confines it to `view_paths` where the kernel
    offers it; `secrets` (path by name) such a worker could still open are named in `missing`."""
    plan = Plan()
    if not hasattr(os, "fork"):
        plan.missing.append("every Linux layer (no fork on this platform)")
        return plan
    for name, attempt in (("subreaper", set_subreaper), ("parent-death signal", die_with_parent)):
        try:
            _in_child(attempt)
            setattr(plan, "subreaper" if name == "subreaper" else "parent_death", True)
        except Exception as error:  # noqa: BLE001 - any failure means: leave this layer out
            plan.missing.append(f"{name} ({_reason(error)})")
    switches = simulated()
    forced = "partial" in switches
    refused = forced or "no-namespaces" in switches
    plan.namespaces = None if refused else _survey_namespaces(plan.missing)
    if refused:
        plan.missing.append(f"namespaces and read-only view (VITGRADE_SANDBOX={os.environ['VITGRADE_SANDBOX']})")
    found = _in_child(lambda: _survey_chain(plan.namespaces, view_paths), result=True)
    for key, value in found.items():
        if key == "missing":
            plan.missing += value
        else:
            setattr(plan, key, value)
    # VITGRADE_SANDBOX=partial keeps the layers a partial sandbox had before the ones below existed.
    if plan.view or forced:
        return plan
    if plan.namespaces is None and hasattr(os, "geteuid") and os.geteuid() == 0:
        _survey_unprivileged(plan, needed or {"Python": view_paths})
    _survey_landlock(plan, view_paths, "no-landlock" in switches)
    _name_readable_secrets(plan, view_paths, secrets or {})
    return plan


def simulated() -> set[str]:
    """The machine refusals VITGRADE_SANDBOX simulates, comma-separated: `no-namespaces` (Docker's
    default seccomp profile), `no-landlock` (a kernel before 5.13), or `partial` (no namespaces, and
    none of the layers that stand in for them: the unprivileged user, Landlock)."""
    return {word.strip() for word in os.environ.get("VITGRADE_SANDBOX", "").split(",") if word.strip()}


NOBODY = 65534  # the uid and gid of `nobody` on Linux: owns nothing of the kit or the grader


def _survey_unprivileged(plan: Plan, needed: dict[str, list[str]]) -> None:
    """Use the `unprivileged user` layer if uid NOBODY can read all of `needed`. Never chmods
    anything: an instructor's checkout is theirs to change."""
    # Found as root: to uid NOBODY a path inside a closed folder does not even exist.
    checks = [(what, path, os.R_OK | os.X_OK if os.path.isdir(path) else os.R_OK)
              for what, paths in needed.items() for path in paths if os.path.exists(path)]

    def attempt() -> str:
        drop_capabilities(become=NOBODY)
        set_no_new_privs()
        for what, path, mode in checks:
            if not os.access(path, mode):
                return f"uid {NOBODY} cannot read {what} at {_unreadable_part(path)}"
        return ""

    try:
        refused = _in_child(attempt, result=True)
    except Exception as error:  # noqa: BLE001
        refused = _reason(error)
    if refused:
        plan.missing.append(f"unprivileged user ({refused})")
    else:
        plan.unprivileged = True


def _survey_landlock(plan: Plan, view_paths: list[str], refused: bool) -> None:
    """Use Landlock where the kernel offers it: checked by confining a throwaway process to the view."""
    if refused:
        plan.missing.append("Landlock file access (VITGRADE_SANDBOX=no-landlock)")
        return
    try:
        _in_child(lambda: enter_landlock(view_paths, []))
        plan.landlock = True
    except Exception as error:  # noqa: BLE001
        plan.missing.append(f"Landlock file access ({_reason(error)})")
        return
    plan.landlock_scope = landlock_abi() >= _SCOPE_ABI
    if not plan.landlock_scope and not plan.unprivileged:
        plan.missing.append("Landlock signal and network scope (Linux 6.12 or newer): without namespaces, "
                            "a worker running as the judge's user may signal the judge")


def confine_like_a_worker(plan: Plan, readable: list[str], writable: list[str]) -> None:
    """The file-system layers of a worker without the view, as `plan` gives them (in a process of its
    own: it cannot be undone): its user and Landlock."""
    if plan.unprivileged:
        drop_capabilities(become=NOBODY)
    if plan.landlock:
        enter_landlock(readable, writable)


def _name_readable_secrets(plan: Plan, view_paths: list[str], secrets: dict[str, str]) -> None:
    """Name in `missing` every secret (grader/secret_files.py) a worker of this plan could open."""
    def attempt() -> list[str]:
        confine_like_a_worker(plan, view_paths, [])
        return [name for name, path in secrets.items() if _opens(path)]

    if readable := _in_child(attempt, result=True):
        plan.missing.append(f"secrets readable by the worker ({', '.join(readable)})")


def _opens(path: str) -> bool:
    """Whether this process can open `path` to read it (a folder: to list it). Asked by opening,
    not by access(2): Landlock refuses the open, not the permission check."""
    try:
        os.close(os.open(path, os.O_RDONLY | (os.O_DIRECTORY if os.path.isdir(path) else 0)))
        return True
    except OSError:
        return False


def readable_as(uid: int, paths: list[str]) -> bool:
    """Whether `uid` could read every one of `paths` (folders: list and enter), asked as that user
    for a moment (root only: the saved uid brings the capabilities back)."""
    os.setegid(uid)
    os.seteuid(uid)
    try:
        return all(os.access(path, os.R_OK | os.X_OK if os.path.isdir(path) else os.R_OK, effective_ids=True)
                   for path in paths)
    finally:
        os.seteuid(0)
        os.setegid(0)


def _unreadable_part(path: str) -> str:
    """The outermost folder on the way to `path` that the current user cannot enter, else `path`."""
    parts = Path(path).parts
    for end in range(2, len(parts) + 1):
        folder = str(Path(*parts[:end]))
        if os.path.isdir(folder) and not os.access(folder, os.X_OK):
            return folder
    return path


def _survey_namespaces(missing: list[str]) -> str | None:
    """`plain`, `user` or None (with the reasons added to `missing`)."""
    reasons = []
    for kind in ("plain", "user"):
        try:
            _in_child(lambda kind=kind: enter_namespaces(user=kind == "user"))
            return kind
        except Exception as error:  # noqa: BLE001
            reasons.append(_reason(error))
    if "not available on this platform" in reasons[1]:
        missing.append(f"namespaces and read-only view ({reasons[1]})")
    else:
        why = "no CAP_SYS_ADMIN" if not _has_sys_admin() else reasons[0]
        missing.append(f"namespaces and read-only view ({why}; user namespaces: {reasons[1]})")
    return None


def _survey_chain(namespaces: str | None, view_paths: list[str]) -> dict:
    """In the first child: namespaces, then the view in a second, then privileges and limits."""
    if namespaces:
        enter_namespaces(user=namespaces == "user")
        return _in_child(lambda: _survey_view_and_limits(view_paths), result=True)
    return _survey_limits()


def _survey_view_and_limits(view_paths: list[str]) -> dict:
    found: dict = {"missing": []}
    try:
        refused = enter_view(view_paths)
        found["view"], found["proc"] = True, not refused
        found["missing"] += refused
    except Exception as error:  # noqa: BLE001
        found["missing"].append(f"read-only view ({_reason(error)})")
    limits = _in_child(_survey_limits, result=True)
    return {**found, **limits, "missing": found["missing"] + limits["missing"]}


def _survey_limits() -> dict:
    found: dict = {"missing": []}
    attempts = (("capabilities", "no capabilities", drop_capabilities),
                ("no_new_privs", "no_new_privs", set_no_new_privs),
                ("memory", "memory limit", lambda: limit_memory(1 << 40)),
                ("cpu", "CPU-time limit", lambda: limit_cpu(3600)))
    for key, name, attempt in attempts:
        try:
            attempt()
            found[key] = True
        except Exception as error:  # noqa: BLE001
            found["missing"].append(f"{name} ({_reason(error)})")
    return found


def _in_child(attempt, result: bool = False):
    """Run `attempt` in a forked child, which then ends: its changes never reach this process.
    Returns what it returned (JSON) when `result`; raises what it raised, as an OSError."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            value = attempt()
            message = {"ok": True, "value": value if result else None}
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            message = {"ok": False, "reason": _reason(error)}
        with os.fdopen(write_end, "w") as out:
            out.write(json.dumps(message))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as incoming:
        text = incoming.read()
    os.waitpid(pid, 0)
    message = json.loads(text) if text else {"ok": False, "reason": "the survey's process died"}
    if not message["ok"]:
        raise OSError(0, message["reason"])
    return message["value"]


# ---------------------------------------------------------------- the worker's environment

#: Environment variables a worker inherits; everything else (CI tokens, keys) stays with the judge.
#: The CPU's kernels as this machine's settings choose them are among them: a worker computes with
#: the instructions the judge was told to use (and a CPU without AVX is simulated in the workers too).
ENVIRONMENT = ("PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TERM", "PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX",
               "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "TMPDIR",
               "ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS", "MKL_CBWR", "ONEDNN_MAX_CPU_ISA",
               "DNNL_MAX_CPU_ISA")


def worker_environment(environ: dict[str, str]) -> dict[str, str]:
    """The allow-listed part of `environ`, for the zygote and so for every worker."""
    kept = {k: v for k, v in environ.items() if k in ENVIRONMENT or k.startswith(("LC_", "VITGRADE_"))}
    return {**kept, "PYTHONDONTWRITEBYTECODE": "1", **KEEP_ALL_FREED_MEMORY}


#: glibc's malloc hands each tensor above its threshold (128 KiB to start) to mmap and back, so every
#: activation of a ViT forward costs fresh zeroed pages (50 forwards: 0.2 of 1.7 CPU-s in page faults).
#: Up to 32 MiB (glibc's largest threshold) freed memory is kept for the next tensor. Other C
#: libraries (macOS, Windows) ignore the names.
KEEP_FREED_MEMORY = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(1 << 30)}
#: Larger blocks too: no mmap at all. The zygote, and so every worker, runs with this. A block handed
#: back and asked for again costs a page fault per 4 KiB (about 2 us each on the build machine, more
#: than the arithmetic: on a VM whose host takes freed pages back, 236 MB took 1.5 s anew and 0.01 s
#: reused). A step's worker is a short-lived fresh process, so its heap never needs to shrink: the
#: probe-model occlusion tests concatenate 196 covers (118 MB) twice, and the second call now reuses
#: the first one's pages (29,000 faults fewer per submission). `show occlusion` and `fixtures build`,
#: which started without it, turn it on for themselves (`keep_freed_memory`).
KEEP_ALL_FREED_MEMORY = {**KEEP_FREED_MEMORY, "MALLOC_MMAP_MAX_": "0"}
_MALLOPT_PARAMETERS = {"MALLOC_MMAP_THRESHOLD_": -3, "MALLOC_TRIM_THRESHOLD_": -1, "MALLOC_MMAP_MAX_": -4}  # malloc.h


def keep_freed_memory() -> None:
    """KEEP_ALL_FREED_MEMORY for this process, which started without it: for a command that runs the
    ViT on many images itself (`show occlusion`, `fixtures build`). glibc only: elsewhere nothing changes."""
    if platform.libc_ver()[0] != "glibc" or not in_libc("mallopt"):
        return
    mallopt = _libc_function("mallopt")
    for name, value in KEEP_ALL_FREED_MEMORY.items():
        mallopt(_MALLOPT_PARAMETERS[name], int(value))
