"""The API reference: an overview, one page per module (per class for the structures), cross-linked."""

from __future__ import annotations

import importlib
import inspect
import os
import re
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import docgen
import pytest

from solitaire_ds.course import REPO_ROOT

API = REPO_ROOT / "docs" / "reference" / "api"
SITE = Path(os.environ.get("SOLITAIRE_DS_SITE", "site"))
needs_site = pytest.mark.skipif(not os.environ.get("SOLITAIRE_DS_SITE"),
                                reason="needs a built site (SOLITAIRE_DS_SITE)")

#: The most an API page may weigh once built, navigation included. Measured: the single page
#: was 513 KB, one page per section 137 KB; one page per module, 124 KB at most with mkdocs and
#: 127 KB with Zensical (solitaire_ds.solver), about 55 KB of each being the site's navigation.
MAX_PAGE_BYTES = 140_000


def _listed() -> list[str]:
    return [name for _, names in docgen.reference.API_SECTIONS for name in names]


def _first_docstring_line(dotted: str) -> str:
    module, _, attribute = dotted.rpartition(".")
    try:
        found = importlib.import_module(dotted)
    except ModuleNotFoundError:
        found = getattr(importlib.import_module(module), attribute)
    return (inspect.getdoc(found) or "").splitlines()[0]


def test_every_public_module_has_its_place_in_a_section() -> None:
    assert docgen.undocumented(_listed()) == [], "add these modules to API_SECTIONS in docs/hooks/docgen/reference.py"
    assert {"solitaire_ds.interactive", "solitaire_ds.course.grader.judge"} <= set(docgen.public_modules())
    assert len(_listed()) == len(set(_listed())), "a name is listed twice"
    assert "## Other modules" not in docgen.api()


def test_a_public_module_left_out_of_the_sections_is_shown_on_the_overview(monkeypatch: pytest.MonkeyPatch) -> None:
    sections = [(title, [n for n in names if n != "solitaire_ds.interactive"]) for title, names in docgen.API_SECTIONS]
    monkeypatch.setattr(docgen.reference, "API_SECTIONS", sections)
    assert docgen.undocumented(_listed()) == ["solitaire_ds.interactive"]
    overview = docgen.api()
    assert "## Other modules" in overview
    assert overview.split("## Other modules", 1)[1].count("\n::: ") == 1
    assert "\n::: solitaire_ds.interactive\n" in overview


def test_a_class_listed_through_its_package_documents_its_module() -> None:
    assert "solitaire_ds.structures.array_stack" not in _listed()
    without = [n for n in _listed() if n != "solitaire_ds.structures.ArrayStack"]
    assert docgen.undocumented(without) == ["solitaire_ds.structures", "solitaire_ds.structures.array_stack"]


def test_every_listed_name_has_its_one_line_page_and_no_page_is_left_over() -> None:
    pages = {path.name for path in API.glob("*.md")} - {"index.md"}
    assert pages == {f"{name}.md" for name in _listed()}
    for name in _listed():
        assert (API / f"{name}.md").read_text(encoding="utf-8") == f"<!-- gen: api-module name={name} -->\n"


def test_the_nav_lists_every_api_page_under_its_section_in_reading_order() -> None:
    lines = ["      - API:", "          - reference/api/index.md"]
    for title, names in docgen.API_SECTIONS:
        lines.append(f"          - {title}:")
        lines += [f"              - {name.removeprefix('solitaire_ds.')}: reference/api/{name}.md" for name in names]
    nav = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\n".join(lines) + "\n  - " in nav


def test_the_overview_links_every_name_to_its_page_with_its_first_docstring_line() -> None:
    overview = docgen.api()
    for title, names in docgen.API_SECTIONS:
        section = overview.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
        for name in names:
            summary = _first_docstring_line(name)
            assert summary, f"{name} has no docstring"
            # a reST role reads as code there: :class:`~a.Event` as `Event`, :mod:`a.b` as `a.b`
            summary = re.sub(r":[a-z]+:`~[^`]*?([^.`]+)`", r"`\1`", summary)
            summary = re.sub(r":[a-z]+:`([^`]+)`", r"`\1`", summary)
            assert f"- [`{name}`]({name}.md): {summary}\n" in section
    assert not re.search(r":[a-z]+:`", overview), "a reST role left raw in the overview"


def test_a_module_page_renders_the_module_with_its_name_as_the_page_heading() -> None:
    page = docgen.expand((API / "solitaire_ds.cards.md").read_text(encoding="utf-8"))
    assert page.startswith("::: solitaire_ds.cards\n    options:\n")
    assert "      heading_level: 1\n" in page and "      show_root_full_path: true\n" in page
    assert "      signature_crossrefs: true" in page


def test_a_name_outside_the_sections_is_a_directive_error() -> None:
    with pytest.raises(docgen.DirectiveError, match=r"'solitaire_ds\.nope' is not in API_SECTIONS"):
        docgen.api_module("solitaire_ds.nope")


# -- on a built site ---------------------------------------------------------------------------------


@needs_site
def test_no_built_api_page_is_too_big_to_read() -> None:
    sizes = {page.parent.name: page.stat().st_size for page in (SITE / "reference" / "api").glob("*/index.html")}
    assert set(sizes) == set(_listed())
    assert {name: size for name, size in sizes.items() if size > MAX_PAGE_BYTES} == {}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("href"):
            self.hrefs.append(str(found["href"]))


def _parsed(path: Path, cache: dict[Path, _Page]) -> _Page:
    if path not in cache:
        cache[path] = _Page()
        cache[path].feed(path.read_text(encoding="utf-8"))
    return cache[path]


@needs_site
def test_every_link_into_the_api_pages_reaches_its_page_and_anchor() -> None:
    api, cache, broken, count = (SITE / "reference" / "api").resolve(), {}, [], 0
    into_api_from_elsewhere = 0
    for page in sorted(SITE.resolve().rglob("*.html")):
        for href in _parsed(page, cache).hrefs:
            parts = urllib.parse.urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path:
                continue  # another host, or an anchor on the same page
            target = (page.parent / urllib.parse.unquote(parts.path)).resolve()
            if api not in target.parents and target != api:
                continue
            target = target / "index.html" if target.is_dir() else target
            count += 1
            into_api_from_elsewhere += api not in page.parents
            if not target.is_file():
                broken.append(f"{page.relative_to(SITE.resolve())}: {href} (no page)")
            elif parts.fragment and urllib.parse.unquote(parts.fragment) not in _parsed(target, cache).ids:
                broken.append(f"{page.relative_to(SITE.resolve())}: {href} (no anchor)")
    assert count and into_api_from_elsewhere, "no links into the API pages at all"
    assert broken == []


@needs_site
def test_a_reference_by_name_on_another_page_links_to_the_api_page() -> None:
    page = _Page()
    page.feed((SITE / "explanation" / "structures" / "index.html").read_text(encoding="utf-8"))
    expected = "../../reference/api/solitaire_ds.structures.ArrayStack/#solitaire_ds.structures.ArrayStack"
    assert expected in page.hrefs


@needs_site
def test_a_signature_links_a_type_to_the_page_of_the_module_that_defines_it() -> None:
    html = (SITE / "reference" / "api" / "solitaire_ds.games.klondike" / "index.html").read_text(encoding="utf-8")
    signatures = re.findall(r'<div class="doc-signature.*?</code>', html, re.DOTALL)
    assert signatures
    links = {href for signature in signatures for href in re.findall(r'href="([^"]+)"', signature)}
    assert "../solitaire_ds.cards/#solitaire_ds.cards.Deck" in links
