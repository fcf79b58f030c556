"""The play, simulate and replay commands: output, files, and one-line errors for misuse."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.cli import games as commands
from solitaire_ds.cli import main
from solitaire_ds.course import REPO_ROOT
from solitaire_ds.records import Record
from solitaire_ds.simulate import DealSource, deal_seed, run_deals, seeded_deals


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
     (["play", "perpetual-motion", "--gather", "up"], "error: --gather: unknown gather reading 'up'"),
     (["simulate", "perpetual-motion", "--gather", "sideways"],
      "error: --gather: unknown gather reading 'sideways' (choose from right-face-down, "),
     (["play", "perpetual-motion", "--deck", "AS 2S ZZ"], "--deck: card 3 of the deck: 'ZZ' is not a card"),
     (["play", "perpetual-motion", "--player", "greedy"], "perpetual-motion has no decisions"),
     (["simulate", "perpetual-motion", "--workers", "many"], "argument --workers: 'many' is not a whole number"),
     (["simulate", "perpetual-motion", "--workers", "100000"],
      "argument --workers: '100000' is more than "),
     (["simulate", "perpetual-motion", "--games", "10000001"],
      "argument --games: '10000001' is more than 10,000,000 games in one run"),
     (["simulate", "aces-up", "--games", "9" * 5000],  # shown cut short, not 5000 digits
      "argument --games: '" + "9" * 37 + "...' is far too large"),
     (["simulate", "aces-up", "--games", "9" * 4000], "argument --games: '" + "9" * 37 + "...' is more"),
     (["simulate", "perpetual-motion", "--decks", "decks.txt", "--seed", "1"],
      "--decks plays the file's decks: give no --seed with it"),
     (["play", "perpetual-motion", "--seed", "1", "--deck", "AS"], "not allowed with argument")],
)
def test_misuse_gives_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_play_with_record_shows_the_whole_record_and_writes_json_that_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    status, out, _ = run(capsys, "play", "perpetual-motion", "--seed", "5", "--record", "--json", str(path))
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
    status, _, err = run(capsys, "replay", str(tmp_path))
    assert status == 2 and err.strip() == (f"solitaire-ds replay: error: cannot read {tmp_path}: Is a directory "
                                           "(see solitaire-ds replay --help)")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    status, _, err = run(capsys, "replay", str(bad))
    assert status == 1 and "rejected: not valid JSON" in err


def _record_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "good.json"
    run(capsys, "play", "perpetual-motion", "--seed", "5", "--json", str(path))
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game", [[1], {}, None, 3])
def test_replay_rejects_a_record_whose_game_is_not_a_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: object
) -> None:
    data = _record_text(capsys, tmp_path)
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({**data, "game": game}), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1 and out == "" and "Traceback" not in err
    assert err.startswith(f"{path}: rejected: ") and len(err.splitlines()) == 1, err


def test_replay_rejects_deeply_nested_json_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"{path}: rejected: ") and "nested" in err, err


def test_replay_turns_a_recursion_error_of_the_reader_into_a_rejection(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def too_deep(text: str) -> Record:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(Record, "loads", staticmethod(too_deep))
    path = tmp_path / "deep.json"
    path.write_text("[[[]]]", encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1
    assert err == f"{path}: rejected: not a record: the JSON is nested too deeply to read\n"


def test_replay_turns_any_failure_of_the_checks_into_a_rejection(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(data: object) -> Record:
        raise TypeError("unhashable type: 'list'")

    _record_text(capsys, tmp_path)
    monkeypatch.setattr(commands, "replay", broken)
    status, out, err = run(capsys, "replay", str(tmp_path / "good.json"))
    assert status == 1 and out == ""
    assert err == (f"{tmp_path / 'good.json'}: rejected: the record cannot be read "
                   "(TypeError: unhashable type: 'list')\n")


def test_replay_rejects_a_record_that_is_not_utf8_like_any_corrupt_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"game": "perpetual-motion", "deck": "\xe9"}')
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1 and out == ""
    assert err == f"{path}: rejected: not valid UTF-8: byte 39 is 0xe9\n"


@pytest.mark.parametrize("where", ["missing/x.json", "folder", "file.txt/x.json"])
def test_play_refuses_a_json_path_it_cannot_write_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("keep me")
    target = tmp_path / where
    status, out, err = run(capsys, "play", "perpetual-motion", "--seed", "1", "--json", str(target))
    assert status == 2 and out == "", out[:200]  # nothing played, nothing shown
    assert err.startswith(f"solitaire-ds play: error: --json {target}: ") and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "folder"]
    assert (tmp_path / "file.txt").read_text() == "keep me"


def test_simulate_refuses_a_jsonl_path_it_cannot_write_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "no" / "r.jsonl"
    status, out, err = run(capsys, "simulate", "perpetual-motion", "--games", "5",
                           "--jsonl", str(target))
    assert status == 2 and out == ""
    assert err.strip() == (f"solitaire-ds simulate: error: --jsonl {target}: the folder "
                           f"{target.parent} does not exist (see solitaire-ds simulate --help)")
    status, out, err = run(capsys, "simulate", "perpetual-motion", "--games", "5",
                           "--jsonl", str(tmp_path))
    assert status == 2 and out == ""
    assert err.strip() == (f"solitaire-ds simulate: error: --jsonl {tmp_path}: that is a folder; give a file name "
                           "(see solitaire-ds simulate --help)")


def test_seeded_deals_are_made_lazily_and_match_the_seeds() -> None:
    deals = seeded_deals(4, 10_000_000)  # no list of ten million deals is built
    assert len(deals) == 10_000_000
    assert deals[0] == DealSource(1, seed=deal_seed(4, 1))
    assert deals[-1] == DealSource(10_000_000, seed=deal_seed(4, 10_000_000))
    assert list(deals[5:8]) == [DealSource(n, seed=deal_seed(4, n)) for n in (6, 7, 8)]
    assert list(seeded_deals(4, 3)) == [DealSource(n, seed=deal_seed(4, n)) for n in (1, 2, 3)]
    with pytest.raises(IndexError):
        deals[10_000_000]


def test_run_deals_on_lazy_deals_gives_the_results_of_a_list() -> None:
    from solitaire_ds.simulate import SimulationRun

    run_ = SimulationRun("perpetual-motion", {})
    lazy = seeded_deals(2, 9)
    assert run_deals(run_, lazy, 2) == run_deals(run_, list(lazy), 1)


def test_simulate_gives_the_same_results_whatever_the_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    status, out1, err1 = run(capsys, "simulate", "perpetual-motion", "--games", "60", "--seed", "4",
                             "--jsonl", str(one))
    assert status == 0
    status, out2, err2 = run(capsys, "simulate", "perpetual-motion", "--games", "60", "--seed", "4",
                             "--workers", "2", "--jsonl", str(two))
    assert status == 0 and one.read_text() == two.read_text()
    assert out1 == out2  # byte for byte: the timing line goes to stderr
    assert any(line.startswith("time: ") for line in err1.splitlines())
    assert " deals per second (1 worker); peak memory " in err1
    assert " deals per second (2 workers); peak memory " in err2
    assert "MB in this process, " in err2 and " MB in the largest worker" in err2
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
    status, out, _ = run(capsys, "play", "perpetual-motion", "--seed", str(row["seed"]), "--record")
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


def test_the_summary_counts_one_deal_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "perpetual-motion", "--games", "1", "--seed", "2")
    assert status == 0 and out.startswith("Perpetual Motion: 1 deal (seed 2); ")


def test_python_dash_m_runs_the_same_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "solitaire_ds", "simulate", "perpetual-motion",
                           "--games", "0"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def _deal(out: str) -> str:
    """The "Deal: ..." line of play's output, its wrapped lines joined."""
    head = out.split("\n")
    lines = [head[0]]
    for line in head[1:]:
        if not line.startswith("  "):
            break
        lines.append(line.strip())
    return " ".join(lines)


