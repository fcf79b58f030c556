"""Input of any size gets a one-line answer: nothing is read whole that need not be."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from solitaire_ds.cards import Deck, DeckError
from solitaire_ds.cli import main
from solitaire_ds.games.idiots_delight import IdiotsDelight
from solitaire_ds.interactive import InteractivePlayer
from solitaire_ds.records import play_record
from solitaire_ds.simulate import MAX_DECK_LINE, DeckFileError, read_decks


def test_a_deck_is_refused_after_its_53rd_code_without_reading_on() -> None:
    started = time.process_time()
    with pytest.raises(DeckError, match=r"^card 54 of the deck: 'AS' is past the 52 cards of a deck; reading stops"):
        Deck.parse(" ".join(str(Deck.standard()).split()) + " AS" * 5_000_000)
    assert time.process_time() - started < 5  # not a split of 5 million tokens first


def test_a_long_token_is_shown_cut_short() -> None:
    with pytest.raises(DeckError) as caught:
        Deck.parse("Z" * 100_000)
    message = str(caught.value)
    assert len(message) < 160 and "ZZZ...'" in message


def test_a_huge_one_line_decks_file_is_refused_at_once(tmp_path: Path) -> None:
    decks = tmp_path / "decks.txt"
    decks.write_text("AS " * 10_000_000)  # 30 MB on one line
    with pytest.raises(DeckFileError, match=rf"line 1: longer than {MAX_DECK_LINE} characters"):
        read_decks(decks)


def test_a_record_too_large_is_refused_before_it_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "huge.json"
    with record.open("wb") as out:
        out.truncate(9 << 20)
    assert main(["replay", str(record)]) == 2
    err = capsys.readouterr().err
    assert "is more than a record can be" in err and err.count("\n") == 1


@pytest.mark.parametrize("typed", ["²", "9" * 5000, "pair ² 1", "pair 99999999999999999999 1", "\x00", "💥" * 1000])
def test_anything_typed_at_the_prompt_is_answered_and_the_record_kept(typed: str) -> None:
    answers = iter([typed, "q"])
    said: list[str] = []
    player = InteractivePlayer(lambda prompt: next(answers), lambda *parts: said.append(" ".join(map(str, parts))))
    record = play_record(IdiotsDelight(Deck.shuffled(5)), player, "interactive")
    assert record.events[-2] == {"type": "quit"}
    answer = next(line for line in said if "is not a move" in line or "not allowed" in line)
    assert len(answer) < 200
