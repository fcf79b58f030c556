"""Game records: what happened in one game, as text people read and JSON a program checks.

A :class:`Record` holds the game's name, the deck (first card dealt first), the rule
options, the player (for games with decisions), every event in order and the result.

* :func:`play_record` plays a game to its end and returns its record;
* :meth:`Record.to_json` / :meth:`Record.from_json` write and read the JSON form;
* :func:`replay` plays the record's deck again with the record's decisions and checks
  every event: a tampered or corrupt record raises :class:`RecordError` naming the event
  number (counted from 1) and the reason;
* :func:`render_text` draws the record: the piles with card symbols, one line per event,
  and a summary.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from solitaire_ds.cards import Deck, DeckError
from solitaire_ds.games import GAMES, UnknownGame, game_class
from solitaire_ds.games.base import Event, Game, IllegalMove, Move, OptionError
from solitaire_ds.structures import DEFAULT_TOOLKIT, Toolkit

__all__ = ["FORMAT", "Record", "RecordError", "play_record", "render_text", "replay"]

#: The version of the JSON layout, written as ``"format"``.
FORMAT = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says where and why."""


@dataclass
class Record:
    """One game: its deck, options, player, events and result."""

    game: str
    deck: Deck
    options: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the record as a JSON-ready dict."""
        return {
            "format": FORMAT,
            "game": self.game,
            "player": self.player,
            "options": self.options,
            "deck": str(self.deck),
            "result": self.result,
            "events": self.events,
        }

    def dumps(self) -> str:
        """Return the JSON text of the record (one event per line, for easy diffs)."""
        head = {k: v for k, v in self.to_json().items() if k != "events"}
        lines = [json.dumps(event, ensure_ascii=False) for event in self.events]
        text = json.dumps(head, ensure_ascii=False)[:-1]
        return text + ', "events": [\n' + ",\n".join(lines) + "\n]}\n"

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read the dict :meth:`to_json` wrote; raise :class:`RecordError` when malformed."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        missing = [key for key in ("game", "options", "deck", "events") if key not in data]
        if missing:
            raise RecordError(f"the record has no {missing[0]!r}")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"unknown record format {data['format']!r} (this version reads {FORMAT})")
        if data["game"] not in GAMES:
            raise RecordError(f"unknown game {data['game']!r}")
        if not isinstance(data["deck"], str):
            raise RecordError("the record's 'deck' must be a string of card codes")
        try:
            deck = Deck.parse(data["deck"])
        except DeckError as exc:
            raise RecordError(f"the record's deck: {exc}") from None
        events = data["events"]
        if not isinstance(events, list):
            raise RecordError("the record's 'events' must be a list")
        for number, event in enumerate(events, start=1):
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise RecordError(f"event {number}: an event must be an object with a 'type'")
        result = data.get("result", {})
        if not isinstance(result, dict):
            raise RecordError("the record's 'result' must be an object")
        player = data.get("player")
        if player is not None and not isinstance(player, str):
            raise RecordError("the record's 'player' must be a string")
        if not isinstance(data["options"], dict):
            raise RecordError("the record's 'options' must be an object")
        return cls(data["game"], deck, data["options"], events, result, player)

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from JSON text; raise :class:`RecordError` when it is not valid JSON."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
                              ) from None
        return cls.from_json(data)


def play_record(
    game: Game,
    choose: Callable[[Game], Move] | None = None,
    player: str | None = None,
) -> Record:
    """Play ``game`` to its end (asking ``choose`` for decisions) and return its record.

    >>> from solitaire_ds.games.perpetual_motion import PerpetualMotion
    >>> record = play_record(PerpetualMotion(Deck.shuffled(3)))
    >>> replay(record.to_json()).result == record.result
    True
    """
    while not game.is_over():
        if game.needs_decision():
            if choose is None:
                raise ValueError(f"{game.title} needs a player to make decisions")
            game.play(choose(game))
        else:
            game.advance()
    return Record(game.name, game.deck, game.options.to_json(), list(game.events),
                  game.result(), player)


def _new_game(record: Record, toolkit: Toolkit) -> Game:
    try:
        cls = game_class(record.game)
        options = cls.options_type.from_json(record.options)
    except (UnknownGame, OptionError) as exc:
        raise RecordError(f"the record's options: {exc}") from None
    return cls(record.deck, options, toolkit=toolkit)


def _steps(record: Record, toolkit: Toolkit = DEFAULT_TOOLKIT) -> Iterator[tuple[Game, list[Event]]]:
    """Re-play ``record`` step by step, checking each event; yield the game and new events.

    The first item holds the events the game makes as it is set up (often none).
    """
    game = _new_game(record, toolkit)
    events = record.events
    yield game, _verified(game, events, 0)
    while not game.is_over():
        start = len(game.events)
        if game.needs_decision():
            game.play(_recorded_move(game, events, start))
        else:
            game.advance()
        yield game, _verified(game, events, start)
    if len(events) > len(game.events):
        raise RecordError(f"event {len(game.events) + 1}: the game is over, "
                          f"but the record goes on")
    if record.result and record.result != game.result():
        raise RecordError(f"result: the record says {record.result}, the game gives {game.result()}")


def _recorded_move(game: Game, events: list[Event], start: int) -> Move:
    """Return the recorded decision at event ``start + 1``, checked against the rules."""
    number = start + 1
    if start >= len(events):
        raise RecordError(f"event {number}: the record ends while the game waits for a move")
    try:
        move = game.decision(events[start])
    except (ValueError, KeyError, TypeError) as exc:
        raise RecordError(f"event {number}: not a move: {exc}") from None
    if move is None:
        raise RecordError(f"event {number}: expected the player's move, "
                          f"found a {events[start]['type']!r} event")
    if move not in game.legal_moves():
        try:
            game.play(move)  # raises IllegalMove with the reason
        except IllegalMove as exc:
            raise RecordError(f"event {number}: illegal move {move}: {exc}") from None
        raise RecordError(f"event {number}: illegal move {move}")
    return move


def _verified(game: Game, events: list[Event], start: int) -> list[Event]:
    """Check the game's events from ``start`` on against the record's; return them."""
    new = game.events[start:]
    for number, event in enumerate(new, start=start + 1):
        if number > len(events):
            raise RecordError(f"event {number}: the record ends early; the game goes on with "
                              f"{game.describe(event)!r}")
        if events[number - 1] != event:
            raise RecordError(f"event {number}: the record says {events[number - 1]}, "
                              f"but the rules give {event}")
    return new


def replay(data: object, toolkit: Toolkit = DEFAULT_TOOLKIT) -> Record:
    """Re-play a record (a :class:`Record` or its JSON dict) and verify every event.

    Return the verified record; raise :class:`RecordError` naming the first event that
    does not follow from the deck, the options and the recorded decisions.
    """
    record = data if isinstance(data, Record) else Record.from_json(data)
    for _ in _steps(record, toolkit):
        pass
    return record


def render_text(record: Record) -> str:
    """Return the record as text: options, deck, every event, the boards, a summary."""
    lines: list[str] = []
    for game, new in _steps(record):
        if not lines:
            lines += _header(game, record)
        lines += [f"  {game.describe(event)}" for event in new]
        if new and game.show_board_after(new) and not game.is_over():
            lines += ["    " + row for row in game.board().splitlines()]
    lines += ["", "Final board:"] + ["    " + row for row in game.board().splitlines()]
    lines += ["", "Result: " + ", ".join(f"{k} = {_plain(v)}" for k, v in game.result().items())]
    return "\n".join(lines) + "\n"


def _header(game: Game, record: Record) -> list[str]:
    options = ", ".join(f"{k} = {_plain(v)}" for k, v in record.options.items()) or "none"
    lines = [f"{game.title}", f"Options: {options}"]
    if record.player:
        lines.append(f"Player: {record.player}")
    lines += [f"Deck (first card dealt first): {' '.join(c.label for c in record.deck)}", ""]
    return lines


def _plain(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
