"""The play, simulate and replay commands: output, files, and one-line errors for misuse."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse errors
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["play", "poker"], "unknown game 'poker' (choose from aces-up, "),
     (["simulate", "perpetual-motion", "--games", "0"], "argument --games: '0' must be at least 1"),
     (["simulate", "perpetual-motion", "--seed", "x1"], "argument --seed: invalid seed 'x1'"),
     (["simulate", "perpetual-motion", "--seed", "-3"], "argument --seed: invalid seed '-3'"),
     (["play", "perpetual-motion", "--gather", "up"], "unknown gather reading 'up'"),
     (["play", "perpetual-motion", "--deck", "AS 2S ZZ"], "--deck: card 3 of the deck: 'ZZ' is not a card"),
     (["play", "perpetual-motion", "--player", "greedy"], "perpetual-motion has no decisions"),
     (["simulate", "perpetual-motion", "--workers", "many"], "argument --workers: 'many' is not a whole number"),
     (["play", "perpetual-motion", "--seed", "1", "--deck", "AS"], "not allowed with argument")],
)
def test_misuse_gives_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_play_shows_the_whole_record_and_writes_json_that_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    status, out, _ = run(capsys, "play", "perpetual-motion", "--seed", "5", "--json", str(path))
    assert status == 0 and out.startswith("Deal: seed 5\nPerpetual Motion\n")
    assert "Result: won = " in out
    status, out, _ = run(capsys, "replay", str(path), "--quiet")
    assert status == 0 and out.strip().endswith("events replay exactly")


def test_replay_rejects_a_tampered_file_naming_the_event(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    run(capsys, "play", "perpetual-motion", "--seed", "5", "--json", str(path))
    data = json.loads(path.read_text())
    data["events"][0]["cards"][0] = "KS"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1 and out == ""
    assert err.startswith(f"{path}: rejected: event 1: the record says")


def test_replay_of_a_missing_or_broken_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, "replay", str(tmp_path / "nothing.json"))
    assert status == 2 and "cannot read" in err and len(err.splitlines()) == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    status, _, err = run(capsys, "replay", str(bad))
    assert status == 1 and "rejected: not valid JSON" in err


def test_simulate_gives_the_same_results_whatever_the_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    status, out1, _ = run(capsys, "simulate", "perpetual-motion", "--games", "60", "--seed", "4",
                          "--jsonl", str(one))
    assert status == 0
    status, out2, _ = run(capsys, "simulate", "perpetual-motion", "--games", "60", "--seed", "4",
                          "--workers", "2", "--jsonl", str(two))
    assert status == 0 and one.read_text() == two.read_text()
    assert out1.splitlines()[:-1] == out2.splitlines()[:-1]  # all but the timing line
    rows = [json.loads(line) for line in one.read_text().splitlines()]
    assert [r["deal"] for r in rows] == list(range(1, 61))
    assert set(rows[0]) == {"deal", "seed", "won", "rounds", "deals", "cards_left", "cycle_length"}
    assert "won:" in out1 and "cycled:" in out1 and "95% CI" in out1


def test_a_seed_from_simulate_replays_alone_with_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.jsonl"
    run(capsys, "simulate", "perpetual-motion", "--games", "3", "--seed", "9", "--jsonl", str(path))
    row = json.loads(path.read_text().splitlines()[2])
    status, out, _ = run(capsys, "play", "perpetual-motion", "--seed", str(row["seed"]))
    assert status == 0 and f"rounds = {row['rounds']}," in out


def test_a_decks_file_is_checked_whole_before_anything_is_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = str(Deck.shuffled(1))
    path = tmp_path / "decks.txt"
    path.write_text(f"# two decks\n{good}\n\n{good.replace('AS', 'XX')}\n")
    status, out, err = run(capsys, "simulate", "perpetual-motion", "--decks", str(path))
    assert status == 2 and out == ""
    assert f"{path}, line 4: card " in err and "'XX' is not a card" in err
    path.write_text(f"{good}\n{Deck.shuffled(2)}\n")
    out_file = tmp_path / "out.jsonl"
    status, out, _ = run(capsys, "simulate", "perpetual-motion", "--decks", str(path),
                         "--jsonl", str(out_file))
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert status == 0 and [(r["deal"], r["line"]) for r in rows] == [(1, 1), (2, 2)]


def test_python_dash_m_runs_the_same_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "solitaire_ds", "simulate", "perpetual-motion",
                           "--games", "0"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_play_on_a_students_structures_gives_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, reference, _ = run(capsys, "play", "perpetual-motion", "--seed", "2")
    status_impl, theirs, _ = run(capsys, "play", "perpetual-motion", "--seed", "2", "--impl", "solutions")
    assert status == status_impl == 0
    assert theirs.splitlines()[0] == "Deal: seed 2; structures from solutions"
    assert theirs.splitlines()[1:] == reference.splitlines()[1:]


def test_play_on_unfinished_structures_says_which_method_broke(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "play", "perpetual-motion", "--seed", "2", "--impl", "exercises")
    assert status == 1 and "Traceback" not in err
    assert "the game stopped: Array" in err and "raised NotImplementedError" in err


def test_the_games_run_without_the_dev_tools_installed() -> None:
    # `pip install .` brings no pytest, hypothesis or mkdocs: play must not need them,
    # and check/grade must say what to install instead of a traceback.
    block = "import sys; [sys.modules.__setitem__(m, None) for m in ('pytest', 'hypothesis', 'mkdocs')]; "
    play = subprocess.run(
        [sys.executable, "-c", block + "from solitaire_ds.cli import main; "
         "sys.exit(main(['play', 'perpetual-motion', '--seed', '1']))"],
        capture_output=True, text=True, check=False)
    assert play.returncode == 0 and "Result: won = " in play.stdout, play.stderr
    check = subprocess.run(
        [sys.executable, "-c", block + "from solitaire_ds.cli import main; sys.exit(main(['check', '1']))"],
        capture_output=True, text=True, check=False)
    assert check.returncode == 2 and "install the dev extra" in check.stderr, check.stderr
    assert "Traceback" not in check.stderr
