"""The statistics page: every published figure has its source, rules and player; counts are the data's."""

from __future__ import annotations

import re
from typing import Any

import docgen
import pytest

from solitaire_ds.course import REPO_ROOT

PAGE = REPO_ROOT / "docs" / "explanation" / "statistics.md"


def published_entries() -> list[dict[str, Any]]:
    """The published figures the statistics page lists (its one source)."""
    return list(docgen.PUBLISHED)


@pytest.mark.parametrize("entry", published_entries(), ids=lambda e: e["figure"][:30])
def test_every_published_figure_has_a_link_a_version_its_words_rules_a_player_and_a_reason(
        entry: dict[str, Any]) -> None:
    assert re.match(r"https?://\S+$", entry["url"])
    for field in ("figure", "quote", "source", "version", "rules", "player", "why"):
        assert len(entry[field].strip()) > 10 or entry[field] == "not stated", field
    assert entry["ours"], "a published figure is set beside at least one of our runs"
    for player, options in entry["ours"]:
        assert docgen._find_run(entry["game"], player, options) is not None, (player, options)


def _rows(game: str) -> list[list[str]]:
    """The body rows of the published-figures table of ``game``, split into cells."""
    lines = [line for line in docgen.published(game).splitlines() if line.startswith("| ")]
    return [re.split(r"(?<!\\)\|", line.strip())[1:-1] for line in lines[2:]]  # after the header and its rule


def test_every_game_with_published_figures_shows_them_in_one_table_row_each() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for game in {entry["game"] for entry in published_entries()}:
        assert f"<!-- gen: published game={game} -->" in page
        entries = [e for e in published_entries() if e["game"] == game]
        rows = _rows(game)
        assert len(rows) == len(entries)
        for entry, cells in zip(entries, rows, strict=True):
            assert len(cells) == 3
            figure, rules_player, ours_why = cells
            assert f"]({entry['url']})" in figure and entry["figure"].replace("|", "\\|") in figure
            assert "**Rules:**" in rules_player and "**Player:**" in rules_player
            assert "**Ours:**" in ours_why and "**Why they differ:**" in ours_why
            assert ours_why.count("the published figure is **") == len(entry["ours"])


def test_the_solver_is_never_called_perfect_play_without_saying_it_sees_the_stock() -> None:
    page = docgen.expand(PAGE.read_text(encoding="utf-8"))
    assert "perfect play" not in page.replace("not perfect play", "").replace("on perfect play", "")
    assert "whole\n      order of the stock" in page or "whole order of the stock" in page


def test_every_deal_count_on_the_page_is_one_the_data_holds() -> None:
    # no hand-written "a few hundred to a few thousand deals": counts come from the stored runs
    page = docgen.expand(PAGE.read_text(encoding="utf-8"))
    assert not re.search(r"few (hundred|thousand)", page)
    stored = {run["games"] for game in ("perpetual-motion", "idiots-delight", "aces-up", "klondike")
              for run in (docgen._load(f"stats-{game}.json") or {}).get("runs", [])}
    counts = {int(n.replace(",", "")) for n in re.findall(r"\b(\d{1,3}(?:,\d{3})+|\d+) deals\b", page)}
    published_counts = {10_000}  # Clarke's, named with his figure
    assert counts - stored - published_counts == set()


def test_a_verdict_follows_the_data() -> None:
    entry = next(e for e in published_entries() if e["game"] == "aces-up" and e["value"] > 0.1)
    above = dict(entry, value=0.99)
    below = dict(entry, value=0.0)
    assert "is **above** this interval" in docgen.statistics._ours(above, "solver", "")
    assert "is **below** this interval" in docgen.statistics._ours(below, "solver", "")
