"""The checks and the games for a page that runs the package in the browser (Pyodide).

A student's file arrives as text. :func:`run_checks` writes it into a fresh folder laid out
like ``exercises/``, runs that exercise's contract tests in this process with the grader's
own judge (the same tests, the same Hypothesis profile, the same events), scores them as
the grader does, and returns the text ``solitaire-ds check`` prints, every failing test
listed. :func:`play` runs a game on the student's structure (the others from the package)
and returns it step by step, each step with its board drawn by :mod:`solitaire_ds.boards`.
:func:`check_page` and :func:`play_page` are what the page calls: the same, as plain data
(whether every test passes, for the link onward; the terminal's one line when the student's
code stops a game, never a traceback).

What differs from ``check``: the student's code is served in this process (the judge's
"local" transport) instead of a sandboxed worker -- a browser tab is its own sandbox and the
student is the only one there -- and there is no per-call time limit: the page stops a
runaway run by ending the Web Worker that runs it. The instructor's grade comes from
``solitaire-ds grade``, never from here.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

from solitaire_ds.blame import stop_of
from solitaire_ds.course import catalog, report
from solitaire_ds.course.config import Course
from solitaire_ds.course.grader import runner
from solitaire_ds.course.grader.plan import JudgeConfig
from solitaire_ds.course.results import Limits, SubmissionResult
from solitaire_ds.text import safe_text

__all__ = ["GAME_EXERCISES", "GAME_OF", "PLAYABLE", "check_page", "play", "play_page", "run_checks"]

#: The game each structure exercise plays, and whether it takes the linked classes.
GAME_OF: dict[int, tuple[str, bool]] = {
    1: ("perpetual-motion", False), 2: ("perpetual-motion", True),
    3: ("perpetual-motion", False), 4: ("perpetual-motion", True),
    5: ("klondike", False), 6: ("klondike", True),
}
#: The game each game exercise writes: Play runs the student's own class of it.
GAME_EXERCISES: dict[int, str] = {8: "perpetual-motion", 9: "idiots-delight", 10: "aces-up", 11: "klondike"}
#: The exercises whose page can play a game on the student's code (7 and 12 cannot: a deck
#: and a solver are not a game's table).
PLAYABLE = frozenset(GAME_OF) | frozenset(GAME_EXERCISES)


def _folder_with(exercise: int, source: str, root: Path) -> Path:
    """Write ``source`` as exercise ``exercise``'s file in a new folder laid out like ``exercises/``."""
    ex = catalog.exercise(exercise)
    folder = root / "exercises"
    path = folder / ex.relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return folder


def run_checks(exercise: int, source: str, *, every: bool = True) -> str:
    """Run exercise ``exercise``'s contract tests on ``source``; return ``check``'s report.

    ``every`` lists every failing test with its message (``check --all``); without it, the
    first failure only, as ``check`` prints by default. The report is the text ``check``
    prints after its first line (which names the folder checked).

    Runtime complexity: the contract tests' own (a few seconds for a structure exercise).
    """
    return _checked(exercise, source, every)[0]


def check_page(exercise: int, source: str) -> dict[str, Any]:
    """:func:`run_checks` as the page's **Run checks** shows it: ``{"text": report, "passed": bool}``.

    ``passed`` is true when the exercise passes every test (the page then links the next one).

    Runtime complexity: that of :func:`run_checks`.
    """
    text, passed = _checked(exercise, source, True)
    return {"text": text, "passed": passed}


def _checked(exercise: int, source: str, every: bool) -> tuple[str, bool]:
    """``check``'s report on ``source`` (see :func:`run_checks`), and whether it passes every test."""
    import pytest

    ex = catalog.exercise(exercise)
    limits = Limits()
    started = time.monotonic()
    contracts = runner.contracts_dir()
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-browser-") as tmp:
        folder = _folder_with(exercise, source, Path(tmp))  # a new path each run: a new module
        config = JudgeConfig(results=Path(tmp) / "results.jsonl", limits=limits,
                             graded={ex.number: list(runner.graded_names_of(ex))}, transport="local",
                             impl=str(folder))
        config.write(Path(tmp) / "judge.json")
        ini = Path(tmp) / "judge.ini"
        ini.write_text(runner.JUDGE_INI, encoding="utf-8")
        arguments = runner.judge_arguments([str(contracts / Path(ex.test_file).name)], Path(tmp) / "judge.json", ini)
        # only the plugins a judge loads (not every installed one), as in a grading run
        with mock.patch.dict(os.environ, {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}), \
                contextlib.redirect_stdout(io.StringIO()):
            code = pytest.main(arguments)
        events, unreadable = runner.read_events(config.results)
    run = runner.JudgeRun(events, int(code), 0.0, "", False, unreadable)
    course = Course()
    ids = runner.collected_ids(run, [ex]).get(ex.number, ())
    result = runner.exercise_score(course, ex, ids, run, limits)
    seconds = round(time.monotonic() - started, 2)
    # the page is on the site: its tutorials are here, whatever the terminal would say
    return report.check_text(SubmissionResult("browser", "browser", (result,), (), seconds), every=every,
                             tutorials="on this site"), \
        result.status == "pass"


