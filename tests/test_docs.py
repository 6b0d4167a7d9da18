"""The README and the pages in docs/ name only files that ship with the kit, and the README stays a
page for users (short, no words about who built the kit)."""
from __future__ import annotations

import ast
import builtins
import inspect
import re

import pytest

from grader import paths

PAGES = [paths.KIT_ROOT / "README.md", *sorted((paths.KIT_ROOT / "docs").glob("*.md"))]
# A path of the kit as the pages write it: in backquotes or a Markdown link, under a top-level folder.
NAMED = re.compile(r"(?:`|\]\()((?:docs|grader|templates|tests|exercises|solutions|fixtures|\.github|\.ci)"
                   r"/[\w./-]*[\w/])")


def _named_paths(text: str) -> set[str]:
    return {match.rstrip("/") for match in NAMED.findall(text) if "NN_name" not in match}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(paths.KIT_ROOT).as_posix())
def test_every_file_a_page_names_ships_with_the_kit(page):
    text = page.read_text(encoding="utf-8")
    base = paths.KIT_ROOT if page.parent == paths.KIT_ROOT else page.parent
    links = {link for link in re.findall(r"\]\(([\w./-]+\.md)\)", text)}
    missing = [p for p in _named_paths(text) if not (paths.KIT_ROOT / p).exists()]
    missing += [link for link in links if not (base / link).exists()]
    assert missing == []


def test_the_readme_is_for_users():
    text = (paths.KIT_ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 160
    for page in PAGES:
        words = page.read_text(encoding="utf-8").lower()
        assert not re.search(r"\bissue \d|\bengineers?\b|\bthe lead\b|design\.md", words), page.name


def _example_names(module) -> set[str]:
    """The names the docstring examples of a step file use but neither define nor import."""
    used, defined = set(), set(vars(module)) | set(dir(builtins))
    for function in vars(module).values():
        lines = (inspect.getdoc(function) or "").splitlines() if inspect.isfunction(function) else []
        source = "\n".join(line.strip()[4:] for line in lines if line.strip()[:4] in (">>> ", "... "))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name):
                (used if isinstance(node.ctx, ast.Load) else defined).add(node.id)
    return used - defined


@pytest.mark.slow
def test_the_students_snippet_loads_what_the_stubs_examples_use():
    """docs/students.md's snippet defines every name the stubs' examples take for granted, as what
    the examples say it is: the checkpoint's params, a normalized photograph, a model giving logits."""
    import torch

    from grader import ViTParams
    from grader.steps import STEP_IDS
    from grader.student import load_step_file

    page = (paths.KIT_ROOT / "docs" / "students.md").read_text(encoding="utf-8")
    section = page[page.index("## Trying a function yourself"):]
    snippet = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    names: dict = {}
    exec(compile(snippet, "docs/students.md", "exec"), names)  # noqa: S102 - the page's own code, as a student runs it
    needed = set().union(*(_example_names(load_step_file(paths.step_file(paths.EXERCISES, s))) for s in STEP_IDS))
    assert {"params", "model", "image"} <= needed <= set(names), needed - set(names)
    params, image, model = names["params"], names["image"], names["model"]
    assert isinstance(params, ViTParams) and len(params.blocks) == 12
    assert image.shape == (1, 3, 224, 224) and image.dtype == torch.float32 and -1 <= image.min() < image.max() <= 1
    with torch.inference_mode():
        assert model(image).shape == (1, params.W_head.shape[1])
    assert 0 <= names["target"] < params.W_head.shape[1]


def test_both_readmes_say_which_python_and_make_a_venv_with_python3():
    """macOS has no `python`, and its system python3 may be older than the kit needs."""
    import tomllib

    required = tomllib.loads((paths.KIT_ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    version = required.removeprefix(">=")
    for readme in (paths.KIT_ROOT / "README.md", paths.KIT_ROOT / "templates" / "student-README.md"):
        text = readme.read_text(encoding="utf-8")
        assert f"Python {version} or newer" in text and "python3 -m venv .venv" in text, readme.name
        assert "python -m venv" not in text, readme.name
