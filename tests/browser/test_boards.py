"""The game pages' boards in a real browser, and the site's search index without their text."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import SHOTS, Problems, broken_links, search_entries

PAGES = [
    ("perpetual-motion", "explanation/games/perpetual-motion/"),
    ("idiots-delight", "explanation/games/idiots-delight/"),
    ("aces-up", "explanation/games/aces-up/"),
    ("klondike", "explanation/games/klondike/"),
    ("tutorial-11", "tutorials/exercise-11-klondike/"),
]


@pytest.mark.parametrize(("name", "path"), PAGES)
def test_a_game_page_draws_its_boards(browser: Any, base_url: str, name: str, path: str) -> None:
    page = browser.new_page()
    problems = Problems(page, base_url)
    page.goto(base_url + path, wait_until="networkidle")
    boxes = page.eval_on_selector_all(
        "svg.ds-board-svg", "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])")
    names = page.eval_on_selector_all("svg.ds-board-svg", "els => els.map(e => e.getAttribute('aria-label'))")
    page.screenshot(path=str(SHOTS / f"boards-{name}.png"), full_page=True)
    broken = broken_links(page, base_url)
    page.close()
    assert boxes, "no board on the page"
    assert all(width > 200 and height > 100 for width, height in boxes), boxes
    assert all(re.search(r"pile 1\b.*(of (clubs|diamonds|hearts|spades)|empty)", label) for label in names)
    assert not problems.items, "\n".join(problems.items)
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_the_search_index_holds_no_board_or_diagram_text() -> None:
    # a board's text, run together by the indexer, reads "pile 1 (Stack)J♠♠3♣♣…": a label
    # straight after a pile's name, or a card's corner symbol next to its centre symbol
    leaks = [(location, text[:80]) for location, text in search_entries()
             if re.search(r"pile \d \(Stack\)(10|[2-9AJQK])[♣♦♥♠]|[♣♦♥♠]{2}", text)]
    assert leaks == []
