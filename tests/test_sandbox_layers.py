"""The sandbox's layers where grading really runs: root in a container without CAP_SYS_ADMIN
(simulated with setpriv), a class folder of submissions, and an unprivileged user.

Each setting grades once (the container settings as commands started with the session) and many
things are asserted on that one result.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader import paths
from grader.launch import sandbox
from grader.steps import STEP_IDS
from together import Finished, early, run_together

HOSTILE = Path(__file__).resolve().parent / "hostile"
NO_SYS_ADMIN = ["setpriv", "--inh-caps=-sys_admin", "--bounding-set=-sys_admin", "--"]
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
NAMESPACES = "pid, mount, network and IPC namespaces"


def root_with_setpriv() -> None:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("simulating other users and containers needs root and setpriv")


def surveyed(command_prefix: list[str], python: str = sys.executable, env: dict | None = None) -> sandbox.Plan:
    """The survey's findings for a process started with `command_prefix` (as the zygote would)."""
    code = ("import json; from grader.launch import sandbox, view; from grader.paths import KIT_ROOT; "
            "print(json.dumps(sandbox.survey(view.base_view(KIT_ROOT)).to_json()))")
    if env is None:  # the zygote's environment, and its path to this checkout (installed or not)
        env = sandbox.worker_environment(dict(os.environ))
        code = f"import sys; sys.path.insert(0, {str(paths.KIT_ROOT)!r}); {code}"
    run = subprocess.run([*command_prefix, python, "-c", code], capture_output=True, text=True, timeout=60,
                         env=env, cwd="/")
    assert run.returncode == 0, run.stderr
    return sandbox.Plan.from_json(json.loads(run.stdout))


# --- root in a container: no CAP_SYS_ADMIN -----------------------------------------------------

#: Runs under setpriv: one zygote grades the solutions, then a loop (2 s) and a memory bomb (15 s, 1 GiB)
#: each beside a correct step 04, and prints the contract and the reports as JSON. The bomb's calls end
#: in MemoryError well within a second on an idle machine; 15 s, because filling 1 GiB three times
#: took longer than 5 s beside the suite's other memory bombs on a loaded machine.
CONTAINER_SCRIPT = """
import json, shutil, sys
from dataclasses import replace
from pathlib import Path
from grader import paths
from grader.judge.grading import Grader, GradeOptions
from grader.reports.gradescope import to_gradescope
from grader.reports.junit import to_junit
from grader.steps import get_step

grader = Grader(GradeOptions())
try:
    solutions = grader.grade(paths.SOLUTIONS)
    hostile = {}
    for attack, seconds in (("loop", 2.0), ("memory", 15.0)):
        tight = replace(grader.options, timeout=seconds, memory=1 << 30)
        folder = Path(sys.argv[1]) / attack
        shutil.copytree(Path(sys.argv[2]) / attack, folder)
        shutil.copyfile(paths.step_file(paths.SOLUTIONS, "04_cls"), folder / "04_cls.py")
        steps = [grader.grade_step(get_step("03_position"), folder, {}, tight),
                 grader.grade_step(get_step("04_cls"), folder, {})]
        hostile[attack] = [{"status": s.status, "score": s.score, "max_score": s.max_score,
                            "messages": [t.message for t in s.tests]} for s in steps]
finally:
    grader.close()
print(json.dumps({"contract": solutions.to_contract(), "hostile": hostile,
                  "junit": to_junit([solutions]), "gradescope": json.loads(to_gradescope(solutions))}))
"""


#: Docker's default seccomp profile refuses new user namespaces as well: simulated by a user namespace
#: (root mapped to root) whose limit of nested user namespaces is 0, then setpriv as above.
NO_USER_NAMESPACES = ["unshare", "--user", "--map-root-user", "--", "sh", "-c",
                      'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', "no-user-namespaces"]
CONTAINERS = {"no CAP_SYS_ADMIN": NO_SYS_ADMIN, "Docker's defaults": [*NO_USER_NAMESPACES, *NO_SYS_ADMIN]}


