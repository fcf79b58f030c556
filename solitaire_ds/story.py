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

__all__ = ["brief", "labelled_board", "structure_word", "tell"]

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
    if hasattr(game, "cycle_length"):  # Perpetual Motion: round 1 in full, then a line a round
        game, told = _tell_rounds(game, told, steps, lines, width)
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
    # The table as the game left it: the one --record ends on too.
    lines += ["", "The table at the end:", *("  " + row for row in labelled_board(game)), ""]
    result = next((e for e in reversed(told) if e["type"] == "result"), None)
    lines += _wrap("Result: " + (game.describe(result) if result is not None else
                                 plain_pairs(game.result())), width, "", "  ")
    lines += _wrap("(every event and every board: --record; the record as JSON: --json FILE)", width, "", "  ")
    return "\n".join(lines) + "\n"


def brief(record: Record, width: int = 80) -> str:
    """Return ``record`` in a few lines: the game, the deck, the events counted by kind, the
    table at the end and the result (``replay``'s default; ``tell`` and ``--record`` say more).

    At most 20 lines of at most ``width`` columns, so that with the verdict it fits an
    80 x 24 terminal; the game is re-played from the record, each event checked.

    >>> from solitaire_ds.cards import Deck
    >>> from solitaire_ds.games.perpetual_motion import PerpetualMotion
    >>> from solitaire_ds.records import play_record
    >>> print(brief(play_record(PerpetualMotion(Deck.shuffled(1)))))
    Perpetual Motion. Options: gather = right-face-down.
    Deck, first card dealt first: J♠ 10♣ Q♥ 10♦ 3♣ K♥ 7♦ Q♣ 10♥ 6♣ 4♥ K♠ 5♠ 3♦ ...
    567 events: deal 198, move 310, round_end 25, gather 24, discard 9, result 1
    The table at the end:
      pile 1 (Stack): ·
      pile 2 (Stack): ·
      pile 3 (Stack): ·
      pile 4 (Stack): ·
      stock (Queue): 16 cards
    Result: lost: the stock repeats, a cycle of 6 rounds; 16 cards left after 25
      rounds
    (every event and every board: --record)
    """
    width = max(width, 40)
    *_, (game, _) = steps_of(record)  # the whole game re-played: its table at the end
    options = plain_pairs(record.options) or "none"
    lines = _wrap(f"{game.title}. Options: {options}." + (f" Player: {record.player}." if record.player else ""),
                  width, "", "  ")
    deck = "Deck, first card dealt first:"
    for card in record.deck:
        if len(deck) + len(card.label) + 5 > width:
            deck += " ..."
            break
        deck += " " + card.label
    lines.append(deck)
    kinds: dict[str, int] = {}
    for event in record.events:
        kinds[event["type"]] = kinds.get(event["type"], 0) + 1
    counts = ", ".join(f"{kind} {count:,}" for kind, count in kinds.items())
    lines += _wrap(f"{len(record.events):,} events: {counts}", width, "", "  ")[:2]
    lines += ["The table at the end:", *_wrap_rows(labelled_board(game), width)]
    result = next((e for e in reversed(record.events) if e["type"] == "result"), None)
    lines += _wrap("Result: " + (game.describe(result) if result is not None else plain_pairs(game.result())),
                   width, "", "  ")[:2]
    lines.append("(every event and every board: --record)")
    return "\n".join(lines)


def _wrap_rows(rows: list[str], width: int) -> list[str]:
    """The board's rows, indented two spaces, each kept to one line of ``width``: a long
    row loses its first cards (the bottom ones), never its top card, the one in play.

    >>> _wrap_rows(["waste (Stack): 8♥ 4♣ 6♦ 2♦ 6♠ 7♣ Q♦ 3♠ 5♥ 8♣ J♥"], 40)
    ['  waste (Stack): ... 7♣ Q♦ 3♠ 5♥ 8♣ J♥']
    """
    out = []
    for row in rows:
        label, colon, cards = row.partition(": ")
        words = cards.split(" ")
        while len(row) + 2 > width and words:
            words.pop(0)
            row = f"{label}{colon}... {' '.join(words)}"
        out.append(("  " + row)[:width])
    return out


def _said(game: Game, event: Event, first: bool = False) -> str:
    """One event in the game's words; the first deal and move also in the structures'."""
    text = game.describe(event)
    if first and event["type"] == "deal" and "stock" not in event:
        return f"{text} (each card dequeued from the stock and pushed onto its pile)"
    if first and event["type"] == "move" and "from" in event:
        return f"{text} (popped from one pile, pushed onto the other)"
    return text


def _tell_rounds(game: Game, told: list[Event], steps: Iterator[tuple[Game, list[Event]]],
                 lines: list[str], width: int) -> tuple[Game, list[Event]]:
    """Perpetual Motion: round 1 event by event, the table before its gather, the gather in
    the structures' words, then one line per later round (the middle ones summed up), and
    the last gather, which finds the stock's order seen before (it has no event of its own)."""
    before: list[str] = []
    rounds: dict[int, list[Event]] = {1: []}
    current = 1
    first_table: list[str] = []
    for game, new in steps:
        for event in new:
            told.append(event)
            if event["type"] == "gather":
                current = event["round"]
                rounds[current] = []
            rounds[current].append(event)
            if event["type"] == "round_end" and event["round"] == 1:
                first_table = before  # the round ends in a step of its own: the table just before it
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
    result = told[-1] if told and told[-1]["type"] == "result" else None
    if result is not None and result.get("cycle_length"):
        lines += _wrap(_last_gather(game, result), width, "", "  ")
    return game, told


def _last_gather(game: Game, result: Event) -> str:
    """The gather that ends a lost game: its stock's order started an earlier round."""
    stock = [card.label for card in vars(game)["stock"]]
    first = result["rounds"] + 1 - result["cycle_length"]
    return (f"gather after round {result['rounds']}: the 4 piles popped, their {len(stock)} cards "
            f"enqueued on the stock ({' '.join(stock)}), in the order that started round {first}: "
            f"the game would repeat, so it ends")


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
