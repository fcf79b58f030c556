"""Exercise 12: the solver's depth-first search (run with ``--impl`` to grade a folder).

The expectations are trusted: best values found by the package's plain (unpruned) search
on small decks (ranks A-5): fixed shuffles, pinned here, and decks drawn for the file under
test (:mod:`.drawn`), searched here; the package's own game models; and lines that must
replay, through the package's own games here, to the value the search claims. The games the
search is asked about are made in the worker from the package's own rules.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.course.contracts.drawn import Draw, DrawnDeck
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
#: Decks drawn for the file under test (ranks A-5) in each test, searched beside its fixed
#: shuffles (a search's cost grows with its deck; one drawn deck is enough to need the rules).
DRAWN = 1


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


@pytest.fixture(scope="module")
def drawn(impl: Submission, pytestconfig: pytest.Config) -> Draw:
    """The decks drawn for the file under test."""
    return Draw.for_file(impl, "solver.py", pytestconfig)


def _drawn(drawn: Draw, label: str, count: int = DRAWN, first: int = 1) -> list[tuple[DrawnDeck, str]]:
    """Return ``count`` decks (ranks A-5) drawn for ``label`` from number ``first`` on, each
    with how a message names it."""
    decks = (drawn.deck(label, number, A_TO_5) for number in range(first, first + count))
    return [(d, f"{d} ({d.python()})") for d in decks]


def _start(impl: Submission, name: str, seed: int | Deck, settle: bool = True) -> tuple[Any, Game]:
    """Return the game ``name`` on Deck.shuffled(seed, ranks A-5) (or on the deck ``seed``)
    twice, at its first decision: made in the worker (for the search) and here (to replay its line)."""
    deck = seed if isinstance(seed, Deck) else Deck.shuffled(seed, ranks=A_TO_5)
    mine = _game(name, deck)
    theirs: Any
    if name == "idiots-delight":
        theirs = impl.package("games.idiots_delight").IdiotsDelight(deck)
    else:
        module = impl.package("games.aces_up")
        theirs = module.AcesUp(deck, module.AcesUpOptions(aces_only=name.endswith("aces-only")))
    if settle:
        while not mine.is_over() and not mine.needs_decision():
            mine.advance()
            theirs.advance()
    return theirs, mine


def _game(name: str, deck: Deck) -> Game:
    """Return the package's own game ``name`` on ``deck``."""
    if name == "idiots-delight":
        return IdiotsDelight(deck)
    return AcesUp(deck, AcesUpOptions(aces_only=name.endswith("aces-only")))


def _start_here(name: str, deck: Deck | int) -> Game:
    """Return the package's own game ``name`` on ``deck`` (or Deck.shuffled(deck, ranks A-5)),
    at its first decision, made here only (to count states or replay a line)."""
    game = _game(name, deck if isinstance(deck, Deck) else Deck.shuffled(deck, ranks=A_TO_5))
    while not game.is_over() and not game.needs_decision():
        game.advance()
    return game


@cache
def best(name: str, deck: Deck) -> int:
    """Return the best value the package's own plain search finds for ``name`` on ``deck``,
    from its first decision."""
    from solitaire_ds.solver import search

    game = _start_here(name, deck)
    return int(search(model_for(game), game_state(game), prune=False).value)


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
        impl: Submission, solver: Any, drawn: Draw, name: str, prune: bool) -> None:
    deals: list[tuple[Deck | int, str, int]] = [
        (seed, f"Deck.shuffled({seed}, ranks A-5)", expected) for seed, expected in enumerate(BEST[name])]
    deals += [(d.deck, shown, best(name, d.deck)) for d, shown in _drawn(drawn, name)]
    for deck, named, expected in deals:
        theirs, mine = _start(impl, name, deck)
        where = f"{name}, {named}, prune={prune}"
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


def _logged_search(
        impl: Submission, solver: Any, theirs: Any, where: str, prune: bool) -> tuple[Any, list[tuple[str, Any]]]:
    """Return ``search`` from ``theirs``'s present state, run on a model that logs what the search
    asks of it (the package's :class:`~solitaire_ds.solver_models.LoggedModel`), and that log."""
    with doing(f"{where}: search(model_for(game), game_state(game), prune={prune})"):
        logged = impl.package("solver_models").LoggedModel(solver.model_for(theirs))
        found = solver.search(logged, solver.game_state(theirs), prune=prune)
    with doing(f"{where}: reading the model's log of the search"):
        log, dropped = logged.log, logged.dropped
    if not isinstance(log, list) or not all(isinstance(e, tuple) and len(e) == 2 for e in log) or dropped:
        raise AssertionError(f"{where}: the search's log could not be read back (was the model changed?)")
    return found, log


