"""Check, at every event a game emits, that every card of the deck is accounted for.

A game step (``advance()`` or ``play()``) can emit several events: a deal, then moves or
discards. Checking after each step would miss a card that is briefly nowhere, or in two
places, between them. :func:`watched` makes a subclass of a game whose ``emit`` checks the
real state of the piles and the stock after each event, so a test sees every event.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, TypeVar

from solitaire_ds.cards import Card
from solitaire_ds.games.base import Event, Game
from solitaire_ds.players import greedy_choice

G = TypeVar("G", bound=Game)


def discarded_codes(event: Event) -> list[str]:
    """Return the codes of the cards ``event`` discards (none for most events)."""
    kind = event["type"]
    if kind in ("discard", "pair"):  # Perpetual Motion, Aces Up; Idiot's Delight's pair
        return list(event["cards"])
    if kind == "suit":  # Idiot's Delight: the lower card of the suit goes
        return [event["discard"]]
    return []


def check_event(game: Any, event: Event) -> None:
    """Assert that after ``event`` the piles, the stock and the discards hold the deck.

    Also check the event against the state where it says where cards are: a deal's
    cards show on the piles, a moved card shows on its new pile, a gather's stock is the
    stock.
    """
    number = len(game.events)
    gone: Counter[Card] = game.__dict__.setdefault("discards_seen", Counter())
    gone.update(Card.parse(code) for code in discarded_codes(event))
    held = Counter(card for pile in game.piles for card in pile) + Counter(game.stock)
    where = f"after event {number} {event}"
    assert held + gone == Counter(game.deck), f"{where}: cards lost or doubled"
    assert sum(held.values()) + sum(gone.values()) == len(game.deck), where
    assert game.discarded == sum(gone.values()), f"{where}: the discard count is off"
    tops = [pile.peek().code if pile else None for pile in game.piles]
    if event["type"] == "deal" and "cards" in event:
        assert tops == event["cards"], f"{where}: the dealt cards are not on top"
    if event["type"] == "move" and isinstance(event.get("to"), int):
        assert tops[event["to"] - 1] == event["card"], f"{where}: the card is not where it went"
    if event["type"] == "gather":
        assert [card.code for card in game.stock] == event["stock"], f"{where}: another stock"
    game.__dict__["events_checked"] = game.__dict__.get("events_checked", 0) + 1


def watched(cls: type[G]) -> type[G]:
    """Return a subclass of game ``cls`` that runs :func:`check_event` after each event."""

    class Watched(cls):  # type: ignore[valid-type,misc]
        def emit(self, event: Event) -> None:
            super().emit(event)
            check_event(self, event)

    Watched.__name__ = Watched.__qualname__ = f"Watched{cls.__name__}"
    return Watched


def play_out(game: Any, seed: int, greedy: bool) -> None:
    """Play a game with decisions to its end: the greedy player, or random legal moves.

    Then check that a watched game saw every one of its events.
    """
    rng = random.Random(seed)
    while not game.is_over():  # a watched game checks each event as it is emitted
        if not game.needs_decision():
            game.advance()
        elif greedy:
            game.play(greedy_choice(game))
        else:
            game.play(rng.choice([m for m in game.legal_moves() if m.kind != "quit"]))
    assert game.events_checked == len(game.events) > 0
