"""Who broke a game played on a student's code: their files, or the package's.

``play`` and ``simulate`` with ``--impl FOLDER`` run a student's structures, game rules
and shuffle inside the package's code (the game loop, the players, the solver). When
something raises, the traceback says whose code was running: :func:`stop_of` reads it.

The rule: the failure is the student's when some frame of the traceback runs a file of
their folder, and then the innermost such frame is where their code broke (their
``AcesUp.apply`` popping an empty Stack broke in ``apply``, though the package's ``pop``
raised). When no frame runs their files, their code had returned before anything
raised: the failing frame is the package's, and no student file is blamed for it. What
their code returned may still have led to it, so the message claims no more than that the
package's code raised, to be reported if their exercises pass their checks.

A :class:`Stop` is plain data, so a worker process of ``simulate`` can send it back
inside a :class:`GameStopped` (a traceback does not cross processes).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from solitaire_ds.text import safe_text, shorten

__all__ = ["GameStopped", "Stop", "stop_of"]

#: The longest exception message a :class:`Stop` keeps (a student's message can be huge).
MAX_MESSAGE = 300


@dataclass(frozen=True)
class Stop:
    """Where a game stopped: the function, its file, whose file it is, and the error."""

    #: ``Class.method`` (or ``function``) of the failing frame.
    where: str
    #: The failing frame's file: relative to the student's folder when theirs
    #: (``structures/array_stack.py``), to the package's parent when the package's
    #: (``solitaire_ds/solver_models.py``), else as Python names it.
    file: str
    line: int
    #: True when the failing frame runs a file of the student's folder.
    theirs: bool
    #: ``"TypeError: message"``.
    error: str

    def headline(self) -> str:
        """Return the message's first line, which names no file: the practice page's **Play** says it too.

        >>> Stop("ArrayStack.pop", "structures/array_stack.py", 9, True, "IndexError: x").headline()
        'the game stopped: ArrayStack.pop raised IndexError: x'
        """
        return f"the game stopped: {self.where} raised {self.error}"

    def said(self) -> str:
        """Return the message (no traceback) that ``play`` and ``simulate`` print.

        >>> print(Stop("model_for", "solitaire_ds/solver_models.py", 9, False, "TypeError: x").said())
        solitaire-ds: the game stopped: model_for raised TypeError: x
          in solitaire_ds/solver_models.py, line 9 (the package's code, not yours):
          if your exercises pass their checks, report it with the command you ran
        >>> print(Stop("ArrayStack.push", "structures/array_stack.py", 82, True, "IndexError: x").said())
        solitaire-ds: the game stopped: ArrayStack.push raised IndexError: x
          in your structures/array_stack.py, line 82:
          run `solitaire-ds check` to find the bug
        """
        first = f"solitaire-ds: {self.headline()}"
        if self.theirs:
            return f"{first}\n  in your {self.file}, line {self.line}:\n  run `solitaire-ds check` to find the bug"
        return (f"{first}\n  in {self.file}, line {self.line} (the package's code, not yours):\n"
                "  if your exercises pass their checks, report it with the command you ran")


class GameStopped(Exception):
    """A game on a student's code raised: its :class:`Stop` (picklable, unlike a traceback)."""

    def __init__(self, stop: Stop) -> None:
        super().__init__(stop)
        self.stop = stop


def stop_of(exc: BaseException, folder: Path | None) -> Stop:
    """Return where ``exc`` stopped the game, judged against the student's ``folder``.

    >>> try:
    ...     int("x")
    ... except ValueError as exc:
    ...     stop = stop_of(exc, Path("/nowhere"))
    >>> stop.theirs, stop.error
    (False, "ValueError: invalid literal for int() with base 10: 'x'")
    """
    frames = _frames(exc.__traceback__)
    package = Path(__file__).resolve().parent
    mine = folder.resolve() if folder is not None else None
    # A folder may hold the package (--impl . in a checkout): the package's files are never theirs.
    theirs = [tb for tb in frames if mine is not None and _inside(tb.tb_frame.f_code.co_filename, mine)
              and not _inside(tb.tb_frame.f_code.co_filename, package)]
    failing = theirs[-1] if theirs else (frames[-1] if frames else None)
    message = safe_text(shorten(str(exc), MAX_MESSAGE), newlines=False)
    error = f"{type(exc).__name__}: {message}".rstrip(": ")
    if failing is None:
        return Stop("the game", "?", 0, False, error)
    frame = failing.tb_frame
    owner = frame.f_locals.get("self")
    name = frame.f_code.co_name
    where = f"{type(owner).__name__}.{name}" if owner is not None else name
    path = Path(frame.f_code.co_filename)
    if theirs and mine is not None:
        shown = path.resolve().relative_to(mine).as_posix()
    else:
        shown = (path.resolve().relative_to(package.parent).as_posix() if _inside(str(path), package)
                 else str(path))
    return Stop(where, shown, failing.tb_lineno, bool(theirs), error)


def _frames(tb: TracebackType | None) -> list[TracebackType]:
    """Return the traceback's entries, outermost first."""
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    return frames


def _inside(filename: str, folder: Path) -> bool:
    """Return True when ``filename`` is a file under ``folder``."""
    try:
        return Path(filename).resolve().is_relative_to(folder)
    except (OSError, ValueError):
        return False
