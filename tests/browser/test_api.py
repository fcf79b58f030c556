"""The API reference in a real browser: the overview and module pages load and link across pages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import SHOTS, Problems, broken_links


@pytest.mark.parametrize("path", ["reference/api/", "reference/api/four-games/", "reference/api/structures/"])
def test_an_api_page_loads_with_no_broken_link(browser: Any, base_url: str, path: str) -> None:
    page = browser.new_page()
    problems = Problems(page, base_url)
    page.goto(base_url + path, wait_until="networkidle")
    if path == "reference/api/":
        page.screenshot(path=str(SHOTS / "api-overview.png"), full_page=True)
    broken = broken_links(page, base_url)
    page.close()
    assert not problems.items, "\n".join(problems.items)
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_a_signature_links_to_a_type_on_another_page(browser: Any, base_url: str) -> None:
    page = browser.new_page()
    page.goto(base_url + "reference/api/four-games/", wait_until="networkidle")
    link = page.locator("a.autorefs-internal[href*='games/#solitaire_ds.games.base.']").first
    link.click()
    page.wait_for_load_state("networkidle")
    url = page.url
    target = url.split("#", 1)[1]
    shown = page.locator(f"[id='{target}']").count()
    page.close()
    assert "/reference/api/games/" in url and shown == 1
