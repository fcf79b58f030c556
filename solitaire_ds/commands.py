"""The game commands: ``play``, ``simulate`` and ``replay``.

Rule options become flags by themselves: each field of a game's options class is a
flag (``gather`` -> ``--gather READING``, ``deal_any_time`` -> ``--deal-any-time``), and a
flag that belongs to another game is refused with a one-line message.

Everything the command line can get wrong is checked before the first deal is played:
the counts (``--games`` up to :data:`MAX_GAMES`, ``--workers`` up to :func:`max_workers`),
the rule options, and the folder of a ``--json``/``--jsonl`` file. The report goes to
stdout and depends only on the deals; the timing line goes to stderr.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solitaire_ds.cards import Deck, DeckError
from solitaire_ds.cli import UsageError, check_output_path, write_output
from solitaire_ds.games import GAMES, UnknownGame, game_class
from solitaire_ds.games.base import Game, GameOptions, OptionError
from solitaire_ds.records import Record, RecordError, play_record, render_text, replay
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
from solitaire_ds.structures.toolkit import DEFAULT_TOOLKIT, Toolkit, load_toolkit

__all__ = [
    "MAX_GAMES",
    "add_option_flags",
    "game_count",
    "max_workers",
    "positive_int",
    "register",
    "seed_int",
    "show_count",
    "worker_count",
]

#: The most games one run plays: every result is kept for the summary (about 400 bytes
#: a game, so 4 GB at this bound), and 10 million games already pin a rate to ±0.03%.
MAX_GAMES = 10_000_000


def max_workers() -> int:
    """Return the most worker processes a run may ask for: 4 per CPU core, at most 64."""
    return min(64, 4 * (os.cpu_count() or 1))


# -- argument types (each error is one line naming the bad value) -----------------------

def _shown(text: str) -> str:
    """Return ``text`` quoted for a message, cut short when it is long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        # Python refuses to read an integer of more than 4300 digits.
        what = "is far too large" if text.strip().lstrip("+-").isdigit() else "is not a whole number"
        raise argparse.ArgumentTypeError(f"{_shown(text)} {what}") from None


def positive_int(text: str) -> int:
    """Parse a count of at least 1.

    >>> positive_int("3")
    3
    """
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{_shown(text)} must be at least 1")
    return value


def game_count(text: str) -> int:
    """Parse ``--games``: from 1 up to :data:`MAX_GAMES`.

    >>> game_count("100000")
    100000
    """
    value = positive_int(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is more than {MAX_GAMES:,} games in one run; split it into runs "
            "with different --seed values")
    return value


def worker_count(text: str) -> int:
    """Parse ``--workers``: from 1 up to :func:`max_workers`."""
    value = positive_int(text)
    if value > max_workers():
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is more than {max_workers()} worker processes "
            f"(4 per CPU core, at most 64; this machine has {os.cpu_count() or 1})")
    return value


def show_count(text: str) -> int:
    """Parse ``--show``: how many records to print, from 0 up.

    >>> show_count("3")
    3
    >>> show_count("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-1' must be 0 or more
    """
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{_shown(text)} must be 0 or more")
    return value


def seed_int(text: str) -> int:
    """Parse a seed: a whole number from 0 up."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seed {_shown(text)}: a seed is a whole number "
                                         "of at most 4300 digits") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"invalid seed {_shown(text)}: a seed is 0 or more")
    return value


def _available_games() -> list[type[Game]]:
    classes = []
    for name in GAMES:
        try:
            classes.append(game_class(name))
        except UnknownGame:
            continue
    return classes


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """Add one flag per rule option of every available game."""
    group = parser.add_argument_group("rule options (each applies to one game)")
    seen: set[str] = set()
    for cls in _available_games():
        for field in dataclasses.fields(cls.options_type):
            if field.name in seen:
                continue
            seen.add(field.name)
            flag = "--" + field.name.replace("_", "-")
            help_text = f"{cls.name}: {field.metadata.get('help', '')}".rstrip(": ")
            if isinstance(field.default, bool):
                group.add_argument(flag, dest=f"opt_{field.name}", action="store_true",
                                   default=None, help=help_text)
            else:
                group.add_argument(flag, dest=f"opt_{field.name}", default=None,
                                   metavar=field.name.upper(),
                                   help=f"{help_text} (default: {field.default})")


def _options(cls: type[Game], args: argparse.Namespace) -> GameOptions:
    """Return the game's options from the flags; refuse flags of other games."""
    names = {f.name for f in dataclasses.fields(cls.options_type)}
    given = {k[4:]: v for k, v in vars(args).items() if k.startswith("opt_") and v is not None}
    for name, value in given.items():
        flag = "--" + name.replace("_", "-")
        if name not in names:
            raise UsageError(f"{flag} does not apply to {cls.name}")
        try:  # each option alone first, so that the message can name its flag
            cls.options_type(**{name: value}).validate()
        except OptionError as exc:
            raise UsageError(f"{flag}: {exc}") from None
    try:
        options = cls.options_type(**given)
        options.validate()
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    return options


