"""The games on a student's finished folder: every player runs on their classes, and a
failure is blamed on their file only when their file was running."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from solitaire_ds import solver_models
from solitaire_ds.blame import Stop, stop_of
from solitaire_ds.cli import main
from solitaire_ds.course import REPO_ROOT
from solitaire_ds.structures import ArrayStack


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A student's folder with every exercise done (the solutions), as the working folder."""
    folder = tmp_path / "my-exercises"
    shutil.copytree(REPO_ROOT / "solutions", folder)
    monkeypatch.chdir(folder)
    return folder


def _after_deal_line(out: str) -> list[str]:
    """Play's output after its "Deal: ..." line (which names whose code ran, wrapped)."""
    lines = out.splitlines()
    start = next(n for n, line in enumerate(lines[1:], start=1) if not line.startswith("  "))
    return lines[start:]


@pytest.mark.parametrize(("game", "player"), [("aces-up", "solver"), ("idiots-delight", "solver"),
                                              ("aces-up", "solver-no-lone"), ("aces-up", "no-peek")])
def test_the_searching_players_play_a_students_own_games(
        finished: Path, capsys: pytest.CaptureFixture[str], game: str, player: str) -> None:
    status, theirs, err = run(capsys, "play", game, "--player", player, "--impl", ".", "--seed", "1")
    assert status == 0, err
    assert "rules (games/" in theirs.split("\n\n")[0]  # their class played, not the package's
    _, reference, _ = run(capsys, "play", game, "--player", player, "--seed", "1")
    assert _after_deal_line(theirs) == _after_deal_line(reference)


@pytest.mark.parametrize("game", ["idiots-delight", "aces-up"])
def test_simulate_with_the_solver_runs_on_a_students_own_games(
        finished: Path, capsys: pytest.CaptureFixture[str], game: str) -> None:
    status, theirs, err = run(capsys, "simulate", game, "--player", "solver", "--impl", ".", "--games", "4")
    assert status == 0 and "Traceback" not in err, err
    _, reference, _ = run(capsys, "simulate", game, "--player", "solver", "--games", "4")
    assert theirs == reference


def test_an_error_in_the_package_is_not_blamed_on_the_students_file(
        finished: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The package's own model_for raises (as it did for every student's class once).
    monkeypatch.setattr(solver_models, "plays", lambda game_class, kind: False)
    status, _, err = run(capsys, "play", "aces-up", "--player", "solver", "--impl", ".", "--seed", "1")
    assert status == 1 and "Traceback" not in err
    assert "the game stopped: model_for raised TypeError" in err
    assert "in solitaire_ds/solver_models.py, line " in err and "(the package's code, not yours)" in err
    assert "solitaire-ds check" not in err and "your exercises pass their checks, report it" in err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_on_a_students_broken_file_says_where_without_a_traceback(
        finished: Path, capsys: pytest.CaptureFixture[str], workers: str) -> None:
    stack = finished / "structures/array_stack.py"
    stack.write_text(stack.read_text(encoding="utf-8").replace(
        "def push(self, item: T) -> None:",
        "def push(self, item: T) -> None:\n        raise RuntimeError('my bug')", 1), encoding="utf-8")
    status, out, err = run(capsys, "simulate", "perpetual-motion", "--impl", ".", "--games", "20",
                           "--workers", workers)
    assert status == 1 and "Traceback" not in err and out == ""
    assert "the game stopped: ArrayStack.push raised RuntimeError: my bug" in err
    assert "\n  in your structures/array_stack.py, line " in err and "run `solitaire-ds check`" in err


def _module(path: Path, source: str) -> object:
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("students_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_package_call_that_raises_inside_the_students_code_blames_their_line(tmp_path: Path) -> None:
    mine = _module(tmp_path / "deal.py", "from solitaire_ds.structures import ArrayStack\n\n\n"
                                         "def draw():\n    return ArrayStack().pop()\n")
    with pytest.raises(IndexError) as caught:
        mine.draw()  # type: ignore[attr-defined]
    stop = stop_of(caught.value, tmp_path)
    assert stop == Stop("draw", "deal.py", 5, True, "EmptyStructureError: pop from an empty stack")


def test_an_error_raised_where_no_student_file_runs_is_the_packages(tmp_path: Path) -> None:
    with pytest.raises(IndexError) as caught:
        ArrayStack[int]().pop()
    stop = stop_of(caught.value, tmp_path)
    assert not stop.theirs and stop.where == "ArrayStack.pop"
    assert stop.file == "solitaire_ds/structures/array_stack.py"
    assert "solitaire-ds check" not in stop.said() and "not yours" in stop.said()