#: The tests that read a container's run.
CONTAINER_TESTS = ("test_without_sys_admin_the_solutions_score_full_marks",
                   "test_without_sys_admin_the_report_names_the_layers_it_got",
                   "test_with_dockers_defaults_the_sandbox_is_partial_and_says_why",
                   "test_without_sys_admin_a_loop_times_out_costing_only_its_own_step",
                   "test_without_sys_admin_a_memory_bomb_is_stopped_costing_only_its_own_step")


def _early_container(setting: str) -> None:
    """Each setting grades in a command started with the session (tests/together.py's `early`)."""
    @early(f"container: {setting}", *CONTAINER_TESTS)
    def _graded_in_a_container(folder: Path) -> dict:
        # from the kit's folder: `-c` imports from the current folder, and the session's may be a test's own then
        return {"args": [*CONTAINERS[setting], sys.executable, "-c", CONTAINER_SCRIPT, str(folder), str(HOSTILE)],
                "cwd": paths.KIT_ROOT}


for _setting in CONTAINERS:
    _early_container(_setting)


@pytest.fixture(scope="module")
def containers(early_runs) -> dict[str, Finished]:
    """Both settings' runs, as they ended."""
    root_with_setpriv()
    return {setting: early_runs.finished(f"container: {setting}") for setting in CONTAINERS}


@pytest.fixture(scope="module", params=list(CONTAINERS))
def container(request, containers):
    run = containers[request.param]
    assert run.returncode == 0, run.stderr[-3000:]
    return {**json.loads(run.stdout), "plan": surveyed(CONTAINERS[request.param]), "setting": request.param}


@pytest.mark.slow
def test_without_sys_admin_the_solutions_score_full_marks(container):
    contract = container["contract"]
    assert contract["score"] == contract["max_score"] == 100
    assert [s["status"] for s in contract["steps"]] == ["passed"] * len(STEP_IDS)


@pytest.mark.slow
def test_without_sys_admin_the_report_names_the_layers_it_got(container):
    plan, report = container["plan"], container["contract"]["sandbox"]
    assert (report["level"], report["missing"]) == (plan.level(), plan.missing), \
        f"the grader's survey found {report}; the test's, run later, {plan}"
    assert "memory limit 4 GiB" in report["layers"] and "no_new_privs" in report["layers"]
    # Namespaces of its own need CAP_SYS_ADMIN: what works here works inside a user namespace.
    assert NAMESPACES not in report["layers"]
    if report["level"] == "full":
        assert f"{NAMESPACES} (in a user namespace)" in report["layers"] and "read-only view" in report["layers"]
    else:
        assert any("user namespaces" in reason for reason in report["missing"]), report
    summary = f"{report['level']}: {', '.join(report['layers'])}"
    assert f'name="sandbox" value="{summary}' in container["junit"]
    assert "Sandbox" not in container["gradescope"]["output"]  # instructors read it in the log


@pytest.mark.slow
def test_with_dockers_defaults_the_sandbox_is_partial_and_says_why(container):
    if container["setting"] != "Docker's defaults":
        pytest.skip("this setting allows user namespaces")
    report = container["contract"]["sandbox"]
    assert report["level"] == "partial"
    assert any("no CAP_SYS_ADMIN" in reason and "user namespaces" in reason for reason in report["missing"])
    assert "read-only view" not in report["layers"] and "no_new_privs" in report["layers"]


@pytest.mark.slow
def test_without_sys_admin_a_loop_times_out_costing_only_its_own_step(container):
    loop, cls = container["hostile"]["loop"]
    assert loop["status"] == "timeout" and loop["score"] == 0
    assert loop["messages"][0].startswith("add_position did not finish within the step's time limit (2 s)")
    assert cls["status"] == "passed" and cls["score"] == cls["max_score"] > 0


@pytest.mark.slow
def test_without_sys_admin_a_memory_bomb_is_stopped_costing_only_its_own_step(container):
    bomb, cls = container["hostile"]["memory"]
    assert bomb["status"] == "error" and bomb["score"] == 0
    assert bomb["messages"][0].startswith("add_position raised MemoryError: out of memory: the worker may use 1 GiB")
    assert cls["status"] == "passed" and cls["score"] == cls["max_score"] > 0


