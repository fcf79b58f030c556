"""What every game offers: state built from the ADTs, events, moves and a result.

Vocabulary:

* an :data:`Event` is one thing that happened, as a JSON-ready dict with a ``"type"``
  (``deal``, ``move``, ``discard``, ``gather``, ``round_end``, ``result``, ...);
* a :class:`Move` is a player's decision in the games that leave one (``pair 1 3``);
* a :class:`Game` holds one deal's state. It either waits for a decision
  (:meth:`Game.needs_decision`, :meth:`Game.legal_moves`, :meth:`Game.play`) or
  takes its next forced step by itself (:meth:`Game.advance`), appending events as it
  goes, until :meth:`Game.is_over`; then :meth:`Game.result` holds the outcome.

A game is a pure function of its deck, its options and the decisions made: that is
what lets a record be replayed and checked event by event.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from solitaire_ds.cards import Card, Deck
from solitaire_ds.stats import format_rate
from solitaire_ds.structures import DEFAULT_TOOLKIT, Queue, Stack, Toolkit

__all__ = [
    "Event",
    "FourPileGame",
    "Game",
    "GameOptions",
    "IllegalMove",
    "Move",
    "OptionError",
    "pile_line",
]

Event = dict[str, Any]


class IllegalMove(ValueError):
    """A move the rules do not allow now; the message says why. The game is unchanged."""


class OptionError(ValueError):
    """A rule option that does not exist or has a value it cannot take."""


@dataclass(frozen=True)
class GameOptions:
    """Base class of each game's rule options (a frozen dataclass of plain values)."""

    def to_json(self) -> dict[str, Any]:
        """Return the options as a JSON-ready dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: object) -> GameOptions:
        """Build options from a dict, raising :class:`OptionError` on unknown keys or values."""
        if not isinstance(data, dict):
            raise OptionError("the options must be a JSON object")
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise OptionError(f"unknown option {unknown[0]!r} (known: {', '.join(known) or 'none'})")
        for key, value in data.items():
            default = known[key].default
            if type(value) is not type(default):
                raise OptionError(f"option {key!r} must be like {default!r}, not {value!r}")
        options = cls(**data)
        options.validate()
        return options

    def validate(self) -> None:
        """Raise :class:`OptionError` when a value is outside what the rules allow."""


@dataclass(frozen=True, order=True)
class Move:
    """A decision: its kind and the piles it names (numbered from 1, left to right).

    >>> move = Move("pair", (1, 3))
    >>> str(move), Move.from_json(move.to_json()) == move
    ('pair 1 3', True)
    """

    kind: str
    piles: tuple[int, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.kind, *map(str, self.piles)])

    def to_json(self) -> dict[str, Any]:
        """Return the move as a JSON-ready dict."""
        return {"kind": self.kind, "piles": list(self.piles)}

    @classmethod
    def from_json(cls, data: object) -> Move:
        """Read a move written by :meth:`to_json`; raise ValueError when it is malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise ValueError(f"a move must be an object with a 'kind', not {data!r}")
        piles = data.get("piles", [])
        if not isinstance(piles, list) or not all(type(p) is int for p in piles):
            raise ValueError(f"a move's 'piles' must be a list of pile numbers, not {piles!r}")
        return cls(data["kind"], tuple(piles))


