"""The ``klondike`` command: many games of Klondike played for money, as rule text 004 asks.

Invariant: the report is a function of the deals alone. The games are played in worker
processes without records; the first ``--show`` games are then played again, recorded,
in this process. So the same seed (or decks file) gives the same report, byte for byte,
whatever ``--workers`` is. The closing timing line (wall time, games per second, peak
memory), which does differ, goes to stderr.

The report holds, in order:

* a heading: how many games, where the deals come from, the stakes;
* a complete record of each of the first ``--show`` games (default 2): the layout after
  the deal, every move with the number of the rule that chose it, the board after each
  stock card is turned, the final board and that game's dollars;
* the totals: games played, games won, cards played to the foundations, and the net
  winnings in all and per game, with a sign and a 95% interval for the per-game mean.

``solitaire-ds simulate klondike`` prints the same report and takes the same options,
``--show`` included (see :func:`run_report`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solitaire_ds.cli import UsageError, check_output_path, write_output
from solitaire_ds.commands import (
    MAX_GAMES,
    game_count,
    max_workers,
    seed_int,
    show_count,
    worker_count,
)
from solitaire_ds.games.klondike import PAYOUT, STAKE, Klondike, dollars
from solitaire_ds.records import play_record, render_text
from solitaire_ds.simulate import (
    DealSource,
    DeckFileError,
    ProgressBar,
    SimulationRun,
    read_decks,
    run_deals,
    seeded_deals,
    timing_line,
)

__all__ = ["DEFAULT_GAMES", "DEFAULT_SHOW", "register", "report", "run_report", "show_count"]

#: Games played when ``--games`` is not given (with a seed).
DEFAULT_GAMES = 1000
#: Games whose whole record is shown when ``--show`` is not given (the rule text asks for 2).
DEFAULT_SHOW = 2


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def _sources(args: argparse.Namespace) -> tuple[Sequence[DealSource], str]:
    """Return the deals the arguments ask for, and a phrase saying where they come from."""
    games: int | None = args.games
    if args.decks is not None:
        if args.seed is not None:
            raise UsageError("--decks plays the file's decks: give no --seed with it")
        try:
            sources = read_decks(args.decks)
        except DeckFileError as exc:
            raise UsageError(str(exc)) from None
        if games is not None:
            if games > len(sources):
                raise UsageError(f"--games {games}: {args.decks} holds only "
                                 f"{_plural(len(sources), 'deck')}")
            sources = sources[:games]
        return sources, f"decks from {args.decks}"
    seed = args.seed if args.seed is not None else 0
    return seeded_deals(seed, games if games is not None else DEFAULT_GAMES), f"seed {seed}"


def _refuse_other_options(args: argparse.Namespace) -> None:
    """Refuse what ``simulate`` accepts for other games: a player, rule options."""
    if getattr(args, "player", None) is not None:
        raise UsageError("klondike has no decisions, so it takes no --player")
    for key, value in sorted(vars(args).items()):
        if key.startswith("opt_") and value is not None:
            raise UsageError(f"--{key[4:].replace('_', '-')} does not apply to klondike")


def _origin(source: DealSource) -> str:
    if source.seed is not None:
        return f"seed {source.seed}; alone: solitaire-ds play klondike --seed {source.seed}"
    return f"line {source.line} of the decks file"


def report(
    sources: Sequence[DealSource],
    results: Sequence[dict[str, Any]],
    show: int = DEFAULT_SHOW,
    where: str = "",
) -> str:
    """Return the whole report for ``results`` (one per source, in deal order).

    The first ``show`` deals are played again with their records. Nothing here depends
    on how the results were computed, so the text is the same for any number of workers.

    >>> from solitaire_ds.simulate import seeded_deals
    >>> deals = seeded_deals(1, 3)
    >>> results = [Klondike(d.make_deck(), record=False).run() for d in deals]
    >>> print(report(deals, results, show=0, where="seed 1"))  # doctest: +ELLIPSIS
    Klondike for money: 3 games (seed 1); the player pays $52 a game and wins $5 a card ...
    <BLANKLINE>
    All 3 games:
      games played: 3
      won: 0.00% (95% CI 0.00%-56.15%, 0 of 3)
    ...
    """
    n = len(results)
    lines = [f"Klondike for money: {_plural(n, 'game')}"
             + (f" ({where})" if where else "")
             + f"; the player pays ${STAKE} a game and wins ${PAYOUT} a card played to the "
             "foundations", ""]
    for number, source in enumerate(sources[:show], start=1):
        record = play_record(Klondike(source.make_deck()))
        res = record.result
        lines += [f"=== Game {number} of {n} ({_origin(source)}) ===", ""]
        lines += render_text(record).splitlines()
        lines += ["", f"Game {number}: {res['to_foundation']} cards to the foundations; "
                  f"paid ${STAKE}, won ${PAYOUT * res['to_foundation']}: "
                  f"net {dollars(res['net'])}", ""]
    lines.append(f"All {_plural(n, 'game')}:")
    lines += ["  " + line for line in Klondike.summarize(results)]
    return "\n".join(lines)


def run_report(args: argparse.Namespace) -> int:
    """Handle ``klondike`` (and ``simulate klondike``): play, report, time; return 0.

    Arguments: ``games``, ``seed``, ``decks``, ``workers``, ``jsonl`` and ``show`` (None
    or missing: the default 2 records). The report goes to stdout, the timing line to
    stderr. Raise :class:`~solitaire_ds.cli.UsageError`, before any game is played, for a
    bad decks file, a ``--jsonl`` file that could not be written, or an option that
    belongs to another game.

    >>> args = argparse.Namespace(games=2, seed=5, decks=None, workers=1, jsonl=None, show=0)
    >>> run_report(args)  # doctest: +ELLIPSIS
    Klondike for money: 2 games (seed 5); ...
    0
    """
    _refuse_other_options(args)
    sources, where = _sources(args)
    show: int | None = getattr(args, "show", None)
    if args.jsonl is not None:
        check_output_path(args.jsonl, "--jsonl")
    started = time.perf_counter()
    results = run_deals(SimulationRun(Klondike.name, {}), sources, args.workers,
                        ProgressBar(Klondike.name, unit="games"))
    elapsed = time.perf_counter() - started
    if args.jsonl is not None:
        write_output(args.jsonl, "".join(json.dumps(r) + "\n" for r in results))
    print(report(sources, results, DEFAULT_SHOW if show is None else show, where))
    # The timing differs from run to run and with --workers: stderr, so stdout does not.
    print(timing_line(len(results), elapsed, args.workers, "games"), file=sys.stderr)
    return 0


def register(subparsers: Any) -> None:
    """Add the ``klondike`` command to ``subparsers`` (from ``ArgumentParser.add_subparsers``).

    >>> parser = argparse.ArgumentParser()
    >>> register(parser.add_subparsers())
    >>> parser.parse_args(["klondike", "--games", "3"]).show
    2
    """
    parser = subparsers.add_parser(
        "klondike", help="play Klondike for money: many games, the record of the first few",
        description="Play many games of Klondike by the fixed priority of moves, paying "
        f"${STAKE} a game and winning ${PAYOUT} a card played to the foundations. Prints "
        "the complete record of the first games, then the net winnings. Same seed, same "
        "report, whatever --workers.")
    parser.add_argument("--games", type=game_count,
                        help=f"how many games (default {DEFAULT_GAMES}, at most {MAX_GAMES:,}; "
                        "with --decks, the first GAMES decks of the file, default all)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--seed", type=seed_int, help="master seed of the deals (default 0)")
    source.add_argument("--decks", type=Path, metavar="FILE",
                        help="play these decks instead: one deck per line")
    parser.add_argument("--show", type=show_count, default=DEFAULT_SHOW, metavar="K",
                        help=f"print the whole record of the first K games (default {DEFAULT_SHOW})")
    parser.add_argument("--workers", type=worker_count, default=1,
                        help=f"worker processes (default 1, at most {max_workers()} here)")
    parser.add_argument("--jsonl", type=Path, metavar="FILE",
                        help="write one JSON object per game, in deal order")
    parser.set_defaults(handler=run_report)