def play(exercise: int, source: str, game: str = "", seed: int = 1) -> list[dict[str, Any]]:
    """Play a game on the student's code from ``source``; return its steps.

    For a structure exercise (1-6), the game its tutorial plays (:data:`GAME_OF`, or
    ``game``) runs on the student's structure, the others from the package; for a game
    exercise (8-11), the student's own class of that game runs, on the package's
    structures. Each step is ``{"text": what happened, "svg": the board after it}``; the
    first is the table as the game starts, and says whose code it runs on. Raise
    ``ValueError`` for an exercise with no game to play (:data:`PLAYABLE`), and whatever
    the student's code raises.

    Runtime complexity: O(steps × cards on the table).
    """
    if exercise not in PLAYABLE:
        raise ValueError(f"exercise {exercise} has no game to play on its page")
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-browser-") as tmp:
        start = _loaded(exercise, _folder_with(exercise, source, Path(tmp)), game)
        return _frames(*start, seed)


def play_page(exercise: int, source: str, game: str = "", seed: int = 1) -> dict[str, Any]:
    """:func:`play` as the page's **Play** shows it: ``{"frames": steps}``, or ``{"error": line}``.

    When the student's code raises, the line is the one ``play --impl`` prints in a terminal
    (:meth:`~solitaire_ds.blame.Stop.headline`: the method that raised, the exception, no
    path), or, for a file that does not import, the line ``check`` prints for it: never a
    traceback, never the temporary folder the file was written to.

    Runtime complexity: that of :func:`play`.
    """
    if exercise not in PLAYABLE:
        raise ValueError(f"exercise {exercise} has no game to play on its page")
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-browser-") as tmp:
        folder = _folder_with(exercise, source, Path(tmp))
        try:
            start = _loaded(exercise, folder, game)
        except Exception as exc:  # a student's file can fail to import in any way
            said = f"{catalog.exercise(exercise).relpath} does not import: {type(exc).__name__}: {exc}"
        else:
            try:
                return {"frames": _frames(*start, seed)}
            except Exception as exc:  # the student's code broke the game: say where, in one line
                said = stop_of(exc, folder).headline()
        said = re.sub(r"_impl_[0-9a-f]+\.", "", said.replace(f"{tmp}{os.sep}exercises{os.sep}", ""))
        return {"error": safe_text(said.replace(tmp, "..."), 300, newlines=False)}


def _loaded(exercise: int, folder: Path, game: str) -> tuple[type[Any], Any, str]:
    """The game class to play, the student's structures (or None) and whose code it is."""
    from solitaire_ds.games import game_class

    if exercise in GAME_EXERCISES:
        package_cls = game_class(GAME_EXERCISES[exercise])
        module = catalog.load_module(str(folder), catalog.exercise(exercise).module)
        return (getattr(module, package_cls.__name__), None,
                f"your {package_cls.__name__} ({catalog.exercise(exercise).relpath})")
    default, linked = GAME_OF[exercise]
    toolkit = catalog.load_toolkit(str(folder), linked=linked)
    whose = toolkit.source.removeprefix(f"{folder}: ")  # the temporary folder means nothing on a page
    return game_class(game or default), toolkit, whose


def _frames(cls: type[Any], toolkit: Any, whose: str, seed: int) -> list[dict[str, Any]]:
    """Play ``cls`` on deal ``seed`` (with ``toolkit``'s structures, when given); return its steps."""
    from solitaire_ds.boards import board_svg, moved_cards
    from solitaire_ds.cards import Deck
    from solitaire_ds.players import make_player

    state = cls(Deck.shuffled(seed)) if toolkit is None else cls(Deck.shuffled(seed), toolkit=toolkit)
    choose = make_player("greedy", cls) if cls.has_decisions else None
    title = f"{cls.title}, seed {seed}"
    frames = [{"text": f"The deal, on {whose}.", "svg": board_svg(state, title=f"{title}, the deal")}]
    for number, events in enumerate(state.steps(choose), start=1):
        said = "; ".join(state.describe(e) for e in events)
        frames.append({"text": said, "svg": board_svg(state, title=f"{title}, after step {number}",
                                                      highlight=moved_cards(events))})
    return frames