def _game(name: str) -> type[Game]:
    try:
        return game_class(name)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None


def _toolkit(impl: str) -> Toolkit:
    try:
        return load_toolkit(impl)
    except Exception as exc:  # a student's folder can fail in any way: report, don't crash
        raise UsageError(f"cannot load the structures from --impl {impl!r}: "
                         f"{type(exc).__name__}: {exc}") from None


def _choose(cls: type[Game], player: str | None) -> Any:
    if not cls.has_decisions:
        if player is not None:
            raise UsageError(f"{cls.name} has no decisions, so it takes no --player")
        return None
    from solitaire_ds.players import UnknownPlayer, make_player

    if player is None:
        player = "interactive" if sys.stdin.isatty() and sys.stdout.isatty() else "greedy"
    try:
        return make_player(player, cls), player
    except UnknownPlayer as exc:
        raise UsageError(str(exc)) from None


# -- play -----------------------------------------------------------------------------

def _play(args: argparse.Namespace) -> int:
    cls = _game(args.game)
    options = _options(cls, args)
    if args.deck is not None:
        try:
            deck = Deck.parse(args.deck)
        except DeckError as exc:
            raise UsageError(f"--deck: {exc}") from None
        origin = "the deck given"
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        deck = Deck.shuffled(seed)
        origin = f"seed {seed}"
    if args.json is not None:
        check_output_path(args.json, "--json")
    toolkit = _toolkit(args.impl)
    chosen = _choose(cls, args.player)
    choose, player = chosen if chosen is not None else (None, None)
    try:
        game = cls(deck, options, toolkit=toolkit)
        record = play_record(game, choose, player)
    except Exception as exc:
        if toolkit is DEFAULT_TOOLKIT:
            raise
        # The student's structures broke the game: say where, without a traceback.
        print(f"solitaire-ds: the game stopped: {_where(exc)} raised {type(exc).__name__}: {exc}\n"
              f"  (structures from {toolkit.source}; run `solitaire-ds check` to find the bug)",
              file=sys.stderr)
        return 1
    print(f"Deal: {origin}" + (f"; structures from {toolkit.source}" if args.impl != "solitaire_ds"
                               else ""))
    print(render_text(record), end="")
    if args.json is not None:
        write_output(args.json, record.dumps())
        print(f"Record written to {args.json}")
    return 0


