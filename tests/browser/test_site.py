"""Load the built docs site in a real Chromium: pages render, links work, search finds "stack".

The server, the browser and the problem collectors are in ``conftest.py``.

Run after ``mkdocs build --strict --site-dir DIR``::

    SOLITAIRE_DS_SITE=DIR python -m pytest tests/browser

A page test fails on any console error, page error, failed request, request to another
host, or link on the page that does not resolve (a missing page or a missing ``#anchor``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import AXE, SHOTS, SITE, Problems, broken_links, builder, search_entries

#: (screenshot name, path under the site): the home page, one structure page, one game page.
PAGES = [
    ("home", ""),
    ("structure-array-queue", "explanation/structures/array-queue/"),
    ("game-perpetual-motion", "explanation/games/perpetual-motion/"),
]


@pytest.mark.parametrize(("name", "path"), PAGES)
def test_page_loads_without_errors_orbroken_links(browser: Any, base_url: str, name: str, path: str) -> None:
    page = browser.new_page()
    problems = Problems(page, base_url)
    page.goto(base_url + path, wait_until="networkidle")
    assert page.title(), "the page has no title"
    assert page.locator("article h1").count() == 1, "the page has no heading"
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    broken = broken_links(page, base_url)
    page.close()
    assert not problems.items, "\n".join(problems.items)
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_search_finds_stack(browser: Any, base_url: str) -> None:
    page = browser.new_page()
    problems = Problems(page, base_url)
    page.goto(base_url, wait_until="networkidle")
    if builder() == "zensical":  # a header button opens a search dialog; results are options
        page.locator(".md-search__button").first.click()
        page.keyboard.type("stack", delay=50)
        results = page.locator("[role=option]")
    else:
        field = page.locator("input.md-search__input")
        field.click()  # on a wide window the search field is in the header
        field.press_sequentially("stack", delay=50)
        results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=15_000)
    count = results.count()
    page.screenshot(path=str(SHOTS / "search-stack.png"))
    page.close()
    assert count > 0, "searching for 'stack' found nothing"
    assert not problems.items, "\n".join(problems.items)


def test_no_built_page_holds_an_unexpanded_directive() -> None:
    # a builder that skipped the generation (Zensical ignores mkdocs' hooks) leaves the
    # directives in as HTML comments, and the page silently lacks its tables and pictures
    found = sorted(page.relative_to(SITE).as_posix() for page in SITE.rglob("*.html")
                   if "<!-- gen:" in page.read_text(encoding="utf-8"))
    assert found == []


def test_search_finds_the_generated_content() -> None:
    # the index holds what the generators wrote (a game's rule table), not just the prose
    entries = search_entries()
    assert any("perpetual-motion" in location and "Queue" in text for location, text in entries)


def test_no_built_page_names_an_issue_a_seed_file_or_a_shared_path() -> None:
    # every page as built, the API reference included (its docstrings are rendered by a hook)
    import html
    import re

    from tests.test_docs import machinery

    found = {}
    for page in sorted(SITE.rglob("*.html")):
        text = html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))
        if machinery(text):
            found[page.relative_to(SITE).as_posix()] = machinery(text)[:3]
    assert found == {}


def test_no_canonical_link_or_sitemap_entry_points_at_localhost() -> None:
    # site_url comes from SOLITAIRE_DS_SITE_URL; unset (as in CI), links stay relative
    import re

    addresses = []
    for page in SITE.rglob("*.html"):
        addresses += re.findall(r'<link rel="canonical" href="([^"]*)"', page.read_text(encoding="utf-8"))
    sitemap = SITE / "sitemap.xml"
    if sitemap.exists():
        addresses += re.findall(r"<loc>([^<]*)</loc>", sitemap.read_text(encoding="utf-8"))
    assert [a for a in addresses if "localhost" in a or "127.0.0.1" in a] == []


def test_no_built_page_shows_a_raw_rest_role() -> None:
    import html
    import re

    role = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|exc|obj|const):\s*`?\w")
    shown = {}
    for page in sorted(SITE.rglob("*.html")):
        # a practice page's skeleton is the student's Python file, docstrings as written: code
        source = re.sub(r'<textarea class="ds-practice__skeleton".*?</textarea>', " ",
                        page.read_text(encoding="utf-8"), flags=re.DOTALL)
        text = html.unescape(re.sub(r"<[^>]+>", " ", source))
        if role.search(text):
            match = role.search(text)
            assert match is not None
            shown[page.relative_to(SITE).as_posix()] = text[max(0, match.start() - 40):match.end() + 40]
    assert shown == {}


#: The main pages the contrast check reads, in both colour schemes.
MAIN_PAGES = [
    "", "tutorials/getting-started/", "tutorials/exercise-01-array-stack/",
    "how-to/grade-a-class/", "how-to/class-report/", "explanation/structures/", "explanation/structures/array-queue/",
    "explanation/games/", "explanation/games/perpetual-motion/", "explanation/games/idiots-delight/",
    "explanation/games/aces-up/", "explanation/games/klondike/", "explanation/statistics/",
    "explanation/rule-texts/", "reference/cli/", "practice/", "practice/exercise-01-array-stack/",
]

_AXE_RUN = """async () => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa"]}});
  return result.violations.map(v => v.id + " (" + v.nodes.length + "): "
      + v.nodes.slice(0, 2).map(n => n.target.join(" ")).join("; "));
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_main_pages_pass_axe_core_wcag_aa_checks(browser: Any, base_url: str, scheme: str) -> None:
    assert AXE and Path(AXE).is_file(), (
        "SOLITAIRE_DS_AXE must name axe.min.js from the axe-core npm package "
        "(npm install axe-core; .ci/run does this)")
    failures = {}
    for path in MAIN_PAGES:
        page = browser.new_page()
        page.emulate_media(color_scheme=scheme)  # the site follows the system's scheme ...
        page.add_init_script("window.localStorage.clear()")  # ... unless a choice was stored
        page.goto(base_url + path, wait_until="networkidle")
        shown = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        assert shown == {"light": "default", "dark": "slate"}[scheme], f"{path}: {shown}"
        if path == "explanation/games/klondike/":
            page.screenshot(path=str(SHOTS / f"klondike-{scheme}.png"), full_page=True)
        page.add_script_tag(path=AXE)
        violations = page.evaluate(_AXE_RUN)
        page.close()
        if violations:
            failures[path or "home"] = violations
    assert failures == {}, f"axe-core, {scheme} scheme"
