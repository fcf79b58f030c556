"""Exercise 12: the solver's depth-first search (run with ``--impl`` to grade a folder).

The expectations are trusted: best values found by the package's plain (unpruned) search
on small decks (ranks A-5), the package's own game models, and lines that must replay,
through the package's own games here, to the value the search claims. The games the
search is asked about are made in the worker from the package's own rules.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.course.contracts.plain import ExerciseStops, doing
from solitaire_ds.course.grader.proxy import Submission
from solitaire_ds.games.aces_up import AcesUp, AcesUpOptions
from solitaire_ds.games.base import Game, IllegalMove, Move
from solitaire_ds.games.idiots_delight import IdiotsDelight
from solitaire_ds.solver_models import game_state, model_for

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
def solver(impl: Submission) -> Any:
    """The solver module of the implementation under test; a ``search`` that returns
    something other than a Solution stops the exercise here, with one message."""
    from solitaire_ds.course.catalog import load_module

    module = load_module(impl, "solver")
    theirs, _ = _start(impl, "idiots-delight", 0)
    with doing("idiots-delight, Deck.shuffled(0, ranks A-5): search(model_for(game), game_state(game))"):
        found = module.search(module.model_for(theirs), module.game_state(theirs))
    if getattr(found, "_class", None) != "Solution":
        raise ExerciseStops(
            f"search(model_for(game), game_state(game)) returned {found!r}, not a Solution: "
            "every check reads the Solution it returns (its value, moves, states and complete)")
    return module



def _start(impl: Submission, name: str, seed: int, settle: bool = True) -> tuple[Any, Game]:
    """Return the game ``name`` on Deck.shuffled(seed, ranks A-5) twice, at its first
    decision: made in the worker (for the search) and here (to replay its line)."""
    deck = Deck.shuffled(seed, ranks=A_TO_5)
    mine: Game
    if name == "idiots-delight":
        theirs = impl.package("games.idiots_delight").IdiotsDelight(deck)
        mine = IdiotsDelight(deck)
    else:
        aces_only = name.endswith("aces-only")
        module = impl.package("games.aces_up")
        theirs = module.AcesUp(deck, module.AcesUpOptions(aces_only=aces_only))
        mine = AcesUp(deck, AcesUpOptions(aces_only=aces_only))
    if settle:
        while not mine.is_over() and not mine.needs_decision():
            mine.advance()
            theirs.advance()
    return theirs, mine


def _search_from(solver: Any, game: Any, where: str, **options: Any) -> Any:
    """Return ``search`` from ``game``'s present state; a crash names ``where`` and the call."""
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    with doing(f"{where}: search(model_for(game), game_state(game){', ' if shown else ''}{shown})"):
        return solver.search(solver.model_for(game), solver.game_state(game), **options)


def _replay(game: Game, moves: list[Move], where: str) -> int:
    """Play ``moves`` through ``game`` (the package's own); return the value reached."""
    line = [str(move) for move in moves]
    for number, move in enumerate(moves, start=1):
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
    return -int(result["cards_left"]) if isinstance(game, IdiotsDelight) else int(result["score"])


@pytest.mark.parametrize("name", sorted(BEST))
@pytest.mark.parametrize("prune", [False, True])
def test_the_search_finds_the_best_value_and_a_line_that_reaches_it(
        impl: Submission, solver: Any, name: str, prune: bool) -> None:
    for seed, expected in enumerate(BEST[name]):
        theirs, mine = _start(impl, name, seed)
        where = f"{name}, Deck.shuffled({seed}, ranks A-5), prune={prune}"
        found = _search_from(solver, theirs, where, prune=prune)
        assert found.value == expected, (
            f"{where}: the best value is {expected}, the search found {found.value}")
        reached = _replay(mine, found.moves, where)
        assert reached == expected, (
            f"{where}: the line the search returned reaches {reached}, not the {expected} it claims")


#: (game, seed) pairs whose plain search is counted state by state.
COUNTED = [("aces-up", 3), ("aces-up-aces-only", 0), ("aces-up-aces-only", 1), ("idiots-delight", 0),
           ("idiots-delight", 1)]


def _reachable(game: Game) -> tuple[int, int]:
    """Return, for the package's own model of ``game``: the states a plain search knows at
    its end (the start and every reachable state that is not an end, once each by key),
    and the most of them one expansion can add (a state's children that are not ends)."""
    model, start = model_for(game), game_state(game)
    visited = {model.key(start, False)}
    frontier, widest = [start], 0
    while frontier:
        inner = [child for _, child in model.children(frontier.pop()) if not model.is_end(child)]
        widest = max(widest, len(inner))
        for child in inner:
            key = model.key(child, False)
            if key not in visited:
                visited.add(key)
                frontier.append(child)
    return len(visited), widest


@pytest.mark.parametrize(("name", "seed"), COUNTED)
def test_each_state_is_known_once(impl: Submission, solver: Any, name: str, seed: int) -> None:
    theirs, mine = _start(impl, name, seed)
    states, _ = _reachable(mine)
    where = f"{name}, Deck.shuffled({seed}, ranks A-5), prune=False"
    found = _search_from(solver, theirs, where, prune=False)
    assert found.states == states, (
        f"{where}: the search knew {found.states} states when it finished, not {states}: every "
        "state reachable from the start is known once, by its key model.key(state, prune) "
        "(which tells two stock positions apart)")
    assert found.complete is True, f"{where}: a search that ran to its end says complete=True, not {found.complete}"