def _expanded(log: list[tuple[str, Any]]) -> list[Any]:
    """Return the states a logged search expanded (asked the children of), in order."""
    return [state for kind, state in log if kind == "children"]


@pytest.mark.parametrize(("name", "seed"), COUNTED)
def test_each_state_is_known_once(impl: Submission, solver: Any, drawn: Draw, name: str, seed: int) -> None:
    deals: list[tuple[Deck | int, str]] = [(seed, f"Deck.shuffled({seed}, ranks A-5)")]
    deals += [(d.deck, shown) for d, shown in _drawn(drawn, f"states {name} {seed}")]
    for deck, named in deals:
        theirs, mine = _start(impl, name, deck)
        states, _ = _reachable(mine)
        where = f"{name}, {named}, prune=False"
        found, log = _logged_search(impl, solver, theirs, where, prune=False)
        assert found.states == states, (
            f"{where}: the search knew {found.states} states when it finished, not {states}: every "
            "state reachable from the start is known once, by its key model.key(state, prune) "
            "(which tells two stock positions apart)")
        expanded = _expanded(log)
        expansions = 0 if mine.is_over() else states  # a start that is an end is not expanded
        again = len(expanded) - len(set(expanded))
        assert not again, (
            f"{where}: the search expanded (asked model.children of) {len(expanded)} states, "
            f"{again} of them a second time; the package's search expands each of the {expansions} "
            "states once: a key goes into visited when its state is pushed, so no state is pushed twice")
        assert len(expanded) == expansions, (
            f"{where}: the search expanded (asked model.children of) {len(expanded)} states, not the "
            f"{expansions} the package's search expands: without pruning every state it knows that is "
            "not an end is expanded once")
        assert found.complete is True, (
            f"{where}: a search that ran to its end says complete=True, not {found.complete}")


#: (game, seed) pairs whose pruned search is read expansion by expansion.
PRUNED = [("idiots-delight", 1), ("aces-up-aces-only", 0)]


@pytest.mark.parametrize(("name", "seed"), PRUNED)
def test_pruning_skips_every_state_its_bound_rules_out_and_asks_dominant(
        impl: Submission, solver: Any, drawn: Draw, name: str, seed: int) -> None:
    deals: list[tuple[Deck | int, str]] = [(seed, f"Deck.shuffled({seed}, ranks A-5)")]
    deals += [(d.deck, shown) for d, shown in _drawn(drawn, f"pruned {name} {seed}")]
    for deck, named in deals:
        theirs, mine = _start(impl, name, deck)
        model = model_for(mine)  # the judge's own: bounds and values computed here
        where = f"{name}, {named}, prune=True"
        _, log = _logged_search(impl, solver, theirs, where, prune=True)
        best: int | None = None
        asked, waiting = 0, None  # the expansion whose children dominant has not yet been asked about
        for kind, state in [*log, ("children", None)]:
            if kind == "value":
                best = model.value(state) if best is None else max(best, model.value(state))
            elif kind == "dominant" and state == waiting:
                waiting = None
            elif kind == "children":
                assert waiting is None, (
                    f"{where}: expansion {asked} asked model.children(state) and never passed them to "
                    "model.dominant(state, children): with pruning, only the children dominant returns "
                    "are searched")
                if state is None:
                    break
                asked += 1
                bound = model.bound(state)
                assert best is None or bound > best, (
                    f"{where}: expansion {asked} is of a state whose bound, model.bound(state) = {bound}, "
                    f"is no better than the best value {best} scored before it: with pruning, a popped "
                    "state whose bound is <= the best value found is skipped, not expanded")
                waiting = state


#: The fewest states a drawn deck's plain search must know for a budget to cut it (most do).
CUT_STATES = 60


def _worth_cutting(drawn: Draw, label: str, name: str) -> list[tuple[DrawnDeck, str, int]]:
    """Return the first deck drawn for ``label`` whose plain search for ``name`` knows at least
    :data:`CUT_STATES` states (and how many), and meets a choice on the way, or none among the
    first 50."""
    for number in range(1, 51):
        ((d, shown),) = _drawn(drawn, label, 1, number)
        total, widest = _reachable(_start_here(name, d.deck))
        if total >= CUT_STATES and widest >= 2:
            return [(d, shown, total)]
    return []