# --- a class folder: no sibling, no kit tests, no solutions in view -----------------------------

@pytest.fixture(scope="module")
def classroom(grader_with, tmp_path_factory):
    """alice (hostile) between bob and carol (the solutions of steps 01-02), graded one by one."""
    plan = surveyed([])
    if plan.level() != "full":
        pytest.skip(f"no full sandbox on this machine: {'; '.join(plan.missing)}")
    folder = tmp_path_factory.mktemp("class")
    shutil.copytree(HOSTILE / "siblings", folder / "alice")
    for name in ("bob", "carol"):
        (folder / name).mkdir()
        for step_id in ("01_flatten", "02_project"):
            shutil.copyfile(paths.step_file(paths.SOLUTIONS, step_id), paths.step_file(folder / name, step_id))
    grader = grader_with(timeout=60.0, steps=("01_flatten", "02_project"))
    return {name: grader.grade(folder / name) for name in ("alice", "bob", "carol")}


@pytest.mark.slow
def test_in_a_class_folder_a_submission_finds_nothing_of_its_siblings_or_the_kit(classroom):
    alice = classroom["alice"].steps[0]
    assert alice.status == "error"
    seen = alice.tests[0].message.partition("\n")[0]
    assert seen == "normalize raised RuntimeError: " + repr({
        "class folder": ["alice"], "sibling": "absent", "tests": "absent", "catalogue": "absent",
        "solutions": "absent", "grader/mistakes": "absent", "grader.mistakes.catalogue": "absent",
        "grader.expected.build": "absent", "grader.checkpoint.standin": "absent"})
    assert classroom["alice"].sandbox.level == "full"


@pytest.mark.slow
def test_in_a_class_folder_honest_siblings_keep_full_marks(classroom):
    for name in ("bob", "carol"):
        result = classroom[name]
        assert result.score == result.max_score > 0, [t.message for s in result.steps for t in s.tests]


# --- an unprivileged user --------------------------------------------------------------------

UNPRIVILEGED_PYTHON = os.environ.get("VITGRADE_UNPRIVILEGED_PYTHON")


@pytest.fixture(scope="module")
def unprivileged():
    """The solutions graded by uid 65534 from a world-readable copy of the kit."""
    root_with_setpriv()
    if not UNPRIVILEGED_PYTHON:
        pytest.skip("VITGRADE_UNPRIVILEGED_PYTHON does not name a python that uid 65534 can run with the "
                    "kit's dependencies (.ci/run makes one)")
    kit = Path(tempfile.mkdtemp(prefix="vitgrade-unprivileged-"))
    try:
        for part in ("grader", "exercises", "solutions", "fixtures"):
            shutil.copytree(paths.KIT_ROOT / part, kit / part, ignore=shutil.ignore_patterns("__pycache__"))
        for path in (kit, *kit.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(kit), "HOME": str(kit)}
        # Visible tests only: the hidden ones ran under setpriv already; here the sandbox is the point.
        run = subprocess.run([*NOBODY, UNPRIVILEGED_PYTHON, "-m", "grader.cli", "grade", "--solutions",
                              "--no-hidden", "--format", "json"], capture_output=True, text=True, timeout=600,
                             env=env, cwd="/")
        assert run.returncode == 0, run.stderr[-3000:]
        yield json.loads(run.stdout), surveyed(NOBODY, UNPRIVILEGED_PYTHON, env)
    finally:
        shutil.rmtree(kit)


@pytest.mark.slow
def test_an_unprivileged_user_gets_the_full_sandbox_where_the_kernel_allows(unprivileged):
    contract, plan = unprivileged
    assert contract["score"] == contract["max_score"] == 100
    report = contract["sandbox"]
    assert report["level"] == plan.level() and report["missing"] == plan.missing
    if report["level"] == "full":
        assert f"{NAMESPACES} (in a user namespace)" in report["layers"] and "read-only view" in report["layers"]
    else:  # the kernel refused user namespaces: the report says so, with its reason
        assert any("user namespaces" in reason for reason in report["missing"]), report


# --- root in a container with Docker's defaults: the worker becomes uid 65534 --------------------

