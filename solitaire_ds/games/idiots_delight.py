"""Idiot's Delight (Peter Drake's rules): four Stacks, a Queue, and a player's choices.

Vocabulary: four *piles*, each a Stack of cards whose top card is the only one that
shows, and the *stock*, a Queue of the cards still to deal (its front is dealt first).

The rules, exactly as this module plays them:

1. The first four cards are dealt at the start, one onto each pile left to right. No
   choice is possible before it, so it is a forced step (:meth:`IdiotsDelight.advance`),
   not a move.
2. A player's moves (:class:`~solitaire_ds.games.base.Move`, piles numbered from 1):

   * ``pair i j`` -- piles i and j show cards of the same rank: discard both;
   * ``suit i j`` -- piles i and j show cards of the same suit: discard the lower one
     (aces are low: the ace is 1);
   * ``deal`` -- deal four cards from the stock, one onto each pile left to right (empty
     piles too). By default you may deal only when no ``pair`` or ``suit`` move exists
     ("if neither of those conditions exist, deal"), so a deal is never a choice: the
     game deals by itself. Option ``deal_any_time`` (Drake's own program) lets the player
     deal whenever the stock is not empty, so ``deal`` is then a move;
   * ``quit`` -- give up: the game ends with the cards as they lie.

3. No card ever moves to an empty pile.
4. The game waits for a move only when a ``pair`` or ``suit`` move exists. Otherwise it
   deals by itself, or, with the stock empty, ends. It is won when every card is
   discarded.

Result keys: ``won``, ``cards_left``.

Invariant: the cards on the piles, in the stock and discarded always number the deck's
size; the stock is dealt in fours, so its size is always a multiple of four.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from solitaire_ds.cards import Card, Deck, labels  # noqa: F401 (the doctests deal a Deck)
from solitaire_ds.games.base import Event, FourPileGame, GameOptions, IllegalMove, Move, pile_line
from solitaire_ds.stats import format_interval, format_rate, mean_interval
from solitaire_ds.structures import Queue, Stack
from solitaire_ds.text import shown

__all__ = ["MOVE_KINDS", "IdiotsDelight", "IdiotsDelightOptions"]

Pile = Stack[Card]
Stock = Queue[Card]

NUM_PILES = 4

#: The kinds of move a player may make, with what each does.
MOVE_KINDS: dict[str, str] = {
    "pair": "two showing cards of the same rank: discard both",
    "suit": "two showing cards of the same suit: discard the lower (ace low)",
    "deal": "four cards from the stock, one onto each pile (with --deal-any-time)",
    "quit": "give up: the game ends with the cards as they lie",
}


@dataclass(frozen=True)
class IdiotsDelightOptions(GameOptions):
    """The rule options: whether the player may deal while a removal is possible.

    >>> IdiotsDelightOptions(deal_any_time=True).to_json()
    {'deal_any_time': True}
    """

    deal_any_time: bool = field(default=False, metadata={
        "help": "let the player deal whenever the stock is not empty (Drake's program)"})


class IdiotsDelight(FourPileGame):
    """One deal of Idiot's Delight: forced deals by :meth:`advance`, choices by :meth:`play`.

    Looking:
        :meth:`needs_decision`, :meth:`legal_moves`, :meth:`result`, :meth:`board`.
    Acting:
        :meth:`play` (a move), :meth:`advance` (a forced deal, or the end).

    >>> game = IdiotsDelight(Deck.parse("5C 5H 9D KS " + " ".join(
    ...     c for c in Deck.standard().codes() if c not in ("5C", "5H", "9D", "KS"))))
    >>> game.advance()
    >>> game.legal_moves()
    [Move(kind='pair', piles=(1, 2)), Move(kind='quit', piles=())]
    >>> game.play(Move("pair", (1, 2)))
    >>> game.cards_left()
    50
    """

    name: ClassVar[str] = "idiots-delight"
    title: ClassVar[str] = "Idiot's Delight"
    options_type: ClassVar[type[GameOptions]] = IdiotsDelightOptions
    has_decisions: ClassVar[bool] = True
    summary: ClassVar[str] = (
        "Idiot's Delight: four piles; only the top card of each shows. If two showing cards "
        "have the same rank, discard both ('pair'); if two have the same suit, discard the "
        "lower one, aces low ('suit'). When neither is possible the game deals four more "
        "cards, one on each pile, by itself (with --deal-any-time you may also 'deal' "
        "whenever you like). Cards never move to an empty pile. You win when every card is "
        "discarded.")
    example_move: ClassVar[str] = "pair 1 3"
    options: IdiotsDelightOptions

    # -- looking ------------------------------------------------------------------------

    def tops(self) -> list[Card | None]:
        """Return the showing card of each pile, None for an empty pile.

        Runtime complexity: O(1).
        """
        return [pile.peek() if len(pile) else None for pile in self.piles]

    def needs_decision(self) -> bool:
        """Return True when a ``pair`` or ``suit`` move exists (the game waits for a move).

        Runtime complexity: O(1) (six pairs of piles).
        """
        return not self.over and self.deals > 0 and bool(self.removals())

    def removals(self) -> list[Move]:
        """Return the ``pair`` and ``suit`` moves allowed now, in the order of their piles.

        One move at most for each two piles ``i < j`` that both show a card, taken in the
        order (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4): ``pair i j`` when the two cards
        have the same rank, else ``suit i j`` when they have the same suit. So with A♣ 2♣ A♦ 2♦
        showing the moves are ``suit 1 2``, ``pair 1 3``, ``pair 2 4``, ``suit 3 4``, in that
        order. The order is a rule, not a detail: the greedy player takes the first pair in
        this list, else its first suit move, so a game's record depends on it.

        Runtime complexity: O(1) (six pairs of piles).
        """
        # BEGIN SOLUTION: List Move("pair"|"suit", (i, j)) for piles i < j whose tops share a rank or a suit.
        tops = self.tops()
        moves = []
        for i in range(NUM_PILES):
            first = tops[i]
            if first is None:
                continue
            for j in range(i + 1, NUM_PILES):
                second = tops[j]
                if second is None:
                    continue
                if first.rank == second.rank:
                    moves.append(Move("pair", (i + 1, j + 1)))
                elif first.suit == second.suit:
                    moves.append(Move("suit", (i + 1, j + 1)))
        return moves
        # END SOLUTION

    def legal_moves(self) -> list[Move]:
        """Return the moves allowed now: removals (in :meth:`removals`' order), then ``deal``
        (with the option), then ``quit``.

        Empty when the game does not wait for a decision.

        Runtime complexity: O(1).
        """
        if not self.needs_decision():
            return []
        moves = self.removals()
        if self.options.deal_any_time and self.stock:
            moves.append(Move("deal"))
        moves.append(Move("quit"))
        return moves

    def result(self) -> dict[str, Any]:
        return {"won": self.over and self.cards_left() == 0, "cards_left": self.cards_left()}

    def board(self) -> str:
        lines = [pile_line(f"pile {n}", pile) for n, pile in enumerate(self.piles, start=1)]
        lines.append(f"stock: {len(self.stock)} cards")
        return "\n".join(lines)

    # -- acting -------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Make ``move``; raise :class:`IllegalMove` saying why (changing nothing) if not allowed.

        ``pair`` and ``suit`` name two different piles in either order. With ``i < j`` the
        two piles, what the checks read:

        * a ``pair`` of two ranks, or a ``suit`` of two suits, raises :class:`IllegalMove`
          whose message names both cards (as ``A♣`` or ``AC``; the package says
          "A♣ and 2♣ are not the same rank"), and changes nothing: no card, no event;
        * a ``pair`` pops both cards and records
          ``{"type": "pair", "piles": [i, j], "cards": [pile i's card, pile j's card]}``;
        * a ``suit`` pops the lower card (ace low) and records
          ``{"type": "suit", "piles": [i, j], "discard": the lower card, "keep": the other}``,

        cards by their codes (``"AC"``), and ``self.discarded`` counts the cards discarded.

        Runtime complexity: O(1).
        """
        if self.over:
            raise IllegalMove("the game is over")
        if not self.needs_decision():
            raise IllegalMove(self._why_no_move())
        if move.kind == "quit" and not move.piles:
            self.emit({"type": "quit"})
            self.end()
            return
        if move.kind == "deal" and not move.piles:
            if not self.options.deal_any_time:
                raise IllegalMove("you may deal only when no pair or suit move exists "
                                  "(--deal-any-time allows it)")
            if not self.stock:
                raise IllegalMove("the stock is empty")
            self.deal_four(chosen=True)
            return
        if move.kind not in ("pair", "suit"):
            raise IllegalMove(f"unknown move {shown(str(move))} (moves: pair I J, suit I J, deal, quit)")
        first, second = self._two_tops(move)
        # BEGIN SOLUTION: Refuse cards of different rank (pair) or suit (suit); discard both or the lower; emit.
        i, j = sorted(move.piles)
        if move.kind == "pair":
            if first.rank != second.rank:
                raise IllegalMove(f"{first.label} and {second.label} are not the same rank")
            self.piles[i - 1].pop()
            self.piles[j - 1].pop()
            self.discarded += 2
            self.emit({"type": "pair", "piles": [i, j], "cards": [first.code, second.code]})
        else:
            if first.suit != second.suit:
                raise IllegalMove(f"{first.label} and {second.label} are not the same suit")
            low, high = (i, j) if first.rank < second.rank else (j, i)
            lower = self.piles[low - 1].pop()
            self.discarded += 1
            self.emit({"type": "suit", "piles": [i, j], "discard": lower.code,
                       "keep": self.piles[high - 1].peek().code})
        # END SOLUTION

    def _why_no_move(self) -> str:
        """Say why the game does not wait for a move now (it is not over)."""
        if self.deals == 0:
            return "nothing is dealt yet: the game deals the first four cards by itself"
        if self.stock:
            return "no pair or suit move is possible now: the game deals by itself"
        return ("no pair or suit move is possible and the stock is empty: nothing is left to "
                "deal, so the game ends by itself")

    def _two_tops(self, move: Move) -> tuple[Card, Card]:
        """Return the showing cards of the move's two piles (lower pile number first)."""
        if len(move.piles) != 2:
            raise IllegalMove(f"{move.kind} names two piles, like '{move.kind} 1 3'")
        for number in move.piles:
            if not 1 <= number <= NUM_PILES:
                raise IllegalMove(f"there is no pile {number} (the piles are 1 to {NUM_PILES})")
        i, j = sorted(move.piles)
        if i == j:
            raise IllegalMove(f"{move.kind} needs two different piles, not pile {i} twice")
        for number in (i, j):
            if not self.piles[number - 1]:
                raise IllegalMove(f"pile {number} is empty")
        return self.piles[i - 1].peek(), self.piles[j - 1].peek()

    def advance(self) -> None:
        """Take the next forced step: deal four cards, or end the game when the stock is empty.

        Raise :class:`IllegalMove` when the game waits for a move or is over.

        Runtime complexity: O(1).
        """
        if self.over or self.needs_decision():
            super().advance()
        if self.stock:
            self.deal_four(chosen=False)
        else:
            self.end()

    # -- describing ---------------------------------------------------------------------

    def decision(self, event: Event) -> Move | None:
        """Return the move a ``pair``, ``suit``, player's ``deal`` or ``quit`` event records.

        >>> IdiotsDelight(Deck.standard()).decision({"type": "pair", "piles": [1, 3]})
        Move(kind='pair', piles=(1, 3))
        """
        kind = event["type"]
        if kind in ("pair", "suit"):
            piles = event["piles"]
            if not isinstance(piles, list) or not all(type(p) is int for p in piles):
                raise ValueError(f"'piles' must be a list of pile numbers, not {piles!r}")
            return Move(kind, tuple(piles))
        if kind == "deal" and event.get("by") == "player":
            return Move("deal")
        if kind == "quit":
            return Move("quit")
        return None

    # -- for a player -----------------------------------------------------------------

    def say(self, move: Move) -> str:
        """Return ``move`` in words a newcomer reads."""
        words = {"deal": "deal four cards", "end": "end the game"}
        return words.get(move.kind, str(move))

    def canonical(self, move: Move) -> Move:
        """Return ``move`` with its two piles in order: ``pair 3 1`` is ``pair 1 3``."""
        if move.kind in ("pair", "suit"):
            return Move(move.kind, tuple(sorted(move.piles)))
        return move

    def greedy(self) -> Move:
        """Return the first pair if there is one, else the first suit removal, else a deal."""
        moves = self.legal_moves()
        for kind in ("pair", "suit"):
            for move in moves:
                if move.kind == kind:
                    return move
        return super().greedy()

    def describe(self, event: Event) -> str:
        kind = event["type"]
        if kind == "deal":
            who = "you deal" if event.get("by") == "player" else "deal"
            return f"{who} {event['deal']}: {labels(event['cards'])}"
        if kind == "pair":
            i, j = event["piles"]
            return f"pair {i} {j}: discard {labels(event['cards'])}"
        if kind == "suit":
            i, j = event["piles"]
            return (f"suit {i} {j}: discard {labels([event['discard']])} "
                    f"(lower than {labels([event['keep']])})")
        if kind == "quit":
            return "quit: the player gives up"
        if kind == "result":
            if event["won"]:
                return "won: every card is discarded"
            return f"lost: {event['cards_left']} cards left"
        return super().describe(event)

    def show_board_after(self, events: Sequence[Event]) -> bool:
        return True

    @classmethod
    def summarize(cls, results: Sequence[dict[str, Any]]) -> list[str]:
        """Win rate (Wilson 95%) and the mean number of cards left."""
        n = len(results)
        wins = sum(1 for r in results if r["won"])
        mean, lo, hi = mean_interval([r["cards_left"] for r in results], within=(0, 52))
        return [f"won:        {format_rate(wins, n)}",
                f"cards left: mean {mean:.2f} ({format_interval(lo, hi)})"]


