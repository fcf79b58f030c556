"""Game pages: the rules, the options, annotated records, board pictures, terminal sessions."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator
from typing import Any

from docgen.common import ROOT, DirectiveError, _esc, _game_class
from docgen.structures import _quote_docstring


def game_rules(game: str) -> str:
    """The rules as the game's module states them (its docstring)."""
    cls = _game_class(game)
    quoted = _quote_docstring(inspect.getmodule(cls))
    return f"From the top of `{cls.__module__}`, the module that plays the game:\n\n{quoted}\n"


def game_options(game: str) -> str:
    """The game's rule options (fields of its options class) and their defaults."""
    import dataclasses

    cls = _game_class(game)
    fields = dataclasses.fields(cls.options_type)
    if not fields:
        return "This game has no rule options.\n"
    rows = ["| option | flag | default |", "| --- | --- | --- |"]
    for f in fields:
        flag = "--" + f.name.replace("_", "-")
        rows.append(f"| `{f.name}` | `{flag}` | `{f.default}` |")
    return "\n".join(rows) + "\n"


def gather_readings() -> str:
    """Perpetual Motion's gather readings, from ``GATHER_READINGS``."""
    from solitaire_ds.games.perpetual_motion import GATHER_READINGS, PerpetualMotionOptions

    default = PerpetualMotionOptions().gather
    rows = ["| `--gather` | the next stock deals | structure that does it |", "| --- | --- | --- |"]
    for name, order in GATHER_READINGS.items():
        how = ("pop every pile onto one `Stack`, then pop that Stack into the stock `Queue` "
               "(turning the pack over reverses it)" if name.endswith("face-down")
               else "pop every pile straight into the stock `Queue` (top card first)")
        rows.append(f"| `{name}`{' (default)' if name == default else ''} | {order} | {how} |")
    return "\n".join(rows) + "\n"


#: For each game, what each kind of event means and which structure operation makes it.
EVENT_NOTES: dict[str, dict[str, str]] = {
    "perpetual-motion": {
        "deal": "Rule 1: four `stock.dequeue()` calls, then `piles[i].push(card)` for each pile, left to right.",
        "move": "Rule 3: the leftmost pile whose top card (`peek()`) matches a top card to its left "
                "gives it up: `card = piles[source].pop()`, then `piles[target].push(card)`.",
        "discard": "Rule 2: the four cards just dealt share a rank, so each pile is popped once.",
        "round_end": "Rule 4: the stock `Queue` is empty (`stock.is_empty()`), so the round ends.",
        "gather": "Rule 5: the piles are popped into the next stock, in the order the `--gather` reading says; "
                  "rule 6 then looks the new stock's order up among the orders that started earlier rounds.",
        "result": "The game ends: won when no card is left, lost when a stock order repeats (a cycle).",
    },
    "idiots-delight": {
        "deal": "Four `stock.dequeue()` calls, each card pushed on a pile (`push`).",
        "pair": "Two top cards (`peek`) of the same rank: both piles are popped.",
        "suit": "Two top cards of the same suit: the lower one's pile is popped.",
        "result": "The stock is empty and no removal is possible.",
    },
    "aces-up": {
        "deal": "Four `stock.dequeue()` calls, one `push` per pile.",
        "discard": "Top cards (`peek`) of one suit: every one but the highest is popped.",
        "move": "A top card is popped from one pile and pushed on an empty one.",
        "result": "Score = cards discarded.",
    },
    "klondike": {
        "deal": "28 cards into 7 piles: each pile is a face-down `Stack` under a face-up run, a "
                "`Deque`; the other 24 cards are the stock, dealt from its front.",
        "move": "A card or a whole run moves, with the rule number that chose it: a run by "
                "`remove_front` on its pile and `add_rear` on the target, bottom card first.",
        "turn_up": "A face-down card left on top is turned up: `pop` from the face-down Stack, "
                   "`add_rear` onto the face-up run.",
        "turn": "The stock gives its next card to the waste Stack.",
        "result": "Cards on the foundations, and the dollars.",
    },
}


def _walk(record: Any) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    """Re-play ``record`` step by step (as ``solitaire-ds replay`` does); yield each step's events."""
    from solitaire_ds.games import game_class

    cls = game_class(record.game)
    game = cls(record.deck, cls.options_type.from_json(record.options))
    yield game, list(game.events)
    while not game.is_over():
        start = len(game.events)
        if game.needs_decision():
            game.play(game.decision(record.events[start]))
        else:
            game.advance()
        yield game, game.events[start:]