#: Docker's defaults as above, but with every uid below 65536 mapped (as in a real container), so
#: that root can become uid 65534: `unshare --map-users` needs newuidmap, which is not installed.
WITH_ALL_UIDS = [sys.executable, "-c", """
import ctypes, os, sys
mapped, unshared = os.pipe(), os.pipe()
pid = os.fork()
if pid == 0:
    if ctypes.CDLL(None, use_errno=True).unshare(0x10000000) != 0:  # CLONE_NEWUSER
        os._exit(3)
    os.write(unshared[1], b"u")
    os.read(mapped[0], 1)
    os.setgid(0), os.setuid(0)
    open("/proc/sys/user/max_user_namespaces", "w").write("0")
    os.execvp(sys.argv[1], sys.argv[1:])
os.read(unshared[0], 1)
for name in ("uid_map", "gid_map"):  # only a process outside the namespace may map other uids
    open(f"/proc/{pid}/{name}", "w").write("0 0 65536")
os.write(mapped[1], b"m")
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"""]
#: A container has a PID namespace of its own: a hostile worker's kill(-1) never reaches this session.
DOCKER = ["unshare", "--pid", "--fork", "--mount-proc", *WITH_ALL_UIDS, *NO_SYS_ADMIN]

#: Grades a world-readable copy of the solutions (visible tests), then the hostile step 01.
DOCKER_SCRIPT = """
import json, sys
from pathlib import Path
from grader.judge.grading import Grader, GradeOptions
from grader.steps import get_step

grader = Grader(GradeOptions(hidden=False))
try:
    honest = grader.grade(Path(sys.argv[1]))
    hostile = [grader.grade_step(get_step("01_flatten"), Path(folder), {}) for folder in sys.argv[2:]]
finally:
    grader.close()
print(json.dumps({"contract": honest.to_contract(), "hostile": [t.message for s in hostile for t in s.tests]}))
"""


def _world_readable_kit(folder: Path) -> Path:
    """A copy of the kit anyone may read, but its solutions and hidden fixtures (as run_autograder
    leaves them), a world-readable copy of the solutions and the hostile submission."""
    kit = folder / "kit"
    for part in ("grader", "exercises", "solutions", "fixtures"):
        shutil.copytree(paths.KIT_ROOT / part, kit / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(paths.SOLUTIONS, folder / "honest")
    shutil.copytree(HOSTILE / "unprivileged", folder / "hostile")
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    for secret in (kit / "solutions", kit / "fixtures" / "hidden"):
        for path in (secret, *secret.rglob("*")):
            path.chmod(0o700 if path.is_dir() else 0o600)
    return kit


DOCKER_PYTHONS = {"unprivileged python": UNPRIVILEGED_PYTHON, "this machine's python": sys.executable}
SIGNALS_SCOPED = sandbox.landlock_abi() >= 6


@pytest.fixture(scope="module")
def dockers() -> Iterator[dict[str, tuple[Finished, dict[str, str]]]]:
    """Each python that can run here graded at once, from a world-readable kit of its own:
    {setting: (the run, the kit's environment)}."""
    root_with_setpriv()
    pythons = {setting: python for setting, python in DOCKER_PYTHONS.items() if python}
    folder = Path(tempfile.mkdtemp(prefix="vitgrade-docker-"))  # not under pytest's root-only folder
    folder.chmod(0o755)  # each kit below it is world-readable
    try:
        runs, environments = {}, {}
        for index, (setting, python) in enumerate(pythons.items()):
            own = folder / str(index)
            kit = _world_readable_kit(own)
            environments[setting] = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(kit),
                                     "HOME": str(kit), "VITGRADE_ROOT": str(kit)}
            # The hostile submission as root only where Landlock keeps its signals in (see sandbox.py):
            # without that, its kill(-1) ends the judge. That gap is reported as a missing layer.
            hostile = [str(own / "hostile")] if python == UNPRIVILEGED_PYTHON or SIGNALS_SCOPED else []
            runs[setting] = {"args": [*DOCKER, python, "-c", DOCKER_SCRIPT, str(own / "honest"), *hostile],
                             "env": environments[setting], "cwd": "/"}
        finished = run_together(runs, folder / "output")
        yield {setting: (finished[setting], environments[setting]) for setting in pythons}
    finally:
        shutil.rmtree(folder)


