"""The game boards: every structure drawn, every card named, each rule's moment real."""

from __future__ import annotations

import re
from typing import Any

import docgen
import pytest

from solitaire_ds.boards import board_svg
from solitaire_ds.cards import Deck
from solitaire_ds.course import REPO_ROOT
from solitaire_ds.games import game_class
from solitaire_ds.players import make_player

GAMES = ["perpetual-motion", "idiots-delight", "aces-up", "klondike"]


def _midgame(game: str, seed: int = 3, steps: int = 12) -> Any:
    cls = game_class(game)
    state = cls(Deck.shuffled(seed))
    choose = make_player("greedy", cls) if cls.has_decisions else None
    for _, _events in zip(range(steps), state.steps(choose), strict=False):
        pass
    return state


def _label(svg: str) -> str:
    found = re.search(r'aria-label="([^"]*)"', svg)
    assert found is not None
    return found[1]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_page_shows_a_board_for_each_of_its_rules(game: str) -> None:
    page = (REPO_ROOT / "docs" / "explanation" / "games" / f"{game}.md").read_text(encoding="utf-8")
    assert f"<!-- gen: rule-boards game={game} -->" in page
    out = docgen.rule_boards(game)
    moments = docgen.MOMENTS[game]
    assert len(moments) >= 3
    assert out.count('<svg class="ds-diagram ds-board-svg"') == 2 * len(moments)
    for what, rule, _ in moments:
        assert f"### {what}" in out and f"> {rule}" in out


@pytest.mark.parametrize("game", GAMES)
def test_each_moment_is_a_step_where_its_rule_fires(game: str) -> None:
    for what, _, shows in docgen.MOMENTS[game]:
        seed, step = docgen.find_moment(game, shows)
        cls = game_class(game)
        state = cls(Deck.shuffled(seed))
        choose = make_player("greedy", cls) if cls.has_decisions else None
        events = [step_events for _, step_events in zip(range(step), state.steps(choose), strict=False)][-1]
        assert shows(events), what
        before, after, _ = docgen.moment_boards(game, seed, step)
        assert before != after, f"{what}: the step changed nothing on the board"


@pytest.mark.parametrize("game", ["perpetual-motion", "idiots-delight", "aces-up"])
def test_a_four_pile_board_draws_and_names_every_card_on_the_table(game: str) -> None:
    state = _midgame(game)
    svg = board_svg(state, title="t")
    on_piles = [card for pile in state.piles for card in pile]
    assert svg.count('fill="#fff"') == len(on_piles)  # one white card face per card in a pile
    name = _label(svg)
    for area in ["stock (Queue)", *(f"pile {i} (Stack)" for i in range(1, 5))]:
        assert f">{area}</text>" in svg
    for card in on_piles:
        assert card.name in name
    assert f"stock (Queue): {len(state.stock)} card" in name
    assert len(on_piles) + len(state.stock) + state.discarded == 52
    for i, pile in enumerate(state.piles, start=1):  # bottom to top, as drawn
        said = re.search(rf"pile {i} \(Stack\), bottom to top: ([^;]*)", name)
        assert said is not None and said[1] == (", ".join(c.name for c in reversed(list(pile))) or "empty")


def test_the_klondike_board_draws_stock_waste_foundations_and_both_halves_of_each_pile() -> None:
    state = _midgame("klondike", seed=1, steps=25)
    svg = board_svg(state, title="t")
    name = _label(svg)
    faces = sum(len(run) for run in state.face_up) + min(3, len(state.waste)) + sum(
        1 for pile in state.foundations.values() if len(pile))
    backs = sum(len(down) for down in state.face_down) + (1 if len(state.stock) else 0)
    assert svg.count('fill="#fff"') == faces
    assert svg.count('fill="#1565c0"') == backs
    for area in ("stock (Queue)", "waste (Stack)", "foundations (four Stacks)"):
        assert f">{area}</text>" in svg
    assert "waste (Stack)" in name and name.count("foundation (Stack): ") == 4
    assert f"stock (Queue): {len(state.stock)} card" in name
    for suit, pile in state.foundations.items():
        if len(pile):
            assert f"{suit.name.lower()} foundation (Stack): ace up to {pile.peek().name}" in name
    for i, (down, up) in enumerate(zip(state.face_down, state.face_up, strict=True), start=1):
        assert f"pile {i}: {len(down)} face down (Stack), face up (Deque) bottom to top: " in name
        for card in up:
            assert card.name in name
    held = (sum(len(d) + len(u) for d, u in zip(state.face_down, state.face_up, strict=True)) + len(state.waste)
            + len(state.stock) + sum(len(p) for p in state.foundations.values()))
    assert held == 52


def test_highlighted_cards_are_outlined_and_said() -> None:
    state = _midgame("aces-up")
    top = next(pile.peek() for pile in state.piles if len(pile))
    svg = board_svg(state, title="t", highlight=[top])
    assert svg.count('stroke="#ff9800"') == 1
    assert f"outlined: {top.name}" in _label(svg)


def test_tutorial_elevens_board_shows_the_waste_and_the_foundations() -> None:
    page = (REPO_ROOT / "docs" / "tutorials" / "exercise-11-klondike.md").read_text(encoding="utf-8")
    directive = re.search(r"<!-- gen: board (game=klondike[^>]*)-->", page)
    assert directive is not None
    args = dict(token.split("=") for token in directive[1].split())
    out = docgen.board_picture(**args)
    assert ">waste (Stack)</text>" in out and ">foundations (four Stacks)</text>" in out


def test_every_generated_picture_is_kept_out_of_search() -> None:
    pages = sorted((REPO_ROOT / "docs").rglob("*.md"))
    pictures = 0
    for page in pages:
        if "hooks" in page.parts or "browser" in page.parts:
            continue
        out = docgen.expand(page.read_text(encoding="utf-8"), where=page.name)
        for svg in re.findall(r"<svg\b[^>]*>", out):
            pictures += 1
            assert "data-search-exclude" in svg, f"{page.name}: {svg[:80]}"
    assert pictures > 40
