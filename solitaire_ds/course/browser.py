"""The checks and the games for a page that runs the package in the browser (Pyodide).

A student's file arrives as text. :func:`run_checks` writes it into a fresh folder laid out
like ``exercises/``, runs that exercise's contract tests in this process with the grader's
own pytest plugin (the same events, the same Hypothesis profile), scores them as the
grader does, and returns the text ``solitaire-ds check`` prints, every failing test listed.
:func:`play` runs a game on the student's structure (the others from the package) and
returns it step by step, each step with its board drawn by :mod:`solitaire_ds.boards`.

What differs from ``check``: no separate process and no sandbox (a browser tab is its own
sandbox), and no per-test time limit where the platform has no interval timers; the page
stops a runaway run by ending the Web Worker that runs it. The instructor's grade comes
from ``solitaire-ds grade``, never from here.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from solitaire_ds.course import catalog, child, plugin, report, runner
from solitaire_ds.course.config import Course
from solitaire_ds.course.honesty import forbidden
from solitaire_ds.course.results import ExerciseResult, Limits, SubmissionResult

__all__ = ["GAME_EXERCISES", "GAME_OF", "PLAYABLE", "play", "run_checks"]

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


@contextlib.contextmanager
def _alarms_if_any() -> Iterator[None]:
    """Let the plugin arm its per-test alarms; where the platform has none, make them no-ops.

    Pyodide's ``signal`` module has no interval timers: there the page's stop button (which
    ends the worker) is the only limit.
    """
    if hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF"):
        yield
        return
    names = ("setitimer", "ITIMER_PROF", "ITIMER_REAL", "SIGPROF", "SIGALRM", "signal")
    saved = {name: getattr(signal, name) for name in names if hasattr(signal, name)}
    stand_ins = {"setitimer": lambda *args: (0.0, 0.0), "ITIMER_PROF": 2, "ITIMER_REAL": 0,
                 "SIGPROF": 27, "SIGALRM": 14, "signal": lambda signum, handler: None}
    for name, value in stand_ins.items():
        setattr(signal, name, value)
    try:
        yield
    finally:
        for name in names:
            if name in saved:
                setattr(signal, name, saved[name])
            elif hasattr(signal, name):
                delattr(signal, name)


def _folder_with(exercise: int, source: str, root: Path) -> Path:
    """Write ``source`` as exercise ``exercise``'s file in a new folder laid out like ``exercises/``."""
    ex = catalog.exercise(exercise)
    folder = root / "exercises"
    path = folder / ex.relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return folder


@contextlib.contextmanager
def _environ(values: dict[str, str]) -> Iterator[None]:
    """Set environment variables for the length of a run, as a child's environment has them."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run_checks(exercise: int, source: str, *, every: bool = True) -> str:
    """Run exercise ``exercise``'s contract tests on ``source``; return ``check``'s report.

    ``every`` lists every failing test with its message (``check --all``); without it, the
    first failure only, as ``check`` prints by default. The report is the text ``check``
    prints after its first line (which names the folder checked).

    Runtime complexity: the contract tests' own (a few seconds for a structure exercise).
    """
    import pytest

    ex = catalog.exercise(exercise)
    limits = Limits()
    started = time.monotonic()
    key = secrets.token_bytes(32)
    contracts = runner.contracts_dir()
    environment = {
        plugin.ENV_FAIL_FAST: "1" if limits.fail_fast else "0",
        plugin.ENV_TEST_SECONDS: f"{limits.test_seconds:g}",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # only the plugins a child loads
    }
    # The grader's screen first: a file that reaches for code it does not hold scores 0 unrun
    # (its tests are only collected, for the denominator).
    why = forbidden(source, ex.relpath) if limits.screen else ""
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-browser-") as tmp:
        folder = _folder_with(exercise, source, Path(tmp))  # a new path each run: a new module
        results = Path(tmp) / "results.jsonl"
        fd = os.open(results, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        arguments = child.pytest_arguments([str(contracts / Path(ex.test_file).name)], str(folder),
                                           contracts.parents[2], collect_only=bool(why))
        with _environ(environment), plugin.recording(fd, key, runner.graded_names_of(ex)), _alarms_if_any(), \
                contextlib.redirect_stdout(io.StringIO()):
            pytest.main(arguments)
        events, forged = child.read_events(results, key)
    run = child.Run(events, 0, False, "", forged)
    # The denominators: a child collects them on the reference; here the same contract file
    # collects the same tests (collecting never imports the file under test).
    ids = tuple(next((e["ids"] for e in events if e["e"] == "collected"), []))
    course = Course()
    result = (ExerciseResult(course.exercise(ex), 0, len(ids), reason=why) if why
              else runner.exercise_result(course, ex, ids, run, limits))
    seconds = round(time.monotonic() - started, 2)
    return report.check_text(SubmissionResult("browser", "browser", (result,), (), seconds), every=every)


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
    from solitaire_ds.boards import board_svg, moved_cards
    from solitaire_ds.cards import Deck
    from solitaire_ds.games import game_class
    from solitaire_ds.players import make_player

    if exercise not in PLAYABLE:
        raise ValueError(f"exercise {exercise} has no game to play on its page")
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-browser-") as tmp:
        folder = _folder_with(exercise, source, Path(tmp))
        if exercise in GAME_EXERCISES:
            package_cls = game_class(GAME_EXERCISES[exercise])
            module = catalog.load_module(str(folder), catalog.exercise(exercise).module)
            cls = getattr(module, package_cls.__name__)
            state = cls(Deck.shuffled(seed))
            whose = f"your {package_cls.__name__} ({catalog.exercise(exercise).relpath})"
        else:
            default, linked = GAME_OF[exercise]
            toolkit = catalog.load_toolkit(str(folder), linked=linked)
            cls = game_class(game or default)
            state = cls(Deck.shuffled(seed), toolkit=toolkit)
            whose = toolkit.source.removeprefix(f"{folder}: ")  # the temporary folder means nothing on a page
        choose = make_player("greedy", cls) if cls.has_decisions else None
        title = f"{cls.title}, seed {seed}"
        frames = [{"text": f"The deal, on {whose}.", "svg": board_svg(state, title=f"{title}, the deal")}]
        for number, events in enumerate(state.steps(choose), start=1):
            said = "; ".join(state.describe(e) for e in events)
            frames.append({"text": said, "svg": board_svg(state, title=f"{title}, after step {number}",
                                                          highlight=moved_cards(events))})
    return frames
