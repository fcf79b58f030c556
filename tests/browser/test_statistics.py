"""The statistics page on a phone (390 px) and a wide window (1,400 px): every column shows.

A table that is wider than the text column scrolls sideways inside its box, so its last
columns sit out of view: that is what this test fails on, table by table, with no scrolling.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import SHOTS, Problems

#: For every table in the article: how far it reaches past its box, and its cells past the window.
_OVERFLOW = """() => Array.from(document.querySelectorAll("article table")).map((table, i) => {
  const box = table.parentElement.getBoundingClientRect();
  const cells = Array.from(table.querySelectorAll("th, td"));
  const right = Math.max(...cells.map(c => c.getBoundingClientRect().right));
  return {table: i + 1, head: table.rows[0].innerText.slice(0, 60).replace(/\\s+/g, " "),
          scrolls: table.scrollWidth - table.clientWidth, past_box: right - box.right,
          past_window: right - document.documentElement.clientWidth};
})"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1400, 900)])
def test_every_statistics_table_shows_every_column(browser: Any, base_url: str, width: int, height: int) -> None:
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": height})
    problems = Problems(page, base_url)
    page.goto(base_url + "explanation/statistics/", wait_until="networkidle")
    tables = page.evaluate(_OVERFLOW)
    page.screenshot(path=str(SHOTS / f"statistics-{width}.png"), full_page=True)
    page.close()
    assert len(tables) >= 5, "the statistics page should hold a table per game"
    hidden = [t for t in tables if t["scrolls"] > 1 or t["past_box"] > 1 or t["past_window"] > 1]
    assert hidden == [], f"at {width} px these tables hide columns"
    assert not problems.items, "\n".join(problems.items)


def test_every_published_figure_links_its_source(browser: Any, base_url: str) -> None:
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base_url + "explanation/statistics/", wait_until="networkidle")
    rows = page.evaluate("""() => Array.from(document.querySelectorAll(".ds-published tbody tr"))
        .map(tr => ({links: tr.cells[0].querySelectorAll("a[href^='http']").length,
                     label: getComputedStyle(tr.cells[1], "::before").content,
                     cells: tr.cells.length}))""")
    page.close()
    from tests.test_docs_statistics import published_entries

    assert len(rows) == len(published_entries())
    assert all(row["links"] >= 1 and row["cells"] == 3 for row in rows)
    # on a phone each stacked cell is headed by its column's name
    assert {row["label"] for row in rows} == {'"Rules and player"'}