@pytest.fixture(scope="module", params=list(DOCKER_PYTHONS))
def docker(request, dockers):
    if request.param not in dockers:
        pytest.skip("VITGRADE_UNPRIVILEGED_PYTHON does not name a python that uid 65534 can run with the "
                    "kit's dependencies")
    run, env = dockers[request.param]
    assert run.returncode == 0, run.stderr[-3000:]
    return {**json.loads(run.stdout), "plan": surveyed(DOCKER, DOCKER_PYTHONS[request.param], env),
            "setting": request.param}


@pytest.mark.slow
def test_with_dockers_defaults_the_solutions_score_full_marks(docker):
    contract = docker["contract"]
    assert contract["score"] == contract["max_score"] == 100, contract
    report, plan = contract["sandbox"], docker["plan"]
    assert report["level"] == plan.level() == "partial" and report["missing"] == plan.missing


@pytest.mark.slow
def test_with_dockers_defaults_the_worker_is_uid_65534_where_it_can_run_python(docker):
    report = docker["contract"]["sandbox"]
    if docker["setting"] == "this machine's python":
        if subprocess.run([*NOBODY, "test", "-x", sys.prefix]).returncode == 0:
            pytest.skip(f"uid 65534 can run this machine's python ({sys.prefix})")
        assert "unprivileged user" not in report["layers"]  # e.g. Python under /root, mode 700
        assert any(r.startswith("unprivileged user (uid 65534 cannot read Python at /") for r in report["missing"])
        return
    assert "unprivileged user" in report["layers"] and "no capabilities" in report["layers"]
    assert not any(reason.startswith("secrets readable") for reason in report["missing"]), report
    seen = docker["hostile"][0].partition("\n")[0]
    # every process above the worker it can find refuses its SIGKILL: all four where /proc shows them,
    # the parent alone where Landlock hides the rest of /proc
    ancestors = 1 if "Landlock file access" in report["layers"] else 4
    assert seen == "normalize raised RuntimeError: " + repr({
        "uid": 65534, "solutions": "PermissionError", "hidden fixtures": "PermissionError",
        "ancestors": ["PermissionError"] * ancestors})


@pytest.mark.slow
def test_with_dockers_defaults_a_root_worker_can_signal_and_read_nothing_of_the_judge(docker):
    """Root without namespaces, where uid 65534 cannot run Python: Landlock alone keeps the worker
    from the judge. Its kill(-1), and its SIGKILL to its parent, end nothing; the judge reports."""
    if docker["setting"] != "this machine's python" or "unprivileged user" in docker["contract"]["sandbox"]["layers"]:
        pytest.skip("the worker runs as uid 65534 here (the test above)")
    if not SIGNALS_SCOPED:
        assert any(r.startswith("Landlock signal and network scope") for r in docker["contract"]["sandbox"]["missing"])
        pytest.skip("this kernel's Landlock cannot scope signals (Linux 6.12 or newer)")
    assert "Landlock signal and network scope" in docker["contract"]["sandbox"]["layers"]
    seen = docker["hostile"][0].partition("\n")[0]
    assert seen == "normalize raised RuntimeError: " + repr({
        "uid": 0, "solutions": "PermissionError", "hidden fixtures": "PermissionError",
        "ancestors": ["PermissionError"]})


def test_on_a_kernel_before_landlock_scopes_the_report_says_what_is_missing(monkeypatch):
    """Landlock ABI 3 (Linux 6.2): files only. The struct the kernel is given is the one it knows,
    and, where the worker runs as the judge's user, the report names the missing scope."""
    if sandbox.landlock_abi() < 3:
        pytest.skip("this kernel's Landlock is older than ABI 3")
    monkeypatch.setattr(sandbox, "landlock_abi", lambda: 3)
    monkeypatch.setenv("VITGRADE_SANDBOX", "no-namespaces")
    from grader.launch import view

    plan = sandbox.survey(view.base_view(paths.KIT_ROOT))
    assert plan.landlock and not plan.landlock_scope
    assert "Landlock signal and network scope" not in plan.layers()
    named = any(reason.startswith("Landlock signal and network scope") for reason in plan.missing)
    assert named == (not plan.unprivileged), plan.missing


