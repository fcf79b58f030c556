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
from solitaire_ds.structures import DEFAULT_TOOLKIT, Stack, Toolkit

__all__ = [
    "Event",
    "Game",
    "GameOptions",
    "IllegalMove",
    "Move",
    "OptionError",
    "drive",
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
        :meth:`play` (a decision), :meth:`advance` (the next forced step).
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
        self.toolkit = toolkit
        self.recording = record
        self.events: list[Event] = []

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

    def run(self) -> dict[str, Any]:
        """Play a game without decisions to the end and return its result."""
        while not self.is_over():
            self.advance()
        return self.result()

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

    def show_board_after(self, events: Sequence[Event]) -> bool:
        """Say whether a readable record draws the board after this step's events."""
        return True

    # -- many deals ---------------------------------------------------------------------

    @classmethod
    def summarize(cls, results: Sequence[dict[str, Any]]) -> list[str]:
        """Return the lines of a summary of many deals' results."""
        wins = sum(1 for r in results if r["won"])
        return [f"won: {format_rate(wins, len(results))}"]


def drive(game: Game, choose: Callable[[Game], Move]) -> Iterator[list[Event]]:
    """Run ``game`` to its end, asking ``choose`` for each decision; yield each step's events."""
    while not game.is_over():
        start = len(game.events)
        if game.needs_decision():
            game.play(choose(game))
        else:
            game.advance()
        yield game.events[start:]


def pile_line(label: str, pile: Stack[Card], *, empty: str = "·") -> str:
    """Return a pile as one line, bottom card first: ``'pile 1: 3♣ 7♦ K♠'``.

    >>> from solitaire_ds.structures import ArrayStack
    >>> pile_line("pile 1", ArrayStack([Card.parse("3C"), Card.parse("KS")]))
    'pile 1: 3♣ K♠'
    """
    cards = [card.label for card in pile]
    cards.reverse()
    return f"{label}: {' '.join(cards) if cards else empty}"
