"""Exercise 12: the solver's depth-first search (run with ``--impl`` to grade a folder).

The expectations are trusted: best values found by the package's plain (unpruned) search
on small decks (ranks A-5), and lines that must replay to the value the search claims.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.course.contracts.plain import doing
from solitaire_ds.games.aces_up import AcesUp, AcesUpOptions
from solitaire_ds.games.base import Game, IllegalMove
from solitaire_ds.games.idiots_delight import IdiotsDelight

A_TO_5 = list(Rank)[:5]

#: Best values on Deck.shuffled(seed, ranks=A-5), seeds 0 … 19 (minus the cards left for
#: Idiot's Delight; the score for Aces Up).
BEST = {
    "idiots-delight": [0, -2, 0, -3, -1, -1, 0, -5, -2, 0, 0, 0, -1, 0, 0, -1, -5, 0, -7, -3],
    "aces-up": [16, 16, 16, 16, 16, 16, 16, 10, 15, 16, 16, 16, 16, 16, 16, 15, 16, 16, 16, 16],
    "aces-up-aces-only": [16, 16, 16, 15, 16, 16, 14, 9, 14, 16, 9, 16, 16, 16, 14, 13, 16, 16,
                          16, 12],
}


@pytest.fixture(scope="module")
def solver(impl: str) -> Any:
    """The solver module of the implementation under test."""
    from solitaire_ds.course.catalog import load_module

    return load_module(impl, "solver")


def _start(name: str, seed: int) -> Game:
    deck = Deck.shuffled(seed, ranks=A_TO_5)
    game: Game = (IdiotsDelight(deck) if name == "idiots-delight"
                  else AcesUp(deck, AcesUpOptions(aces_only=name.endswith("aces-only"))))
    while not game.is_over() and not game.needs_decision():
        game.advance()
    return game


@pytest.mark.parametrize("name", sorted(BEST))
@pytest.mark.parametrize("prune", [False, True])
def test_the_search_finds_the_best_value_and_a_line_that_reaches_it(
        solver: Any, name: str, prune: bool) -> None:
    for seed, expected in enumerate(BEST[name]):
        game = _start(name, seed)
        where = f"{name}, Deck.shuffled({seed}, ranks A-5), prune={prune}"
        with doing(f"{where}: search(model_for(game), game_state(game), prune={prune})"):
            found = solver.search(solver.model_for(game), solver.game_state(game), prune=prune)
        assert found.value == expected, (
            f"{name}, Deck.shuffled({seed}, ranks A-5), prune={prune}: the best value is "
            f"{expected}, the search found {found.value}")
        line = [str(move) for move in found.moves]
        for number, move in enumerate(found.moves, start=1):
            try:
                game.play(move)
            except IllegalMove as error:
                before = ", ".join(line[:number - 1][-8:]) or "the start"
                raise AssertionError(
                    f"{where}: the line the search returned ({len(line)} moves) cannot be "
                    f"played: after {'..., ' if number > 9 else ''}{before}, move number {number} "
                    f"({move}) is refused: {error}") from None
            while not game.is_over() and not game.needs_decision():
                game.advance()
        result = game.result()
        reached = -result["cards_left"] if name == "idiots-delight" else result["score"]
        assert reached == expected, (
            f"{name}, Deck.shuffled({seed}, ranks A-5): the line the search returned reaches "
            f"{reached}, not the {expected} it claims")
