"""The klondike command (and simulate klondike): the records, the money, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.cli import main
from solitaire_ds.games.klondike import Klondike


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse errors
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def without_timing(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("time: "))


@pytest.fixture()
def decks_file(tmp_path: Path) -> Path:
    path = tmp_path / "decks.txt"
    path.write_text(f"# three decks\n{Deck.standard()}\n\n{Deck.shuffled(1)}\n{Deck.shuffled(2)}\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--games", "0"], "argument --games: '0' must be at least 1"),
     (["--seed", "x1"], "argument --seed: invalid seed 'x1'"),
     (["--seed", "-3"], "argument --seed: invalid seed '-3'"),
     (["--show", "-1"], "argument --show: '-1' must be 0 or more"),
     (["--show", "two"], "argument --show: 'two' is not a whole number"),
     (["--workers", "0"], "argument --workers: '0' must be at least 1"),
     (["--decks", "no-such-file.txt"], "cannot read no-such-file.txt"),
     (["--seed", "1", "--decks", "x.txt"], "not allowed with argument --seed")],
)
def test_misuse_gives_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "klondike", *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_a_bad_decks_file_is_reported_with_its_line_and_nothing_is_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(f"{Deck.standard()}\nAS 2S\n", encoding="utf-8")
    status, out, err = run(capsys, "klondike", "--decks", str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"solitaire-ds: error: {path}, line 2: the deck has 2 cards, not 52")
    assert len(err.strip().splitlines()) == 1


def test_more_games_than_the_decks_file_holds_is_refused(
    capsys: pytest.CaptureFixture[str], decks_file: Path
) -> None:
    status, out, err = run(capsys, "klondike", "--decks", str(decks_file), "--games", "4")
    assert status == 2 and out == ""
    assert err.strip() == f"solitaire-ds: error: --games 4: {decks_file} holds only 3 decks"


@pytest.mark.parametrize(("argv", "message"), [
    (["--player", "greedy"], "klondike has no decisions, so it takes no --player"),
    (["--gather", "left-face-up"], "--gather does not apply to klondike"),
])
def test_simulate_klondike_refuses_what_belongs_to_other_games(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "simulate", "klondike", "--games", "3", *argv)
    assert status == 2 and out == "" and err.strip() == f"solitaire-ds: error: {message}"


def test_the_report_shows_two_complete_records_then_the_money(
    capsys: pytest.CaptureFixture[str], decks_file: Path
) -> None:
    status, out, _ = run(capsys, "klondike", "--decks", str(decks_file))
    assert status == 0
    assert out.startswith(f"Klondike for money: 3 games (decks from {decks_file}); the player "
                          "pays $52 a game and wins $5 a card played to the foundations\n")
    assert out.count("=== Game ") == 2
    assert "=== Game 1 of 3 (line 2 of the decks file) ===" in out
    assert "=== Game 3 of 3" not in out
    # Game 1 is the new-deck order, worked out by hand in test_klondike.py: 28 cards.
    assert "  deal 28 cards into 7 piles" in out and "    pile 7: ## ## ## ## ## ## 2♥" in out
    assert "  rule 3: K♦ from pile 6 into the empty pile 1\n" in out
    assert "\nFinal board:\n" in out
    assert "Game 1: 28 cards to the foundations; paid $52, won $140: net +$88\n" in out
    cards = [Klondike(Deck.parse(line)).run()["to_foundation"]
             for line in decks_file.read_text(encoding="utf-8").splitlines()[1:] if line]
    net = sum(5 * c - 52 for c in cards)
    totals = out[out.index("All 3 games:"):].splitlines()
    assert totals[1] == "  games played: 3"
    assert totals[3].startswith(f"  cards played to the foundations: {sum(cards)} in all, ")
    sign = "+" if net > 0 else "-"
    assert totals[4].startswith(f"  net winnings: {sign}${abs(net)} in all ($156 paid, "
                                f"${5 * sum(cards)} won); {sign}${abs(net) / 3:.2f} a game (95% CI ")
    assert totals[-1].startswith("time: ")


def test_show_k_prints_k_records(capsys: pytest.CaptureFixture[str], decks_file: Path) -> None:
    _, out, _ = run(capsys, "klondike", "--decks", str(decks_file), "--show", "0")
    assert "=== Game" not in out and "All 3 games:" in out
    _, out, _ = run(capsys, "klondike", "--decks", str(decks_file), "--show", "3", "--games", "2")
    assert out.count("=== Game ") == 2 and "All 2 games:" in out


def test_the_same_seed_gives_the_same_report_whatever_the_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, one, _ = run(capsys, "klondike", "--games", "40", "--seed", "7", "--jsonl",
                    str(tmp_path / "one.jsonl"))
    _, two, _ = run(capsys, "klondike", "--games", "40", "--seed", "7", "--workers", "2",
                    "--jsonl", str(tmp_path / "two.jsonl"))
    assert without_timing(one) == without_timing(two)
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()
    assert "Klondike for money: 40 games (seed 7)" in one


def test_simulate_klondike_prints_the_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    _, report, _ = run(capsys, "klondike", "--games", "20", "--seed", "3")
    _, simulated, _ = run(capsys, "simulate", "klondike", "--games", "20", "--seed", "3")
    assert without_timing(report) == without_timing(simulated)


def test_jsonl_holds_one_result_per_game_in_deal_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "games.jsonl"
    run(capsys, "klondike", "--games", "5", "--seed", "2", "--show", "0", "--jsonl", str(path))
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [row["deal"] for row in rows] == [1, 2, 3, 4, 5]
    assert all(list(row)[2:] == ["won", "to_foundation", "cards_left", "net"] for row in rows)
    for row in rows:
        assert Klondike(Deck.shuffled(row["seed"])).run() == {
            k: row[k] for k in ("won", "to_foundation", "cards_left", "net")}
