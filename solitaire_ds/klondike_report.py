"""The ``klondike`` command: many games of Klondike played for money, as rule text 004 asks.

Invariant: the report is a function of the deals alone. The games are played in worker
processes without records; the first ``--show`` games are then played again, recorded,
in this process. So the same seed (or decks file) gives the same report, line for line,
whatever ``--workers`` is; only the closing timing line differs.

The report holds, in order:

* a heading: how many games, where the deals come from, the stakes;
* a complete record of each of the first ``--show`` games (default 2): the layout after
  the deal, every move with the number of the rule that chose it, the board after each
  stock card is turned, the final board and that game's dollars;
* the totals: games played, games won, cards played to the foundations, and the net
  winnings in all and per game, with a sign and a 95% interval for the per-game mean.

``solitaire-ds simulate klondike`` prints the same report (see :func:`run_report`).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solitaire_ds.cli import UsageError
from solitaire_ds.commands import positive_int, seed_int
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
)

__all__ = ["DEFAULT_GAMES", "DEFAULT_SHOW", "register", "report", "run_report", "show_count"]

#: Games played when ``--games`` is not given (with a seed).
DEFAULT_GAMES = 1000
#: Games whose whole record is shown when ``--show`` is not given (the rule text asks for 2).
DEFAULT_SHOW = 2


def show_count(text: str) -> int:
    """Parse ``--show``: how many records to print, from 0 up.

    >>> show_count("3")
    3
    >>> show_count("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-1' must be 0 or more
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 or more")
    return value


def _sources(args: argparse.Namespace) -> tuple[list[DealSource], str]:
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
                raise UsageError(f"--games {games}: {args.decks} holds only {len(sources)} decks")
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
    lines = [f"Klondike for money: {n} game{'s' if n != 1 else ''}"
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
    lines.append(f"All {n} game{'s' if n != 1 else ''}:")
    lines += ["  " + line for line in Klondike.summarize(results)]
    return "\n".join(lines)


def run_report(args: argparse.Namespace) -> int:
    """Handle ``klondike`` (and ``simulate klondike``): play, report, time; return 0.

    Arguments: ``games``, ``seed``, ``decks``, ``workers``, ``jsonl`` and, for the
    ``klondike`` command, ``show`` (``simulate`` shows the default 2 records).
    Raise :class:`~solitaire_ds.cli.UsageError` for a bad decks file or an option that
    belongs to another game.

    >>> args = argparse.Namespace(games=2, seed=5, decks=None, workers=1, jsonl=None, show=0)
    >>> run_report(args)  # doctest: +ELLIPSIS
    Klondike for money: 2 games (seed 5); ...
    time: ...
    0
    """
    _refuse_other_options(args)
    sources, where = _sources(args)
    show: int = getattr(args, "show", DEFAULT_SHOW)
    started = time.perf_counter()
    results = run_deals(SimulationRun(Klondike.name, {}), sources, args.workers,
                        ProgressBar(Klondike.name))
    elapsed = time.perf_counter() - started
    if args.jsonl is not None:
        _write(args.jsonl, "".join(json.dumps(r) + "\n" for r in results))
    print(report(sources, results, show, where))
    workers = f"{args.workers} worker{'s' if args.workers > 1 else ''}"
    print(f"time: {elapsed:.2f} s, {len(results) / max(elapsed, 1e-9):,.0f} games per second "
          f"({workers})")
    return 0


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None


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
    parser.add_argument("--games", type=positive_int,
                        help=f"how many games (default {DEFAULT_GAMES}; with --decks, the "
                        "first GAMES decks of the file, default all)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--seed", type=seed_int, help="master seed of the deals (default 0)")
    source.add_argument("--decks", type=Path, metavar="FILE",
                        help="play these decks instead: one deck per line")
    parser.add_argument("--show", type=show_count, default=DEFAULT_SHOW, metavar="K",
                        help=f"print the whole record of the first K games (default {DEFAULT_SHOW})")
    parser.add_argument("--workers", type=positive_int, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--jsonl", type=Path, metavar="FILE",
                        help="write one JSON object per game, in deal order")
    parser.set_defaults(handler=run_report)
