"""The practice pages' Python side, in plain CPython: the same words as ``check``, a real game."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from solitaire_ds.course import REPO_ROOT
from solitaire_ds.course.browser import GAME_EXERCISES, GAME_OF, PLAYABLE, check_page, play, play_page, run_checks
from solitaire_ds.course.catalog import exercise

ZOO = REPO_ROOT / "tests" / "grading" / "bugzoo"


def _solution(n: int) -> str:
    return (REPO_ROOT / "solutions" / exercise(n).relpath).read_text(encoding="utf-8")


def _buggy(name: str) -> tuple[int, str]:
    bug = tomllib.loads((ZOO / f"{name}.toml").read_text(encoding="utf-8"))
    source = _solution(bug["exercise"])
    for change in bug["replace"]:
        assert change["old"] in source
        source = source.replace(change["old"], change["new"])
    return bug["exercise"], source


def _check(n: int, source: str, tmp_path: Path) -> str:
    """What ``solitaire-ds check N --impl FOLDER`` prints for ``source``, its first line dropped."""
    path = tmp_path / exercise(n).relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "solitaire_ds", "check", str(n), "--impl", str(tmp_path)],
                         capture_output=True, text=True, check=False).stdout
    body = out.split("\n\n", 1)[0].split("   #  exercise", 1)[0]  # "Checking FOLDER on 1 exercise(s)...", wrapped
    body = out[len(body):]
    body = re.sub(r"on the site `solitaire-ds docs` serves|on your course's site \(ask your instructor where\)",
                  "on this site", body)  # where the tutorials are: a page is on the site
    return "\n".join(line for line in body.rstrip("\n").splitlines() if not line.startswith("note: "))


@pytest.mark.parametrize("bug", ["02_stack_peek_pops", "07_queue_enqueue_forgets_wrap"])
def test_a_zoo_bug_reads_word_for_word_as_check_prints_it(bug: str, tmp_path: Path) -> None:
    n, source = _buggy(bug)
    assert run_checks(n, source, every=False) == _check(n, source, tmp_path)


def test_a_solution_passes_as_check_says(tmp_path: Path) -> None:
    assert run_checks(3, _solution(3)) == _check(3, _solution(3), tmp_path)
    assert "Exercise 3 passes every test. Well done!" in run_checks(3, _solution(3))


def test_every_failing_test_is_listed_by_default() -> None:
    report = run_checks(1, (REPO_ROOT / "exercises" / exercise(1).relpath).read_text(encoding="utf-8"))
    failing = re.findall(r"^  failing test: (\S+)$", report, re.MULTILINE)
    total = re.search(r"FAIL\s+0/(\d+)", report)
    assert total is not None and len(failing) == int(total[1]) > 5  # check shows 5 at most; here all


def test_a_file_that_does_not_import_says_why_on_one_line() -> None:
    report = run_checks(1, "def broken(:\n")
    assert "structures/array_stack.py does not import: SyntaxError" in report


def test_a_second_run_sees_the_new_text_not_the_old_module() -> None:
    n, buggy = _buggy("02_stack_peek_pops")
    assert "FAIL" in run_checks(n, buggy)
    assert "PASS" in run_checks(n, _solution(n))


@pytest.mark.parametrize("n", sorted(GAME_OF))
def test_play_runs_the_exercises_game_on_the_students_structure(n: int) -> None:
    frames = play(n, _solution(n))
    game, linked = GAME_OF[n]
    kind = ("Linked" if linked else "Array") + exercise(n).title.split(":")[0].removeprefix("Linked") \
        .removeprefix("Array")
    assert f"your {kind}" in frames[0]["text"]
    assert len(frames) > 10 and all(frame["svg"].startswith("<svg") for frame in frames)
    assert ("stock (Queue)" in frames[-1]["svg"]) and (("waste (Stack)" in frames[-1]["svg"]) == (game == "klondike"))


def test_play_on_a_broken_structure_raises_what_it_raises() -> None:
    source = _solution(1).replace("def push(self, item: T) -> None:\n",
                                  "def push(self, item: T) -> None:\n        raise RuntimeError('boom')\n", 1)
    with pytest.raises(RuntimeError, match="boom"):
        play(1, source)


def test_play_page_says_the_terminals_one_line_naming_the_method(tmp_path: Path) -> None:
    source = _solution(1).replace("self._resize(2 * len(self._slots))", "self._resize(len(self._slots))")
    assert source != _solution(1)  # a push that never grows writes past the last slot
    (tmp_path / "structures").mkdir()
    (tmp_path / "structures" / "array_stack.py").write_text(source, encoding="utf-8")
    terminal = subprocess.run([sys.executable, "-m", "solitaire_ds", "play", "perpetual-motion", "--seed", "1",
                               "--impl", str(tmp_path)], capture_output=True, text=True, check=False).stderr
    said = play_page(1, source)
    assert set(said) == {"error"}
    assert said["error"] == "the game stopped: ArrayStack.push raised IndexError: list assignment index out of range"
    assert terminal.startswith(f"solitaire-ds: {said['error']}\n")  # one source for both


def test_play_page_says_a_file_that_does_not_import_without_its_folder() -> None:
    for source, why in [("def broken(:\n", "SyntaxError: invalid syntax (array_stack.py, line 1)"),
                        ("x = 1\n", "AttributeError: module 'structures.array_stack' has no attribute 'ArrayStack'")]:
        said = play_page(1, source)["error"]
        assert said == f"structures/array_stack.py does not import: {why}"
    assert len(play_page(1, _solution(1))["frames"]) > 10


def test_check_page_says_whether_every_test_passes() -> None:
    n, buggy = _buggy("02_stack_peek_pops")
    assert check_page(n, _solution(n)) == {"text": run_checks(n, _solution(n)), "passed": True}
    assert check_page(n, buggy)["passed"] is False


def test_an_honest_import_is_graded_on_what_the_code_does_as_check_says(tmp_path: Path) -> None:
    source = _solution(7) + "\nimport os\nimport sys\n"  # harmless imports: the score is the code's
    report = run_checks(7, source, every=False)
    assert report == _check(7, source, tmp_path)
    assert "PASS" in report and "10/10" in report


def test_play_takes_a_game_and_a_seed_and_names_no_temporary_folder() -> None:
    frames = play(1, _solution(1), "aces-up", 7)
    assert 'aria-label="Aces Up, seed 7, the deal.' in frames[0]["svg"]
    assert frames[0]["text"].startswith("The deal, on your ArrayStack (structures/array_stack.py)"), frames[0]["text"]
    assert frames[0]["svg"] != play(1, _solution(1), "aces-up", 8)[0]["svg"]  # another seed, another deal


@pytest.mark.parametrize("n", range(7, 13))
def test_the_deck_game_and_solver_exercises_check_as_check_does(n: int, tmp_path: Path) -> None:
    assert run_checks(n, _solution(n)) == _check(n, _solution(n), tmp_path)


@pytest.mark.parametrize("n", sorted(GAME_EXERCISES))
def test_play_runs_the_students_own_game_class(n: int) -> None:
    frames = play(n, _solution(n))
    assert frames[0]["text"].startswith("The deal, on your ") and exercise(n).relpath in frames[0]["text"]
    assert len(frames) > 5 and all(frame["svg"].startswith("<svg") for frame in frames)
    # the student's class is the one that plays: a change to it shows in every step
    name = {8: "PerpetualMotion", 9: "IdiotsDelight", 10: "AcesUp", 11: "Klondike"}[n]
    marked = _solution(n) + f"\n\n{name}.describe = lambda self, event: 'mine'\n"
    assert {part for frame in play(n, marked)[1:] for part in frame["text"].split("; ")} == {"mine"}


@pytest.mark.parametrize("n", sorted(set(range(1, 13)) - PLAYABLE))
def test_an_exercise_with_no_table_has_no_game_to_play(n: int) -> None:
    with pytest.raises(ValueError, match=f"exercise {n} has no game to play"):
        play(n, _solution(n))


def test_the_checks_run_without_the_modules_a_browsers_python_lacks() -> None:
    # Pyodide has no resource, fcntl, termios, grp or pwd: the practice pages import and run
    # the same judge, in-process, without them
    code = ("import sys\nfor m in ('resource', 'fcntl', 'termios', 'grp', 'pwd'):\n    sys.modules[m] = None\n"
            "from pathlib import Path\nfrom solitaire_ds.course.browser import run_checks\n"
            "print(run_checks(7, Path('solutions/shuffle.py').read_text()))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    assert "PASS" in done.stdout and "10/10" in done.stdout
