"""The per-event card check in ``tests.conservation`` catches what a per-step check misses.

Two slips a student could make in Perpetual Motion: recording a discard, or a move, before
the cards leave their piles. At the end of each step every card is back in place, so a
check after each ``advance()`` passes; the check after each event does not.
"""

from __future__ import annotations

from collections import Counter

import pytest

from solitaire_ds.cards import Card, Deck
from solitaire_ds.games.perpetual_motion import NUM_PILES, PerpetualMotion
from tests.conservation import watched

# Four aces in the first deal: rule 2 discards them at once.
ACES_FIRST = Deck.parse("AC AD AH AS " + " ".join(
    c for c in str(Deck.standard()).split() if not c.startswith("A")))


class DiscardsEarly(PerpetualMotion):
    """Rules 1-3 with a slip: four of a kind is recorded as discarded before it is."""

    def _deal(self) -> None:
        dealt = [self.stock.dequeue() for _ in range(NUM_PILES)]
        for pile, card in zip(self.piles, dealt, strict=True):
            pile.push(card)
        self.deals += 1
        self.emit({"type": "deal", "deal": self.deals, "cards": [c.code for c in dealt]})
        if len({card.rank for card in dealt}) == 1:
            self.discarded += NUM_PILES
            self.emit({"type": "discard", "cards": [c.code for c in dealt]})  # too early
            for pile in self.piles:
                pile.pop()
        else:
            self._match()


class MovesEarly(PerpetualMotion):
    """Rule 3 with a slip: each move is recorded before the card leaves its pile."""

    def _match(self) -> None:
        piles = self.piles
        while True:
            tops = [pile.peek().rank if pile else None for pile in piles]
            source = next((i for i in range(1, NUM_PILES) if tops[i] is not None and tops[i] in tops[:i]), None)
            if source is None:
                return
            target = tops.index(tops[source])
            self.emit({"type": "move", "card": piles[source].peek().code, "from": source + 1,
                       "to": target + 1})  # too early: the card is still on pile `source`
            piles[target].push(piles[source].pop())


def conserved_after_every_step(game: PerpetualMotion) -> bool:
    """The old check: 52 cards accounted for after each ``advance()``."""
    discarded: Counter[Card] = Counter()
    while not game.is_over():
        game.advance()
        for event in game.events:
            if event["type"] == "discard":
                discarded.update(Card.parse(c) for c in event["cards"])
        game.events.clear()
        held = Counter(c for pile in game.piles for c in pile) + Counter(game.stock)
        if held + discarded != Counter(game.deck):
            return False
    return True


@pytest.mark.parametrize("slip", [DiscardsEarly, MovesEarly])
def test_a_per_step_check_misses_the_slips(slip: type[PerpetualMotion]) -> None:
    assert conserved_after_every_step(slip(ACES_FIRST))
    assert slip(ACES_FIRST).run() == PerpetualMotion(ACES_FIRST).run()


def test_the_per_event_check_catches_cards_counted_twice_at_the_discard() -> None:
    game = watched(DiscardsEarly)(ACES_FIRST)
    with pytest.raises(AssertionError, match=r"^after event 2 \{'type': 'discard', .*\}: "
                                             r"cards lost or doubled"):
        game.run()


def test_the_per_event_check_catches_a_move_recorded_before_it_is_made() -> None:
    expected = PerpetualMotion(ACES_FIRST)
    expected.run()
    first_move = next(n for n, e in enumerate(expected.events, start=1) if e["type"] == "move")
    with pytest.raises(AssertionError, match=rf"^after event {first_move} .*: "
                                             r"the card is not where it went"):
        watched(MovesEarly)(ACES_FIRST).run()


def test_a_card_lost_between_two_events_is_caught() -> None:
    game = watched(PerpetualMotion)(Deck.shuffled(3))
    game.advance()
    game.piles[0].pop()  # a card in flight that never lands
    with pytest.raises(AssertionError, match=r"cards lost or doubled"):
        game.emit({"type": "round_end", "round": 1, "cards_left": 52})


def test_the_real_games_pass_the_check_on_the_same_deck() -> None:
    game = watched(PerpetualMotion)(ACES_FIRST)
    game.run()
    assert game.events_checked == len(game.events)