def test_max_states_stops_at_the_first_pop_past_the_budget(impl: Submission, solver: Any, drawn: Draw) -> None:
    deals: list[tuple[Deck | int, str, range, int]] = [(0, "Deck.shuffled(0, ranks A-5)", range(100, 112), 16)]
    deals += [(d.deck, shown, range(total // 2, total // 2 + 4), best("aces-up", d.deck))
              for d, shown, total in _worth_cutting(drawn, "max states", "aces-up")]
    for deck, named, budgets, best_value in deals:
        theirs, mine = _start(impl, "aces-up", deck)
        total, widest = _reachable(mine)
        for budget in budgets:
            where = f"aces-up, {named}, prune=False, max_states={budget} (of {total} states)"
            cut = _search_from(solver, theirs, f"aces-up, {named}", prune=False, max_states=budget)
            assert cut.complete is False, f"{where}: the search must stop early and say so: complete is False"
            assert cut.states > budget, (
                f"{where}: the search stopped knowing {cut.states} states; it goes on until more than "
                f"max_states are known (check len(visited) > max_states before each pop)")
            assert cut.states <= budget + widest, (
                f"{where}: the search stopped knowing {cut.states} states, more than one expansion "
                f"past the budget (at most {widest} states are added by one): stop at the first pop "
                "once more than max_states are known")
            reached = _replay(_start_here("aces-up", deck), cut.moves, where)
            assert reached == cut.value <= best_value, (
                f"{where}: the stopped search claims {cut.value}; its line reaches {reached} "
                f"(the best is {best_value})")


def test_max_states_waits_for_a_first_end_state(impl: Submission, solver: Any, drawn: Draw) -> None:
    for name in ("aces-up", "idiots-delight"):
        deals: list[tuple[Deck | int, str]] = [(1, "Deck.shuffled(1, ranks A-5)")]
        deals += [(d.deck, shown) for d, shown, _ in _worth_cutting(drawn, f"first end {name}", name)]
        for deck, named in deals:
            theirs, mine = _start(impl, name, deck)
            where = f"{name}, {named}, prune=False, max_states=1"
            cut = _search_from(solver, theirs, f"{name}, {named}", prune=False, max_states=1)
            assert isinstance(cut.value, int) and cut.complete is False, (
                f"{where}: the search returned value {cut.value!r}, complete={cut.complete!r}; it must go on "
                "until it has scored an end state, then stop (complete=False) with that line")
            reached = _replay(mine, cut.moves, where)
            assert reached == cut.value, f"{where}: the line the search returned reaches {reached}, not {cut.value}"


@pytest.mark.parametrize("prune", [False, True])
def test_an_incumbent_is_kept_unless_something_strictly_better_is_found(
        impl: Submission, solver: Any, drawn: Draw, prune: bool) -> None:
    deals: list[tuple[Deck | int, str, int]] = [(1, "Deck.shuffled(1, ranks A-5)", -2)]
    deals += [(d.deck, shown, best("idiots-delight", d.deck)) for d, shown in _drawn(drawn, "incumbent")]
    for deck, named, best_value in deals:
        theirs, _ = _start(impl, "idiots-delight", deck)
        for value, note in ((5, "better than any line from here"), (best_value, "as good as the best line")):
            incumbent = solver.Solution(value, [Move("quit")], 1)
            where = (f"idiots-delight, {named}: search(model, start, prune={prune}, "
                     f"incumbent=Solution({value}, [quit], 1)), an incumbent {note}")
            with doing(where):
                found = solver.search(solver.model_for(theirs), solver.game_state(theirs), prune=prune,
                                      incumbent=incumbent)
            assert (found.value, [str(m) for m in found.moves]) == (value, ["quit"]), (
                f"{where}: given an incumbent line worth {value} ({note}), the search returned a line worth "
                f"{found.value} ({len(found.moves)} moves): it must return the incumbent unless it "
                "finds a strictly better line")
        worse = best_value - 7
        incumbent = solver.Solution(worse, [Move("quit")], 1)
        with doing(f"idiots-delight, {named}: the same search with a worse incumbent, "
                   f"Solution({worse}, [quit], 1), prune={prune}"):
            found = solver.search(solver.model_for(theirs), solver.game_state(theirs), prune=prune,
                                  incumbent=incumbent)
        assert found.value == best_value, (
            f"idiots-delight, {named}: given a worse incumbent ({worse}), the search must still find the "
            f"best value {best_value}, not {found.value}")


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


def test_solve_takes_the_forced_steps_the_game_awaits(impl: Submission, solver: Any, drawn: Draw) -> None:
    deals: list[tuple[Deck | int, str, int]] = [
        (seed, f"Deck.shuffled({seed}, ranks A-5)", BEST["aces-up"][seed]) for seed in (0, 7)]
    deals += [(d.deck, shown, best("aces-up", d.deck)) for d, shown in _drawn(drawn, "aces-up")]
    for deck, named, expected in deals:
        theirs, _ = _start(impl, "aces-up", deck, settle=False)  # nothing dealt yet: the first deal is forced
        with doing(f"aces-up, {named}, before the first deal: solve(game)"):
            found = solver.solve(theirs)
        assert found.value == expected, (
            f"aces-up, {named}: solve() on a game that has not dealt yet found {found.value}, not the "
            f"best value {expected}: take the forced steps (the first deal) before searching")