def test_the_view_holds_the_innermost_path_entry_of_each_loaded_module_and_never_the_kit(tmp_path, monkeypatch):
    """For a module under two sys.path entries, the view lists the inner one (the outer may hold
    far more than Python); an entry that holds the kit itself is never listed."""
    import types

    from grader.launch import view

    outer = tmp_path / "outer"
    inner = outer / "inner"
    (inner / "package").mkdir(parents=True)
    module = types.ModuleType("vitgrade_view_module")
    module.__file__ = str(inner / "package" / "module.py")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(sys, "path", [str(outer), str(inner), str(paths.KIT_ROOT.parent), *sys.path])
    folders = [Path(folder) for folder in view.python_installation(paths.KIT_ROOT)]
    assert inner in folders and outer not in folders
    assert not any(folder == paths.KIT_ROOT or folder in paths.KIT_ROOT.parents for folder in folders)


def test_a_module_with_a_relative_file_name_brings_no_folder_into_the_view(tmp_path, monkeypatch):
    """torch.ops says its file is "_ops.py": read against the current folder, a zygote started from
    /tmp put the host's /tmp into the view, writable, and emptied it after every step."""
    import types

    from grader.launch import view

    module = types.ModuleType("vitgrade_relative_module")
    module.__file__ = "_ops.py"  # as torch.ops and torch.classes give it
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])  # `python -m` from tmp_path
    assert str(tmp_path) not in view.python_installation(paths.KIT_ROOT)


# --- what a student must not see, at every level -------------------------------------------------

#: A correct step 01 that tries to show the answers (the lecture's maths, a solution, the hidden
#: inputs' shapes in the manifest) at import and under a visible test, and writes each hidden input's
#: shape by every route below `print`, in the call that received it.
LEAKY_TAIL = '''
import ctypes as _ctypes, os as _os, sys as _sys


def _answers():
    found = []
    for name in ("grader/lecture_maths.py", "solutions/01_flatten.py", "fixtures/manifest.json"):
        try:
            found.append(f"read {name} " + open("{kit}/" + name).read()[:400])
        except OSError as error:
            found.append(f"refused {name} {type(error).__name__}")
    return "\\n".join(found)


print(_answers())
_normalize = normalize


def normalize(pixels):
    shape = repr(tuple(pixels.shape)).encode()
    if tuple(pixels.shape) != (1, 3, 224, 224):
        _os.write(1, b"fd1 " + shape + b"\\n")
        _os.write(2, b"fd2 " + shape + b"\\n")
        _sys.__stdout__.write("dunder " + shape.decode() + "\\n")
        _ctypes.CDLL(None).printf(b"printf %s\\n", shape)
    else:
        print(_answers())  # under a visible test
    return _normalize(pixels)
'''

#: Grades the leaky step 01 (hidden tests too) and prints what each audience would see, as JSON.
LEVEL_SCRIPT = """
import json, sys
from pathlib import Path
from grader.judge.grading import Grader, GradeOptions
from grader.reports.gradescope import instructors_log, to_gradescope

grader = Grader(GradeOptions(hidden=True))
try:
    result = grader.grade(Path(sys.argv[1]), steps=("01_flatten",))
finally:
    grader.close()
(step,) = result.steps
print(json.dumps({"sandbox": result.sandbox.__dict__, "score": step.score, "max_score": step.max_score,
                  "output_notes": step.output_notes, "notes": step.notes,
                  "tests": [(t.name, t.visibility, t.output) for t in step.tests],
                  "gradescope": json.loads(to_gradescope(result)), "log": instructors_log(result)}))
"""

#: Where each level is found on this machine: (command prefix, VITGRADE_SANDBOX).
LEVELS = {"full": ([], ""),
          "Landlock, no CAP_SYS_ADMIN, namespaces refused": (NO_SYS_ADMIN, "no-namespaces"),
          "no namespaces, no Landlock": ([], "no-namespaces,no-landlock")}


