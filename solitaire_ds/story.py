"""A game told for a reader at a terminal: what ``solitaire-ds play`` shows by default.

Where :func:`~solitaire_ds.records.render_text` prints every event and a board after each
deal (the full record, ``play --record``), :func:`tell` tells the game in about a
screenful: the deal; which structure holds each part of the table (``pile 1 (Stack)``,
``stock (Queue)``); one line per step in the structures' own words; the table after the
first deal; for Perpetual Motion the first round in full and then one line per round;
the final table; the result. Every line fits ``width`` columns (words are wrapped, never
cut).

Invariant: the story is a function of the record alone (the game is re-played from it,
each event checked as ``replay`` checks it), so the same deal tells the same story.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Sequence
from typing import Any

from solitaire_ds.cards import Card
from solitaire_ds.games.base import Event, Game
from solitaire_ds.records import Record, plain_pairs, steps_of

__all__ = ["labelled_board", "structure_word", "tell"]

#: The abstract data types, by the word a class name contains.
_ADTS = ("Stack", "Queue", "Deque")
#: Perpetual Motion rounds told one line each before the middle ones are summed up.
_ROUNDS_SHOWN = 12


def structure_word(structure: object) -> str:
    """The ADT a structure implements, by its class: ``'Stack'`` for an ``ArrayStack``.

    >>> from solitaire_ds.structures import LinkedQueue
    >>> structure_word(LinkedQueue())
    'Queue'
    """
    name = type(structure).__name__
    return next((adt for adt in _ADTS if adt in name), name)


def _area(game: Game, label: str) -> str:
    """The structure words for the board row ``label`` (``pile 3``, ``stock``, ...), or ''."""
    state: dict[str, Any] = vars(game)
    if label.startswith("pile "):
        number = int(label.split()[1]) - 1
        if "face_up" in state:  # Klondike: face-down cards on a Stack, the face-up run a Deque
            return f"{structure_word(state['face_down'][number])} + {structure_word(state['face_up'][number])}"
        return structure_word(state["piles"][number])
    if label == "foundations" and "foundations" in state:
        return f"{len(state['foundations'])} {structure_word(next(iter(state['foundations'].values())))}s"
    if label in state:
        return structure_word(state[label])
    return ""


def labelled_board(game: Game) -> list[str]:
    """The game's board, each row labelled with the structure that holds it.

    >>> from solitaire_ds.cards import Deck
    >>> from solitaire_ds.games.perpetual_motion import PerpetualMotion
    >>> labelled_board(PerpetualMotion(Deck.standard()))[-1]
    'stock (Queue): 52 cards'
    """
    rows = []
    for row in game.board().splitlines():
        label, colon, rest = row.partition(": ")
        words = _area(game, label) if colon else ""
        rows.append(f"{label} ({words}): {rest}" if words else row)
    return rows


def _wrap(text: str, width: int, indent: str = "  ", more: str = "    ") -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=more,
                         break_on_hyphens=False) or [indent.rstrip()]


def _legend(game: Game) -> str:
    """One sentence: which structure each part of the table is."""
    parts = []
    seen: set[str] = set()
    for row in game.board().splitlines():
        label, colon, _ = row.partition(": ")
        if not colon:
            continue
        name = "piles" if label.startswith("pile ") else label
        if name in seen:
            continue
        seen.add(name)
        words = _area(game, label)
        if words:
            many = words[0].isdigit()
            parts.append(f"{'each pile' if name == 'piles' else 'the ' + name} {'are' if many else 'is a'} {words}")
    return "The structures: " + "; ".join(parts) + "." if parts else ""


def tell(record: Record, width: int = 80) -> str:
    """Return the game of ``record`` told in about a screenful of lines of at most ``width``."""
    width = max(width, 40)
    steps = steps_of(record)
    game, told = next(steps)
    told = list(told)
    options = plain_pairs(record.options) or "none"
    lines = _wrap(f"{game.title}. Options: {options}." + (f" Player: {record.player}." if record.player else ""),
                  width, "", "  ")
    lines += _wrap("Deck, first card dealt first: " + " ".join(card.label for card in record.deck), width, "", "  ")
    lines += [*_wrap(_legend(game), width, "", "  "), ""]
    final: list[str] = []
    if hasattr(game, "cycle_length"):  # Perpetual Motion: round 1 in full, then a line a round
        game, told, final = _tell_rounds(game, told, steps, lines, width)
    else:
        shown_table = any(e["type"] == "deal" for e in told)  # dealt as the game was set up
        if shown_table:
            lines += ["The table after the deal:", *("  " + row for row in labelled_board(game)), ""]
        said: set[str] = set()
        for game, new in steps:
            told += new
            for event in new:
                if event["type"] != "result":
                    lines += _wrap(_said(game, event, first=event["type"] not in said), width)
                    said.add(event["type"])
            if not shown_table and any(e["type"] == "deal" for e in new):
                lines += ["", "The table after the first deal:", *("  " + row for row in labelled_board(game)), ""]
                shown_table = True
    final = final or labelled_board(game)
    lines += ["", "The table at the end:", *("  " + row for row in final), ""]
    result = next((e for e in reversed(told) if e["type"] == "result"), None)
    lines += _wrap("Result: " + (game.describe(result) if result is not None else
                                 plain_pairs(game.result())), width, "", "  ")
    lines += _wrap("(every event and every board: --record; the record as JSON: --json FILE)", width, "", "  ")
    return "\n".join(lines) + "\n"


def _said(game: Game, event: Event, first: bool = False) -> str:
    """One event in the game's words; the first deal and move also in the structures'."""
    text = game.describe(event)
    if first and event["type"] == "deal" and "stock" not in event:
        return f"{text} (each card dequeued from the stock and pushed onto its pile)"
    if first and event["type"] == "move" and "from" in event:
        return f"{text} (popped from one pile, pushed onto the other)"
    return text


def _tell_rounds(game: Game, told: list[Event], steps: Iterator[tuple[Game, list[Event]]],
                 lines: list[str], width: int) -> tuple[Game, list[Event], list[str]]:
    """Perpetual Motion: round 1 event by event, the table before its gather, the gather in
    the structures' words, then one line per later round (the middle ones summed up)."""
    before: list[str] = []
    rounds: dict[int, list[Event]] = {1: []}
    current = 1
    first_table: list[str] = []
    last_table: list[str] = []
    for game, new in steps:
        for event in new:
            told.append(event)
            if event["type"] == "gather":
                current = event["round"]
                rounds[current] = []
            rounds[current].append(event)
            if event["type"] == "round_end":
                last_table = before  # the round ends in a step of its own: the table just before it
                if event["round"] == 1:
                    first_table = last_table
        before = labelled_board(game)
    said: set[str] = set()
    for event in rounds[1]:
        if event["type"] not in ("round_end", "result"):
            lines += _wrap(_said(game, event, first=event["type"] not in said), width)
            said.add(event["type"])
    if first_table:
        lines += ["", "The table at the end of round 1:", *("  " + row for row in first_table)]
    gathers = [e for e in rounds.get(2, []) if e["type"] == "gather"]
    if gathers:
        lines += _wrap(_gathered(gathers[0]), width, "", "  ")
        lines += ["", *_wrap("Each later round: deals until the stock is empty, the moves and discards they "
                             "cause, then the gather.", width, "", "")]
        later = [_round_line(number, events) for number, events in sorted(rounds.items()) if number > 1]
        if len(later) > _ROUNDS_SHOWN + 3:
            skipped = len(later) - _ROUNDS_SHOWN
            later = [*later[: _ROUNDS_SHOWN - 3], f"  ... {skipped} more rounds like these ...", *later[-3:]]
        lines += [row for line in later for row in _wrap(line, width)]
    return game, told, last_table


def _gathered(event: Event) -> str:
    return (f"gather ({event['reading']}): the 4 piles popped, their cards enqueued on the stock: "
            f"{len(event['stock'])} cards for round {event['round']}")


def _round_line(number: int, events: Sequence[Event]) -> str:
    """``round 7: 9 deals, 2 moves, the four 8s discarded; 12 cards left``."""
    deals = sum(e["type"] == "deal" for e in events)
    moves = sum(e["type"] == "move" for e in events)
    discarded = [Card.parse(e["cards"][0]).rank.label + "s" for e in events if e["type"] == "discard"]
    left = next((e["cards_left"] for e in events if e["type"] == "round_end"), None)
    parts = [f"{deals} deals", f"{moves} move{'s' if moves != 1 else ''}"]
    if discarded:
        parts.append(f"the four {', '.join(discarded)} discarded")
    return f"round {number}: " + ", ".join(parts) + (f"; {left} cards left" if left is not None else "")
