"""Klondike played by a fixed priority of moves, for money: seven piles, a stock and a waste.

Invariant: the 52 cards are always split between the stock, the waste, the four
foundations and the seven piles. Every foundation holds one suit, ace first, in rising
order. Every pile is a face-down part under a face-up run that descends one rank at a
time in alternating colours, and its top card is face up whenever the pile is not empty.

Vocabulary:

* a *pile* (seven of them, numbered 1 to 7) is a Stack of face-down cards under a
  face-up *run*, a Deque whose front is the run's bottom card and whose rear its top
  card. The rules read both ends: rules 1 and 2 play onto or off the top card
  (``peek_rear``), rule 3 places a whole run by its bottom card (``peek_front``), and a
  run moves as a unit, in order, by ``remove_front`` onto the target's ``add_rear``. A
  Stack would show only the top card, and moving a run through a Stack reverses it;
* the *stock* is a Queue: the deck's 29th card is turned first, the 30th next and so
  on, exactly the order in which the deck lists them, and nothing ever goes back into
  the stock (one pass, no redeal). A Queue takes the cards in the deck's order and gives
  them back in that order, so the deck's text is the stock's order with no reversal;
  a Stack would have to be filled back to front;
* the *waste* is a Stack (only its top card plays), and so is each of the four
  *foundations* (one per suit; a card on it never comes back).

The rules, exactly as this module plays them (our reading of the rule text):

* The deal: in round r (r = 1 … 7) one card goes to each of piles r … 7, left to right,
  and the first card of the round (the one on pile r) is face up. The other 24 cards
  are the stock.
* On the piles, cards build down in rank, alternating colour. All the face-up cards of
  a pile move together, placed by their bottom card; there are no partial moves. A
  face-down card left on top of a pile is turned up. Only a king (with everything on
  it) may fill an empty pile, from a pile or from the waste.
* Begin by turning one stock card onto the waste. Then, restarting at 1 after every move:

  1. a top card to its foundation: piles left to right first, then the waste;
  2. the waste's top card onto the leftmost pile that takes it;
  3. the leftmost pile whose face-up cards can move, onto the leftmost pile that
     takes them;
  4. otherwise turn the next stock card onto the waste and go back to 1.

  In 1 and 2, when the waste becomes empty, the next stock card is turned onto it.
* Guard: a run whose bottom card is a king lying at the bottom of its pile is never
  moved (the rule text alone would move it from one empty pile to another forever).
* The game is over when all 52 cards are on the foundations, or when the stock is
  exhausted and no move is possible. The player pays $52 and wins $5 a card played to
  the foundations: ``net = 5 * to_foundation - 52``.

Why every game ends: each step either turns a stock card (at most 24 times), or turns
up a face-down card (at most 21), or moves cards. A card reaches the foundations once
(at most 52 moves) and leaves the waste once (at most 24 moves). A rule-3 move places
a run by its bottom card ``b``: a card other than a king lands on a face-up card one
rank higher, which stays under it until ``b`` itself goes to a foundation, so ``b`` is
never again the bottom of a run; a king moves only off face-down cards onto an empty
pile, where the guard holds it for good. So no card is the bottom of two rule-3 moves
(at most 52 of them), and a game takes at most :data:`MAX_STEPS` steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from solitaire_ds.cards import Card, Deck, Rank, Suit, labels
from solitaire_ds.games.base import Event, Game, GameOptions
from solitaire_ds.stats import format_interval, format_rate, mean_interval
from solitaire_ds.structures import Deque, Queue, Stack, Toolkit

__all__ = ["MAX_STEPS", "PAYOUT", "STAKE", "Klondike", "KlondikeOptions", "dollars"]

Pile = Stack[Card]
Run = Deque[Card]  # a pile's face-up cards: the front is the bottom card, the rear the top
Stock = Queue[Card]

NUM_PILES = 7
DECK_SIZE = 52
TABLEAU_CARDS = 28  # 1 + 2 + ... + 7
#: Dollars the player pays the house for one game.
STAKE = 52
#: Dollars the player wins for each card played to the foundations.
PAYOUT = 5
#: The most steps (``advance`` calls) a game can take: 1 first turn + 23 more stock turns,
#: 52 foundation moves, 24 moves off the waste, 52 rule-3 moves, and the final step.
MAX_STEPS = 24 + 52 + 24 + 52 + 1

#: A move's source when the card comes off the waste, and its target for a foundation.
WASTE = -1
FOUNDATION = -1


class _Move(NamedTuple):
    """A move the rules chose: its rule number, source and target (pile index from 0)."""

    rule: int
    source: int  # a pile index, or WASTE
    target: int  # a pile index, or FOUNDATION


def _parents(card: Card) -> frozenset[Card]:
    """Return the cards ``card`` may be placed on: one rank higher, the other colour.

    A set, because the question asked of it is "is this top card one of them?".

    >>> sorted(c.code for c in _parents(Card.parse("6H"))), _parents(Card.parse("KS"))
    (['7C', '7S'], frozenset())
    """
    if card.rank is Rank.KING:
        return frozenset()  # a king goes only into an empty pile
    higher = Rank(card.rank + 1)
    return frozenset(Card(higher, suit) for suit in Suit if suit.color is not card.color)


#: For each card, the two cards it may be placed on (none for a king).
_PARENTS: dict[Card, frozenset[Card]] = {card: _parents(card) for card in Deck.standard()}


@dataclass(frozen=True)
class KlondikeOptions(GameOptions):
    """Klondike has no rule options: the rule text fixes every choice.

    >>> KlondikeOptions().to_json()
    {}
    """


def dollars(amount: float, places: int = 0) -> str:
    """Return an amount of dollars with its sign: ``'+$8'``, ``'-$17.50'``, ``'+$0'``.

    Every amount has a sign, as the report asks; one that rounds to zero (``-0.001``
    at two places) is ``+``, never ``-$0.00``.

    >>> dollars(8), dollars(-17.5, 2), dollars(0), dollars(0, 2), dollars(-0.001, 2)
    ('+$8', '-$17.50', '+$0', '+$0.00', '+$0.00')
    >>> dollars(-19285)
    '-$19,285'
    """
    sign = "-" if round(amount, places) < 0 else "+"
    return f"{sign}${abs(amount):,.{places}f}"


class Klondike(Game):
    """One deal of Klondike, played by the priority of moves to its end by :meth:`run`.

    Looking:
        :meth:`is_over`, :meth:`result`, :meth:`board`, :attr:`to_foundation`.
    Acting:
        :meth:`advance` (the first turn, then one move or one stock turn per call),
        :meth:`run`.

    >>> game = Klondike(Deck.shuffled(3))
    >>> result = game.run()
    >>> sorted(result)
    ['cards_left', 'net', 'to_foundation', 'won']
    >>> result["net"] == 5 * result["to_foundation"] - 52
    True
    """

    name: ClassVar[str] = "klondike"
    title: ClassVar[str] = "Klondike"
    options_type: ClassVar[type[GameOptions]] = KlondikeOptions

    def set_up(self, deck: Deck, toolkit: Toolkit) -> None:
        """Deal ``deck`` (all 52 cards; raise ValueError otherwise) and record the deal.

        >>> Klondike(Deck.shuffled(1)).board().splitlines()[3]
        'pile 1: J♠'
        """
        if len(deck) != DECK_SIZE:
            raise ValueError(f"Klondike needs all 52 cards, not a deck of {len(deck)}")
        self.face_down: list[Pile] = [toolkit.stack() for _ in range(NUM_PILES)]
        self.face_up: list[Run] = [toolkit.deque() for _ in range(NUM_PILES)]
        self.waste: Pile = toolkit.stack()
        self.foundations: dict[Suit, Pile] = {suit: toolkit.stack() for suit in Suit}
        self.stock: Stock = toolkit.queue(deck[TABLEAU_CARDS:])
        self.to_foundation = 0
        self._started = False
        self._over = False
        #: True right after a rule-4 turn: the piles and foundations are as they were when
        #: rules 1-3 last found no move, so only the new waste card can make one.
        self._settled = False
        #: Each pile's top card as :meth:`_tops` last read it; None once a move may change them.
        self._top_cards: tuple[Card | None, ...] | None = None
        self._deal()

    # -- looking ------------------------------------------------------------------------

    def is_over(self) -> bool:
        """Return True once the game has ended (its ``result`` event is recorded).

        Runtime complexity: O(1).

        >>> game = Klondike(Deck.standard())
        >>> game.is_over(), game.run()["won"], game.is_over()
        (False, False, True)
        """
        return self._over

    def result(self) -> dict[str, Any]:
        """Return ``won``, ``to_foundation``, ``cards_left`` and ``net`` (in dollars).

        >>> Klondike(Deck.shuffled(1)).result()
        {'won': False, 'to_foundation': 0, 'cards_left': 52, 'net': -52}
        """
        played = self.to_foundation
        return {
            "won": played == DECK_SIZE,
            "to_foundation": played,
            "cards_left": DECK_SIZE - played,
            "net": PAYOUT * played - STAKE,
        }

    def board(self) -> str:
        """Return the table as text: stock, waste, foundations, then each pile.

        Face-down cards show as ``##``; a pile and the waste are written bottom card first.

        Runtime complexity: O(n) for the n cards on the table.

        >>> print(Klondike(Deck.standard()).board())
        stock: 24 cards
        waste: ·
        foundations: ♣ ·  ♦ ·  ♥ ·  ♠ ·
        pile 1: A♣
        pile 2: ## 8♣
        pile 3: ## ## A♦
        pile 4: ## ## ## 6♦
        pile 5: ## ## ## ## 10♦
        pile 6: ## ## ## ## ## K♦
        pile 7: ## ## ## ## ## ## 2♥
        """
        waste = [card.label for card in self.waste]
        waste.reverse()
        foundations = "  ".join(
            f"{suit.symbol} {pile.peek().label if pile else '·'}"
            for suit, pile in self.foundations.items())
        lines = [f"stock: {len(self.stock)} cards",
                 f"waste: {' '.join(waste) if waste else '·'}",
                 f"foundations: {foundations}"]
        for number, (down, up) in enumerate(zip(self.face_down, self.face_up, strict=True),
                                            start=1):
            cards = ["##"] * len(down) + [card.label for card in up]  # a run: bottom card first
            lines.append(f"pile {number}: {' '.join(cards) if cards else '·'}")
        return "\n".join(lines)

    # -- acting -------------------------------------------------------------------------

    def advance(self) -> None:
        """Take the next step: the first stock turn, then one move (rules 1-3) or one turn.

        A move includes what follows from it at once: a face-down card turned up, a new
        waste card when the waste became empty, the end of a won game.

        Right after a rule-4 turn only the new waste card is looked at (rules 1 and 2):
        the piles and foundations have not changed since rules 1-3 last found no move on
        them, and in a typical game about half the steps are such turns.

        Runtime complexity: O(p^2) to choose a move among p = 7 piles (each candidate's
        target is found by looking at the top of every pile), O(p) right after a rule-4
        turn, plus O(k) to move a run of k cards.

        >>> game = Klondike(Deck.standard())
        >>> game.advance()
        >>> game.advance()
        >>> [game.describe(event) for event in game.events[1:]]
        ['turn 3♥ from the stock onto the waste to begin; 23 left in the stock', \
'rule 1: A♣ from pile 1 to the foundation']
        """
        if self._over:
            super().advance()
        if not self._started:
            self._started = True
            self._turn("start")
            return
        # Right after a rule-4 turn only the waste has changed since rules 1-3 found nothing.
        move = self._waste_move(self._tops()) if self._settled else self._choose_move()
        self._settled = False
        if move is not None:
            self._make(move)
            if self.to_foundation == DECK_SIZE:
                self._finish()
        elif self.stock:
            self._turn("rule 4")
            self._settled = True
        else:
            self._finish()

    def _choose_move(self) -> _Move | None:
        """Return the move rules 1-3 choose now, in priority order; None leaves rule 4.

        1. the leftmost pile whose top card its foundation takes, else the waste's top;
        2. the waste's top card onto the leftmost pile that takes it;
        3. the leftmost pile whose face-up run may move (not a king already at the
           bottom of its pile), onto the leftmost pile that takes its bottom card.

        What to look at: ``self.face_up[pile]``, each pile's face-up run (a Deque:
        ``peek_rear()`` is its top card, ``peek_front()`` its bottom card; empty when the
        pile is empty), ``self._tops()`` (every pile's top card, None for an empty pile:
        read them once per step, every rule looks at them), ``self._waste_move(tops)``
        (the waste card's move under rules 1 and 2, which you write below),
        ``self._foundation_takes(card)``, ``self._target(card, tops)`` (the leftmost pile
        that takes ``card``, or None) and ``self._guarded(pile)``. A source or target is a
        pile index from 0, :data:`WASTE` or :data:`FOUNDATION`.
        """
        # BEGIN SOLUTION: Return the _Move that rules 1, 2 and 3 choose, in that order, or None.
        tops = self._tops()
        for pile, top in enumerate(tops):
            if top is not None and self._foundation_takes(top):
                return _Move(1, pile, FOUNDATION)
        move = self._waste_move(tops)
        if move is not None:
            return move
        for pile, run in enumerate(self.face_up):
            if tops[pile] is not None:
                target = self._target(run.peek_front(), tops)
                if target is not None and not self._guarded(pile):
                    return _Move(3, pile, target)
        return None
        # END SOLUTION

    def _waste_move(self, tops: Sequence[Card | None]) -> _Move | None:
        """Return the waste card's move: onto its foundation (rule 1), else onto the
        leftmost pile that takes it (rule 2); None when the waste is empty or neither takes it.

        ``tops`` holds each pile's top card (:meth:`_tops`). A method of its own because
        right after a rule-4 turn it is the only question left: the turn changed nothing
        but the waste, and rules 1-3 had found no move on the piles before it.
        """
        # BEGIN SOLUTION: Return the _Move that rules 1 and 2 choose for the waste's top card, or None.
        if not self.waste:
            return None
        card = self.waste.peek()
        if self._foundation_takes(card):
            return _Move(1, WASTE, FOUNDATION)
        target = self._target(card, tops)
        if target is not None:
            return _Move(2, WASTE, target)
        return None
        # END SOLUTION

    def _tops(self) -> tuple[Card | None, ...]:
        """Return each pile's top card (its run's rear), None for an empty pile.

        Rules 1-3 all read the piles' top cards: looking at each once per step, not once
        per candidate, keeps a step at 7 ``peek_rear`` calls. ``len(run)`` asks whether a
        run is empty in one call, where ``bool(run)`` makes two (``__bool__``, then ``__len__``).

        The answer is kept until a move changes the piles (:meth:`_make` forgets it): a
        stock turn changes only the waste, and about half the steps are turns.

        >>> [top.code if top else None for top in Klondike(Deck.standard())._tops()][:3]
        ['AC', '8C', 'AD']
        """
        if self._top_cards is None:
            self._top_cards = tuple([run.peek_rear() if len(run) else None
                                     for run in self.face_up])
        return self._top_cards

    def _foundation_takes(self, card: Card) -> bool:
        """Return True when ``card``'s foundation takes it: an ace on an empty one, or
        the next rank of the suit.

        A foundation holds its suit from the ace up, so one of n cards has rank n on top
        and takes rank n + 1 (an ace when it is empty).
        """
        return card.rank == len(self.foundations[card.suit]) + 1

    def _target(self, card: Card, tops: Sequence[Card | None]) -> int | None:
        """Return the leftmost pile that takes ``card`` (a king: an empty pile), or None.

        ``tops`` holds each pile's top card, None for an empty pile (:meth:`_tops`).
        A pile never takes its own run: its top is no higher than the run's bottom card.
        An empty pile has no face-down cards either (a face-down card left on top is
        always turned up), so an empty run means an empty pile.
        """
        parents = _PARENTS[card]
        if not parents:  # a king: the leftmost empty pile
            return tops.index(None) if None in tops else None
        if parents.isdisjoint(tops):  # the usual answer, found for all seven tops at once
            return None
        return next(pile for pile, top in enumerate(tops) if top in parents)

    def _guarded(self, pile: int) -> bool:
        """Return True when ``pile``'s run is a king lying at the bottom of the pile: it stays."""
        return self.face_up[pile].peek_front().rank is Rank.KING and not self.face_down[pile]

    def _make(self, move: _Move) -> None:
        """Carry out ``move`` and what follows it at once (turn-ups, refilling the waste)."""
        self._top_cards = None  # the piles are about to change: read their tops afresh
        rule, source, target = move
        if source == WASTE:
            card = self.waste.pop()
            if target == FOUNDATION:
                self._to_foundation(card)
            else:
                self.face_up[target].add_rear(card)
            if self.recording:
                self._emit_move(rule, [card], source, target)
            if not self.waste and self.stock:
                self._turn("waste empty")
            return
        run = self.face_up[source]
        if target == FOUNDATION:
            card = run.remove_rear()
            self._to_foundation(card)
            moved = [card]
        else:
            moved = []
            while run:  # the whole run, bottom card first, keeps its order on the target
                card = run.remove_front()
                self.face_up[target].add_rear(card)
                moved.append(card)
        if self.recording:
            self._emit_move(rule, moved, source, target)
        self._uncover(source)

    def _to_foundation(self, card: Card) -> None:
        """Put ``card`` (which its foundation takes) on its foundation."""
        self.foundations[card.suit].push(card)
        self.to_foundation += 1

    def _uncover(self, pile: int) -> None:
        """Turn up the face-down card left on top of a pile whose run has just gone."""
        down = self.face_down[pile]
        if self.face_up[pile] or not down:
            return
        card = down.pop()
        self.face_up[pile].add_rear(card)
        if self.recording:
            self.emit({"type": "turn_up", "card": card.code, "pile": pile + 1})

    def _turn(self, reason: str) -> None:
        """Turn the next stock card onto the waste (the stock is not empty)."""
        card = self.stock.dequeue()
        self.waste.push(card)
        if self.recording:
            self.emit({"type": "turn", "card": card.code, "reason": reason,
                       "stock_left": len(self.stock)})

    def _deal(self) -> None:
        """Deal 28 cards: round r puts one card on each of piles r … 7, the first face up."""
        deck = self.deck
        position = 0
        for first in range(NUM_PILES):
            for pile in range(first, NUM_PILES):
                card = deck[position]
                position += 1
                if pile == first:
                    self.face_up[pile].add_rear(card)
                else:
                    self.face_down[pile].push(card)
        if self.recording:
            piles = []
            for down, up in zip(self.face_down, self.face_up, strict=True):
                codes = [card.code for card in down]  # a Stack iterates from the top
                codes.reverse()
                piles.append(codes + [card.code for card in up])
            self.emit({"type": "deal", "piles": piles, "stock": len(self.stock)})

    def _finish(self) -> None:
        self._over = True
        self.emit({"type": "result", **self.result()})

    def _emit_move(self, rule: int, cards: list[Card], source: int, target: int) -> None:
        self.emit({"type": "move", "rule": rule, "cards": [card.code for card in cards],
                   "from": "waste" if source == WASTE else f"pile {source + 1}",
                   "to": "foundation" if target == FOUNDATION else f"pile {target + 1}"})

    # -- describing ---------------------------------------------------------------------

    def describe(self, event: Event) -> str:
        """Return one line for ``event``: the deal, a turn, a move with its rule, a result.

        >>> Klondike(Deck.standard()).describe(
        ...     {"type": "move", "rule": 3, "cards": ["7C", "6H"], "from": "pile 2", "to": "pile 5"})
        'rule 3: 7♣ 6♥ from pile 2 onto pile 5'
        """
        kind = event["type"]
        if kind == "deal":
            return (f"deal 28 cards into 7 piles, the top card of each face up; "
                    f"{event['stock']} cards in the stock")
        if kind == "turn":
            why = {"start": "to begin", "rule 4": "(rule 4: no move)",
                   "waste empty": "(the waste is empty)"}.get(event["reason"], event["reason"])
            return (f"turn {labels([event['card']])} from the stock onto the waste {why}; "
                    f"{event['stock_left']} left in the stock")
        if kind == "turn_up":
            return f"turn up {labels([event['card']])} on pile {event['pile']}"
        if kind == "move":
            where = "from the waste" if event["from"] == "waste" else f"from {event['from']}"
            to = event["to"]
            if to == "foundation":
                onto = "to the foundation"
            elif Card.parse(event["cards"][0]).rank is Rank.KING:  # kings go to empty piles only
                onto = f"into the empty {to}"
            else:
                onto = f"onto {to}"
            return f"rule {event['rule']}: {labels(event['cards'])} {where} {onto}"
        if kind == "result":
            money = (f"paid ${STAKE}, won ${PAYOUT * event['to_foundation']} for "
                     f"{event['to_foundation']} cards: net {dollars(event['net'])}")
            if event["won"]:
                return f"won: all 52 cards are on the foundations; {money}"
            return (f"over: the stock is exhausted and no move is possible; "
                    f"{event['cards_left']} cards left; {money}")
        return super().describe(event)

    def show_board_after(self, events: Sequence[Event]) -> bool:
        """Draw the board after the deal and after every stock card turned.

        >>> Klondike(Deck.standard()).show_board_after([{"type": "turn_up", "card": "9C"}])
        False
        """
        return any(event["type"] in ("deal", "turn") for event in events)

    @classmethod
    def summarize(cls, results: Sequence[dict[str, Any]]) -> list[str]:
        """The money report: games, wins, cards to the foundations, net winnings.

        >>> for line in Klondike.summarize([
        ...         {"won": False, "to_foundation": 8, "cards_left": 44, "net": -12},
        ...         {"won": True, "to_foundation": 52, "cards_left": 0, "net": 208}]):
        ...     print(line)
        games played: 2
        won: 50.00% (95% CI 9.45%-90.55%, 1 of 2)
        cards played to the foundations: 60 in all, 30.00 a game (95% CI 0.00 to 52.00)
        net winnings: +$196 in all ($104 paid, $300 won); +$98.00 a game (95% CI -$52.00 to +$208.00)
        >>> Klondike.summarize([{"won": False, "to_foundation": 10, "cards_left": 42, "net": -2}])[-1]
        'net winnings: -$2 in all ($52 paid, $50 won); -$2.00 a game (95% CI n/a)'
        """
        n = len(results)
        cards = [r["to_foundation"] for r in results]
        nets = [r["net"] for r in results]
        wins = sum(1 for r in results if r["won"])
        lines = [f"games played: {n}", f"won: {format_rate(wins, n)}"]
        if n:
            mean, lo, hi = mean_interval(cards, within=(0, DECK_SIZE))
            lines.append(f"cards played to the foundations: {sum(cards)} in all, "
                         f"{mean:.2f} a game ({format_interval(lo, hi, sep=' to ')})")
            mean, lo, hi = mean_interval(nets, within=(-STAKE, PAYOUT * DECK_SIZE - STAKE))
            lines.append(f"net winnings: {dollars(sum(nets))} in all (${STAKE * n:,} paid, "
                         f"${PAYOUT * sum(cards):,} won); {dollars(mean, 2)} a game "
                         f"({format_interval(lo, hi, lambda x: dollars(x, 2), ' to ')})")
        return lines


