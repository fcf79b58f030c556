"""Klondike invariants on random deals: every step keeps the cards, foundations and runs in order."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_ds.cards import Card, Deck, Suit
from solitaire_ds.games.klondike import MAX_STEPS, Klondike
from solitaire_ds.records import play_record, replay
from solitaire_ds.structures import LinkedDeque, LinkedQueue, LinkedStack, Toolkit

ALL_CARDS = list(Deck.standard())
decks = st.permutations(ALL_CARDS).map(Deck)
LINKED = Toolkit(stack=LinkedStack, queue=LinkedQueue, deque=LinkedDeque, source="linked")


def check_invariants(game: Klondike) -> None:
    """Assert every invariant the module docstring states."""
    places: list[Card] = [*game.stock, *game.waste]
    for pile in game.foundations.values():
        places += pile
    for down, up in zip(game.face_down, game.face_up, strict=True):
        places += [*down, *up]
    assert Counter(places) == Counter(ALL_CARDS), "the 52 cards are not all accounted for"
    for suit, pile in game.foundations.items():
        cards = list(pile)[::-1]  # bottom first
        assert [card.suit for card in cards] == [suit] * len(cards)
        assert [int(card.rank) for card in cards] == list(range(1, len(cards) + 1))
    assert game.to_foundation == sum(len(pile) for pile in game.foundations.values())
    for number, (down, up) in enumerate(zip(game.face_down, game.face_up, strict=True)):
        run = list(up)  # a Deque iterates from the front: the bottom card first
        assert run or not down, f"pile {number + 1} has face-down cards but no face-up card"
        for lower, upper in pairwise(run):
            assert upper.rank == lower.rank - 1 and upper.color is not lower.color, (
                f"pile {number + 1}'s face-up cards {run} are not a descending alternating run")
        if run:
            assert (up.peek_front(), up.peek_rear()) == (run[0], run[-1])


@settings(max_examples=60, deadline=None)
@given(decks)
def test_every_step_keeps_the_cards_the_foundations_and_the_runs_in_order(deck: Deck) -> None:
    game = Klondike(deck)
    check_invariants(game)
    steps = 0
    while not game.is_over():
        game.advance()
        steps += 1
        check_invariants(game)
    assert steps <= MAX_STEPS
    assert game.events[-1] == {"type": "result", **game.result()}
    if not game.result()["won"]:
        assert not game.stock, "a game ends with cards in the stock only when won"


@settings(max_examples=40, deadline=None)
@given(decks)
def test_every_record_replays(deck: Deck) -> None:
    record = play_record(Klondike(deck))
    assert replay(record.to_json()).result == record.result
    assert replay(record.to_json(), LINKED).result == record.result


@settings(max_examples=40, deadline=None)
@given(decks)
def test_the_game_is_the_same_on_every_toolkit_and_without_a_record(deck: Deck) -> None:
    default = Klondike(deck)
    linked = Klondike(deck, toolkit=LINKED)
    assert default.run() == linked.run() == Klondike(deck, record=False).run()
    assert default.events == linked.events
    assert type(linked.stock) is LinkedQueue and type(linked.waste) is LinkedStack


SUIT_SWAPS = [
    {Suit.CLUBS: Suit.SPADES, Suit.SPADES: Suit.CLUBS,
     Suit.DIAMONDS: Suit.HEARTS, Suit.HEARTS: Suit.DIAMONDS},  # within each colour
    {Suit.CLUBS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.CLUBS,
     Suit.SPADES: Suit.HEARTS, Suit.HEARTS: Suit.SPADES},  # black and red exchanged
]


@settings(max_examples=30, deadline=None)
@given(decks, st.sampled_from(SUIT_SWAPS))
def test_renaming_suits_that_keeps_colours_apart_changes_nothing_but_the_names(
    deck: Deck, swap: dict[Suit, Suit]
) -> None:
    renamed = Deck(Card(card.rank, swap[card.suit]) for card in deck)
    first, second = Klondike(deck), Klondike(renamed)
    assert first.run() == second.run()
    kinds = [(e["type"], e.get("rule"), e.get("from"), e.get("to")) for e in first.events]
    assert kinds == [(e["type"], e.get("rule"), e.get("from"), e.get("to")) for e in second.events]
