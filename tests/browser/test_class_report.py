"""The class report's HTML page in Chromium: it loads nothing, and passes axe-core's WCAG A and AA
checks in the light and the dark colour scheme (the synthetic class of 40 of the docs page).

The page is opened from disk, as an instructor opens it; any request it makes is a failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import docgen  # docs/hooks, put on the path by tests/conftest.py
import pytest

from solitaire_ds.course.class_report_html import report_html
from tests.browser.conftest import AXE, SHOTS
from tests.browser.test_site import _AXE_RUN


@pytest.fixture(scope="module")
def report_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    page = tmp_path_factory.mktemp("class-report") / "report.html"
    page.write_text(report_html(docgen.synthetic_report()), encoding="utf-8")
    return page


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_class_report_passes_axe_core_in_both_colour_schemes(
    browser: Any, report_page: Path, scheme: str
) -> None:
    assert AXE and Path(AXE).is_file(), "SOLITAIRE_DS_AXE must name axe.min.js from the axe-core npm package"
    page = browser.new_page()  # the session's Chromium: one Playwright per process
    requests: list[str] = []

    def guard(route: Any) -> None:
        if route.request.url == report_page.as_uri():
            route.continue_()
        else:
            requests.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.emulate_media(color_scheme=scheme)
    page.goto(report_page.as_uri(), wait_until="load")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == {"light": "rgb(255, 255, 255)", "dark": "rgb(22, 24, 29)"}[scheme]
    page.locator("details").first.evaluate("d => d.open = true")  # a list of counts, open, is checked too
    page.screenshot(path=str(SHOTS / f"class-report-{scheme}.png"), full_page=True)
    page.add_script_tag(path=AXE)
    violations = page.evaluate(_AXE_RUN)
    # the keyboard reaches every table that may scroll, and the summaries that open the lists
    reached = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("(document.activeElement.getAttribute('role') || '') + ' ' "
                                  "+ document.activeElement.tagName"))
    page.close()
    assert requests == []
    assert violations == [], f"axe-core, {scheme} scheme"
    assert {"region DIV", " SUMMARY", " A"} <= reached, reached
