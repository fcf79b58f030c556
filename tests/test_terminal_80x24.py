"""An 80 x 24 terminal: no line of play, simulate, replay or their errors wraps by itself.

The commands run as a person runs them, their output a pseudo-terminal (``pty``) with
``COLUMNS=80``: the progress line is live (redrawn after ``\\r``), messages go to a terminal.
A line's width is counted as the terminal shows it: colour codes take no columns, and each
segment a ``\\r`` starts is a line of its own (a redraw that overflows wraps just the same).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.games import GAMES, game_class
from solitaire_ds.players import make_player
from solitaire_ds.records import play_record, render_text
from solitaire_ds.simulate import ProgressBar
from solitaire_ds.story import tell
from tests.terminal import HEIGHT, WIDTH, columns, on_a_terminal, too_wide


def test_simulate_play_and_replay_fit_80columns(tmp_path: Path) -> None:
    shown: dict[str, list[str]] = {}
    for argv in (["simulate", "idiots-delight", "--games", "400", "--workers", "2"],
                 ["klondike", "--games", "100", "--show", "1"],
                 ["play", "perpetual-motion", "--seed", "1", "--json", "game.json"],
                 ["play", "klondike", "--seed", "1", "--record"],
                 ["replay", "game.json", "--record"]):  # replay's default: the screenful test below
        status, lines = on_a_terminal(*argv, cwd=tmp_path)
        assert status == 0, lines[-5:]
        shown[" ".join(argv)] = lines
    assert {command: too_wide(lines) for command, lines in shown.items() if too_wide(lines)} == {}
    assert any(line.startswith("Idiot's Delight [") for line in shown["simulate idiots-delight --games 400 "
                                                                        "--workers 2"])  # the live line


def test_errors_of_simulate_play_and_replay_fit_80columns(tmp_path: Path) -> None:
    good = tmp_path / "game.json"
    good.write_text(play_record(game_class("perpetual-motion")(Deck.shuffled(1))).dumps(), encoding="utf-8")
    data = json.loads(good.read_text(encoding="utf-8"))
    data["events"][0]["cards"][0] = "KS"
    (tmp_path / "tampered.json").write_text(json.dumps(data), encoding="utf-8")
    far = "a-folder-with-a-rather-long-name/" * 4
    shown: dict[str, list[str]] = {}
    for argv, status in ((["replay", "tampered.json"], 1),
                         (["simulate", "perpetual-motion", "--decks", far + "decks.txt"], 2),
                         (["play", "perpetual-motion", "--impl", far], 2),
                         (["simulate", "aces-up", "--games", "9" * 70], 2)):
        got, lines = on_a_terminal(*argv, cwd=tmp_path)
        assert got == status, lines
        shown[" ".join(argv)] = lines
    assert {command: too_wide(lines) for command, lines in shown.items() if too_wide(lines)} == {}
    rejection = "\n".join(shown["replay tampered.json"])
    assert "tampered.json: rejected: event 1: the record says 'cards':" in rejection
    assert "* cards" in rejection  # and the two events side by side, the difference marked


def test_replay_prints_a_screenful_by_default_and_every_event_with_record(tmp_path: Path) -> None:
    record = play_record(game_class("perpetual-motion")(Deck.shuffled(1)))
    (tmp_path / "game.json").write_text(record.dumps(), encoding="utf-8")
    status, lines = on_a_terminal("replay", "game.json", cwd=tmp_path)
    assert status == 0 and lines[-1] == ""
    assert len(lines) - 1 <= HEIGHT - 1  # with the next prompt, a screenful
    assert lines[-2] == f"game.json: verified: {len(record.events)} events replay exactly"
    assert "The table at the end:" in lines and any(line.startswith("Result: lost") for line in lines)
    status, full = on_a_terminal("replay", "game.json", "--record", cwd=tmp_path)
    assert status == 0 and len(full) > 10 * HEIGHT and full[-2] == lines[-2]


@pytest.mark.parametrize("name", GAMES)
def test_the_progress_line_is_never_wider_than_the_terminal(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return True

    for width in (80, 60, 40):
        monkeypatch.setenv("COLUMNS", str(width))
        stream = Terminal()
        bar = ProgressBar(game_class(name).title, stream)  # type: ignore[arg-type]
        for done in (2_000, 4_000_000, 10_000_000):
            bar._last = float("-inf")  # draw each call, as a slow run does
            bar(done, 10_000_000)
        drawn = [segment for line in stream.text.split("\n") for segment in line.split("\r")]
        assert max(map(columns, drawn)) < width, drawn  # the last column left free
        assert stream.text.endswith("\n")


def _table_at_the_end(text: str, heading: str) -> list[str]:
    """The rows under ``heading`` up to the first blank line, structure labels taken out."""
    lines = text.splitlines()
    start = len(lines) - 1 - lines[::-1].index(heading)
    rows = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        rows.append(re.sub(r" \([^)]*\):", ":", line.strip()))
    return rows


@pytest.mark.parametrize(("name", "seed"), [(name, seed) for name in GAMES for seed in (1, 2)])
def test_the_story_and_the_full_record_end_on_the_same_table(name: str, seed: int) -> None:
    cls = game_class(name)
    choose = make_player("greedy", cls) if cls.has_decisions else None
    record = play_record(cls(Deck.shuffled(seed)), choose, "greedy" if choose else None)
    story = tell(record, WIDTH)
    assert _table_at_the_end(story, "The table at the end:") == \
        _table_at_the_end(render_text(record), "Final board:")


def test_the_story_tells_the_gather_that_ends_a_lost_game() -> None:
    record = play_record(game_class("perpetual-motion")(Deck.shuffled(1)))
    story = " ".join(tell(record, 200).split())
    assert ("gather after round 25: the 4 piles popped, their 16 cards enqueued on the stock "
            "(8♠ 8♣ J♣ J♦ A♣ A♥ 4♠ 4♦ J♠ J♥ 8♥ 8♦ 4♣ 4♥ A♦ A♠), in the order that started round 20") in story
    assert story.index("gather after round 25") < story.index("The table at the end:")
