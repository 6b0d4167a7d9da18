"""Finding a student's step files in whatever they uploaded, and refusing, with one clear reason,
uploads that cannot be graded.

Students upload in many shapes: the eight files, their `exercises/` folder, or the zip of their
whole repository (one folder on top). Nothing here imports torch or runs student code, so a bad
upload is answered in well under a second, before any worker starts.
"""
from __future__ import annotations

import difflib
import os
import shutil
import tokenize
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

from grader.steps import STEP_IDS

#: A whole upload larger than this is not a set of step files (they weigh a few kB each).
MAX_UPLOAD_BYTES = 20 * 2**20
#: One step file larger than this is not a solution someone wrote.
MAX_STEP_BYTES = 2**20
#: Walking more entries than this is refused instead of taking Gradescope's time.
MAX_ENTRIES = 5000
#: Folders that zip tools add and nobody means to submit.
_IGNORED_FOLDERS = ("__MACOSX", "__pycache__")
_ARCHIVES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")
_STEP_NAMES = tuple(f"{s}.py" for s in STEP_IDS)
_LISTED = 8  # file names quoted in a message at most


class BadUpload(Exception):
    """An upload that cannot be graded; the message says why and what to upload instead."""


@dataclass
class Upload:
    """The step files found in an upload."""

    folder: Path
    """Where they are, e.g. `submission/exercises`."""
    files: dict[str, Path]
    """Step id -> its file."""
    ignored: list[str] = field(default_factory=list)
    """Other files of the upload (relative paths), not graded."""

    def summary(self, root: Path) -> str:
        """One or two lines for the student: what was graded, what was left aside."""
        where = self.folder.relative_to(root).as_posix() if self.folder != root else "the top of your upload"
        lines = [f"Graded {len(self.files)} step file(s) from {where}: {', '.join(sorted(self.files))}."]
        if self.ignored:
            lines.append(f"Not graded (not step files): {listing([named_hint(f) for f in self.ignored])}.")
        return "\n".join(lines)


def find_step_files(submission: Path) -> Upload:
    """The step files of an upload: at its top, in `exercises/`, or in one folder (and its `exercises/`).

    Args:
        submission: The folder the platform unpacked the upload into.

    Returns:
        The folder graded, its step files, and the other files left aside.

    Raises:
        BadUpload: empty, too large, step files misnamed, an archive inside an archive, a step
            file that is a link, too large or not text.
    """
    entries = _scan(submission)
    files = [e for e in entries if not e.endswith("/")]
    if not files:
        raise BadUpload("Your upload is empty. " + _WHAT_TO_UPLOAD)
    for folder in _candidates(submission):
        found = {name[:-3]: folder / name for name in _STEP_NAMES if os.path.lexists(folder / name)}
        if found:
            for path in found.values():
                _check_step_file(path, submission)
            graded = {path.relative_to(submission).as_posix() for path in found.values()}
            return Upload(folder, found, [f for f in files if f not in graded])
    raise BadUpload(_no_step_files(files))


_WHAT_TO_UPLOAD = ("Upload your step files 01_flatten.py ... 08_occlusion.py: the files themselves, "
                   "your exercises/ folder, or one zip of them (the zip you upload is unpacked; a zip "
                   "inside it is not).")


def _scan(submission: Path) -> list[str]:
    """Every entry of the upload as a relative path (folders end in `/`), refusing huge uploads
    as soon as they are seen to be huge; links are listed, never followed."""
    entries: list[str] = []
    total = 0
    for folder, subfolders, names in os.walk(submission):
        subfolders[:] = sorted(d for d in subfolders if d not in _IGNORED_FOLDERS)
        base = Path(folder)
        for name in sorted(names):
            path = base / name
            entries.append(path.relative_to(submission).as_posix())
            total += path.lstat().st_size
            if total > MAX_UPLOAD_BYTES:
                raise BadUpload(f"Your upload is larger than {MAX_UPLOAD_BYTES // 2**20} MB; step files "
                                "weigh a few kB. Leave out data, checkpoints and environments. "
                                + _WHAT_TO_UPLOAD)
        entries += [(base / d).relative_to(submission).as_posix() + "/" for d in subfolders]
        if len(entries) > MAX_ENTRIES:
            raise BadUpload(f"Your upload holds more than {MAX_ENTRIES} files. " + _WHAT_TO_UPLOAD)
    return entries


