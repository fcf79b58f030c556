"""Perpetual Motion: hand-worked deals for every gather reading, and invariants on many deals."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_ds.cards import Card, Deck, Rank
from solitaire_ds.games.base import OptionError
from solitaire_ds.games.perpetual_motion import (
    GATHER_READINGS,
    PerpetualMotion,
    PerpetualMotionOptions,
)
from solitaire_ds.records import play_record, replay
from solitaire_ds.structures import (
    ArrayQueue,
    ArrayStack,
    LinkedQueue,
    LinkedStack,
    Toolkit,
)
from tests.conservation import watched

ACES_AND_TWOS = [Rank.ACE, Rank.TWO]


def small(codes: str) -> Deck:
    return Deck.parse(codes, ranks=ACES_AND_TWOS)


def play(deck: Deck, gather: str = "right-face-down") -> PerpetualMotion:
    game = PerpetualMotion(deck, PerpetualMotionOptions(gather=gather))
    game.run()
    return game


def of_type(game: PerpetualMotion, kind: str) -> list[dict[str, object]]:
    return [e for e in game.events if e["type"] == kind]


# -- rules 1-3, worked by hand ----------------------------------------------------------

def test_duplicates_move_to_the_leftmost_pile_with_an_equal_card() -> None:
    # The rule text's example: three kings on piles 2, 3 and 4 all go to pile 2.
    deck = Deck.parse("QC KC KD KH " + " ".join(
        c for c in str(Deck.standard()).split() if c not in ("QC", "KC", "KD", "KH")))
    game = PerpetualMotion(deck)
    game.advance()
    assert of_type(game, "move") == [
        {"type": "move", "card": "KD", "from": 3, "to": 2},
        {"type": "move", "card": "KH", "from": 4, "to": 2},
    ]
    assert [len(p) for p in game.piles] == [1, 3, 0, 0]


def test_first_round_moves_worked_by_hand() -> None:
    game = PerpetualMotion(small("AC 2C 2D AD 2H AH AS 2S"))
    game.advance()
    game.advance()
    assert [e for e in game.events if e["type"] in ("deal", "move")] == [
        {"type": "deal", "deal": 1, "cards": ["AC", "2C", "2D", "AD"]},
        {"type": "move", "card": "2D", "from": 3, "to": 2},   # leftmost pile matching a pile to its left
        {"type": "move", "card": "AD", "from": 4, "to": 1},
        {"type": "deal", "deal": 2, "cards": ["2H", "AH", "AS", "2S"]},  # empty piles are dealt to
        {"type": "move", "card": "AS", "from": 3, "to": 2},   # onto the leftmost pile showing an ace
        {"type": "move", "card": "2S", "from": 4, "to": 1},
    ]
    assert [[c.code for c in reversed(list(p))] for p in game.piles] == [
        ["AC", "AD", "2H", "2S"], ["2C", "2D", "AH", "AS"], [], []]


def test_four_of_a_kind_dealt_together_is_discarded_at_once() -> None:
    deck = Deck.parse(" ".join(f"{r}C {r}D {r}H {r}S" for r in "A23456789TJQK"))
    game = play(deck)
    assert len(of_type(game, "discard")) == 13 and of_type(game, "move") == []
    assert game.result() == {"won": True, "rounds": 1, "deals": 13, "cards_left": 0,
                             "cycle_length": None}


# -- rules 4-6: the four gather readings, worked by hand --------------------------------
# After round 1 of "AC 2C 2D AD 2H AH AS 2S" the piles are (bottom to top)
#   pile 1: AC AD 2H 2S    pile 2: 2C 2D AH AS    piles 3 and 4 empty.

ROUND_TWO_STOCK = {
    "right-face-down": "2C 2D AH AS AC AD 2H 2S",  # pile 4, 3, 2, 1, each bottom to top
    "right-face-up": "2S 2H AD AC AS AH 2D 2C",    # pile 1, 2, 3, 4, each top to bottom
    "left-face-down": "AC AD 2H 2S 2C 2D AH AS",   # pile 1, 2, 3, 4, each bottom to top
    "left-face-up": "AS AH 2D 2C 2S 2H AD AC",     # pile 4, 3, 2, 1, each top to bottom
}

# Worked through round by round (see the docs' Perpetual Motion page): the face-down
# reading from the left returns to round 2's stock after round 3, and so on.
OUTCOME = {
    "right-face-down": {"won": False, "rounds": 5, "deals": 10, "cards_left": 8, "cycle_length": 4},
    "right-face-up": {"won": False, "rounds": 5, "deals": 10, "cards_left": 8, "cycle_length": 4},
    "left-face-down": {"won": False, "rounds": 3, "deals": 6, "cards_left": 8, "cycle_length": 2},
    "left-face-up": {"won": False, "rounds": 3, "deals": 6, "cards_left": 8, "cycle_length": 2},
}


@pytest.mark.parametrize("gather", GATHER_READINGS)
def test_each_gather_reading_deals_the_next_stock_in_its_own_order(gather: str) -> None:
    game = play(small("AC 2C 2D AD 2H AH AS 2S"), gather)
    first_gather = of_type(game, "gather")[0]
    assert " ".join(first_gather["stock"]) == ROUND_TWO_STOCK[gather]  # type: ignore[arg-type]
    assert game.result() == OUTCOME[gather]


def test_right_face_down_third_round_stock_worked_by_hand() -> None:
    game = play(small("AC 2C 2D AD 2H AH AS 2S"))
    assert of_type(game, "gather")[1]["stock"] == ["AH", "AS", "2H", "2S", "2C", "2D", "AC", "AD"]


@pytest.mark.parametrize("gather", GATHER_READINGS)
def test_a_deal_that_sorts_itself_is_won_in_the_second_round(gather: str) -> None:
    # Round 1 leaves aces on pile 1 and twos on pile 2; every reading then deals fours.
    game = play(small("AC 2C AD 2D AH 2H AS 2S"), gather)
    assert game.result() == {"won": True, "rounds": 2, "deals": 4, "cards_left": 0,
                             "cycle_length": None}


def test_an_unknown_gather_reading_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown gather reading 'up'"):
        PerpetualMotion(Deck.standard(), PerpetualMotionOptions(gather="up"))


# -- invariants on many deals -----------------------------------------------------------

seeds = st.integers(min_value=0, max_value=2**32)
readings = st.sampled_from(list(GATHER_READINGS))


@settings(max_examples=40, deadline=None)
@given(seeds, readings)
def test_every_card_is_accounted_for_after_every_step(seed: int, gather: str) -> None:
    deck = Deck.shuffled(seed)
    game = PerpetualMotion(deck, PerpetualMotionOptions(gather=gather))
    discarded: Counter[Card] = Counter()
    while not game.is_over():
        game.advance()
        for event in game.events:
            if event["type"] == "discard":
                discarded.update(Card.parse(c) for c in event["cards"])
        game.events.clear()
        held = Counter(c for pile in game.piles for c in pile) + Counter(game.stock)
        assert held + discarded == Counter(deck)
        assert len(game.stock) % 4 == 0


@settings(max_examples=40, deadline=None)
@given(seeds, readings)
def test_every_card_is_accounted_for_after_every_event(seed: int, gather: str) -> None:
    game = watched(PerpetualMotion)(Deck.shuffled(seed), PerpetualMotionOptions(gather=gather))
    game.run()  # tests.conservation checks each deal, discard, move, round end, gather
    assert game.events_checked == len(game.events) > 0


@settings(max_examples=30, deadline=None)
@given(seeds, readings)
def test_the_game_always_ends_and_its_result_is_consistent(seed: int, gather: str) -> None:
    result = play(Deck.shuffled(seed), gather).result()
    assert result["won"] == (result["cards_left"] == 0) == (result["cycle_length"] is None)
    assert result["cards_left"] % 4 == 0
    if not result["won"]:
        assert 1 <= result["cycle_length"] <= result["rounds"]


@settings(max_examples=20, deadline=None)
@given(seeds, readings)
def test_same_deck_same_record_and_every_record_replays(seed: int, gather: str) -> None:
    options = PerpetualMotionOptions(gather=gather)
    first = play_record(PerpetualMotion(Deck.shuffled(seed), options))
    second = play_record(PerpetualMotion(Deck.shuffled(seed), options))
    assert first == second
    assert replay(first.to_json()).result == first.result


@pytest.mark.parametrize(
    "toolkit",
    [Toolkit(LinkedStack, LinkedQueue), Toolkit(ArrayStack, LinkedQueue),
     Toolkit(LinkedStack, ArrayQueue)],
)
def test_the_game_depends_on_the_interface_not_the_class(toolkit: Toolkit) -> None:
    for seed in range(5):
        deck = Deck.shuffled(seed)
        reference = PerpetualMotion(deck)
        other = PerpetualMotion(deck, toolkit=toolkit)
        assert other.run() == reference.run() and other.events == reference.events


def test_recording_off_changes_nothing_but_the_events() -> None:
    deck = Deck.shuffled(8)
    quiet = PerpetualMotion(deck, record=False)
    assert quiet.run() == PerpetualMotion(deck).run() and quiet.events == []


# -- the summary of many deals -----------------------------------------------------------

def lost(cycle_length: int) -> dict[str, object]:
    return {"won": False, "rounds": cycle_length + 3, "deals": 100, "cards_left": 8,
            "cycle_length": cycle_length}


def length_counts(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("cycles by length"))


def test_the_summary_shows_every_cycle_length_shortest_first_and_the_counts_add_up() -> None:
    lengths = [n for n in range(1, 13) for _ in range(n)]  # 12 lengths, more than the old top 10
    lines = PerpetualMotion.summarize([lost(n) for n in lengths] + [{"won": True, "rounds": 5}])
    listed = ", ".join(f"{n}: {n}" for n in range(1, 13))
    assert length_counts(lines) == f"cycles by length (length: deals): {listed} ({len(lengths)} deals)"


def test_past_twenty_cycle_lengths_the_rarest_are_counted_together() -> None:
    lengths = [n for n in range(1, 26) for _ in range(n)]  # 25 lengths: 1-5 are the rarest
    line = length_counts(PerpetualMotion.summarize([lost(n) for n in lengths]))
    listed = ", ".join(f"{n}: {n}" for n in range(6, 26))
    assert line == (f"cycles by length (length: deals): {listed}, "
                    f"other lengths (5 of them): {1 + 2 + 3 + 4 + 5} ({len(lengths)} deals)")