def _where(exc: BaseException) -> str:
    """Return ``Class.method`` of the innermost frame of ``exc`` (where the student's code broke)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return "the game"
    frame = tb.tb_frame
    owner = frame.f_locals.get("self")
    name = frame.f_code.co_name
    return f"{type(owner).__name__}.{name}" if owner is not None else name


# -- simulate -------------------------------------------------------------------------

def _simulate(args: argparse.Namespace) -> int:
    cls = _game(args.game)
    if cls.name == "klondike":  # the money report of rule text 004 (issue 5)
        from solitaire_ds.klondike_report import run_report

        return run_report(args)
    if args.show is not None:
        raise UsageError(f"--show applies to klondike only: {cls.name} prints a summary")
    options = _options(cls, args)
    if args.decks is not None:
        if args.seed is not None or args.games is not None:
            raise UsageError("--decks plays the file's decks: give no --seed or --games with it")
        try:
            sources: Sequence[DealSource] = read_decks(args.decks)
        except DeckFileError as exc:
            raise UsageError(str(exc)) from None
    else:
        sources = seeded_deals(args.seed if args.seed is not None else 0,
                               args.games if args.games is not None else 1000)
    player_name = args.player if args.player or not cls.has_decisions else "greedy"
    chosen = _choose(cls, player_name)
    player = chosen[1] if chosen is not None else None
    if player == "interactive":
        raise UsageError("simulate needs a player that decides by itself (greedy or solver)")
    if args.jsonl is not None:
        check_output_path(args.jsonl, "--jsonl")
    run = SimulationRun(cls.name, options.to_json(), player)
    started = time.perf_counter()
    results = run_deals(run, sources, args.workers, ProgressBar(f"{cls.name}"))
    elapsed = time.perf_counter() - started
    if args.jsonl is not None:
        write_output(args.jsonl, "".join(json.dumps(r) + "\n" for r in results))
    print(summary(cls, options, player, sources, results, args))
    # The timing differs from run to run and with --workers: stderr, so stdout does not.
    print(timing_line(len(results), elapsed, args.workers), file=sys.stderr)
    return 0


def summary(
    cls: type[Game],
    options: GameOptions,
    player: str | None,
    sources: Sequence[DealSource],
    results: Sequence[dict[str, Any]],
    args: argparse.Namespace,
) -> str:
    """Return the simulation summary (everything but the timing line)."""
    where = (f"decks from {args.decks}" if args.decks is not None
             else f"seed {args.seed if args.seed is not None else 0}")
    opts = ", ".join(f"{k} = {v}" for k, v in options.to_json().items()) or "none"
    n = len(results)
    lines = [f"{cls.title}: {n} deal{'s' if n != 1 else ''} ({where}); options: {opts}"
             + (f"; player: {player}" if player else "")]
    lines += ["  " + line for line in cls.summarize(results)]
    return "\n".join(lines)


# -- replay ---------------------------------------------------------------------------

def _replay(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        data = path.read_bytes()
    except OSError as exc:  # no such file, a folder, no permission: misuse of the command
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        record = replay(_load_record(data))
        text = "" if args.quiet else render_text(record)
    except RecordError as exc:
        print(f"{path}: rejected: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a corrupt record can break the reader anywhere: never a traceback
        print(f"{path}: rejected: the record cannot be read "
              f"({type(exc).__name__}: {_short(str(exc))})", file=sys.stderr)
        return 1
    print(text, end="")
    print(f"{path}: verified: {len(record.events)} events replay exactly")
    return 0


def _load_record(data: bytes) -> Record:
    """Read a record from the bytes of a file; raise :class:`RecordError` if it is not one."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"not valid UTF-8: byte {exc.start + 1} is {data[exc.start]:#04x}"
                          ) from None
    try:
        return Record.loads(text)
    except RecursionError:
        raise RecordError("not a record: the JSON is nested too deeply to read") from None


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# -- registration ---------------------------------------------------------------------

def register(subparsers: Any) -> None:
    """Add ``play``, ``simulate`` and ``replay``."""
    games = ", ".join(GAMES)
    play = subparsers.add_parser(
        "play", help="play one deal and show its whole record",
        description=f"Play one deal of a game ({games}) and show its record as text.")
    play.add_argument("game", help=f"one of: {games}")
    source = play.add_mutually_exclusive_group()
    source.add_argument("--seed", type=seed_int, help="shuffle with this seed (default: random)")
    source.add_argument("--deck", help='the deck as 52 card codes, first dealt first: "AS 2H ..."')
    play.add_argument("--player", help="who decides, in games with decisions "
                      "(interactive on a terminal, else greedy; or solver)")
    play.add_argument("--json", type=Path, metavar="FILE", help="also write the record as JSON")
    play.add_argument("--impl", default="solitaire_ds", metavar="PATH",
                      help="build the game from these structures: a folder laid out like "
                      "exercises/ (default: the package's own)")
    add_option_flags(play)
    play.set_defaults(handler=_play)

    sim = subparsers.add_parser(
        "simulate", help="play many deals and summarize the results",
        description="Play many deals (random from --seed, or from --decks FILE) and print a "
        "summary with 95%% intervals. Same seed, same results, whatever --workers.")
    sim.add_argument("game", help=f"one of: {games}")
    sim.add_argument("--games", type=game_count,
                     help=f"how many deals (default 1000, at most {MAX_GAMES:,})")
    sim.add_argument("--seed", type=seed_int, help="master seed of the deals (default 0)")
    sim.add_argument("--decks", type=Path, metavar="FILE",
                     help="play these decks instead: one deck per line")
    sim.add_argument("--workers", type=worker_count, default=1,
                     help=f"worker processes (default 1, at most {max_workers()} here)")
    sim.add_argument("--jsonl", type=Path, metavar="FILE",
                     help="write one JSON object per deal, in deal order")
    sim.add_argument("--player", help="who decides, in games with decisions (greedy or solver)")
    sim.add_argument("--show", type=show_count, metavar="K",
                     help="klondike: print the whole record of the first K games (default 2)")
    add_option_flags(sim)
    sim.set_defaults(handler=_simulate)

    rep = subparsers.add_parser(
        "replay", help="re-play a JSON record and verify every event",
        description="Re-play a game record written by --json and check every event against "
        "the rules. A tampered or corrupt record is rejected with the event number.")
    rep.add_argument("file", type=Path, metavar="FILE.json")
    rep.add_argument("--quiet", action="store_true", help="only say whether it verifies")
    rep.set_defaults(handler=_replay)
