"""A class's step files from its students' git repositories (`vitgrade fetch ROSTER --into CLASS`).

A student's tree is never checked out: it is read. Each repository is fetched shallow into a bare
git folder of its own (blobs over the step-file cap left on the server where it allows filters),
its `exercises/` tree listed with `git ls-tree`, and only the eight step files that are regular
files under the cap are read with `git cat-file`. A file name git accepts but a file system does not
(300 bytes), a 60 MB blob, a link to /etc/passwd or a repository that never answers therefore cost
that student a reason, never the class its fetch: each repository has its own time limit, its own
temporary git folder and its own folder in CLASS, named from the roster, not from the student's tree.

Credentials never leave git: a token goes to git through its environment (as an HTTP header for the
base URL's host alone), user names and passwords are cut from every URL written, and git's messages
are scrubbed of both before they become a reason.
"""
from __future__ import annotations

import base64
import json
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from grader.platforms.uploads import MAX_STEP_BYTES, REASON_FILE, listing, named_hint
from grader.steps import STEP_IDS

#: A submission folder's record of what was fetched: the URL (no credentials), the ref and the commit.
FETCHED_FILE = "FETCHED.json"
#: Seconds one repository may take, fetch and reads together, unless the command says otherwise.
DEFAULT_REPOSITORY_TIMEOUT = 60.0
#: Where `owner/name` roster lines live unless the command says otherwise.
DEFAULT_BASE_URL = "https://github.com"
_STEP_NAMES = {f"{step_id}.py": step_id for step_id in STEP_IDS}
_REGULAR_MODES = ("100644", "100755")  # git's modes of files; 120000 is a link, 160000 a submodule
_OWNER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/(?!\.\.?$)[A-Za-z0-9_.-]+")
_FOLDER_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_USERINFO = re.compile(r"(?<=://)[^/@\s]*@")
_SHOWN_NAME = 60  # characters of a student's file name quoted in a reason at most


class RosterError(ValueError):
    """A roster line that names no repository; the message quotes it (without credentials)."""


@dataclass(frozen=True)
class Repository:
    """One roster line."""

    url: str
    """What git fetches, credentials included where the roster line has them."""
    folder: str
    """Its folder in CLASS: the repository's name (its owner's too where two share a name)."""

    @property
    def shown(self) -> str:
        """The URL as records, reasons and logs show it: without user name or password."""
        return without_credentials(self.url)


@dataclass(frozen=True)
class Fetched:
    """What fetching one repository gave."""

    repository: Repository
    commit: str
    """The full SHA of the commit read; empty when the fetch failed."""
    taken: tuple[str, ...]
    """The step files written, e.g. ("01_flatten.py",)."""
    reason: str
    """What was wrong (REASON.txt), one line per problem; empty when nothing was."""


def without_credentials(text: str) -> str:
    """`text` with the user name and password cut from every URL in it."""
    return _USERINFO.sub("", text)


def read_roster(text: str, base_url: str = DEFAULT_BASE_URL) -> list[Repository]:
    """The repositories of a roster: one per line, `owner/name` (under `base_url`) or a git URL;
    `#` starts a comment. Folders are the repositories' names; where names repeat, `owner__name`,
    then a number.

    Raises:
        RosterError: a line that is neither, or no repository at all.
    """
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    urls = [_url(line, base_url.rstrip("/")) for line in lines if line]
    if not urls:
        raise RosterError("the roster names no repository (one owner/name or git URL per line)")
    return [Repository(url, folder) for url, folder in zip(urls, _folders(urls))]


def _url(line: str, base_url: str) -> str:
    if _OWNER_NAME.fullmatch(line):
        return f"{base_url}/{line}"
    if re.match(r"[a-z][a-z0-9+.-]*://", line) or re.fullmatch(r"[\w.-]+@[\w.-]+:\S+", line):
        return line
    raise RosterError(f"not owner/name nor a git URL: {without_credentials(line)!r}")


def _folders(urls: list[str]) -> list[str]:
    """Each URL's folder: its last part without `.git`, `owner__name` where two share it, a number
    where even those repeat; anything but letters, digits, `_`, `.` and `-` becomes `_`."""
    parts = [re.split(r"[/:]", without_credentials(url).rstrip("/").removesuffix(".git")) for url in urls]
    names = [_safe(p[-1]) for p in parts]
    names = [_safe(f"{p[-2]}__{p[-1]}") if names.count(n) > 1 and len(p) > 1 else n for p, n in zip(parts, names)]
    folders: list[str] = []
    for name in names:
        folder, number = name, 2
        while folder in folders:
            folder, number = f"{name}-{number}", number + 1
        folders.append(folder)
    return folders