def test_max_states_stops_at_the_first_pop_past_the_budget(impl: Submission, solver: Any) -> None:
    theirs, mine = _start(impl, "aces-up", 0)
    total, widest = _reachable(mine)
    for budget in range(100, 112):
        where = f"aces-up, Deck.shuffled(0, ranks A-5), prune=False, max_states={budget} (of {total} states)"
        cut = _search_from(solver, theirs, "aces-up, Deck.shuffled(0, ranks A-5)", prune=False, max_states=budget)
        assert cut.complete is False, f"{where}: the search must stop early and say so: complete is False"
        assert cut.states > budget, (
            f"{where}: the search stopped knowing {cut.states} states; it goes on until more than "
            f"max_states are known (check len(visited) > max_states before each pop)")
        assert cut.states <= budget + widest, (
            f"{where}: the search stopped knowing {cut.states} states, more than one expansion "
            f"past the budget (at most {widest} states are added by one): stop at the first pop "
            "once more than max_states are known")
        reached = _replay(_start(impl, "aces-up", 0)[1], cut.moves, where)
        assert reached == cut.value <= 16, (
            f"{where}: the stopped search claims {cut.value}; its line reaches {reached} (the best is 16)")


def test_max_states_waits_for_a_first_end_state(impl: Submission, solver: Any) -> None:
    for name in ("aces-up", "idiots-delight"):
        theirs, mine = _start(impl, name, 1)
        where = f"{name}, Deck.shuffled(1, ranks A-5), prune=False, max_states=1"
        cut = _search_from(solver, theirs, f"{name}, Deck.shuffled(1, ranks A-5)", prune=False, max_states=1)
        assert isinstance(cut.value, int) and cut.complete is False, (
            f"{where}: the search returned value {cut.value!r}, complete={cut.complete!r}; it must go on "
            "until it has scored an end state, then stop (complete=False) with that line")
        reached = _replay(mine, cut.moves, where)
        assert reached == cut.value, f"{where}: the line the search returned reaches {reached}, not {cut.value}"


@pytest.mark.parametrize("prune", [False, True])
def test_an_incumbent_is_kept_unless_something_strictly_better_is_found(
        impl: Submission, solver: Any, prune: bool) -> None:
    theirs, _ = _start(impl, "idiots-delight", 1)  # best value -2
    for value, note in ((5, "better than any line from here"), (-2, "as good as the best line")):
        incumbent = solver.Solution(value, [Move("quit")], 1)
        where = (f"idiots-delight, Deck.shuffled(1, ranks A-5): search(model, start, prune={prune}, "
                 f"incumbent=Solution({value}, [quit], 1)), an incumbent {note}")
        with doing(where):
            found = solver.search(solver.model_for(theirs), solver.game_state(theirs), prune=prune,
                                  incumbent=incumbent)
        assert (found.value, [str(m) for m in found.moves]) == (value, ["quit"]), (
            f"given an incumbent line worth {value} ({note}), the search returned a line worth "
            f"{found.value} ({len(found.moves)} moves): it must return the incumbent unless it "
            "finds a strictly better line")
    incumbent = solver.Solution(-9, [Move("quit")], 1)
    with doing(f"the same search with a worse incumbent, Solution(-9, [quit], 1), prune={prune}"):
        found = solver.search(solver.model_for(theirs), solver.game_state(theirs), prune=prune, incumbent=incumbent)
    assert found.value == -2, (
        f"given a worse incumbent (-9), the search must still find the best value -2, not {found.value}")


def test_a_start_that_is_already_an_end_is_its_own_best_line(impl: Submission, solver: Any) -> None:
    theirs, mine = _start(impl, "aces-up-aces-only", 7)
    while not mine.is_over():  # deal while it can, then end: no card ever moves
        if mine.needs_decision():
            move = next(m for m in mine.legal_moves() if m.kind in ("deal", "end"))
            mine.play(move)
            theirs.play(move)
        else:
            mine.advance()
            theirs.advance()
    found = _search_from(solver, theirs, "a game played to its end")
    score = mine.result()["score"]
    assert (found.value, found.moves) == (score, []), (
        f"from a state that is already an end, the best line is no move at all, worth the "
        f"game's score {score}; the search returned {found.value} with {len(found.moves)} moves")


def test_solve_takes_the_forced_steps_the_game_awaits(impl: Submission, solver: Any) -> None:
    for seed in (0, 7):
        theirs, _ = _start(impl, "aces-up", seed, settle=False)  # nothing dealt yet: the first deal is forced
        with doing(f"aces-up, Deck.shuffled({seed}, ranks A-5), before the first deal: solve(game)"):
            found = solver.solve(theirs)
        expected = BEST["aces-up"][seed]
        assert found.value == expected, (
            f"solve() on a game that has not dealt yet found {found.value}, not the best value "
            f"{expected}: take the forced steps (the first deal) before searching")