def _told(out: str) -> list[str]:
    """Play's output after its "Deal: ..." line (which names whose structures ran)."""
    lines = out.splitlines()
    start = next(n for n, line in enumerate(lines[1:], start=1) if not line.startswith("  "))
    return lines[start:]


def test_play_on_a_students_structures_gives_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, reference, _ = run(capsys, "play", "perpetual-motion", "--seed", "2")
    status_impl, theirs, _ = run(capsys, "play", "perpetual-motion", "--seed", "2", "--impl", "solutions")
    assert status == status_impl == 0
    assert _deal(theirs) == (
        f"Deal: seed 2; structures from {REPO_ROOT / 'solutions'}: your ArrayStack (structures/array_stack.py), "
        "ArrayQueue (structures/array_queue.py), ArrayDeque (structures/array_deque.py); "
        "your PerpetualMotion rules (games/perpetual_motion.py), your fisher_yates (shuffle.py)")
    assert _told(theirs) == _told(reference)


def test_a_student_with_only_exercise_1_done_plays_on_their_stack(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(REPO_ROOT / "exercises", tmp_path / "mine")
    shutil.copyfile(REPO_ROOT / "solutions/structures/array_stack.py", tmp_path / "mine/structures/array_stack.py")
    status, reference, _ = run(capsys, "play", "perpetual-motion", "--seed", "2")
    status_impl, theirs, _ = run(capsys, "play", "perpetual-motion", "--seed", "2", "--impl", str(tmp_path / "mine"))
    assert status == status_impl == 0
    assert _deal(theirs).endswith(
        ": your ArrayStack (structures/array_stack.py); the package's ArrayQueue, ArrayDeque "
        "(exercises 3, 5 not started)")
    assert _told(theirs) == _told(reference)


def test_klondike_runs_on_a_students_deque_and_on_their_linked_classes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(REPO_ROOT / "exercises", tmp_path / "mine")
    for name in ("array_deque", "linked_deque"):  # exercises 5 and 6 done, nothing else
        shutil.copyfile(REPO_ROOT / f"solutions/structures/{name}.py",
                        tmp_path / f"mine/structures/{name}.py")
    status, reference, _ = run(capsys, "play", "klondike", "--seed", "3")
    status_array, array, _ = run(capsys, "play", "klondike", "--seed", "3", "--impl", str(tmp_path / "mine"))
    status_linked, linked, _ = run(capsys, "play", "klondike", "--seed", "3", "--impl",
                                   str(tmp_path / "mine"), "--linked")
    assert status == status_array == status_linked == 0
    assert _deal(array).endswith(
        ": your ArrayDeque (structures/array_deque.py); the package's ArrayStack, ArrayQueue "
        "(exercises 1, 3 not started)")
    assert _deal(linked).endswith(
        ": your LinkedDeque (structures/linked_deque.py); the package's LinkedStack, LinkedQueue "
        "(exercises 2, 4 not started)")
    assert _told(array) == _told(linked) == _told(reference)


def test_play_on_unfinished_structures_says_which_method_broke(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(REPO_ROOT / "exercises", tmp_path / "mine")
    stack = tmp_path / "mine/structures/array_stack.py"  # started (one method written), not done
    stack.write_text(stack.read_text(encoding="utf-8").replace(
        'raise NotImplementedError("return the number of items")', "return self._size"), encoding="utf-8")
    status, _, err = run(capsys, "play", "perpetual-motion", "--seed", "2", "--impl", str(tmp_path / "mine"))
    assert status == 1 and "Traceback" not in err
    assert "the game stopped: ArrayStack" in err and "raised NotImplementedError" in err


def test_the_games_run_without_the_dev_tools_installed() -> None:
    # `pip install .` brings no pytest, hypothesis or mkdocs: play must not need them,
    # and check/grade must say what to install instead of a traceback.
    block = "import sys; [sys.modules.__setitem__(m, None) for m in ('pytest', 'hypothesis', 'mkdocs')]; "
    play = subprocess.run(
        [sys.executable, "-c", block + "from solitaire_ds.cli import main; "
         "sys.exit(main(['play', 'perpetual-motion', '--seed', '1', '--record']))"],
        capture_output=True, text=True, check=False)
    assert play.returncode == 0 and "Result: won = " in play.stdout, play.stderr
    check = subprocess.run(
        [sys.executable, "-c", block + "from solitaire_ds.cli import main; sys.exit(main(['check', '1']))"],
        capture_output=True, text=True, check=False)
    # Which extra brings pytest (dev, or a grading extra) is the packaging's business;
    # what matters is a one-line "install ..." instead of a traceback.
    assert check.returncode == 2 and " extra (pip install -e '.[" in check.stderr, check.stderr
    assert "Traceback" not in check.stderr
