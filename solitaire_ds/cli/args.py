"""What every command shares: the one-line error, argument types and safe output files.

Invariant: a command checks everything the user typed before it does any work, in one
way: each option's value goes through an ``argparse`` type below, and a bad value ends
the run with one line, ``solitaire-ds COMMAND: error: argument --FLAG: ...``, naming the
value (cut to 40 characters), and exit status 2. Later misuse (an output file that cannot
be written, options that do not go together) raises :class:`UsageError`, which
:func:`solitaire_ds.cli.main` prints as one line with the same exit status.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from solitaire_ds.text import fit_for, shown

__all__ = [
    "MAX_GAMES",
    "MAX_SECONDS",
    "Parser",
    "Terminated",
    "UsageError",
    "check_output_folder",
    "check_output_path",
    "game_count",
    "max_workers",
    "positive_int",
    "process_count",
    "seconds",
    "seed_int",
    "show_count",
    "terminate",
    "worker_count",
    "write_output",
]

#: The most games one run plays: every result is kept for the summary (about 400 bytes
#: a game, so 4 GB at this bound), and 10 million games already pin a rate to ±0.03%.
MAX_GAMES = 10_000_000
#: The longest time limit an option accepts: a day (more is a typo, and the alarms cannot
#: count that far).
MAX_SECONDS = 86_400.0


class UsageError(Exception):
    """Bad input on the command line: reported in one line with exit status 2."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an interruption (a command ends as Ctrl-C ends it, with exit status 143)."""


def terminate(signum: int, frame: object) -> None:
    """A SIGTERM handler: raise :class:`Terminated` where the main thread is."""
    raise Terminated(f"signal {signum}")


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, fit_for(sys.stderr, f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n")


# -- argument types (each error is one line naming the bad value) -----------------------


def _whole_number(text: str) -> int:
    digits = text.strip().lstrip("+-")
    if not (digits.isascii() and digits.isdigit()):  # int() also reads "²"-like digits
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number")
    try:
        return int(text)
    except ValueError:  # Python refuses to read an integer of more than 4300 digits
        raise argparse.ArgumentTypeError(f"{shown(text)} is far too large") from None


def positive_int(text: str) -> int:
    """Parse a count of at least 1.

    Runtime complexity: O(len(text)).

    >>> positive_int("3")
    3
    """
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{shown(text)} must be at least 1")
    return value


def game_count(text: str) -> int:
    """Parse ``--games``: from 1 up to :data:`MAX_GAMES`.

    Runtime complexity: O(len(text)).

    >>> game_count("100000")
    100000
    """
    value = positive_int(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is more than {MAX_GAMES:,} games in one run; split it into runs "
            "with different --seed values")
    return value


def max_workers() -> int:
    """Return the most processes a run may ask for: 4 per CPU core, at most 64.

    Runtime complexity: O(1).
    """
    return min(64, 4 * (os.cpu_count() or 1))


def process_count(text: str) -> int:
    """Parse ``--workers`` or ``--jobs``: from 1 up to :func:`max_workers`.

    Runtime complexity: O(len(text)).

    >>> process_count("2")
    2
    >>> process_count("²")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '²' is not a whole number
    """
    value = positive_int(text)
    if value > max_workers():
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is more than {max_workers()} processes "
            f"(4 per CPU core, at most 64; this machine has {os.cpu_count() or 1})")
    return value


#: ``--workers`` (simulations) and ``--jobs`` (grading) are the same kind of count.
worker_count = process_count


def show_count(text: str) -> int:
    """Parse ``--show``: how many records to print, from 0 up.

    Runtime complexity: O(len(text)).

    >>> show_count("3")
    3
    >>> show_count("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-1' must be 0 or more
    """
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{shown(text)} must be 0 or more")
    return value


def seed_int(text: str) -> int:
    """Parse a seed: a whole number from 0 up.

    Runtime complexity: O(len(text)).

    >>> seed_int("7")
    7
    """
    try:
        value = _whole_number(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"invalid seed {shown(text)}: a seed is a whole number "
                                         "of at most 4300 digits") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"invalid seed {shown(text)}: a seed is 0 or more")
    return value


