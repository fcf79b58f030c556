"""The ``solitaire-ds`` command line: the entry point, on top of everything else.

One module per command group adds its sub-commands with ``register(subparsers)``:

* :mod:`solitaire_ds.cli.games` -- ``play``, ``replay``, ``simulate``, ``klondike``;
* :mod:`solitaire_ds.cli.course` -- ``exercises``, ``check``;
* :mod:`solitaire_ds.cli.grading` -- ``grade``, ``autograder``;
* :mod:`solitaire_ds.cli.report` -- ``report``, the class report;
* :mod:`solitaire_ds.cli.docs` -- ``docs``;
* :mod:`solitaire_ds.cli.completion` -- ``completion``, the shell completion script;

and :mod:`solitaire_ds.cli.args` holds what they share: the argument types, the
one-line :class:`UsageError` and the output-file helpers. Nothing below this package
imports it. Misuse of the command line (an unknown game, a bad number, a malformed deck)
prints one line, ``solitaire-ds COMMAND: error: ... (see solitaire-ds COMMAND --help)``, and
exits with status 2; no traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from solitaire_ds.cli import completion, course, docs, games, grading, report
from solitaire_ds.cli.args import Parser, Terminated, UsageError, check_output_path, write_output
from solitaire_ds.text import fit_for

__all__ = ["UsageError", "build_parser", "check_output_path", "main", "write_output"]

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with every command group's sub-commands, in ``--help`` order.

    Runtime complexity: O(number of options).

    >>> build_parser().parse_args(["replay", "game.json"]).command
    'replay'
    """
    from solitaire_ds import __version__

    parser = Parser(
        prog="solitaire-ds",
        description="Stacks, queues and deques, taught through solitaire.",
    )
    parser.add_argument("--version", action="version", version=f"solitaire-ds {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in (games, course, grading, report, docs):
        group.register(subparsers)
    completion.register(subparsers, parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    Runtime complexity: that of the command run.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a misused option already reported in one line
        return exc.code if isinstance(exc.code, int) else 2
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except UsageError as exc:
        command = f"solitaire-ds {args.command}" if getattr(args, "command", None) else "solitaire-ds"
        print(fit_for(sys.stderr, f"{command}: error: {exc} (see {command} --help)"), file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        from solitaire_ds.simulate import end_progress_line

        end_progress_line()  # the message starts a line of its own, never glued to a progress bar
        terminated = isinstance(stop, Terminated)
        print(f"solitaire-ds: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        return 143 if terminated else 130
    except BrokenPipeError:
        return 0
