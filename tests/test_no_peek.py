"""The no-peek player of Aces Up: it never reads the order of the stock, and plays legally."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.cli import main
from solitaire_ds.games.aces_up import AcesUp, AcesUpOptions
from solitaire_ds.games.base import Game, Move
from solitaire_ds.games.idiots_delight import IdiotsDelight
from solitaire_ds.no_peek import NoPeekPlayer
from solitaire_ds.players import UnknownPlayer, make_player
from solitaire_ds.records import play_record, replay
from solitaire_ds.solver import SolverPlayer, solve

Decisions = list[tuple[int, str]]


def decisions(deck: Deck, player: Callable[[Game], Move], aces_only: bool = False) -> Decisions:
    """Play ``deck`` and return each decision with how many cards had been dealt when it was made."""
    game = AcesUp(deck, AcesUpOptions(aces_only=aces_only), record=False)
    made: Decisions = []

    def watch(game: Game) -> Move:
        move = player(game)
        made.append((len(deck) - len(game.stock), str(move)))  # type: ignore[attr-defined]
        return move

    game.run(watch)
    return made


def restock(deck: Deck, seen: int, seed: int) -> Deck:
    """Return ``deck`` with the same first ``seen`` cards and the rest shuffled again."""
    rest = list(deck)[seen:]
    random.Random(seed).shuffle(rest)
    return Deck([*list(deck)[:seen], *rest])


def until(made: Decisions, seen: int) -> Decisions:
    """The decisions made while no more than ``seen`` cards had been dealt."""
    return [d for d in made if d[0] <= seen]


CASES = [(seed, seen) for seed in range(12) for seen in (4, 16, 28, 40)]


@pytest.mark.parametrize("aces_only", [False, True])
def test_decks_that_differ_only_in_the_unseen_stock_get_the_same_decisions(aces_only: bool) -> None:
    for seed, seen in CASES:
        deck = Deck.shuffled(seed)
        other = restock(deck, seen, seed + 1000)
        assert list(deck)[seen:] != list(other)[seen:]
        first = decisions(deck, NoPeekPlayer(AcesUp), aces_only)
        second = decisions(other, NoPeekPlayer(AcesUp), aces_only)
        assert until(first, seen) == until(second, seen), (seed, seen)


def test_the_same_check_catches_the_solver_which_reads_the_stock() -> None:
    # The check above can fail: the solver, which knows the order of the stock, changes
    # its decisions on the same pairs of decks before the changed cards come out.
    differ = 0
    for seed, seen in CASES[:24]:
        deck = Deck.shuffled(seed)
        other = restock(deck, seen, seed + 1000)
        first = decisions(deck, SolverPlayer(AcesUp))
        second = decisions(other, SolverPlayer(AcesUp))
        differ += until(first, seen) != until(second, seen)
    assert differ > 0


def test_after_the_last_deal_it_plays_as_well_as_the_solver() -> None:
    # With the stock empty nothing is unknown: its search is the whole search there.
    checked = 0
    for seed in range(40):
        game = AcesUp(Deck.shuffled(seed), record=False)
        player = NoPeekPlayer(AcesUp)
        game.advance()
        while not game.over:
            if not game.needs_decision():
                game.advance()
            elif game.stock:
                game.play(player(game))
            else:
                best = solve(game).value
                game.run(player)
                assert game.result()["score"] == best, seed
                checked += 1
    assert checked > 5


def test_its_games_replay_and_never_beat_the_solver() -> None:
    for seed in range(8):
        record = play_record(AcesUp(Deck.shuffled(seed)), NoPeekPlayer(AcesUp), "no-peek")
        assert replay(record.to_json()).result == record.result
        assert record.result["score"] <= solve_from_start(seed)


def solve_from_start(seed: int) -> int:
    game = AcesUp(Deck.shuffled(seed), record=False)
    game.advance()
    return solve(game).value


def test_it_plays_only_aces_up() -> None:
    with pytest.raises(UnknownPlayer) as info:
        make_player("no-peek", IdiotsDelight)
    assert str(info.value) == "the no-peek player plays Aces Up, not Idiot's Delight"


def test_simulate_takes_it_and_its_results_do_not_depend_on_the_workers(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    outputs = []
    for workers in ("1", "2"):
        path = tmp_path / f"{workers}.jsonl"
        status = main(["simulate", "aces-up", "--games", "40", "--seed", "5", "--player", "no-peek",
                       "--workers", workers, "--jsonl", str(path)])
        out = capsys.readouterr().out
        assert status == 0 and "player: no-peek" in out
        outputs.append([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()])
    assert outputs[0] == outputs[1]


def test_the_solver_that_refuses_lone_moves_never_makes_one_and_never_beats_the_solver() -> None:
    refused = make_player("solver-no-lone", AcesUp)
    for seed in range(12):
        game = AcesUp(Deck.shuffled(seed), record=False)

        def watch(game: Game) -> Move:
            move = refused(game)
            if move.kind == "move":
                assert len(game.piles[move.piles[0] - 1]) > 1, move  # type: ignore[attr-defined]
            return move

        score = game.run(watch)["score"]
        assert score <= solve_from_start(seed)