def seconds(text: str) -> float:
    """Parse a time limit: a number of seconds above 0 and at most :data:`MAX_SECONDS`.

    Runtime complexity: O(len(text)).

    >>> seconds("2.5")
    2.5
    >>> seconds("inf")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'inf' is not a number of seconds from 0 to 86400
    """
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number of seconds from 0 to {MAX_SECONDS:g}")
    return value


# -- output files ------------------------------------------------------------------------


def check_output_path(path: Path, flag: str, inputs: Sequence[Path | str] = (),
                      others: Sequence[tuple[str, Path | None]] = ()) -> None:
    """Refuse, before any work is done, an output file that could not or should not be written.

    Raise :class:`UsageError` naming ``flag`` and ``path`` when its folder does not exist
    or may not be written, when the path is a folder, when it is one of the command's
    ``inputs`` or lies inside one of them (a decks file, a submission folder being
    graded), or when another output flag of ``others`` names the same file. Nothing is
    created: a run that fails later leaves no empty file behind. A symbolic link at the
    path is never followed: :func:`write_output` replaces the link itself.

    Runtime complexity: O(len(inputs) + len(others)) file-system look-ups.

    >>> check_output_path(Path("."), "--csv")
    Traceback (most recent call last):
    ...
    solitaire_ds.cli.args.UsageError: --csv .: that is a folder; give a file name
    """
    folder = path.parent
    if path.is_dir() and not path.is_symlink():
        raise UsageError(f"{flag} {path}: that is a folder; give a file name")
    if not folder.is_dir():
        if folder.exists():
            raise UsageError(f"{flag} {path}: {folder} is not a folder")
        raise UsageError(f"{flag} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or not _can_create_in(folder):
        raise UsageError(f"{flag} {path}: the folder {folder} may not be written")
    target = _real(path)
    for given in inputs:
        source = _real(Path(given))
        if target == source or source in target.parents or _same_file(path, Path(given)):
            what = "inside the folder" if source in target.parents else "the same file as"
            raise UsageError(f"{flag} {path}: that is {what} {given}, which this command reads; "
                             "write the output somewhere else")
    for other_flag, other in others:
        if other is not None and _real(other) == target:
            raise UsageError(f"{flag} {path}: {other_flag} names the same file; give each its own")


def check_output_folder(folder: Path, flag: str, inputs: Sequence[Path | str] = (), private: bool = False) -> None:
    """Refuse an output folder that is a file, lies inside an input, or may not be written; make it
    (with ``private``, one only its owner may enter: it will hold students' results).

    Runtime complexity: O(len(inputs)) file-system look-ups.
    """
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{flag} {folder}: that is a file; give a folder")
    check_output_path(folder / "x", flag, inputs) if folder.is_dir() else check_output_path(folder, flag, inputs)
    try:
        folder.mkdir(mode=0o700 if private else 0o777, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{flag} {folder}: {exc.strerror}") from None


def _can_create_in(folder: Path) -> bool:
    """Return whether a file can be made in ``folder`` (``os.access`` says yes to root even in ``/proc``)."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".solitaire-ds-probe.", dir=folder)
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return True


def _real(path: Path) -> Path:
    """Return ``path`` with its folder's links resolved (the last part as it is)."""
    return Path(os.path.realpath(path.parent)) / path.name


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def write_output(path: Path, text: str, private: bool = False) -> None:
    """Write ``text`` to ``path`` (UTF-8) whole or not at all; a failure is a one-line :class:`UsageError`.

    The text goes to a new temporary file beside ``path``, flushed to disk, then renamed
    over it: a full disk or a crash leaves the old file as it was and no half-written
    one, and a symbolic link planted at ``path`` is replaced, never written through. With
    ``private`` (students' results: a gradebook, feedback) only the owner may read it.

    Runtime complexity: O(len(text)).
    """
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o600 if private else 0o644)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
