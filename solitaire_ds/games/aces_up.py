"""Aces Up: four Stacks, a Queue, forced discards and the player's moves into empty piles.

Vocabulary: four *piles*, each a Stack whose top card is the only one in play; the
*stock*, a Queue of the cards still to deal. Aces are high: an ace outranks a king.

The rules, exactly as this module plays them:

1. A *deal* puts four cards from the stock one onto each pile, left to right (empty
   piles too). The first deal happens by itself at the start.
2. *Discards* are not a choice: when two or more top cards share a suit, every one of
   them lower than the highest of that suit is discarded at once; this repeats until no
   two top cards share a suit. Discards follow every deal and every move.
3. The player's moves (piles numbered from 1):

   * ``move i j`` -- pile j is empty: put the top card of pile i on it (option
     ``aces_only``: only an ace may fill an empty pile);
   * ``deal`` -- the player wants no more moves: deal the next four cards;
   * ``end`` -- after the last deal: the player wants no more moves, the game ends;
   * ``quit`` -- give up before that: the game ends with the cards as they lie.

4. The game waits for a move only when some ``move i j`` is possible; otherwise it deals
   by itself, or, once the stock is empty, ends.

Score = the cards discarded; the game is won when only the aces are left (score 48 with
a full deck, the deck's size minus 4 with a small one).

Result keys: ``won``, ``cards_left``, ``score``.

Invariant: the cards on the piles, in the stock and discarded always number the deck's
size; after every step no two top cards share a suit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from solitaire_ds.cards import Card, Deck, Rank, labels  # noqa: F401 (the doctests deal a Deck)
from solitaire_ds.games.base import Event, FourPileGame, GameOptions, IllegalMove, Move, pile_line
from solitaire_ds.stats import format_interval, format_rate, mean_interval
from solitaire_ds.structures import Queue, Stack
from solitaire_ds.text import shown

__all__ = ["AcesUp", "AcesUpOptions", "high_rank"]

Pile = Stack[Card]
Stock = Queue[Card]

NUM_PILES = 4


def high_rank(card: Card) -> int:
    """Return the card's rank with aces high: 2 … 13 as usual, the ace 14.

    >>> high_rank(Card.parse("AS")), high_rank(Card.parse("KS"))
    (14, 13)
    """
    return 14 if card.rank is Rank.ACE else int(card.rank)


@dataclass(frozen=True)
class AcesUpOptions(GameOptions):
    """The rule options: whether only an ace may fill an empty pile.

    >>> AcesUpOptions(aces_only=True).to_json()
    {'aces_only': True}
    """

    aces_only: bool = field(default=False, metadata={
        "help": "only an ace may be moved into an empty pile (the harder variant)"})


class AcesUp(FourPileGame):
    """One deal of Aces Up: deals and discards by :meth:`advance`, choices by :meth:`play`.

    Looking:
        :meth:`needs_decision`, :meth:`legal_moves`, :meth:`result`, :meth:`board`.
    Acting:
        :meth:`play` (a move), :meth:`advance` (a forced deal, or the end).

    >>> game = AcesUp(Deck.parse("2C 5C 9D KS " + " ".join(
    ...     c for c in Deck.standard().codes() if c not in ("2C", "5C", "9D", "KS"))))
    >>> game.advance()          # deal 2♣ 5♣ 9♦ K♠: the 2♣ is discarded (lower than 5♣)
    >>> game.legal_moves()[:2]
    [Move(kind='move', piles=(2, 1)), Move(kind='move', piles=(3, 1))]
    """

    name: ClassVar[str] = "aces-up"
    title: ClassVar[str] = "Aces Up"
    options_type: ClassVar[type[GameOptions]] = AcesUpOptions
    has_decisions: ClassVar[bool] = True
    summary: ClassVar[str] = (
        "Aces Up: four piles; only the top card of each shows; aces are high. Whenever two "
        "showing cards share a suit, the lower ones are discarded by themselves. When a pile "
        "is empty you may move the top card of another pile into it ('move FROM TO'; with "
        "--aces-only only an ace). When you want no more moves, 'deal' four more cards; after "
        "the last deal, 'end'. Your score is the number of cards discarded; you win when only "
        "the four aces are left (score 48).")
    example_move: ClassVar[str] = "move 2 4"
    options: AcesUpOptions

    # -- looking ------------------------------------------------------------------------

    def needs_decision(self) -> bool:
        """Return True when some card may be moved into an empty pile.

        Runtime complexity: O(1).
        """
        return not self.over and self.deals > 0 and bool(self.card_moves())

    def card_moves(self) -> list[Move]:
        """Return the moves ``move i j`` allowed now: pile j empty, pile i's top may fill it.

        In any order (the checks compare them as a set): the greedy player and the solver
        choose among them by the piles, never by their place in the list.

        Runtime complexity: O(1) (four piles).
        """
        # BEGIN SOLUTION: List Move("move", (i, j)) for non-empty pile i, empty pile j (an ace if aces_only).
        empty = [j for j in range(NUM_PILES) if not self.piles[j]]
        if not empty:
            return []
        moves: list[Move] = []
        for i, pile in enumerate(self.piles):
            if not pile or (self.options.aces_only and pile.peek().rank is not Rank.ACE):
                continue
            moves.extend(Move("move", (i + 1, j + 1)) for j in empty)
        return moves
        # END SOLUTION

    def legal_moves(self) -> list[Move]:
        """Return the moves allowed now: card moves, then ``deal`` (or ``end``), ``quit``.

        Empty when the game does not wait for a decision.

        Runtime complexity: O(1).
        """
        moves = self.card_moves() if not self.over and self.deals > 0 else []
        if not moves:
            return []
        moves.append(Move("deal") if self.stock else Move("end"))
        if self.stock:
            moves.append(Move("quit"))
        return moves

    def result(self) -> dict[str, Any]:
        return {"won": self.over and self.discarded == len(self.deck) - 4,
                "cards_left": self.cards_left(), "score": self.discarded}

    def board(self) -> str:
        lines = [pile_line(f"pile {n}", pile) for n, pile in enumerate(self.piles, start=1)]
        lines.append(f"stock: {len(self.stock)} cards; score {self.discarded}")
        return "\n".join(lines)

    # -- acting -------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Make ``move``; raise :class:`IllegalMove` saying why (changing nothing) if not allowed.

        What the checks read of ``move i j`` (a card from pile ``i`` to the empty pile ``j``):

        * a move from an empty pile, onto a pile that is not empty, or from a pile onto
          itself raises :class:`IllegalMove` whose message names that pile by its number
          (the package says "pile 3 is not empty (it shows A♦)"); with ``aces_only``, a card
          that is not an ace is refused with a message naming the card (``3♣`` or ``3C``);
          a refused move changes nothing: no card, no event;
        * a move records ``{"type": "move", "card": the card's code, "from": i, "to": j}``,
          then the discards it causes (see :meth:`_discard`).

        Runtime complexity: O(1) per card discarded.
        """
        if self.over:
            raise IllegalMove("the game is over")
        if not self.needs_decision():
            raise IllegalMove(self._why_no_move())
        if move.kind in ("deal", "end", "quit") and not move.piles:
            if move.kind == "deal" and not self.stock:
                raise IllegalMove("the stock is empty: 'end' finishes the game")
            if move.kind == "end" and self.stock:
                raise IllegalMove(f"'end' comes after the last deal; {len(self.stock)} cards "
                                  f"are still in the stock ('deal' deals them)")
            if move.kind == "quit" and not self.stock:
                raise IllegalMove("the stock is empty: 'end' finishes the game")
            if move.kind == "deal":
                self._deal(chosen=True)
            else:
                self.emit({"type": move.kind})
                self.end()
            return
        if move.kind != "move":
            raise IllegalMove(f"unknown move {shown(str(move))} (moves: move I J, deal, end, quit)")
        if len(move.piles) != 2:
            raise IllegalMove("move names two piles, like 'move 1 3'")
        for number in move.piles:
            if not 1 <= number <= NUM_PILES:
                raise IllegalMove(f"there is no pile {number} (the piles are 1 to {NUM_PILES})")
        source, target = move.piles
        # BEGIN SOLUTION: Refuse a bad source or target (IllegalMove with why); move the card, emit, self._discard().
        if source == target:
            raise IllegalMove(f"pile {source} cannot move onto itself")
        if not self.piles[source - 1]:
            raise IllegalMove(f"pile {source} is empty")
        if self.piles[target - 1]:
            raise IllegalMove(f"pile {target} is not empty (it shows "
                              f"{self.piles[target - 1].peek().label})")
        card = self.piles[source - 1].peek()
        if self.options.aces_only and card.rank is not Rank.ACE:
            raise IllegalMove(f"{card.label} is not an ace: only an ace may fill an empty pile "
                              f"(--aces-only)")
        self.piles[target - 1].push(self.piles[source - 1].pop())
        self.emit({"type": "move", "card": card.code, "from": source, "to": target})
        self._discard()
        # END SOLUTION

    def _why_no_move(self) -> str:
        """Say why the game does not wait for a move now (it is not over)."""
        if self.deals == 0:
            return "nothing is dealt yet: the game deals the first four cards by itself"
        if all(self.piles):
            why = "no pile is empty, so no card can move"
        elif self.options.aces_only:  # an empty pile, and no ace to fill it
            why = "no ace shows to fill the empty pile (--aces-only)"
        else:  # the reason must be true for the options in force: no ace is needed here
            why = "no card can move into the empty pile"
        if self.stock:
            return f"{why}: the game deals by itself"
        return f"{why} and the stock is empty: the game ends by itself"

    def advance(self) -> None:
        """Take the next forced step: deal four cards (and discard), or end the game.

        Raise :class:`IllegalMove` when the game waits for a move or is over.

        Runtime complexity: O(1) per card dealt or discarded.
        """
        if self.over or self.needs_decision():
            super().advance()
        if self.stock:
            self._deal(chosen=False)
        else:
            self.end()

    def _deal(self, *, chosen: bool) -> None:
        """Deal one card onto each pile, left to right, then discard."""
        self.deal_four(chosen=chosen)
        self._discard()

    def _discard(self) -> None:
        """Rule 2: discard every top card lower than a showing card of its suit, until none.

        Each round pops, at once, every top card lower than the highest showing card of its
        suit (aces high), adds them to ``self.discarded``, and, when the game is recording,
        records ``{"type": "discard", "cards": [their codes], "piles": [their pile numbers]}``
        (left to right); then it looks again at the new tops.
        """
        # BEGIN SOLUTION: While tops share a suit, pop every top below its suit's highest top at once; count, emit.
        piles = self.piles
        while True:
            tops = [pile.peek() if pile else None for pile in piles]
            highest: dict[Any, int] = {}
            for card in tops:
                if card is not None and high_rank(card) > highest.get(card.suit, 0):
                    highest[card.suit] = high_rank(card)
            lower = [n for n, card in enumerate(tops)
                     if card is not None and high_rank(card) < highest[card.suit]]
            if not lower:
                return
            cards = [piles[n].pop() for n in lower]
            self.discarded += len(cards)
            if self.recording:
                self.emit({"type": "discard", "cards": [c.code for c in cards],
                           "piles": [n + 1 for n in lower]})
        # END SOLUTION

    # -- describing ---------------------------------------------------------------------

    def decision(self, event: Event) -> Move | None:
        """Return the move a ``move``, player's ``deal``, ``end`` or ``quit`` event records.

        >>> AcesUp(Deck.standard()).decision({"type": "move", "card": "AS", "from": 2, "to": 4})
        Move(kind='move', piles=(2, 4))
        """
        kind = event["type"]
        if kind == "move":
            source, target = event["from"], event["to"]
            if type(source) is not int or type(target) is not int:
                raise ValueError(f"'from' and 'to' must be pile numbers, not {source!r}, {target!r}")
            return Move("move", (source, target))
        if kind == "deal" and event.get("by") == "player":
            return Move("deal")
        if kind in ("end", "quit"):
            return Move(kind)
        return None

    # -- for a player -----------------------------------------------------------------

    def say(self, move: Move) -> str:
        """Return ``move`` in words a newcomer reads: ``move 7♣ from pile 2 to 4``."""
        if move.kind == "move" and len(move.piles) == 2:
            source, target = move.piles
            return f"move {self.piles[source - 1].peek().label} from pile {source} to {target}"
        return {"deal": "deal four cards", "end": "end the game"}.get(move.kind, str(move))

    def greedy(self) -> Move:
        """Return the move a greedy player makes: an ace into a gap first, else the card
        from the tallest pile (leftmost on ties), but never a pile's last card; else deal.
        """
        moves = self.legal_moves()
        useful = [m for m in moves if m.kind == "move" and len(self.piles[m.piles[0] - 1]) > 1]
        if useful:
            def rank(move: Move) -> tuple[bool, int, tuple[int, ...]]:
                pile = self.piles[move.piles[0] - 1]
                return (pile.peek().rank != 1, -len(pile), move.piles)
            return min(useful, key=rank)
        return next((m for m in moves if m.kind in ("deal", "end")), super().greedy())

    def describe(self, event: Event) -> str:
        kind = event["type"]
        if kind == "deal":
            who = "you deal" if event.get("by") == "player" else "deal"
            return f"{who} {event['deal']}: {labels(event['cards'])}"
        if kind == "discard":
            return f"discard {labels(event['cards'])} (lower than a showing card of its suit)"
        if kind == "move":
            return (f"move {labels([event['card']])} from pile {event['from']} "
                    f"to empty pile {event['to']}")
        if kind == "end":
            return "end: no more moves"
        if kind == "quit":
            return "quit: the player gives up"
        if kind == "result":
            verdict = "won" if event["won"] else "lost"
            return f"{verdict}: score {event['score']}, {event['cards_left']} cards left"
        return super().describe(event)

    def show_board_after(self, events: Sequence[Event]) -> bool:
        return True

    @classmethod
    def summarize(cls, results: Sequence[dict[str, Any]]) -> list[str]:
        """Win rate (Wilson 95%), mean score with its interval, the score distribution."""
        n = len(results)
        wins = sum(1 for r in results if r["won"])
        scores = [r["score"] for r in results]
        mean, lo, hi = mean_interval(scores, within=(0, 48))
        every = ", ".join(f"{score}: {count}" for score, count in sorted(Counter(scores).items()))
        return [f"won:   {format_rate(wins, n)}",
                f"score: mean {mean:.2f} ({format_interval(lo, hi)})",
                f"scores (score: deals): {every} ({n} deal{'' if n == 1 else 's'})"]