def hidden_pixel_shapes() -> list[str]:
    """The hidden inputs of normalize that are not the sample photo's size, as the leaky step writes them."""
    from grader.expected.store import load_manifest

    tensors = load_manifest(paths.FIXTURES)["files"]["hidden/01_flatten.safetensors"]["tensors"]
    shapes = {repr(tuple(shape)) for name, shape in tensors.items() if name.endswith("/in/pixels")}
    return sorted(shapes - {repr((1, 3, 224, 224))})


@pytest.fixture(scope="module")
def levels(tmp_path_factory) -> dict[str, dict]:
    root_with_setpriv()
    if sandbox.landlock_abi() < 1:
        pytest.skip("this kernel offers no Landlock")
    folder = tmp_path_factory.mktemp("leaky")
    text = paths.step_file(paths.SOLUTIONS, "01_flatten").read_text() + LEAKY_TAIL.replace("{kit}", str(paths.KIT_ROOT))
    paths.step_file(folder, "01_flatten").write_text(text)
    runs = {level: {"args": [*prefix, sys.executable, "-c", LEVEL_SCRIPT, str(folder)], "cwd": paths.KIT_ROOT,
                    "env": {**os.environ, "VITGRADE_SANDBOX": switches}}
            for level, (prefix, switches) in LEVELS.items()}
    finished = run_together(runs, tmp_path_factory.mktemp("leaky-output"))
    for level, run in finished.items():
        assert run.returncode == 0, (level, run.stderr[-3000:])
    return {level: json.loads(run.stdout) for level, run in finished.items()}


@pytest.mark.slow
def test_with_the_view_or_landlock_a_step_file_reads_no_answer(levels):
    for level in ("full", "Landlock, no CAP_SYS_ADMIN, namespaces refused"):
        found = levels[level]
        notes = "\n".join(found["output_notes"])
        assert notes.count("refused") == 3 and "read " not in notes, (level, notes)
        shown = "".join(output for _, visibility, output in found["tests"] if visibility == "visible")
        assert shown.count("refused") == 3 and "read " not in shown, (level, shown)
        assert found["sandbox"]["level"] == ("full" if level == "full" else "partial")
        assert ("Landlock file access" in found["sandbox"]["layers"]) == (level != "full")


@pytest.mark.slow
def test_without_the_view_and_landlock_the_survey_names_what_the_worker_could_read(levels):
    """Without the view and Landlock only file modes and the user stop a worker: one that stays root
    (this machine's Python is out of uid 65534's reach), or an unprivileged one on a checkout anyone
    may read (a fresh clone), reads the answers. The report says so, secret by secret, exactly when
    the worker could read them."""
    found = levels["no namespaces, no Landlock"]
    readable = [r for r in found["sandbox"]["missing"] if r.startswith("secrets readable by the worker")]
    notes = "\n".join(found["output_notes"])
    if readable:
        assert "grader/lecture_maths.py" in readable[0] and "read grader/lecture_maths.py" in notes
    else:
        assert "unprivileged user" in found["sandbox"]["layers"] and "read " not in notes


@pytest.mark.slow
def test_at_every_level_what_a_call_writes_shows_only_under_its_own_test(levels):
    for level, found in levels.items():
        assert found["score"] == found["max_score"] > 0, level  # leaking costs no point
        hidden = [output for _, visibility, output in found["tests"] if visibility == "hidden"]
        written = "".join(hidden)
        visible_output = found["gradescope"]["output"] + "".join(
            t["output"] for t in found["gradescope"]["tests"] if t["visibility"] == "visible")
        assert hidden_pixel_shapes()
        for shape in hidden_pixel_shapes():
            for route in ("fd1", "fd2", "dunder", "printf"):
                assert f"{route} {shape}" in written, (level, route)
            assert shape not in visible_output and shape not in "".join(found["notes"])
        assert "Sandbox" not in visible_output and "Landlock" not in visible_output  # the log has them
        assert "while it was imported" not in visible_output  # no test owns it
        assert found["log"].startswith(f"vitgrade: sandbox {found['sandbox']['level']}: ")
        assert "refused grader/lecture_maths.py" in found["log"] or level == "no namespaces, no Landlock"
