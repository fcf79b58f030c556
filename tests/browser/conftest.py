"""The real-browser tests of the built docs site: run only when a built site is named.

CI builds the site (with mkdocs, and again with Zensical) and then runs
``SOLITAIRE_DS_SITE=DIR python -m pytest tests/browser`` on each. Without
``SOLITAIRE_DS_SITE`` (the default test run) nothing here is collected.

The site is served by ``python -m http.server`` on a free localhost port (started and
stopped here). Chromium is Debian's (``/usr/bin/chromium``, or ``$CHROMIUM``), driven by
Playwright without Playwright's own browser download. Screenshots go to
``site-screenshots/`` (or ``$SOLITAIRE_DS_SCREENSHOTS``) as build artifacts.
:class:`Problems` collects console errors, page errors, failed requests and requests to
another host; :func:`broken_links` lists links whose page or ``#anchor`` does not exist.
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

if not os.environ.get("SOLITAIRE_DS_SITE"):
    collect_ignore_glob = ["test_*.py"]
    playwright: Any = None
else:
    playwright = pytest.importorskip("playwright.sync_api", reason="the docs extra installs playwright")

SITE = Path(os.environ.get("SOLITAIRE_DS_SITE", "site")).resolve()
SHOTS = Path(os.environ.get("SOLITAIRE_DS_SCREENSHOTS", "site-screenshots")).resolve()
#: axe.min.js from the axe-core npm package, for the accessibility checks (CI installs it).
AXE = os.environ.get("SOLITAIRE_DS_AXE", "")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """Serve the built site on a free port for the whole session."""
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


@pytest.fixture(scope="session")
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


class Problems:
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


def broken_links(page: Any, base_url: str) -> list[str]:
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


def builder() -> str:
    """Which builder made the site under test: ``"mkdocs"`` or ``"zensical"`` (its generator tag)."""
    import re

    head = (SITE / "index.html").read_text(encoding="utf-8")[:5000]
    tag = re.search(r'<meta name="generator" content="([^"]*)"', head)
    assert tag is not None, f"{SITE}/index.html names no generator"
    return "zensical" if tag[1].startswith("zensical") else "mkdocs"


def search_entries() -> list[tuple[str, str]]:
    """The site's search index as (page location, indexed text) pairs, from either builder."""
    import json

    if builder() == "zensical":
        items = json.loads((SITE / "search.json").read_text(encoding="utf-8"))["items"]
    else:
        items = json.loads((SITE / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    return [(item["location"], f"{item['title']} {item['text']}") for item in items]
