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


def _search_from(solver: Any, game: Game, where: str, prune: bool) -> Any:
    """Return ``search`` from ``game``'s present state; a crash names ``where`` and the call."""
    with doing(f"{where}: search(model_for(game), game_state(game), prune={prune})"):
        return solver.search(solver.model_for(game), solver.game_state(game), prune=prune)


@pytest.mark.parametrize("name", sorted(BEST))
@pytest.mark.parametrize("prune", [False, True])
def test_the_search_finds_the_best_value_and_a_line_that_reaches_it(
        solver: Any, name: str, prune: bool) -> None:
    for seed, expected in enumerate(BEST[name]):
        game = _start(name, seed)
        where = f"{name}, Deck.shuffled({seed}, ranks A-5), prune={prune}"
        found = _search_from(solver, game, where, prune)
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


#: The plain search (no pruning) from the same starts: how many states it knows when it
#: finishes (each reachable state once, keyed by ``model.key``, stock position included)
#: and the line it returns (the first best line in depth-first order, the first move of
#: each state searched first).
FIRST_LINES = {
    ("aces-up", 3): (283, "move 2 1, move 4 2, move 1 3, move 2 1, move 3 4, deal, move 3 2, move 4 3, "
                          "move 4 2, move 1 4, move 1 2, deal, move 4 3"),
    ("aces-up-aces-only", 0): (61, "move 1 4, deal, move 1 3, move 4 1, deal, move 3 4, move 4 2"),
    ("aces-up-aces-only", 1): (25, "deal, move 2 3, move 1 4, move 4 1, move 3 4"),
    ("idiots-delight", 0): (48, "suit 1 4, suit 2 3, pair 2 4, suit 3 4, suit 2 4, pair 2 4, pair 1 2, "
                                "pair 1 3, suit 2 4, pair 1 2, suit 3 4, pair 1 3, pair 2 3"),
    ("idiots-delight", 1): (94, "suit 3 4, pair 3 4, pair 1 4, pair 1 3, pair 1 2, pair 2 3, suit 2 4, "
                                "suit 2 4, suit 1 2, pair 1 3, pair 1 4"),
}


@pytest.mark.parametrize(("name", "seed"), sorted(FIRST_LINES))
def test_each_state_is_searched_once_and_the_first_move_first(solver: Any, name: str, seed: int) -> None:
    states, line = FIRST_LINES[name, seed]
    game = _start(name, seed)
    where = f"{name}, Deck.shuffled({seed}, ranks A-5), prune=False"
    found = _search_from(solver, game, where, prune=False)
    assert found.states == states, (
        f"{where}: the search knew {found.states} states when it finished, not {states}: every "
        "state reachable from the start is known once, by its key model.key(state, prune) "
        "(which tells two stock positions apart)")
    got = ", ".join(str(move) for move in found.moves)
    assert got == line, (
        f"{where}: the search returned the line\n  {got}\nnot the first best line in depth-first "
        f"order\n  {line}\n(push each state's children so that its first move is searched "
        "first, and replace the best line only by a strictly better one)")


def test_max_states_stops_the_search_and_says_so(solver: Any) -> None:
    game = _start("aces-up", 0)
    model, start = solver.model_for(game), solver.game_state(game)
    with doing("aces-up, Deck.shuffled(0, ranks A-5): search(model, start, prune=False, max_states=40)"):
        cut = solver.search(model, start, prune=False, max_states=40)
    assert not cut.complete, "with max_states=40 (of 467 states) the search must stop early: complete is False"
    assert cut.states <= 40 + 12, (
        f"with max_states=40 the search went on to know {cut.states} states: stop once more than "
        "max_states are known")
    assert cut.value <= 16, f"the stopped search claims {cut.value}, more than the best value 16"
    with doing("the same search without max_states"):
        whole = solver.search(model, start, prune=False)
    assert whole.complete and whole.value == 16, "without max_states the search runs to the end: complete is True"


@pytest.mark.parametrize("prune", [False, True])
def test_an_incumbent_is_kept_unless_something_strictly_better_is_found(solver: Any, prune: bool) -> None:
    from solitaire_ds.games.base import Move

    game = _start("idiots-delight", 1)  # best value -2
    model, start = solver.model_for(game), solver.game_state(game)
    for value, note in ((5, "better than any line from here"), (-2, "as good as the best line")):
        incumbent = solver.Solution(value, [Move("quit")], 1)
        with doing(f"idiots-delight, Deck.shuffled(1, ranks A-5): search(model, start, prune={prune}, "
                   f"incumbent=Solution({value}, [quit], 1)), an incumbent {note}"):
            found = solver.search(model, start, prune=prune, incumbent=incumbent)
        assert (found.value, [str(m) for m in found.moves]) == (value, ["quit"]), (
            f"given an incumbent line worth {value} ({note}), the search returned a line worth "
            f"{found.value} ({len(found.moves)} moves): it must return the incumbent unless it "
            "finds a strictly better line")
    incumbent = solver.Solution(-9, [Move("quit")], 1)
    found = solver.search(model, start, prune=prune, incumbent=incumbent)
    assert found.value == -2, (
        f"given a worse incumbent (-9), the search must still find the best value -2, not {found.value}")


def test_a_start_that_is_already_an_end_is_its_own_best_line(solver: Any) -> None:
    game = _start("aces-up-aces-only", 7)
    while not game.is_over():  # deal while it can, then end: no card ever moves
        if game.needs_decision():
            game.play(next(m for m in game.legal_moves() if m.kind in ("deal", "end")))
        else:
            game.advance()
    model, end = solver.model_for(game), solver.game_state(game)
    with doing("a game played to its end: search(model_for(game), game_state(game))"):
        found = solver.search(model, end)
    assert (found.value, found.moves) == (game.result()["score"], []), (
        f"from a state that is already an end, the best line is no move at all, worth the "
        f"game's score {game.result()['score']}; the search returned {found.value} with "
        f"{len(found.moves)} moves")


def test_solve_takes_the_forced_steps_the_game_awaits(solver: Any) -> None:
    for seed in (0, 7):
        game = AcesUp(Deck.shuffled(seed, ranks=A_TO_5))  # nothing dealt yet: the first deal is forced
        with doing(f"aces-up, Deck.shuffled({seed}, ranks A-5), before the first deal: solve(game)"):
            found = solver.solve(game)
        expected = BEST["aces-up"][seed]
        assert found.value == expected, (
            f"solve() on a game that has not dealt yet found {found.value}, not the best value "
            f"{expected}: take the forced steps (the first deal) before searching")