def record(game: str, seed: str = "1", player: str = "", max_lines: str = "400", **options: str) -> str:
    """An annotated sample record of ``game``, played by the real code as the site is built.

    The record is split after the first event of each kind, with a note saying which rule
    made it and which structure operation carried it out; the whole record follows in a
    collapsed block, exactly as ``solitaire-ds play`` prints it.
    """
    cls = _game_class(game)
    from solitaire_ds.cards import Deck
    from solitaire_ds.records import play_record, render_text

    opts = cls.options_type.from_json({k.replace("-", "_"): _option_value(v) for k, v in options.items()})
    choose = None
    if cls.has_decisions:
        from solitaire_ds.players import make_player

        choose = make_player(player or "greedy", cls)
    rec = play_record(cls(Deck.shuffled(int(seed)), opts), choose, (player or "greedy") if choose else None)
    flags = "".join(f" --{k.replace('_', '-')} {v}" for k, v in options.items())
    flags += f" --player {player or 'greedy'}" if choose else ""
    command = f"solitaire-ds play {game} --seed {seed}{flags}"
    notes = EVENT_NOTES.get(game, {})
    shown: set[str] = set()
    out = [f"The game below is played by the real code each time the site is built; "
           f"`{command} --record` prints the same record (without `--record`, `play` tells "
           "the game in about a screenful).", ""]
    block: list[str] = []
    shown_lines = 0
    first = True
    for state, new in _walk(rec):
        if first:
            block += [state.title, f"Options: {', '.join(f'{k} = {v}' for k, v in rec.options.items()) or 'none'}",
                      "Deck (first card dealt first): " + " ".join(c.label for c in rec.deck), ""]
            first = False
        block += [f"  {state.describe(e)}" for e in new]
        if new and state.show_board_after(new) and not state.is_over():
            block += ["    " + row for row in state.board().splitlines()]
        fresh = [e["type"] for e in new if e["type"] in notes and e["type"] not in shown]
        if fresh:
            shown_lines += len(block)
            out += ["```text", *block, "```", ""]
            for kind in dict.fromkeys(fresh):
                out += [f"- **{kind}** — {notes[kind]}"]
                shown.add(kind)
            out.append("")
            block = []
            if len(shown) == len(notes):
                break
        elif shown_lines + len(block) > 160:
            out += ["```text", *block, "```", "", "The rest of the game is in the whole record below.", ""]
            block = []
            break
    out += ["Final board and result:", "", "```text", *state_board_and_result(rec), "```", ""]
    later = [k for k in dict.fromkeys(e["type"] for e in rec.events) if k in notes and k not in shown]
    out += [f"- **{kind}** — {notes[kind]}" for kind in later] + ([""] if later else [])
    full = render_text(rec).splitlines()
    limit = int(max_lines)
    out += [f'??? example "The whole record ({len(full)} lines)"', ""]
    body = full if len(full) <= limit else [*full[: limit // 2], f"… {len(full) - limit} lines left out …",
                                           *full[-limit // 2:]]
    out += ["    ```text", *("    " + line for line in body), "    ```", ""]
    return "\n".join(out)


def _option_value(text: str) -> Any:
    return {"true": True, "false": False}.get(text.lower(), text)


def state_board_and_result(rec: Any) -> list[str]:
    """The final board and result lines of a record, as ``render_text`` ends it."""
    from solitaire_ds.records import render_text

    lines = render_text(rec).splitlines()
    start = lines.index("Final board:")
    return lines[start:]


def board_picture(seed: str = "1", deals: str = "6", game: str = "perpetual-motion") -> str:
    """A real game's table after a few steps (the greedy player decides), every structure drawn.

    The drawing is the package's own (:func:`solitaire_ds.boards.board_svg`): piles bottom
    card first, fanned downwards, so the lowest card is the top of the Stack; face-down cards
    as blue backs; Klondike's stock, waste and foundations along the top.
    """
    from solitaire_ds.boards import board_svg
    from solitaire_ds.cards import Deck

    cls = _game_class(game)
    state = cls(Deck.shuffled(int(seed)))
    choose = None
    if cls.has_decisions:
        from solitaire_ds.players import make_player

        choose = make_player("greedy", cls)
    steps = 0
    while steps < int(deals) and not state.is_over():
        if state.needs_decision() and choose is not None:
            state.play(choose(state))
        else:
            state.advance()
        steps += 1
    title = f"{cls.title}, seed {seed}, after {steps} steps"
    return (f'<figure class="ds-board" data-search-exclude>{board_svg(state, title=title)}'
            f"<figcaption>{_esc(title)}: the real game state, drawn when the site is built.</figcaption></figure>\n")


def game_status(game: str) -> str:
    """Say that the game is available, how to play it and where its code is."""
    cls = _game_class(game)
    return (f'!!! success "Available"\n    `solitaire-ds play {game}` plays it; the code is '
            f"`{cls.__module__}`.\n")


def terminal(game: str, seed: str = "3", typed: str = "1;q", **options: str) -> str:
    """A real session with the interactive player: the command run with ``typed`` as its input.

    ``typed`` is the lines a person types, separated by ``;``. The command's own output is
    shown with each answer after its ``Your move:`` prompt, as a terminal shows it; the
    game told as the command prints it at the end follows in a collapsed block.
    """
    import subprocess
    import sys

    answers = [answer.strip() for answer in typed.split(";")]
    flags = [part for k, v in options.items() for part in (f"--{k.replace('_', '-')}", v) if part != "true"]
    argv = ["play", game, "--player", "interactive", "--seed", seed, *flags]
    done = subprocess.run([sys.executable, "-m", "solitaire_ds", *argv], input="\n".join(answers) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
                          env={**os.environ, "COLUMNS": "100"})
    if done.returncode != 0:
        raise DirectiveError(f"terminal: `solitaire-ds {' '.join(argv)}` exited {done.returncode}: "
                             f"{done.stderr.strip()[-300:]}")
    prompt = "Your move: "
    parts = done.stdout.split(prompt)
    used = len(parts) - 1
    shown = [*answers, *["(end of input: Ctrl-D)"] * used][:used]  # the player reads EOF as q
    session = parts[0]
    for k in range(1, used + 1):
        session += f"{prompt}{shown[k - 1]}\n" + (parts[k] if k < used else "")
    record_text = parts[-1] if used else ""
    typed_shown = " ".join(f"`{a}`" for a in answers)
    out = [f"Generated when the site is built: `solitaire-ds {' '.join(argv)}`, typing {typed_shown} "
           "(one answer a line).", "", "```text", *session.rstrip("\n").splitlines(), "```", ""]
    if record_text.strip():
        out += ['??? example "What it prints when the game ends: the game told (--record: every event)"', "",
                "    ```text",
                *("    " + line if line else "" for line in record_text.strip("\n").splitlines()),
                "    ```", ""]
    return "\n".join(out)
