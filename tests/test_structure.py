"""The kit's shape as docs/architecture.md promises it, read from the source (no module is imported).

Each idea is written once: the float comparison's relative term in grader/numerics.py, the
checkpoint's timm names in grader/checkpoint/ (and the fixture builder, which hooks timm's modules);
no import circle among the modules as they load; no folder of grader/ a reader cannot take in.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

GRADER = Path(__file__).resolve().parent.parent / "grader"

#: Names only timm's ViT gives its tensors and modules; the lecture's names are ViTParams' fields.
TIMM_NAMES = re.compile(r"patch_embed|pos_embed|pos_drop|attn\.qkv|attn\.proj|attn_drop|mlp\.fc[12]|norm[12]\b")
#: Where timm's names may appear: the one mapping, and the builder that runs timm to make the fixtures.
TIMM_HOMES = ("checkpoint/", "expected/build.py")
#: The most lines of Python one folder holds directly (its subfolders not counted).
MOST_LINES_PER_FOLDER = 3000


def _code(path: Path) -> str:
    """A module's code without comments and docstrings (strings that are whole statements)."""
    source = path.read_text()
    docstrings = {(n.body[0].lineno, n.body[0].end_lineno) for n in ast.walk(ast.parse(source))
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    dropped = {line for first, last in docstrings for line in range(first, last + 1)}
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return " ".join(t.string for t in tokens if t.type != tokenize.COMMENT and t.start[0] not in dropped)


def _modules() -> dict[str, Path]:
    return {".".join(p.relative_to(GRADER.parent).with_suffix("").parts).removesuffix(".__init__"): p
            for p in sorted(GRADER.rglob("*.py"))}


def test_the_float_comparison_s_relative_term_is_written_in_numerics_alone() -> None:
    relative_term = re.compile(r"\b(rtol|relative)\s*\*|\*\s*(rtol|relative)\b")  # the tokens, spaced
    writers = sorted(str(p.relative_to(GRADER)) for p in _modules().values() if relative_term.search(_code(p)))
    assert writers == ["numerics.py"], writers


def test_timm_names_appear_only_in_the_checkpoint_mapping_and_the_fixture_builder() -> None:
    speakers = sorted(str(p.relative_to(GRADER)) for p in _modules().values() if TIMM_NAMES.search(_code(p)))
    assert speakers, "the pattern finds nothing at all: it no longer matches how timm names things"
    outside = [name for name in speakers if not name.startswith(TIMM_HOMES)]
    assert outside == [], f"timm's names outside grader/checkpoint/: {outside}"


def test_no_folder_of_grader_holds_more_lines_than_a_reader_takes_in() -> None:
    folders = {p.parent for p in GRADER.rglob("*.py")}
    lines = {str(f.relative_to(GRADER.parent)): sum(len(p.read_text().splitlines()) for p in f.glob("*.py"))
             for f in folders}
    assert max(lines.values()) <= MOST_LINES_PER_FOLDER, sorted(lines.items(), key=lambda kv: -kv[1])[:3]


def _imported_at_load(path: Path, package: str, known: set[str]) -> set[str]:
    """The grader modules `path` imports as it loads (imports inside functions run later)."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        for inner in ast.walk(node) if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) else ():
            if isinstance(inner, ast.Import):
                found |= {a.name for a in inner.names}
            elif isinstance(inner, ast.ImportFrom) and inner.module:
                base = inner.module if inner.level == 0 else ".".join(package.split(".")[: 1 - inner.level]
                                                                      + [inner.module])
                found |= {base} | {f"{base}.{a.name}" for a in inner.names}
    return {name for name in found if name in known}


def test_no_import_circle_among_the_modules_as_they_load() -> None:
    modules = _modules()
    graph = {name: _imported_at_load(path, name if path.name == "__init__.py" else name.rpartition(".")[0],
                                     set(modules)) - {name} for name, path in modules.items()}
    # A package's __init__ runs before its modules: importing grader.a.b also imports grader.a.
    for name in modules:
        parent = name.rpartition(".")[0]
        for importer, imported in graph.items():
            if name in imported and parent in modules and parent != importer and not importer.startswith(parent):
                imported.add(parent)
    on_path, done = [], set()

    def visit(name: str) -> None:
        if name in on_path:
            raise AssertionError("import circle: " + " -> ".join(on_path[on_path.index(name):] + [name]))
        if name in done:
            return
        on_path.append(name)
        for imported in sorted(graph[name]):
            visit(imported)
        on_path.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)
