"""The API reference in a real browser: the overview and module pages load and link across pages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import SHOTS, Problems, broken_links

OVERVIEW = "reference/api/"
KLONDIKE = "reference/api/solitaire_ds.games.klondike/"
ARRAY_STACK = "reference/api/solitaire_ds.structures.ArrayStack/"


@pytest.mark.parametrize("path", [OVERVIEW, KLONDIKE, ARRAY_STACK])
def test_an_api_page_loads_with_no_problem_and_no_broken_link(browser: Any, base_url: str, path: str) -> None:
    page = browser.new_page()
    problems = Problems(page, base_url)
    page.goto(base_url + path, wait_until="networkidle")
    if path == OVERVIEW:
        page.screenshot(path=str(SHOTS / "api-overview.png"), full_page=True)
    heading = page.locator("article h1").first.inner_text()
    broken = broken_links(page, base_url)
    page.close()
    assert not problems.items, "\n".join(problems.items)
    assert not broken, "broken links:\n" + "\n".join(broken)
    assert heading.strip().startswith("API" if path == OVERVIEW else path.split("/")[-2])


def test_the_overview_links_to_every_module_page(browser: Any, base_url: str) -> None:
    page = browser.new_page()
    page.goto(base_url + OVERVIEW, wait_until="networkidle")
    hrefs = page.eval_on_selector_all("article li > a[href] > code", "els => els.map(e => e.parentElement.href)")
    page.close()
    assert base_url + KLONDIKE in hrefs and base_url + ARRAY_STACK in hrefs
    assert all(href.startswith(base_url + "reference/api/solitaire_ds") for href in hrefs)


def test_a_type_in_a_signature_links_to_the_page_of_its_own_module(browser: Any, base_url: str) -> None:
    page = browser.new_page()
    page.goto(base_url + KLONDIKE, wait_until="networkidle")
    link = page.locator(".doc-signature a[href*='solitaire_ds.cards/#solitaire_ds.cards.Deck']").first
    link.click()
    page.wait_for_load_state("networkidle")
    url = page.url
    target = page.locator("[id='solitaire_ds.cards.Deck']")
    found, in_view = target.count(), target.is_visible() and target.evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight; }")
    page.close()
    assert url == base_url + "reference/api/solitaire_ds.cards/#solitaire_ds.cards.Deck"
    assert found == 1 and in_view