def _safe(name: str) -> str:
    name = "".join(c if _FOLDER_NAME.fullmatch(c) else "_" for c in name).lstrip(".")
    return name or "repository"


def fetch_class(repositories: list[Repository], into: Path, ref: str = "", *, token: str = "",
                base_url: str = DEFAULT_BASE_URL, timeout: float = DEFAULT_REPOSITORY_TIMEOUT, jobs: int = 4,
                on_fetched: Callable[[Fetched], None] = lambda fetched: None) -> list[Fetched]:
    """Fetch every repository into its folder of `into` (which must be empty or new), `jobs` at once.

    Args:
        repositories: The roster.
        into: The class folder: one folder per repository, nothing else.
        ref: Branch, tag or commit to read; empty: each repository's default branch.
        token: Sent to `base_url`'s host alone (HTTP basic, as GitHub takes tokens); empty: none.
        base_url: The host the token is for.
        timeout: Seconds each repository may take; one that takes longer gets a reason.
        jobs: Repositories fetched at once.
        on_fetched: Called with each repository's outcome as it ends.

    Returns:
        Each repository's outcome, in roster order.
    """
    environment = _git_environment(token, base_url)
    into.mkdir(parents=True, exist_ok=True)

    def one(repository: Repository) -> Fetched:
        fetched = fetch_one(repository, into / repository.folder, ref, environment, timeout, secrets=(token,))
        on_fetched(fetched)
        return fetched

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:  # each thread waits on its own git
        return list(pool.map(one, repositories))


def _git_environment(token: str, base_url: str) -> dict[str, str]:
    """git's environment: never a prompt (a repository that asks for a password fails at once),
    no system or user configuration (no credential helper of the machine answers for a student's
    URL), and the token as a header for the base URL only, through the environment so that no
    command line (`ps`) shows it."""
    environment = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
                   "GIT_CONFIG_GLOBAL": os.devnull, "GIT_ASKPASS": "", "SSH_ASKPASS": "",
                   "GIT_SSH_COMMAND": "ssh -o BatchMode=yes", "LC_ALL": "C"}
    if token:  # after any configuration the environment already gives git
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        given = int(environment.get("GIT_CONFIG_COUNT", "0") or 0)
        environment.update({"GIT_CONFIG_COUNT": str(given + 1),
                            f"GIT_CONFIG_KEY_{given}": f"http.{base_url.rstrip('/')}/.extraHeader",
                            f"GIT_CONFIG_VALUE_{given}": f"AUTHORIZATION: basic {basic}"})
    return environment


