"""The README and the pages in docs/ name only files that ship with the kit, and the README stays a
page for users (short, no words about who built the kit)."""
from __future__ import annotations

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
