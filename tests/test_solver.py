"""The solver: its prunings agree with the plain search on small decks; its lines replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.games.aces_up import AcesUp, AcesUpOptions
from solitaire_ds.games.base import Game, Move
from solitaire_ds.games.idiots_delight import IdiotsDelight, IdiotsDelightOptions
from solitaire_ds.players import greedy_choice
from solitaire_ds.records import play_record, replay
from solitaire_ds.solver import (
    AcesUpModel,
    IdiotsDelightModel,
    game_state,
    model_for,
    search,
    solve,
    solver_player,
)

RANK_SETS = [list(Rank)[:4], list(Rank)[:5], list(Rank)[:6],
             [Rank.ACE, Rank.FIVE, Rank.NINE, Rank.KING, Rank.SEVEN]]


def _decision_point(game: Game) -> Game:
    while not game.is_over() and not game.needs_decision():
        game.advance()
    return game


def _play(game: Game, choose: object) -> dict[str, object]:
    while not game.is_over():
        if game.needs_decision():
            game.play(choose(game))  # type: ignore[operator]
        else:
            game.advance()
    return game.result()


GAMES = [
    (IdiotsDelight, IdiotsDelightOptions()),
    (IdiotsDelight, IdiotsDelightOptions(deal_any_time=True)),
    (AcesUp, AcesUpOptions()),
    (AcesUp, AcesUpOptions(aces_only=True)),
]
IDS = ["id", "id-deal-any-time", "aces-up", "aces-up-aces-only"]


# -- every pruning is checked against the plain search ------------------------------------

@pytest.mark.parametrize(("cls", "options"), GAMES, ids=IDS)
def test_the_pruned_search_finds_the_same_best_value_as_the_plain_search(
        cls: type[Game], options: object) -> None:
    checked = 0
    slow = getattr(options, "deal_any_time", False)  # dealing at will: many more states
    for ranks in RANK_SETS[:2] if slow else RANK_SETS:
        for seed in range((40 if len(ranks) == 4 else 10) if slow
                          else (30 if len(ranks) <= 5 else 10)):
            game = _decision_point(cls(Deck.shuffled(seed, ranks=ranks), options))
            model, start = model_for(game), game_state(game)
            plain = search(model, start, prune=False)
            pruned = search(model, start, prune=True)
            assert pruned.value == plain.value, (
                f"ranks {[r.code for r in ranks]}, seed {seed}: the pruned search finds "
                f"{pruned.value}, the plain search {plain.value}")
            assert pruned.states <= plain.states
            checked += 1
    assert checked == (50 if slow else 100)


def test_keying_every_state_by_its_sorted_piles_would_be_wrong() -> None:
    # Why pruning 2 waits for the stock to be empty: before the last deal the piles are
    # not interchangeable (deal card k goes onto pile k). Search small Aces Up decks with
    # the sorted key everywhere and find a deal where it loses the best score.
    class EverywhereSorted(AcesUpModel):
        def key(self, state: object, prune: bool) -> object:
            return (tuple(sorted(state[:4])), state[4])  # type: ignore[index]

    for seed in range(300):
        deck = Deck.shuffled(seed, ranks=list(Rank)[:5])
        game = _decision_point(AcesUp(deck))
        start = game_state(game)
        exact = search(AcesUpModel(deck), start, prune=False).value
        wrong = search(EverywhereSorted(deck), start, prune=False).value
        if wrong != exact:
            return
    pytest.fail("no deal showed the sorted key to be wrong before the stock is empty")


# -- the model is the game ----------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), which=st.integers(0, 3), walk=st.randoms())
def test_the_search_model_offers_the_games_moves_and_reaches_the_games_states(
        seed: int, which: int, walk: object) -> None:
    cls, options = GAMES[which]
    game = cls(Deck.shuffled(seed), options, record=False)
    while not game.is_over():
        if not game.needs_decision():
            game.advance()
            continue
        model = model_for(game)
        children = dict(model.children(game_state(game)))
        assert sorted(children) == sorted(m for m in game.legal_moves() if m.kind != "quit")
        move = walk.choice(sorted(children))  # type: ignore[attr-defined]
        game.play(move)
        _decision_point(game)
        if move.kind != "end":
            assert game_state(game) == children[move]


# -- the solver's lines -----------------------------------------------------------------

@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**9), which=st.sampled_from([0, 2, 3]))
def test_the_solver_is_at_least_as_good_as_greedy_and_its_line_replays(
        seed: int, which: int) -> None:
    cls, options = GAMES[which]
    greedy = _play(cls(Deck.shuffled(seed), options, record=False), greedy_choice)
    record = play_record(cls(Deck.shuffled(seed), options), solver_player(cls), "solver")
    assert replay(record.to_json()).result == record.result
    if cls is AcesUp:
        assert record.result["score"] >= greedy["score"]
    else:
        assert record.result["cards_left"] <= greedy["cards_left"]
    assert record.result["won"] >= greedy["won"]


def test_the_solver_with_deal_any_time_is_at_least_as_good_as_greedy() -> None:
    options = IdiotsDelightOptions(deal_any_time=True)
    for seed in range(3):
        greedy = _play(IdiotsDelight(Deck.shuffled(seed), options), greedy_choice)
        best = _play(IdiotsDelight(Deck.shuffled(seed), options), solver_player(IdiotsDelight))
        assert best["cards_left"] <= greedy["cards_left"]  # type: ignore[operator]


def test_a_winning_line_replays_as_a_win() -> None:
    wins = 0
    for seed in range(12):
        record = play_record(AcesUp(Deck.shuffled(seed)), solver_player(AcesUp), "solver")
        if record.result["won"]:
            assert replay(record.to_json()).result["won"] is True
            wins += 1
    assert wins > 0


def test_the_solver_wins_the_hand_worked_aces_up_deck_by_the_hand_worked_line() -> None:
    deck = Deck.parse("2C 3C AC 2D AD 3D 2H AH 2S 3S AS 3H",
                      ranks=[Rank.ACE, Rank.TWO, Rank.THREE])
    game = _decision_point(AcesUp(deck))
    solution = solve(game)
    assert solution.value == 8 and solution.complete
    result = _play(game, solver_player(AcesUp))
    assert result == {"won": True, "cards_left": 4, "score": 8}


def test_the_solver_wins_the_hand_worked_idiots_delight_deck() -> None:
    deck = Deck.parse("AC 2C AD 2D AH 2H AS 2S", ranks=[Rank.ACE, Rank.TWO])
    game = _decision_point(IdiotsDelight(deck))
    solution = solve(game)
    assert solution.value == 0
    assert solution.moves == [Move("pair", (1, 3)), Move("pair", (2, 4)),
                              Move("pair", (1, 3)), Move("pair", (2, 4))]


def test_a_state_budget_stops_the_search_and_says_so() -> None:
    deck = Deck.shuffled(0)
    game = _decision_point(IdiotsDelight(deck, IdiotsDelightOptions(deal_any_time=True)))
    cut = search(IdiotsDelightModel(deck, True), game_state(game), max_states=500)
    assert not cut.complete and cut.states <= 510


def test_the_solver_refuses_a_game_without_decisions() -> None:
    from solitaire_ds.games.perpetual_motion import PerpetualMotion

    with pytest.raises(TypeError, match=r"^Perpetual Motion has no decisions to solve$"):
        solver_player(PerpetualMotion)
