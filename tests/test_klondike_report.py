"""The klondike command (and simulate klondike): the records, the money, one-line errors."""

from __future__ import annotations

import io
import json
import sys
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
     (["--workers", "65"], "argument --workers: '65' is more than "),
     (["--games", "10000001"], "argument --games: '10000001' is more than 10,000,000 games"),
     (["--games", "3", "--jsonl", "no-such-folder/games.jsonl"],
      "--jsonl no-such-folder/games.jsonl: the folder no-such-folder does not exist"),
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
    assert err.startswith(f"solitaire-ds klondike: error: {path}, line 2: the deck has 2 cards, not 52")
    assert len(err.strip().splitlines()) == 1


def test_more_games_than_the_decks_file_holds_is_refused(
    capsys: pytest.CaptureFixture[str], decks_file: Path
) -> None:
    status, out, err = run(capsys, "klondike", "--decks", str(decks_file), "--games", "4")
    assert status == 2 and out == ""
    assert err.strip() == (f"solitaire-ds klondike: error: --games 4: {decks_file} holds only 3 decks "
                           "(see solitaire-ds klondike --help)")


def test_a_decks_file_of_one_deck_is_counted_in_the_singular(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "good.txt"
    path.write_text(f"{Deck.standard()}\n", encoding="utf-8")
    status, _, err = run(capsys, "klondike", "--decks", str(path), "--games", "2")
    assert status == 2 and err.strip() == (f"solitaire-ds klondike: error: --games 2: {path} holds only 1 deck "
                                           "(see solitaire-ds klondike --help)")


def test_a_jsonl_file_that_cannot_be_written_is_refused_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(capsys, "simulate", "klondike", "--games", "3", "--jsonl", str(tmp_path))
    assert status == 2 and out == ""  # no report: nothing was played
    assert err.strip() == (f"solitaire-ds simulate: error: --jsonl {tmp_path}: that is a folder; give a file name "
                           "(see solitaire-ds simulate --help)")


@pytest.mark.parametrize(("argv", "message"), [
    (["--player", "greedy"], "klondike has no decisions, so it takes no --player"),
    (["--workers", "1000"], "argument --workers: '1000' is more than "),
    (["--gather", "left-face-up"], "--gather does not apply to klondike"),
])
def test_simulate_klondike_refuses_what_belongs_to_other_games(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "simulate", "klondike", "--games", "3", *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and message in err, err


def test_the_report_shows_two_complete_records_then_the_money(
    capsys: pytest.CaptureFixture[str], decks_file: Path
) -> None:
    status, out, err = run(capsys, "klondike", "--decks", str(decks_file))
    assert status == 0
    heading = " ".join(out.split("\n\n")[0].split())  # wrapped at words to the terminal's width
    assert heading == (f"Klondike for money: 3 games (decks from {decks_file}); the player "
                       "pays $52 a game and wins $5 a card played to the foundations")
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
    # the totals, their wrapped lines joined (each wraps at words to the terminal's width)
    totals = out[out.index("All 3 games:"):].replace("\n    ", " ").splitlines()
    assert totals[1] == "  games played: 3"
    assert totals[3].startswith(f"  cards played to the foundations: {sum(cards)} in all, ")
    sign = "+" if net > 0 else "-"
    assert totals[4].startswith(f"  net winnings: {sign}${abs(net)} in all ($156 paid, "
                                f"${5 * sum(cards)} won); {sign}${abs(net) / 3:.2f} a game (95% CI ")
    assert len(totals) == 5  # the timing line is on stderr
    assert err.splitlines()[-1].startswith("time: ") and " games per second (1 worker); peak memory " in err


def test_a_zero_net_carries_a_sign_too() -> None:
    # One game never nets zero (5 × cards − 52 is never 0), but a run can: three games of
    # 10 cards (−$2 each) and two of 11 (+$3 each) pay back exactly the $260 staked.
    from solitaire_ds.cli.games import report
    from solitaire_ds.simulate import seeded_deals

    results = [{"won": False, "to_foundation": c, "cards_left": 52 - c, "net": 5 * c - 52}
               for c in (10, 10, 10, 11, 11)]
    text = report(seeded_deals(1, 5), results, show=0)
    assert "  net winnings: +$0 in all ($260 paid, $260 won); +$0.00 a game (95% CI -$" in text
    one = report(seeded_deals(1, 1), results[:1], show=0)
    assert one.endswith("  net winnings: -$2 in all ($52 paid, $50 won); -$2.00 a game (95% CI n/a)")


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
    _, two, err = run(capsys, "klondike", "--games", "40", "--seed", "7", "--workers", "2",
                      "--jsonl", str(tmp_path / "two.jsonl"))
    assert one == two  # byte for byte: the timing line goes to stderr
    assert err.splitlines()[-1].startswith("time: ") and " games per second (2 workers); peak memory " in err
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()
    assert "Klondike for money: 40 games (seed 7)" in one


def test_simulate_klondike_prints_the_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    _, report, _ = run(capsys, "klondike", "--games", "20", "--seed", "3")
    _, simulated, _ = run(capsys, "simulate", "klondike", "--games", "20", "--seed", "3")
    assert report == simulated and report.count("=== Game ") == 2


def test_simulate_klondike_takes_show_like_the_klondike_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, report, _ = run(capsys, "klondike", "--games", "5", "--seed", "3", "--show", "3")
    status_sim, simulated, _ = run(capsys, "simulate", "klondike", "--games", "5", "--seed", "3",
                                   "--show", "3")
    assert status == status_sim == 0
    assert report == simulated and simulated.count("=== Game ") == 3
    _, none, _ = run(capsys, "simulate", "klondike", "--games", "5", "--seed", "3", "--show", "0")
    assert "=== Game" not in none and "All 5 games:" in none


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_counts_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("TERM", "xterm")
    status, _, _ = run(capsys, "klondike", "--games", "4", "--seed", "1", "--show", "0")
    assert status == 0
    bar = terminal.getvalue()
    assert f"\r{Klondike.title} [" in bar and "] 4/4 games, " in bar and " elapsed" in bar and "deals" not in bar


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