def fetch_one(repository: Repository, folder: Path, ref: str, environment: dict[str, str], timeout: float,
              secrets: tuple[str, ...] = ()) -> Fetched:
    """Fetch one repository's step files into `folder` (created here), with its FETCHED.json and,
    where something was wrong, its REASON.txt. Never raises for what the repository holds."""
    folder.mkdir()
    git = _Git(environment, time.monotonic() + timeout, secrets)
    with tempfile.TemporaryDirectory(prefix="vitgrade-fetch-") as work:
        try:
            commit, files, problems = _read_step_files(git, Path(work), repository.url, ref or "HEAD")
        except _GitFailed as failure:
            commit, files = "", {}
            problems = [f"{repository.shown} took longer than {timeout:g} s to fetch and read" if failure.timed_out
                        else f"{repository.shown} could not be fetched at {ref or 'its default branch'}: {failure}"]
    for name, data in files.items():
        (folder / name).write_bytes(data)
    record = {"repository": repository.shown, "ref": ref or "HEAD", "commit": commit}
    (folder / FETCHED_FILE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    reason = "\n".join(problems)
    if reason:
        (folder / REASON_FILE).write_text(reason + "\n", encoding="utf-8")
    return Fetched(repository, commit, tuple(sorted(files)), reason)


class _GitFailed(Exception):
    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


@dataclass
class _Git:
    """git commands for one repository, all within its deadline; messages scrubbed of credentials."""

    environment: dict[str, str]
    deadline: float
    secrets: tuple[str, ...]

    def __call__(self, *arguments: str, given: bytes | None = None) -> bytes:
        """git's output; `_GitFailed` with its last error line when it fails or runs out of time.
        Started in a session of its own, so that the helpers it starts (a transport, upload-pack)
        end with it."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise _GitFailed("ran out of time", timed_out=True)
        process = subprocess.Popen(["git", *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=self.environment, start_new_session=True)
        try:
            output, errors = process.communicate(given, timeout=left)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise _GitFailed("ran out of time", timed_out=True) from None
        if process.returncode != 0:
            raise _GitFailed(self.scrubbed(errors))
        return output

    def scrubbed(self, errors: bytes) -> str:
        """git's first fatal or error line (else its last line), without credentials."""
        lines = [line for line in errors.decode("utf-8", "replace").splitlines() if line.strip()]
        fatal = [line for line in lines if line.startswith(("fatal: ", "error: "))]
        text = without_credentials((fatal or lines or ["git failed"])[0 if fatal else -1])
        for secret in filter(None, self.secrets):
            text = text.replace(secret, "***")
        return text.removeprefix("fatal: ").removeprefix("error: ")[:300]


def _read_step_files(git: _Git, work: Path, url: str, ref: str) -> tuple[str, dict[str, bytes], list[str]]:
    """(commit, step file name -> bytes, problems) of `url` at `ref`, read into the bare folder `work`."""
    git("init", "-q", "--bare", str(work))
    git("-C", str(work), "remote", "add", "origin", url)
    shallow = ("-C", str(work), "fetch", "-q", "--depth", "1", "--no-tags")
    try:  # a server that does not allow filters ignores this one (with a warning), or refuses it
        git(*shallow, f"--filter=blob:limit={MAX_STEP_BYTES + 1}", "origin", ref)
    except _GitFailed as failure:
        if failure.timed_out or "filter" not in str(failure):
            raise
        git(*shallow, "origin", ref)
    git("-C", str(work), "remote", "remove", "origin")  # a blob left on the server stays there
    commit = git("-C", str(work), "rev-parse", "--verify", "FETCH_HEAD^{commit}").decode().strip()
    exercises = _entries(git("-C", str(work), "ls-tree", "-z", commit, "--", "exercises"))
    if not exercises or exercises[0][0] != "040000":
        return commit, {}, [f"no exercises/ folder at commit {commit[:12]}"]
    entries = _entries(git("-C", str(work), "ls-tree", "-z", exercises[0][2]))
    files, problems = _step_blobs(git, work, entries)
    if not files and not problems:
        others = [named_hint(name[:_SHOWN_NAME]) for _, _, _, name in entries]
        problems.append("no step file (01_flatten.py ... 08_occlusion.py) in exercises/ at commit "
                        f"{commit[:12]}" + (f"; found: {listing(others)}" if others else ""))
    return commit, files, problems


def _entries(listed: bytes) -> list[tuple[str, str, str, str]]:
    """`git ls-tree -z` output as (mode, type, object, name) tuples."""
    entries = []
    for record in filter(None, listed.split(b"\0")):
        header, _, name = record.partition(b"\t")
        mode, kind, sha = header.decode().split()
        entries.append((mode, kind, sha, name.decode("utf-8", "replace")))
    return entries


def _step_blobs(git: _Git, work: Path, entries: list[tuple[str, str, str, str]]) -> tuple[dict[str, bytes], list[str]]:
    """The step files among `entries` that are regular files under the cap, and why any other was left."""
    steps = [(mode, kind, sha, name) for mode, kind, sha, name in entries if name in _STEP_NAMES]
    sizes = _sizes(git, work, [sha for mode, kind, sha, _ in steps if kind == "blob" and mode in _REGULAR_MODES])
    files: dict[str, bytes] = {}
    problems: list[str] = []
    for mode, kind, sha, name in steps:
        if kind != "blob" or mode not in _REGULAR_MODES:
            problems.append(f"exercises/{name} is {'a link' if mode == '120000' else 'not a file'}: not graded")
        elif sizes[sha] is None or sizes[sha] > MAX_STEP_BYTES:
            problems.append(f"exercises/{name} is larger than {MAX_STEP_BYTES // 2**20} MB: not graded")
        else:
            files[name] = git("-C", str(work), "cat-file", "blob", sha)
    return files, problems


def _sizes(git: _Git, work: Path, shas: list[str]) -> dict[str, int | None]:
    """Each blob's size; None for one the fetch left on the server (over the cap)."""
    if not shas:
        return {}
    listed = git("-C", str(work), "cat-file", "--batch-check", given="".join(f"{sha}\n" for sha in shas).encode())
    sizes: dict[str, int | None] = {}
    for line in listed.decode().splitlines():  # "<sha> blob <size>", or "<sha> missing"
        sha, *_, size = line.split(" ")
        sizes[sha] = int(size) if size.isdigit() else None
    return sizes
