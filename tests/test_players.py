"""Players through the command line: play shows a line, simulate takes --player, replay checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.cli import main
from solitaire_ds.games.aces_up import AcesUp
from solitaire_ds.games.idiots_delight import IdiotsDelight
from solitaire_ds.players import PLAYERS, UnknownPlayer, greedy_choice, make_player


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_players_are_registered() -> None:
    assert sorted(PLAYERS) == ["greedy", "interactive", "no-peek", "solver", "solver-no-lone"]
    assert make_player("greedy", AcesUp) is greedy_choice


def test_an_unknown_player_is_named_with_the_choices() -> None:
    with pytest.raises(UnknownPlayer) as info:
        make_player("random", AcesUp)
    assert str(info.value) == ("unknown player 'random' (choose from greedy, interactive, no-peek, "
                               "solver, solver-no-lone)")


def test_greedy_refuses_a_game_that_waits_for_nothing() -> None:
    game = IdiotsDelight(Deck.standard())  # the first deal is not dealt yet
    with pytest.raises(ValueError, match=r"^Idiot's Delight does not wait for a decision now$"):
        greedy_choice(game)


@pytest.mark.parametrize("game", ["idiots-delight", "aces-up"])
@pytest.mark.parametrize("player", ["greedy", "solver"])
def test_play_shows_the_players_line_and_its_json_replays(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, player: str) -> None:
    path = tmp_path / "game.json"
    status, out, _ = run(capsys, "play", game, "--seed", "3", "--player", player,
                         "--json", str(path))
    assert status == 0
    assert f"Player: {player}." in out and "Result: " in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["player"] == player
    status, out, _ = run(capsys, "replay", str(path), "--quiet")
    assert status == 0 and "verified" in out


def test_play_with_the_solver_shows_a_winning_line(capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 6 of Aces Up is winnable: the solver's line ends with only the aces.
    status, out, _ = run(capsys, "play", "aces-up", "--seed", "6", "--player", "solver")
    assert status == 0
    assert "Result: won: score 48, 4 cards left" in out


def test_simulate_takes_the_player_and_prints_the_summary(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "aces-up", "--games", "30", "--player", "greedy",
                         "--aces-only")
    assert status == 0
    assert "player: greedy" in out and "won:" in out and "score: mean" in out
    status, out, _ = run(capsys, "simulate", "idiots-delight", "--games", "20", "--player",
                         "solver", "--workers", "2")
    assert status == 0 and "player: solver" in out and "cards left: mean" in out


def test_simulate_gives_the_same_results_whatever_the_workers(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    outputs, summaries, timings = [], [], []
    for workers in ("1", "2"):
        path = tmp_path / f"r{workers}.jsonl"
        _, out, err = run(capsys, "simulate", "idiots-delight", "--games", "24", "--player",
                          "solver", "--workers", workers, "--jsonl", str(path))
        outputs.append(path.read_text(encoding="utf-8"))
        summaries.append(out)
        timings.append(err)
    assert outputs[0] == outputs[1] and summaries[0] == summaries[1]
    # Issue 4: the solver's run prints deals per second and peak memory (on stderr).
    assert " deals per second (2 workers); peak memory " in timings[1]
    assert " MB in this process, " in timings[1] and timings[1].endswith(" MB in the largest worker\n")


def test_simulate_refuses_the_interactive_player(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "simulate", "aces-up", "--player", "interactive")
    assert status == 2
    assert "simulate needs a player that decides by itself (greedy, solver, no-peek or solver-no-lone)" in err


def test_a_tampered_move_is_rejected_by_replay(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run(capsys, "play", "idiots-delight", "--seed", "3", "--player", "greedy",
        "--json", str(path))
    record = json.loads(path.read_text(encoding="utf-8"))
    number, event = next((n, e) for n, e in enumerate(record["events"], start=1)
                         if e["type"] in ("pair", "suit"))
    event["piles"] = [1, 1]
    path.write_text(json.dumps(record), encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1
    assert f"event {number}: illegal move {event['type']} 1 1:" in err
