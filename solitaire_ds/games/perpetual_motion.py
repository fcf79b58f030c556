"""Perpetual Motion (Narcotic): a game with no decisions, four Stacks and a Queue.

Vocabulary: four *piles*, each a Stack of cards whose top card is the only one in play,
and the *stock*, a Queue of the cards still to deal (its front is dealt first).

The rules, exactly as this module plays them:

1. Deal four cards from the stock, one onto each pile left to right (empty piles too).
2. If the four cards just dealt share a rank, discard them at once.
3. Otherwise, while two top cards share a rank: take the leftmost pile whose top card has
   the rank of a top card on some pile to its left, and move that card onto the leftmost
   pile showing that rank. Newly exposed top cards take part.
4. When the stock is empty the round ends: no cards left means the game is won;
   otherwise the piles are gathered into the next stock and a new round starts.
5. Gathering has four readings (option ``gather``), see :data:`GATHER_READINGS`.
6. The game cycles (is lost) when a round starts with a stock in exactly the order that
   started an earlier round.

Invariant: the cards on the piles, in the stock and discarded always number the deck's
size; the stock is dealt in fours, so its size is always a multiple of four.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from solitaire_ds.cards import Card, Deck, Rank, labels
from solitaire_ds.games.base import Event, FourPileGame, GameOptions, OptionError, pile_line
from solitaire_ds.stats import distribution, format_interval, format_rate, mean_interval
from solitaire_ds.structures import Queue, Stack, Toolkit

__all__ = ["GATHER_READINGS", "PerpetualMotion", "PerpetualMotionOptions"]

Pile = Stack[Card]
Stock = Queue[Card]

#: The four readings of "the piles are picked up, starting from the rightmost pile,
#: and put over one another either face down or face up", with the order the next
#: stock deals in.
GATHER_READINGS: dict[str, str] = {
    "right-face-down": "pile 4 bottom-to-top first, then pile 3, pile 2, pile 1 the same way",
    "right-face-up": "pile 1 top-to-bottom first, then pile 2, 3, 4",
    "left-face-down": "pile 1 bottom-to-top first, then pile 2, 3, 4",
    "left-face-up": "pile 4 top-to-bottom first, then pile 3, 2, 1",
}

NUM_PILES = 4


@dataclass(frozen=True)
class PerpetualMotionOptions(GameOptions):
    """The rule options: how the piles are gathered into the next stock.

    >>> PerpetualMotionOptions(gather="sideways").validate()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solitaire_ds.games.base.OptionError: unknown gather reading 'sideways' (choose from right-face-down, ...)
    """

    gather: str = "right-face-down"

    def validate(self) -> None:
        if self.gather not in GATHER_READINGS:
            raise OptionError(
                f"unknown gather reading {self.gather!r} (choose from {', '.join(GATHER_READINGS)})"
            )


class PerpetualMotion(FourPileGame):
    """One deal of Perpetual Motion, played to its end by :meth:`advance` or :meth:`run`.

    >>> game = PerpetualMotion(Deck.shuffled(3))
    >>> result = game.run()
    >>> sorted(result)
    ['cards_left', 'cycle_length', 'deals', 'rounds', 'won']
    >>> result["won"] == (result["cards_left"] == 0)
    True
    """

    name: ClassVar[str] = "perpetual-motion"
    title: ClassVar[str] = "Perpetual Motion"
    options_type: ClassVar[type[GameOptions]] = PerpetualMotionOptions
    options: PerpetualMotionOptions

    def set_up(self, deck: Deck, toolkit: Toolkit) -> None:
        """Build the piles and the stock (see :class:`FourPileGame`); start round 1."""
        super().set_up(deck, toolkit)
        self.round = 1
        self.won: bool | None = None  # None while the game goes on
        self.cycle_length: int | None = None
        self._first_round_of: dict[tuple[Card, ...], int] = {tuple(deck): 1}

    # -- looking ------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.won is not None

    def result(self) -> dict[str, Any]:
        return {
            "won": bool(self.won),
            "rounds": self.round,
            "deals": self.deals,
            "cards_left": self.cards_left(),
            "cycle_length": self.cycle_length,
        }

    def board(self) -> str:
        lines = [pile_line(f"pile {n}", pile) for n, pile in enumerate(self.piles, start=1)]
        lines.append(f"stock: {len(self.stock)} cards")
        return "\n".join(lines)

    # -- acting -------------------------------------------------------------------------

    def advance(self) -> None:
        """Take the next step: a deal and its matching, or the end of a round.

        Runtime complexity: O(1) per card moved; a round end is O(n) for n cards.
        """
        if self.is_over():
            super().advance()
        if self.stock:
            self._deal()
        else:
            self._end_round()

    def _deal(self) -> None:
        """Rules 1-3: deal four cards, discard four of a kind, then match top cards.

        What the checks read, so write exactly this:

        * deal one card from the stock (``self.stock.dequeue()``) onto each pile, left to
          right; add 1 to ``self.deals``; record ``self.emit({"type": "deal", "deal":
          self.deals, "cards": [the four cards' codes]})``;
        * when the four cards share a rank (rule 2), pop them off the piles, add 4 to
          ``self.discarded`` and record ``{"type": "discard", "cards": [their codes]}``;
        * otherwise match the top cards (rule 3): ``self._match()``.

        A record is only kept when ``self.recording`` is True (``simulate`` plays without
        one), so build an event's dict under ``if self.recording:``.
        """
        # BEGIN SOLUTION: Deal one card onto each pile; discard four of a kind (rule 2), else self._match().
        dealt = []
        for pile in self.piles:
            card = self.stock.dequeue()
            pile.push(card)
            dealt.append(card)
        self.deals += 1
        if self.recording:
            self.emit({"type": "deal", "deal": self.deals, "cards": [c.code for c in dealt]})
        if len({card.rank for card in dealt}) == 1:
            for pile in self.piles:
                pile.pop()
            self.discarded += NUM_PILES
            if self.recording:
                self.emit({"type": "discard", "cards": [c.code for c in dealt]})
        else:
            self._match()
        # END SOLUTION

    def _match(self) -> None:
        """Rule 3: move matching top cards leftwards until no two top cards share a rank.

        While some pile's top card has the rank of a top card to its left, take the
        leftmost such pile, pop its top card and push it onto the leftmost pile showing
        that rank, and record ``self.emit({"type": "move", "card": its code, "from": the
        pile it left, "to": the pile it joined})``, piles numbered from 1.

        It runs right after a deal, so every pile has a top card when it starts.
        """
        # BEGIN SOLUTION: Move the top card of the leftmost pile matching a pile to its left, until none.
        tops: list[Rank | None] = [pile.peek().rank for pile in self.piles]  # just dealt: none empty
        while True:
            for source in range(1, NUM_PILES):
                if tops[source] is not None and tops[source] in tops[:source]:
                    break
            else:
                return  # no two top cards share a rank
            target = tops.index(tops[source])
            card = self.piles[source].pop()
            self.piles[target].push(card)
            if self.recording:
                self.emit({"type": "move", "card": card.code, "from": source + 1, "to": target + 1})
            # The card joined one of its own rank, so only the source shows a new top card
            # (None once it is empty): look at that pile again, not at all four.
            pile = self.piles[source]
            tops[source] = pile.peek().rank if pile else None
        # END SOLUTION

    def _end_round(self) -> None:
        """Rules 4-6: end the round; win, or gather the piles and look for a cycle."""
        if self.recording:
            self.emit({"type": "round_end", "round": self.round, "cards_left": self.cards_left()})
        if self.cards_left() == 0:
            self.won = True
        else:
            self.stock = self._gather()
            self._check_cycle()
            if self.won is None:
                self.round += 1
                if self.recording:
                    self.emit({"type": "gather", "round": self.round,
                               "reading": self.options.gather,
                               "stock": [c.code for c in self.stock]})
        if self.won is not None:
            self.emit({"type": "result", **self.result()})

    def _gather(self) -> Stock:
        """Rule 5: pick up the piles into a new stock, as the ``gather`` option reads it.

        A face-down pack is dealt from what was its bottom: the piles are pushed onto one
        Stack and dealt by popping it. A face-up pack is dealt from its top: the piles are
        enqueued top card first. "right" picks pile 4 up first, "left" pile 1.

        Build the face-down pack with ``self.toolkit.stack()``: a new, empty Stack of the
        structures this game was given (the package's ``ArrayStack`` unless a player's own
        classes were passed in). The stock is empty at the end of a round: refill
        ``self.stock`` with ``enqueue`` and return it.
        """
        # BEGIN SOLUTION: Pop the piles, in the reading's order, into the stock (via a Stack if face down).
        reading = self.options.gather
        order = self.piles if reading in ("right-face-down", "right-face-up") else self.piles[::-1]
        stock = self.stock  # empty at the end of a round: reuse it (no regrowing)
        if reading.endswith("face-down"):
            pack: Pile = self.toolkit.stack()
            for pile in order:
                for _ in range(len(pile)):
                    pack.push(pile.pop())
            for _ in range(len(pack)):
                stock.enqueue(pack.pop())
        else:
            for pile in order:
                for _ in range(len(pile)):
                    stock.enqueue(pile.pop())
        return stock
        # END SOLUTION

    def _check_cycle(self) -> None:
        """Rule 6: lose when the new stock's order started an earlier round."""
        # BEGIN SOLUTION: Lose if tuple(self.stock) started an earlier round, else remember it.
        order = tuple(self.stock)
        first = self._first_round_of.get(order)
        if first is not None:
            self.won = False
            self.cycle_length = self.round + 1 - first
        else:
            self._first_round_of[order] = self.round + 1
        # END SOLUTION

    # -- describing ---------------------------------------------------------------------

    def describe(self, event: Event) -> str:
        kind = event["type"]
        if kind == "deal":
            return f"deal {event['deal']}: {labels(event['cards'])}"
        if kind == "discard":
            rank = Card.parse(event["cards"][0]).rank.label
            return f"discard the four {rank}s: {labels(event['cards'])}"
        if kind == "move":
            return f"move {labels([event['card']])} from pile {event['from']} to pile {event['to']}"
        if kind == "round_end":
            return f"end of round {event['round']}: {event['cards_left']} cards left"
        if kind == "gather":
            return (f"gather ({event['reading']}): round {event['round']} deals "
                    f"{labels(event['stock'])}")
        if kind == "result":
            if event["won"]:
                return f"won in {event['rounds']} rounds ({event['deals']} deals)"
            return (f"lost: the stock repeats, a cycle of {event['cycle_length']} rounds; "
                    f"{event['cards_left']} cards left after {event['rounds']} rounds")
        return super().describe(event)

    def show_board_after(self, events: Sequence[Event]) -> bool:
        return any(e["type"] in ("deal", "round_end") for e in events)

    @classmethod
    def summarize(cls, results: Sequence[dict[str, Any]]) -> list[str]:
        """Win and cycle rates (Wilson 95%), rounds when won, and the cycle lengths."""
        n = len(results)
        won = [r for r in results if r["won"]]
        cycles = [r["cycle_length"] for r in results if not r["won"]]
        lines = [f"won:     {format_rate(len(won), n)}",
                 f"cycled:  {format_rate(len(cycles), n)}"]
        if won:
            mean, lo, hi = mean_interval([r["rounds"] for r in won])
            lines.append(f"rounds when won: mean {mean:.2f} ({format_interval(lo, hi)}), "
                         f"median {statistics.median(r['rounds'] for r in won):g}, "
                         f"max {max(r['rounds'] for r in won)}")
        if cycles:
            mean, lo, hi = mean_interval(cycles)
            lines.append(f"cycle length: mean {mean:.2f} ({format_interval(lo, hi)})")
            lines.append(f"cycles by length (length: deals): {_lengths(cycles)}")
        return lines


#: At most this many cycle lengths are shown one by one; the rest are counted together.
_SHOWN_LENGTHS = 20


def _lengths(cycles: Sequence[int], shown: int = _SHOWN_LENGTHS) -> str:
    """Return every cycle length with its count, shortest first, so the counts add up.

    When there are more than ``shown`` lengths, the ``shown`` most common are listed
    and the others counted in one remainder: nothing is dropped.

    >>> _lengths([24, 3, 24, 8, 3, 24])
    '3: 2, 8: 1, 24: 3 (6 deals)'
    >>> _lengths([1, 2, 2, 3, 3, 3, 4], shown=2)
    '2: 2, 3: 3, other lengths (2 of them): 2 (7 deals)'
    """
    common = distribution(cycles, top=len(cycles))
    listed = sorted(common[:shown])
    parts = [f"{length}: {count}" for length, count in listed]
    rest = common[shown:]
    if rest:
        parts.append(f"other lengths ({len(rest)} of them): {sum(count for _, count in rest)}")
    return f"{', '.join(parts)} ({len(cycles)} deal{'' if len(cycles) == 1 else 's'})"


