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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from solitaire_ds.cards import Deck, DeckError
from solitaire_ds.games import GAMES, UnknownGame, game_class
from solitaire_ds.games.base import Event, Game, IllegalMove, Move, OptionError
from solitaire_ds.structures import DEFAULT_TOOLKIT, Toolkit
from solitaire_ds.text import shown

__all__ = ["FORMAT", "Record", "RecordError", "plain_pairs", "plain_value", "play_record", "render_text", "replay"]

#: The version of the JSON layout, written as ``"format"``.
FORMAT = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says where and why.

    For an event that differs from what the rules give, ``recorded`` and ``expected`` hold
    the two events (else None).
    """

    def __init__(self, message: str, recorded: dict[str, Any] | None = None,
                 expected: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.recorded = recorded
        self.expected = expected


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
        """Read the dict :meth:`to_json` wrote; raise :class:`RecordError` when malformed.

        Every key :meth:`to_json` writes must be there, with exactly its JSON type: a
        ``1.0`` or a ``true`` where the record holds ``1`` is corrupt, and so is a player
        named on a game that has no decisions.

        >>> Record.from_json({"format": 1, "game": ["perpetual-motion"]})
        Traceback (most recent call last):
        ...
        solitaire_ds.records.RecordError: the record has no 'player'
        >>> from solitaire_ds.games.perpetual_motion import PerpetualMotion
        >>> good = play_record(PerpetualMotion(Deck.shuffled(3))).to_json()
        >>> Record.from_json({**good, "game": ["perpetual-motion"]})
        Traceback (most recent call last):
        ...
        solitaire_ds.records.RecordError: the record's 'game' must be a string, not ['perpetual-motion']
        """
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        missing = [key for key in _KEYS if key not in data]
        if missing:
            raise RecordError(f"the record has no {missing[0]!r}")
        unknown = [key for key in data if key not in _KEYS]
        if unknown:
            raise RecordError(f"the record has an unknown key {unknown[0]!r} "
                              f"(a record has {', '.join(_KEYS)})")
        _check_depth(data)
        if type(data["format"]) is not int or data["format"] != FORMAT:
            raise RecordError(f"unknown record format {data['format']!r} (this version reads {FORMAT})")
        game = data["game"]
        if type(game) is not str:
            raise RecordError(f"the record's 'game' must be a string, not {game!r}")
        if game not in GAMES:
            raise RecordError(f"unknown game {game!r}")
        if type(data["deck"]) is not str:
            raise RecordError("the record's 'deck' must be a string of card codes")
        try:
            deck = Deck.parse(data["deck"])
        except DeckError as exc:
            raise RecordError(f"the record's deck: {exc}") from None
        if type(data["options"]) is not dict:
            raise RecordError("the record's 'options' must be an object")
        player = data["player"]
        _check_player(game, player)
        result = data["result"]
        if type(result) is not dict:
            raise RecordError("the record's 'result' must be an object")
        events = data["events"]
        if type(events) is not list:
            raise RecordError("the record's 'events' must be a list")
        for number, event in enumerate(events, start=1):
            if type(event) is not dict or type(event.get("type")) is not str:
                raise RecordError(f"event {number}: an event must be an object with a 'type' string")
        return cls(game, deck, data["options"], events, result, player)

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from JSON text; raise :class:`RecordError` when it is not valid JSON.

        >>> Record.loads('{"format": 1')
        Traceback (most recent call last):
        ...
        solitaire_ds.records.RecordError: not valid JSON: Expecting ',' delimiter at line 1, column 13
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
                              ) from None
        except RecursionError:
            raise RecordError(f"not a record: nested more than {_MAX_DEPTH} levels deep") from None
        except ValueError:  # an integer longer than sys.get_int_max_str_digits() allows
            raise RecordError("not valid JSON: a number with too many digits") from None
        return cls.from_json(data)


#: The keys of a record's JSON object, in the order :meth:`Record.to_json` writes them.
_KEYS = ("format", "game", "player", "options", "deck", "result", "events")

#: How deeply a record's JSON may nest: record, events, event, piles, pile (Klondike's
#: deal) is five; the slack leaves room for new games, and the bound keeps comparing
#: and printing a tampered event safe from Python's recursion limit.
_MAX_DEPTH = 8


def _check_depth(data: dict[str, Any]) -> None:
    """Raise :class:`RecordError` when ``data`` nests deeper than :data:`_MAX_DEPTH`.

    A loop with its own list, not recursion: the point is to be safe from any depth.
    """
    todo: list[tuple[object, int, str]] = []
    for key, value in data.items():
        if key == "events" and isinstance(value, list):
            todo += [(event, 3, f"event {n}") for n, event in enumerate(value, start=1)]
        else:
            todo.append((value, 2, f"the record's {key!r}"))
    while todo:
        value, depth, where = todo.pop()
        if isinstance(value, dict | list):
            if depth > _MAX_DEPTH:
                raise RecordError(f"{where}: nested more than {_MAX_DEPTH} levels deep")
            items = value.values() if isinstance(value, dict) else value
            todo += [(item, depth + 1, where) for item in items]


def _check_player(game: str, player: object) -> None:
    """Raise :class:`RecordError` unless ``player`` fits ``game``: none, or a known player."""
    if player is None:
        return
    if type(player) is not str:
        raise RecordError(f"the record's 'player' must be a string or null, not {player!r}")
    if not game_class(game).has_decisions:
        raise RecordError(f"the record's 'player': {game} has no decisions, so no player "
                          f"plays it (found {player!r})")
    from solitaire_ds.players import PLAYERS  # late: the players import the games

    if player not in PLAYERS:
        raise RecordError(f"the record's 'player': unknown player {player!r} "
                          f"(the players are {', '.join(sorted(PLAYERS))})")


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
    game.run(choose)
    return Record(game.name, game.deck, game.options.to_json(), list(game.events),
                  game.result(), player)


def _new_game(record: Record, toolkit: Toolkit) -> Game:
    try:
        cls = game_class(record.game)
        options = cls.options_type.from_json(record.options)
    except (UnknownGame, OptionError) as exc:
        raise RecordError(f"the record's options: {exc}") from None
    return cls(record.deck, options, toolkit=toolkit)


def steps_of(record: Record, toolkit: Toolkit = DEFAULT_TOOLKIT) -> Iterator[tuple[Game, list[Event]]]:
    """Re-play ``record`` step by step, each event checked; yield the game and its new events."""
    return _steps(record, toolkit)


def _steps(record: Record, toolkit: Toolkit = DEFAULT_TOOLKIT) -> Iterator[tuple[Game, list[Event]]]:
    """Re-play ``record`` step by step, checking each event; yield the game and new events.

    The first item holds the events the game makes as it is set up (often none).
    """
    game = _new_game(record, toolkit)
    events = record.events
    yield game, _verified(game, events, 0)
    for step in game.steps(lambda g: _recorded_move(g, events, len(g.events))):
        yield game, _verified(game, events, len(game.events) - len(step))
    if len(events) > len(game.events):
        raise RecordError(f"event {len(game.events) + 1}: the game is over, "
                          f"but the record goes on")
    if not _same(record.result, game.result()):
        raise RecordError(f"result: {_difference(record.result, game.result(), 'the game gives')}")


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
        if not _same(events[number - 1], event):
            recorded = events[number - 1]
            raise RecordError(f"event {number}: {_difference(recorded, event)} "
                              f"(the rules' event: {game.describe(event)})",
                              recorded if isinstance(recorded, dict) else None, event)
    return new


def _same(recorded: object, given: object) -> bool:
    """Say whether two JSON values are equal in value and in type, all the way down.

    Python's ``==`` lets ``1.0 == 1`` and ``True == 1``; a record that says either where
    the rules give ``1`` has been changed, so the types must be the same too (a tuple the
    game holds counts as the list JSON writes).

    >>> _same({"to": 1}, {"to": 1}), _same({"to": 1.0}, {"to": 1}), _same([True], [1])
    (True, False, False)
    """
    if isinstance(given, tuple):
        given = list(given)
    if type(recorded) is not type(given):
        return False
    if isinstance(recorded, dict):
        assert isinstance(given, dict)
        return recorded.keys() == given.keys() and all(
            _same(value, given[key]) for key, value in recorded.items())
    if isinstance(recorded, list):
        assert isinstance(given, list)
        return len(recorded) == len(given) and all(
            _same(a, b) for a, b in zip(recorded, given, strict=True))
    return recorded == given


def _difference(recorded: object, given: object, giver: str = "the rules give") -> str:
    """Say the first key where two objects differ, and both values there, in a sentence.

    >>> _difference({"won": 0, "rounds": 3}, {"won": False, "rounds": 3}, "the game gives")
    "the record says 'won': 0, but the game gives 'won': False"
    >>> _difference({"type": "deal"}, {"type": "deal", "deal": 1})
    "the record has no 'deal', where the rules give 'deal': 1"
    """
    if not isinstance(recorded, dict) or not isinstance(given, dict):
        return f"the record says {_short(recorded)}, but {giver} {_short(given)}"
    for key in [*given, *(k for k in recorded if k not in given)]:
        if key not in recorded:
            return f"the record has no {_short(key)}, where {giver} {_short(key)}: {_short(given[key])}"
        if key not in given:
            return f"the record has an extra {_short(key)}: {_short(recorded[key])}, where {giver} none"
        if not _same(recorded[key], given[key]):
            return (f"the record says {_short(key)}: {_short(recorded[key])}, "
                    f"but {giver} {_short(key)}: {_short(given[key])}")
    return f"the record says {_short(recorded)}, but {giver} {_short(given)}"  # pragma: no cover - they differ


def _short(value: object) -> str:
    """A value in a one-sentence message: its ``repr`` cut to 60 characters."""
    return shown(value, limit=60)


def replay(data: object, toolkit: Toolkit = DEFAULT_TOOLKIT) -> Record:
    """Re-play a record (a :class:`Record` or its JSON dict) and verify every event.

    Return the verified record; raise :class:`RecordError` naming the first event that
    does not follow from the deck, the options and the recorded decisions.
    """
    record = Record.from_json(data.to_json() if isinstance(data, Record) else data)
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
    lines += ["", "Result: " + plain_pairs(game.result())]
    return "\n".join(lines) + "\n"


def _header(game: Game, record: Record) -> list[str]:
    options = plain_pairs(record.options) or "none"
    lines = [f"{game.title}", f"Options: {options}"]
    if record.player:
        lines.append(f"Player: {record.player}")
    lines += [f"Deck (first card dealt first): {' '.join(c.label for c in record.deck)}", ""]
    return lines


def plain_value(value: object) -> str:
    """An option's value as the reports show it: ``yes``/``no``, ``none``, or the value.

    >>> plain_value(False), plain_value(None), plain_value("left-face-up")
    ('no', 'none', 'left-face-up')
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def plain_pairs(values: Mapping[str, object]) -> str:
    """Options or a result as the reports show them: ``key = value`` pairs, comma-separated.

    >>> plain_pairs({"won": False, "cards_left": 8}), plain_pairs({})
    ('won = no, cards_left = 8', '')
    """
    return ", ".join(f"{key} = {plain_value(value)}" for key, value in values.items())