def _candidates(submission: Path) -> list[Path]:
    """Where step files may be, in the order looked at: the top, `exercises/`, then the one folder
    on top (a repository zip) and its `exercises/`."""
    found = [submission, submission / "exercises"]
    folders = [p for p in submission.iterdir() if p.is_dir() and not p.is_symlink()
               and p.name not in _IGNORED_FOLDERS and not p.name.startswith(".")]
    if len(folders) == 1:
        found += [folders[0], folders[0] / "exercises"]
    return [p for p in found if p.is_dir() and not p.is_symlink()]


def _check_step_file(path: Path, submission: Path) -> None:
    """A step file must be a small regular file of Python source text."""
    name = path.relative_to(submission).as_posix()
    if path.is_symlink() or not path.is_file():
        raise BadUpload(f"{name} is a link or a folder, not a file. Upload the file itself.")
    if path.stat().st_size > MAX_STEP_BYTES:
        raise BadUpload(f"{name} is larger than {MAX_STEP_BYTES // 2**20} MB; a step file is a few kB "
                        "of Python. Upload the file you edited.")
    data = path.read_bytes()
    try:
        encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
        data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        where = f" (byte {error.start})" if isinstance(error, UnicodeDecodeError) else ""
        raise BadUpload(f"{name} is not UTF-8 text{where}. Save it as UTF-8 (any editor's "
                        "'Save with encoding') and upload it again.") from None


def _no_step_files(files: list[str]) -> str:
    """Why nothing could be graded, for an upload with files but none named as a step."""
    archives = [f for f in files if f.lower().endswith(_ARCHIVES)]
    if archives:
        return (f"Your upload holds an archive ({listing(archives)}) instead of step files; "
                "archives inside the upload are not unpacked. " + _WHAT_TO_UPLOAD)
    python = [f for f in files if f.lower().endswith(".py")]
    too_deep = [f for f in python if Path(f).name in _STEP_NAMES]
    if too_deep:  # rightly named, but further down than _candidates looks
        return (f"Your step files are too far down in your upload: found {listing(too_deep)}. They must be at "
                "its top, in exercises/, or in one folder there (or its exercises/). " + _WHAT_TO_UPLOAD)
    if python:
        return ("No file has a step's name. Found: " + listing([named_hint(f) for f in python])
                + ". The names must be exactly 01_flatten.py, 02_project.py, 03_position.py, 04_cls.py, "
                "05_attention.py, 06_block.py, 07_head.py, 08_occlusion.py.")
    return f"Your upload holds no Python files (found: {listing(files)}). " + _WHAT_TO_UPLOAD


def named_hint(name: str) -> str:
    """A misnamed Python file with the step name it was probably meant to have."""
    if not name.lower().endswith(".py") or Path(name).name in _STEP_NAMES:  # a right name, found too deep
        return name
    close = difflib.get_close_matches(Path(name).name.lower(), _STEP_NAMES, n=1, cutoff=0.5)
    return f"{name} (did you mean {close[0]}?)" if close else name


def listing(names: list[str]) -> str:
    shown = ", ".join(names[:_LISTED])
    return shown + (f" and {len(names) - _LISTED} more" if len(names) > _LISTED else "")


def copy_step_files(upload: Upload, target: Path) -> Path:
    """The step files alone, copied into `target`: the worker never sees the rest of the upload."""
    target.mkdir(parents=True, exist_ok=True)
    for step_id, path in upload.files.items():
        shutil.copyfile(path, target / f"{step_id}.py")
    return target


#: In a class folder, a submission folder's REASON.txt says why it has no step file (the instructor's
#: workflow writes one for a repository it could not fetch); its first line is the gradebook's note.
REASON_FILE = "REASON.txt"
_REASON_CHARACTERS = 300


def no_step_file_reason(folder: Path) -> str:
    """Why a class's submission folder without step files scores 0, in one line for its row.

    Args:
        folder: A folder of a class that holds none of 01_flatten.py ... 08_occlusion.py.

    Returns:
        The first line of its REASON.txt, or what it holds instead (misnamed step files with the
        name they were probably meant to have), or that it is empty.
    """
    reason = folder / REASON_FILE
    if reason.is_file() and not reason.is_symlink():
        first = reason.read_text(encoding="utf-8", errors="replace").strip().splitlines()[:1]
        if first:
            return first[0][:_REASON_CHARACTERS]
    try:
        files = [e for e in _scan(folder) if not e.endswith("/")]
    except BadUpload as error:
        return str(error).replace("Your upload", "The folder").split(". ")[0] + "."
    if not files:
        return "no step file: the folder is empty."
    return f"no step file (01_flatten.py ... 08_occlusion.py); found: {listing([named_hint(f) for f in files])}."
