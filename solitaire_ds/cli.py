"""The ``solitaire-ds`` command line.

Each command lives with the feature it serves: a module that offers
``register(subparsers)`` adds its sub-command, and its handler returns the exit
status. Misuse of the command line (an unknown game, a bad number, a malformed deck)
prints one line, ``solitaire-ds: error: ...``, and exits with status 2; no traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import NoReturn

__all__ = ["COMMAND_MODULES", "UsageError", "check_output_path", "main", "write_output"]

#: Modules that add sub-commands, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "solitaire_ds.commands",
    "solitaire_ds.grading.commands",
    "solitaire_ds.klondike_report",
    "solitaire_ds.docs_command",
)


class UsageError(Exception):
    """Bad input on the command line: reported in one line with exit status 2."""


def check_output_path(path: Path, flag: str) -> None:
    """Refuse, before any work is done, an output file that could not be written.

    Raise :class:`UsageError` naming ``flag`` and ``path`` when the path is a folder, its
    folder does not exist, or either may not be written. Nothing is created: a run that
    fails later leaves no empty file behind.

    >>> check_output_path(Path("."), "--csv")
    Traceback (most recent call last):
    ...
    solitaire_ds.cli.UsageError: --csv .: that is a folder; give a file name
    """
    folder = path.parent
    if path.is_dir():
        raise UsageError(f"{flag} {path}: that is a folder; give a file name")
    if not folder.is_dir():
        if folder.exists():
            raise UsageError(f"{flag} {path}: {folder} is not a folder")
        raise UsageError(f"{flag} {path}: the folder {folder} does not exist")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{flag} {path}: the file may not be written")
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{flag} {path}: the folder {folder} may not be written")


def write_output(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8); a failure is a :class:`UsageError` in one line."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None


Handler = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with every command module's sub-commands."""
    parser = _Parser(
        prog="solitaire-ds",
        description="Stacks, queues and deques, taught through solitaire.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except UsageError as exc:
        print(f"solitaire-ds: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("solitaire-ds: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