class Game(ABC):
    """One deal of a game. Subclasses set the class variables and the rules.

    Looking:
        :meth:`is_over`, :meth:`needs_decision`, :meth:`legal_moves`, :meth:`result`,
        :meth:`board`, :attr:`events`.
    Acting:
        :meth:`play` (a decision), :meth:`advance` (the next forced step), and
        :meth:`steps` / :meth:`run`, the one loop that plays a game to its end.
    Setting up:
        a game builds its state in :meth:`set_up`, from the structures of its toolkit;
        ``__init__`` (here, once for every game) checks the options first.
    Describing:
        :meth:`describe` (one event as a line of text), :meth:`decision` (the move an
        event records, for replay).
    """

    #: The command-line name, such as ``"perpetual-motion"``.
    name: ClassVar[str]
    #: The title people read.
    title: ClassVar[str]
    #: The rule options' class.
    options_type: ClassVar[type[GameOptions]]
    #: Whether a player makes decisions (False: the game plays itself).
    has_decisions: ClassVar[bool] = False
    #: The rules in one paragraph, for a person playing at the terminal.
    summary: ClassVar[str] = ""
    #: A move typed as text, for the terminal's help line (``"pair 1 3"``).
    example_move: ClassVar[str] = ""

    def __init__(
        self,
        deck: Deck,
        options: GameOptions | None = None,
        *,
        toolkit: Toolkit = DEFAULT_TOOLKIT,
        record: bool = True,
    ) -> None:
        self.deck = deck
        self.options = options if options is not None else self.options_type()
        if not isinstance(self.options, self.options_type):
            raise OptionError(f"{self.name} takes {self.options_type.__name__}")
        self.options.validate()
        self.toolkit = toolkit
        self.recording = record
        self.events: list[Event] = []
        self.set_up(deck, toolkit)

    @abstractmethod
    def set_up(self, deck: Deck, toolkit: Toolkit) -> None:
        """Build the game's piles and stock from ``toolkit``'s structures and deal ``deck``."""

    # -- looking ----------------------------------------------------------------------

    @abstractmethod
    def is_over(self) -> bool:
        """Return True when the game has ended (its ``result`` event is recorded)."""

    def needs_decision(self) -> bool:
        """Return True when the game waits for a player's :class:`Move`."""
        return False

    def legal_moves(self) -> list[Move]:
        """Return the moves allowed now, in a fixed order (empty when none is needed)."""
        return []

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """Return the outcome so far, with the game's result keys."""

    @abstractmethod
    def board(self) -> str:
        """Return the table as text, drawn with card symbols."""

    # -- acting -------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Make a decision; raise :class:`IllegalMove` (and change nothing) when not allowed."""
        raise IllegalMove(f"{self.title} has no decisions to make")

    def advance(self) -> None:
        """Take the next forced step (a deal and what follows it, a gather, ...)."""
        raise IllegalMove("the game is waiting for a decision" if not self.is_over()
                          else "the game is over")

    def steps(self, choose: Callable[[Game], Move | None] | None = None) -> Iterator[list[Event]]:
        """Play to the end, one step at a time; yield the events of each step.

        A step is one decision, which ``choose(game)`` makes, or one forced step
        (:meth:`advance`). The game stops early when ``choose`` returns None; a game that
        needs a decision when there is no ``choose`` raises ValueError.

        Runtime complexity: O(number of steps) calls of the game's own methods.

        >>> from solitaire_ds.games.perpetual_motion import PerpetualMotion
        >>> steps = list(PerpetualMotion(Deck.shuffled(3)).steps())
        >>> steps[0][0]["type"], steps[-1][-1]["type"]
        ('deal', 'result')
        """
        while not self.is_over():
            start = len(self.events)
            if not self._step(choose):
                return
            yield self.events[start:]

    def run(self, choose: Callable[[Game], Move] | None = None) -> dict[str, Any]:
        """Play to the end (asking ``choose`` for each decision) and return the result.

        The same steps as :meth:`steps`, without collecting each step's events (``simulate``
        plays this way, with no record to collect from).

        Runtime complexity: that of :meth:`steps`.
        """
        while not self.is_over() and self._step(choose):
            pass
        return self.result()

    def _step(self, choose: Callable[[Game], Move | None] | None) -> bool:
        """Take one step (see :meth:`steps`); return False when ``choose`` stops the game."""
        if not self.needs_decision():
            self.advance()
            return True
        if choose is None:
            raise ValueError(f"{self.title} needs a player to make decisions")
        move = choose(self)
        if move is None:
            return False
        self.play(move)
        return True

    # -- describing ---------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        """Record ``event`` (when recording)."""
        if self.recording:
            self.events.append(event)

    def decision(self, event: Event) -> Move | None:
        """Return the move a decision event records, or None for other events."""
        return None

    def describe(self, event: Event) -> str:
        """Return one line of text for ``event``."""
        fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
        return f"{event['type']}: {fields}"

    def say(self, move: Move) -> str:
        """Return ``move`` in words a newcomer reads (a game with decisions says more)."""
        return str(move)

    def canonical(self, move: Move) -> Move:
        """Return ``move`` written the one way :meth:`legal_moves` writes it."""
        return move

    def greedy(self) -> Move:
        """Return the move a greedy player makes now: the first legal one, unless a game says better.

        Raise ValueError when the game does not wait for a decision.
        """
        moves = self.legal_moves()
        if not moves:
            raise ValueError(f"{self.title} does not wait for a decision now")
        return moves[0]

    def show_board_after(self, events: Sequence[Event]) -> bool:
        """Say whether a readable record draws the board after this step's events."""
        return True

    # -- many deals ---------------------------------------------------------------------

    @classmethod
    def summarize(cls, results: Sequence[dict[str, Any]]) -> list[str]:
        """Return the lines of a summary of many deals' results."""
        wins = sum(1 for r in results if r["won"])
        return [f"won: {format_rate(wins, len(results))}"]


class FourPileGame(Game):
    """The table Perpetual Motion, Idiot's Delight and Aces Up share: four piles and a stock.

    Each pile is a Stack whose top card alone is in play; the stock is a Queue whose front
    card is dealt first, one card onto each pile, left to right. The game counts its deals
    and its discarded cards, and is over once :meth:`end` has recorded the result.
    """

    def set_up(self, deck: Deck, toolkit: Toolkit) -> None:
        """Build the four piles and the stock from ``toolkit``'s structures."""
        self.piles: list[Stack[Card]] = [toolkit.stack() for _ in range(4)]
        self.stock: Queue[Card] = toolkit.queue(deck)
        self.deals = 0
        self.discarded = 0
        self.over = False

    def is_over(self) -> bool:
        return self.over

    def cards_left(self) -> int:
        """Return how many cards are not discarded (on the piles or in the stock).

        Runtime complexity: O(1).
        """
        return len(self.deck) - self.discarded

    def deal_four(self, *, chosen: bool = False) -> list[Card]:
        """Deal one card from the stock onto each pile, left to right; record it and return them.

        ``chosen``: a player asked for this deal (the event says ``"by": "player"``).

        Runtime complexity: O(1) amortized.
        """
        dealt = [self.stock.dequeue() for _ in self.piles]
        for pile, card in zip(self.piles, dealt, strict=True):
            pile.push(card)
        self.deals += 1
        if self.recording:
            event: Event = {"type": "deal", "deal": self.deals, "cards": [c.code for c in dealt]}
            if chosen:
                event["by"] = "player"
            self.emit(event)
        return dealt

    def end(self) -> None:
        """End the game and record its result."""
        self.over = True
        self.emit({"type": "result", **self.result()})


def pile_line(label: str, pile: Stack[Card], *, empty: str = "·") -> str:
    """Return a pile as one line, bottom card first: ``'pile 1: 3♣ 7♦ K♠'``.

    >>> from solitaire_ds.structures import ArrayStack
    >>> pile_line("pile 1", ArrayStack([Card.parse("3C"), Card.parse("KS")]))
    'pile 1: 3♣ K♠'
    """
    cards = [card.label for card in pile]
    cards.reverse()
    return f"{label}: {' '.join(cards) if cards else empty}"
