"""Load the built docs site in a real Chromium: pages render, links work, search finds "stack".

Run after ``mkdocs build --strict --site-dir DIR``::

    SOLITAIRE_DS_SITE=DIR python -m pytest tests/browser

The site is served by ``python -m http.server`` on a free localhost port (started and
stopped here). Chromium is Debian's (``/usr/bin/chromium``, or ``$CHROMIUM``), driven by
Playwright without Playwright's own browser download. Screenshots go to
``site-screenshots/`` (or ``$SOLITAIRE_DS_SCREENSHOTS``) as build artifacts. A test fails
on any console error, page error, failed request, request to another host, or link on the
page that does not resolve (a missing page or a missing ``#anchor``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api", reason="the docs extra installs playwright")

SITE = Path(os.environ.get("SOLITAIRE_DS_SITE", "site")).resolve()
SHOTS = Path(os.environ.get("SOLITAIRE_DS_SCREENSHOTS", "site-screenshots")).resolve()
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

#: (screenshot name, path under the site): the home page, one structure page, one game page.
PAGES = [
    ("home", ""),
    ("structure-array-queue", "explanation/structures/array-queue/"),
    ("game-perpetual-motion", "explanation/games/perpetual-motion/"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """Serve the built site on a free port for the whole module."""
    assert (SITE / "index.html").is_file(), f"no built site at {SITE}: run mkdocs build first"
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(SITE)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail(f"the http server on port {port} did not start")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[Any]:
    """A Chromium with a fresh profile; yields its browser context."""
    assert Path(CHROMIUM).exists(), f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile, playwright.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


class _Problems:
    """Everything that went wrong while a page loaded."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.items: list[str] = []
        page.on("console", lambda msg: self.items.append(f"console {msg.type}: {msg.text}")
                if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.items.append(f"page error: {exc}"))
        page.on("requestfailed", lambda req: self.items.append(f"request failed: {req.url} ({req.failure})"))
        page.on("response", lambda res: self.items.append(f"HTTP {res.status}: {res.url}")
                if res.status >= 400 else None)

        def guard(route: Any) -> None:
            if route.request.url.startswith(base_url) or route.request.url.startswith(("data:", "blob:")):
                route.continue_()
            else:
                self.items.append(f"request to another host: {route.request.url}")
                route.abort()

        page.route("**/*", guard)


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)


def _broken_links(page: Any, base_url: str) -> list[str]:
    """Return the links on ``page`` whose target page or anchor does not exist."""
    hrefs: list[str] = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    broken = []
    cache: dict[str, set[str] | None] = {}
    for href in sorted(set(hrefs)):
        if not href.startswith(base_url):
            continue  # the site links to no other host; the request guard catches loads
        target, _, fragment = href.partition("#")
        if target not in cache:
            try:
                with urllib.request.urlopen(target, timeout=5) as response:
                    parser = _Ids()
                    if "html" in response.headers.get("Content-Type", ""):
                        parser.feed(response.read().decode("utf-8", "replace"))
                    cache[target] = parser.ids
            except urllib.error.URLError as exc:
                cache[target] = None
                broken.append(f"{href}: {exc}")
                continue
        ids = cache[target]
        if fragment and ids is not None and urllib.parse.unquote(fragment) not in ids:
            broken.append(f"{href}: no element with id {fragment!r}")
    return broken


@pytest.mark.parametrize(("name", "path"), PAGES)
def test_page_loads_without_errors_or_broken_links(browser: Any, base_url: str, name: str, path: str) -> None:
    page = browser.new_page()
    problems = _Problems(page, base_url)
    page.goto(base_url + path, wait_until="networkidle")
    assert page.title(), "the page has no title"
    assert page.locator("article h1").count() == 1, "the page has no heading"
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    broken = _broken_links(page, base_url)
    page.close()
    assert not problems.items, "\n".join(problems.items)
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_search_finds_stack(browser: Any, base_url: str) -> None:
    page = browser.new_page()
    problems = _Problems(page, base_url)
    page.goto(base_url, wait_until="networkidle")
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
        text = html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))
        if role.search(text):
            match = role.search(text)
            assert match is not None
            shown[page.relative_to(SITE).as_posix()] = text[max(0, match.start() - 40):match.end() + 40]
    assert shown == {}


#: The main pages the contrast check reads, in both colour schemes.
MAIN_PAGES = [
    "", "tutorials/getting-started/", "tutorials/exercise-01-array-stack/",
    "how-to/grade-a-class/", "explanation/structures/", "explanation/structures/array-queue/",
    "explanation/games/", "explanation/games/perpetual-motion/", "explanation/games/idiots-delight/",
    "explanation/games/aces-up/", "explanation/games/klondike/", "explanation/statistics/",
    "explanation/rule-texts/", "reference/cli/",
]
AXE = os.environ.get("SOLITAIRE_DS_AXE", "")

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
