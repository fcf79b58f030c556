"""The API reference: one page per part of the package, every public module on one, cross-linked."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from solitaire_ds.course import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "docs" / "hooks"))
import docgen

API = REPO_ROOT / "docs" / "reference" / "api"

#: The largest an API page may be once built, navigation included (the single page was 513 KB).
MAX_PAGE_BYTES = 150_000


def test_every_public_module_has_its_place_in_a_section() -> None:
    listed = [name for _, names in docgen.API_SECTIONS for name in names]
    assert docgen.undocumented(listed) == [], "add these modules to API_SECTIONS in docs/hooks/docgen/reference.py"
    assert {"solitaire_ds.interactive", "solitaire_ds.course.plugin"} <= set(docgen.public_modules())


def test_a_public_module_left_out_of_the_sections_gets_the_other_modules_page(monkeypatch: pytest.MonkeyPatch) -> None:
    sections = [(title, [n for n in names if n != "solitaire_ds.interactive"]) for title, names in docgen.API_SECTIONS]
    monkeypatch.setattr(docgen.reference, "API_SECTIONS", sections)
    listed = [name for _, names in sections for name in names]
    assert docgen.undocumented(listed) == ["solitaire_ds.interactive"]
    assert docgen.api_page("other-modules") == "::: solitaire_ds.interactive\n"
    entry = "- [`solitaire_ds.interactive`](other-modules.md#solitaire_ds.interactive)"
    assert f"## [Other modules](other-modules.md)\n\n{entry}" in docgen.api()


def test_a_class_listed_through_its_package_documents_its_module() -> None:
    listed = [name for _, names in docgen.API_SECTIONS for name in names]
    assert "solitaire_ds.structures.array_stack" not in listed
    without = [n for n in listed if n != "solitaire_ds.structures.ArrayStack"]
    assert docgen.undocumented(without) == ["solitaire_ds.structures", "solitaire_ds.structures.array_stack"]


def test_each_section_has_its_page_in_the_nav_and_no_page_is_left_over() -> None:
    pages = {path.stem for path in API.glob("*.md")} - {"index"}
    assert pages == {slug for _, slug, _ in docgen.api_pages()}
    nav = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for title, slug, _ in docgen.api_pages():
        assert f"          - {title}: reference/api/{slug}.md\n" in nav
        stub = f"# {title}\n\n<!-- gen: api-page section={slug} -->\n"
        assert (API / f"{slug}.md").read_text(encoding="utf-8") == stub


def test_the_overview_links_every_module_to_its_page_with_its_first_docstring_line() -> None:
    overview = docgen.api()
    for _, slug, names in docgen.api_pages():
        for name in names:
            assert re.search(rf"^- \[`{re.escape(name)}`\]\({slug}\.md#{re.escape(name)}\)", overview, re.MULTILINE)
    assert "[`solitaire_ds.cards`](cards.md#solitaire_ds.cards): " in overview


def test_an_unknown_section_is_a_directive_error() -> None:
    with pytest.raises(docgen.DirectiveError, match="no section 'nope'"):
        docgen.api_page("nope")


@pytest.mark.skipif(not os.environ.get("SOLITAIRE_DS_SITE"), reason="needs a built site (SOLITAIRE_DS_SITE)")
def test_no_built_api_page_is_too_big_to_read() -> None:
    site = Path(os.environ["SOLITAIRE_DS_SITE"]) / "reference" / "api"
    sizes = {page.parent.name: page.stat().st_size for page in site.glob("*/index.html")}
    assert len(sizes) == len(docgen.api_pages())
    assert {name: size for name, size in sizes.items() if size > MAX_PAGE_BYTES} == {}
