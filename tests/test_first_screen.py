"""The terminal a newcomer meets: the first screen teaches the structures, 80 columns, conventions."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solitaire_ds.cli import main

WIDTH = 80


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _fits(text: str, width: int = WIDTH) -> None:
    wide = [line for line in text.splitlines() if len(line) > width]
    assert not wide, f"{len(wide)} lines wider than {width} columns, the first: {wide[0]!r}"


def test_the_quick_start_game_fits_a_screenful_and_names_the_structures(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(capsys, monkeypatch, "play", "perpetual-motion", "--seed", "1")
    assert status == 0
    _fits(out)
    assert len(out.splitlines()) <= 80
    assert "pile 1 (Stack):" in out and "stock (Queue):" in out
    assert "popped onto the stock" in out or "piles popped" in out  # the gather, in the structures' words
    assert "Result: lost" in out and "--record" in out  # the result, and the way to the full record


@pytest.mark.parametrize("game", ["idiots-delight", "aces-up", "klondike"])
def test_every_game_is_told_in_80_columns_with_its_structures(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    status, out, _ = run(capsys, monkeypatch, "play", game, "--seed", "1")
    assert status == 0
    _fits(out)
    assert len(out.splitlines()) <= 110
    assert "(Stack" in out and "(Queue)" in out


def test_the_full_record_is_one_flag_away_and_fits_too(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(capsys, monkeypatch, "play", "perpetual-motion", "--seed", "1", "--record")
    assert status == 0 and len(out.splitlines()) > 500
    _fits(out)


def test_exercises_list_check_and_simulate_fit_80_columns(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert main(["exercises", "init", str(tmp_path / "mine")]) == 0
    capsys.readouterr()
    monkeypatch.chdir(tmp_path / "mine")
    status, out, _ = run(capsys, monkeypatch, "exercises", "list")
    assert status == 0 and "structures/array_stack.py" in out
    _fits(out)
    status, out, _ = run(capsys, monkeypatch, "check", "7")
    assert status == 1 and "NotImplementedError" in out
    _fits(out)
    status, out, _ = run(capsys, monkeypatch, "simulate", "aces-up", "--games", "50")
    assert status == 0 and "scores" in out
    _fits(out)
    assert "aces_only = no" in out  # options are shown one way: as play shows them


def test_version_and_a_misspelled_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from solitaire_ds import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"solitaire-ds {__version__}"
    status, _, err = run(capsys, monkeypatch, "play", "perpetual-motoin")
    assert status == 2
    assert err.startswith("solitaire-ds play: error: unknown game 'perpetual-motoin' (did you mean 'perpetual-motion'?")
    assert err.rstrip().endswith("(see solitaire-ds play --help)") and err.count("\n") == 1
    status, out, _ = run(capsys, monkeypatch, "play", "Aces-Up", "--seed", "2")  # names are not case-sensitive
    assert status == 0 and "Aces Up" in out


def test_simulate_off_a_terminal_writes_a_few_progress_lines(tmp_path: Path) -> None:
    err = tmp_path / "err.txt"
    with err.open("w") as stream:
        done = subprocess.run([sys.executable, "-m", "solitaire_ds", "simulate", "aces-up", "--games", "1000"],
                              stdout=subprocess.DEVNULL, stderr=stream, check=False,
                              env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0
    lines = [line for line in err.read_text(encoding="utf-8").splitlines() if "of 1,000 deals" in line]
    assert 1 <= len(lines) <= 20, lines  # alive, not flooding the log
    assert lines[-1].startswith("Aces Up: 1,000 of 1,000 deals") and "elapsed" in lines[-1]


def test_replay_knows_a_results_file_and_shows_a_rejection_side_by_side(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import json

    results = tmp_path / "results.jsonl"
    assert run(capsys, monkeypatch, "simulate", "aces-up", "--games", "3", "--jsonl", str(results))[0] == 0
    status, _, err = run(capsys, monkeypatch, "replay", str(results))
    assert status == 2 and f"{results} is a results file" in err and "play --json FILE" in err
    game = tmp_path / "game.json"
    assert run(capsys, monkeypatch, "play", "aces-up", "--seed", "3", "--json", str(game))[0] == 0
    data = json.loads(game.read_text(encoding="utf-8"))
    discard = next(e for e in data["events"] if e["type"] == "discard")
    discard["piles"] = [9]
    game.write_text(json.dumps(data), encoding="utf-8")
    status, _, err = run(capsys, monkeypatch, "replay", str(game), "--quiet")
    assert status == 1
    first, *table = err.splitlines()
    assert "rejected: event" in first and table[0].split() == ["key", "the", "record", "says", "the", "rules", "give"]
    _fits("\n".join(table))
    assert any(line.startswith("* piles ") and "[9]" in line for line in table)


@pytest.mark.parametrize("game", ["perpetual-motion", "aces-up", "klondike"])
def test_show_decks_and_games_mean_the_same_for_every_game(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str) -> None:
    from solitaire_ds.cards import Deck

    monkeypatch.chdir(tmp_path)  # the file named as a reader names it: a path a line can hold
    decks = Path("decks.txt")
    decks.write_text("".join(f"{Deck.shuffled(seed)}\n" for seed in range(3)), encoding="utf-8")
    status, out, _ = run(capsys, monkeypatch, "simulate", game, "--decks", str(decks), "--games", "2",
                         "--show", "1")
    assert status == 0
    _fits(out)
    assert "=== Game 1 of 2 (line 1 of the decks file) ===" in out and "=== Game 2" not in out
    assert f"2 {'games' if game == 'klondike' else 'deals'} (decks from {decks})" in " ".join(out.split())


def test_the_completion_script_completes_commands_games_and_options(tmp_path: Path) -> None:
    from solitaire_ds.cli import build_parser
    from solitaire_ds.cli.completion import script

    path = tmp_path / "completion.sh"
    path.write_text(script(build_parser(), "bash"), encoding="utf-8")

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        done = subprocess.run(["bash", "-c", f"source {path}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
                               '_solitaire_ds; echo "${COMPREPLY[@]}"'], capture_output=True, text=True, check=True)
        return done.stdout.split()

    assert complete("solitaire-ds", "pl") == ["play"]
    assert complete("solitaire-ds", "play", "aces") == ["aces-up"]
    assert "--seed" in complete("solitaire-ds", "simulate", "klondike", "--s")
    assert complete("solitaire-ds", "exercises", "in") == ["init"]


def test_impl_plays_and_simulates_on_the_students_own_rules_and_shuffle(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from solitaire_ds.course import REPO_ROOT

    assert main(["exercises", "init", str(tmp_path / "mine")]) == 0
    for rel in ("games/perpetual_motion.py", "shuffle.py"):  # exercises 8 and 7 done
        (tmp_path / "mine" / rel).write_text((REPO_ROOT / "solutions" / rel).read_text(encoding="utf-8"),
                                             encoding="utf-8")
    capsys.readouterr()
    status, theirs, _ = run(capsys, monkeypatch, "play", "perpetual-motion", "--seed", "4", "--impl",
                            str(tmp_path / "mine"))
    status_ref, ours, _ = run(capsys, monkeypatch, "play", "perpetual-motion", "--seed", "4")
    assert status == status_ref == 0
    said = " ".join(theirs.split("\nPerpetual Motion.")[0].split())
    assert "your PerpetualMotion rules (games/perpetual_motion.py)" in said and "your fisher_yates (shuffle.py)" in said
    assert theirs.split("\nPerpetual Motion.")[1] == ours.split("\nPerpetual Motion.")[1]
    status, theirs, _ = run(capsys, monkeypatch, "simulate", "perpetual-motion", "--games", "40", "--impl",
                            str(tmp_path / "mine"))
    status_ref, ours, _ = run(capsys, monkeypatch, "simulate", "perpetual-motion", "--games", "40")
    assert status == status_ref == 0 and theirs == ours
    import shutil

    shutil.copytree(tmp_path / "mine", tmp_path / "sattolo")  # a new folder: a module loaded afresh
    shuffle = tmp_path / "sattolo" / "shuffle.py"  # a shuffle with Sattolo's bug deals other decks
    shuffle.write_text(shuffle.read_text(encoding="utf-8").replace("rng.randrange(i + 1)", "rng.randrange(i)"),
                       encoding="utf-8")
    status, theirs, _ = run(capsys, monkeypatch, "simulate", "perpetual-motion", "--games", "40", "--impl",
                            str(tmp_path / "sattolo"))
    assert status == 0 and theirs != ours


def _read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    """Read a pseudo-terminal until ``wanted`` appears (or ``seconds`` pass); return what came."""
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:  # the other end has closed
                break
    return seen


def test_ctrl_c_at_a_terminal_ends_workers_quietly_on_a_line_of_its_own() -> None:
    # As a terminal does it: the command's output is a terminal (so the progress line is
    # live, redrawn with \r), and Ctrl-C sends SIGINT to the whole foreground group.
    main_end, command_end = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "solitaire_ds", "simulate", "perpetual-motion", "--games", "1000000",
         "--workers", "2"],
        stdin=subprocess.DEVNULL, stdout=command_end, stderr=command_end, start_new_session=True,
        env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1"})
    os.close(command_end)
    try:
        shown = _read_until(main_end, b"deals", 120)  # the progress line: the workers are at work
        assert b"deals" in shown, shown[-300:]
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=60)
        shown += _read_until(main_end, b"\x00", 2)  # whatever else it wrote (until it closed)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        os.close(main_end)
    text = shown.decode("utf-8", "replace").replace("\r\n", "\n")
    assert process.returncode == 130
    assert "Traceback" not in text and "ForkPoolWorker" not in text and "KeyboardInterrupt" not in text
    assert "\nsolitaire-ds: interrupted\n" in text  # its own line, not glued to the progress line
    for _ in range(50):  # and no worker lives on after the command
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("a worker of the interrupted command is still running")
