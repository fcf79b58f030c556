"""The game commands: ``play``, ``replay``, ``simulate`` and ``klondike``.

Rule options become flags by themselves: each field of a game's options class is a
flag (``gather`` -> ``--gather READING``, ``deal_any_time`` -> ``--deal-any-time``), and a
flag that belongs to another game is refused with a one-line message.

Everything the command line can get wrong is checked before the first deal is played:
the counts (``--games`` up to :data:`MAX_GAMES`, ``--workers`` up to :func:`max_workers`),
the rule options, and the folder of a ``--json``/``--jsonl`` file. The report goes to
stdout and depends only on the deals; the timing line goes to stderr.

``simulate`` takes the same options for every game: the deals from ``--seed`` or from a
``--decks`` file (``--games N``: the first N), and ``--show K``, the first K games told
before the summary. The results are played in worker processes without records; the games
shown are played again, recorded, in this process, so the same seed (or decks file) gives
the same output, byte for byte, whatever ``--workers`` is. ``klondike`` is ``simulate
klondike``: its summary is the money report of :mod:`solitaire_ds.money`, which shows
the whole record of the first two games by default.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solitaire_ds.cards import Deck, DeckError
from solitaire_ds.cli.args import (
    MAX_GAMES,
    UsageError,
    check_output_path,
    game_count,
    max_workers,
    seed_int,
    show_count,
    worker_count,
    write_output,
)
from solitaire_ds.course import load_toolkit
from solitaire_ds.games import GAMES, UnknownGame, game_class
from solitaire_ds.games.base import Game, GameOptions, OptionError
from solitaire_ds.games.klondike import PAYOUT, STAKE, Klondike
from solitaire_ds.money import DEFAULT_SHOW, origin, report
from solitaire_ds.records import Record, RecordError, plain_pairs, play_record, render_text, replay
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
from solitaire_ds.story import tell
from solitaire_ds.structures.toolkit import DEFAULT_TOOLKIT, Toolkit
from solitaire_ds.text import colour_suits, fit, game_stopped, shorten, terminal_width, tilde, wants_colour

#: The largest record ``replay`` reads: the longest game's record is well under 1 MB.
MAX_RECORD_BYTES = 8 << 20

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_SHOW",
    "MAX_RECORD_BYTES",
    "add_option_flags",
    "register",
    "report",
    "run_report",
    "summary",
]

def _available_games() -> list[type[Game]]:
    return [game_class(name) for name in GAMES]


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


def _toolkit(impl: str, linked: bool = False) -> Toolkit:
    try:
        return load_toolkit(impl, linked)
    except Exception as exc:  # a student's folder can fail in any way: report, don't crash
        raise UsageError(f"cannot load the structures from --impl {impl!r}: "
                         f"{type(exc).__name__}: {exc}") from None


def _theirs(impl: str, cls: type[Game]) -> tuple[type[Game], Any, list[str]]:
    """The student's own game class and shuffle, where their exercises are started.

    Return the game class (the student's from exercises 8-11 when its file is started, else
    the package's), the ``fisher_yates`` to deal with (exercise 7's, likewise, or None for
    the package's), and what the student's code is, said for the "Deal:" line.
    """
    if impl == "solitaire_ds":
        return cls, None, []
    from solitaire_ds.course.catalog import EXERCISES, load_module, resolve_impl, started

    try:
        folder = resolve_impl(impl)
    except Exception as exc:  # no such folder: said as the structures' loader says it
        raise UsageError(f"cannot load the structures from --impl {impl!r}: {type(exc).__name__}: {exc}") from None
    if not isinstance(folder, Path):
        return cls, None, []
    said: list[str] = []
    module = cls.__module__.removeprefix("solitaire_ds.")
    game_ex = next((ex for ex in EXERCISES if ex.module == module), None)
    shuffle_ex = next(ex for ex in EXERCISES if ex.module == "shuffle")
    try:
        if game_ex is not None and started(folder, game_ex):
            cls = getattr(load_module(impl, game_ex.module), cls.__name__)
            said.append(f"your {cls.__name__} rules ({game_ex.relpath})")
        shuffle = None
        if started(folder, shuffle_ex):
            shuffle = load_module(impl, "shuffle").fisher_yates
            said.append(f"your fisher_yates ({shuffle_ex.relpath})")
    except Exception as exc:  # a student's file can fail in any way: report, don't crash
        raise UsageError(f"cannot load your code from --impl {impl!r}: {type(exc).__name__}: {exc}") from None
    return cls, shuffle, said


def _dealt(seed: int, shuffle: Any) -> Deck:
    """``Deck.shuffled(seed)``, shuffled by the student's ``fisher_yates`` when given."""
    if shuffle is None:
        return Deck.shuffled(seed)
    cards = list(Deck.standard())
    shuffle(cards, random.Random(seed))
    return Deck(cards)


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
    cls, shuffle, theirs = _theirs(args.impl, _game(args.game))
    options = _options(cls, args)  # the options class of the game played (the student's own, with --impl)
    if args.deck is not None:
        try:
            deck = Deck.parse(args.deck)
        except DeckError as exc:
            raise UsageError(f"--deck: {exc}") from None
        origin = "the deck given"
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        try:
            deck = _dealt(seed, shuffle)
        except Exception as exc:  # the student's shuffle broke: say so, no traceback
            print(f"solitaire-ds: the deal stopped: your fisher_yates raised {type(exc).__name__}: {exc}\n"
                  "  (run `solitaire-ds check 7` to find the bug)", file=sys.stderr)
            return 1
        origin = f"seed {seed}"
    if args.json is not None:
        check_output_path(args.json, "--json")
    toolkit = _toolkit(args.impl, args.linked)
    chosen = _choose(cls, args.player)
    choose, player = chosen if chosen is not None else (None, None)
    try:
        game = cls(deck, options, toolkit=toolkit)
        record = play_record(game, choose, player)
    except Exception as exc:
        if toolkit is DEFAULT_TOOLKIT and not theirs:
            raise
        # The student's code broke the game: say where, without a traceback.
        whose = "; ".join([*([f"structures from {tilde(toolkit.source)}"] if toolkit != DEFAULT_TOOLKIT else []),
                           *theirs])
        print(f"solitaire-ds: {game_stopped(exc)}\n"
              f"  ({whose}; run `solitaire-ds check` to find the bug)", file=sys.stderr)
        return 1
    width = terminal_width()
    print(fit(f"Deal: {origin}" + (f"; structures from {tilde(toolkit.source)}" if toolkit != DEFAULT_TOOLKIT
                                   else "") + (f"; {', '.join(theirs)}" if theirs else ""), width))
    told = fit(render_text(record), width) if args.record else tell(record, width)
    print(colour_suits(told) if wants_colour(sys.stdout) else told, end="")
    if args.json is not None:
        write_output(args.json, record.dumps())
        print(f"Record written to {args.json}")
    return 0


# -- simulate -------------------------------------------------------------------------

def _simulate(args: argparse.Namespace) -> int:
    cls = _game(args.game)
    if cls.name == "klondike":  # Klondike is played for money: its report is its summary
        return run_report(args)
    options = _options(cls, args)
    sources, _ = _sources(args)  # --seed or --decks, and --games, as for every game
    player_name = args.player if args.player or not cls.has_decisions else "greedy"
    chosen = _choose(cls, player_name)
    player = chosen[1] if chosen is not None else None
    if player == "interactive":
        raise UsageError(f"simulate needs a player that decides by itself ({_deciding_players()})")
    if args.jsonl is not None:
        check_output_path(args.jsonl, "--jsonl", [args.decks] if args.decks is not None else [])
    game_type, shuffle, _ = _theirs(args.impl, cls)
    toolkit = _toolkit(args.impl, args.linked)
    run = SimulationRun(cls.name, options.to_json(), player, game_type if game_type is not cls else None,
                        toolkit if toolkit != DEFAULT_TOOLKIT else None, shuffle)
    started = time.perf_counter()
    results = run_deals(run, sources, args.workers, ProgressBar(cls.title))
    elapsed = time.perf_counter() - started
    if args.jsonl is not None:
        write_output(args.jsonl, "".join(json.dumps(r) + "\n" for r in results))
    width = terminal_width()
    for number, source in enumerate(sources[: args.show or 0], start=1):  # --show K: the first K told
        game = cls(source.make_deck(), options)
        record = play_record(game, chosen[0] if chosen is not None else None, player)
        print(fit(f"=== Game {number} of {len(sources)} ({origin(source, cls.name)}) ===", width), "", sep="\n")
        print(tell(record, width))
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
    opts = plain_pairs(options.to_json()) or "none"
    n = len(results)
    lines = [f"{cls.title}: {n} deal{'s' if n != 1 else ''} ({where}); options: {opts}"
             + (f"; player: {player}" if player else "")]
    lines += ["  " + line for line in cls.summarize(results)]
    return fit("\n".join(lines), terminal_width())


# -- klondike: many games for money -------------------------------------------------

#: Games played when ``--games`` is not given (with a seed).
DEFAULT_GAMES = 1000
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
        check_output_path(args.jsonl, "--jsonl", [args.decks] if args.decks is not None else [])
    started = time.perf_counter()
    results = run_deals(SimulationRun(Klondike.name, {}), sources, args.workers,
                        ProgressBar(Klondike.title, unit="games"))
    elapsed = time.perf_counter() - started
    if args.jsonl is not None:
        write_output(args.jsonl, "".join(json.dumps(r) + "\n" for r in results))
    print(fit(report(sources, results, DEFAULT_SHOW if show is None else show, where), terminal_width()))
    # The timing differs from run to run and with --workers: stderr, so stdout does not.
    print(timing_line(len(results), elapsed, args.workers, "games"), file=sys.stderr)
    return 0


# -- replay ---------------------------------------------------------------------------

def _replay(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        size = path.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise UsageError(f"{path}: {size:,} bytes is more than a record can be "
                             f"({MAX_RECORD_BYTES:,} bytes at most); it is not read")
        data = path.read_bytes()
    except OSError as exc:  # no such file, a folder, no permission: misuse of the command
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if _is_results_file(data):
        raise UsageError(f"{path} is a results file (one game's result a line, as simulate --jsonl "
                         "writes); replay reads one game's record, as play --json FILE writes it")
    try:
        record = replay(_load_record(data))
        text = "" if args.quiet else fit(render_text(record), terminal_width())
    except RecordError as exc:
        print(f"{path}: rejected: {exc.args[0]}", file=sys.stderr)  # one line, for a script to read
        if exc.recorded is not None and exc.expected is not None:  # the two events side by side, a key a line
            print(side_by_side(exc.recorded, exc.expected, terminal_width()), file=sys.stderr)
        return 1
    except Exception as exc:  # a corrupt record can break the reader anywhere: never a traceback
        print(f"{path}: rejected: the record cannot be read "
              f"({type(exc).__name__}: {shorten(str(exc))})", file=sys.stderr)
        return 1
    print(text, end="")
    print(f"{path}: verified: {len(record.events)} events replay exactly")
    return 0


def _is_results_file(data: bytes) -> bool:
    """Whether ``data`` is a file of results, one JSON object a line (``simulate --jsonl``)."""
    lines = data[:1 << 16].splitlines()
    if len(lines) < 2:
        return False
    try:
        first = json.loads(lines[0])
    except ValueError:
        return False
    return isinstance(first, dict) and "events" not in first and "seed" in first


def side_by_side(recorded: dict[str, Any], expected: dict[str, Any], width: int = 80) -> str:
    """The record's event and the rules' event as two columns, one key a line, differences marked.

    >>> print(side_by_side({"type": "move", "to": 3}, {"type": "move", "to": 4}))
      key   the record says                    the rules give
      type  'move'                             'move'
    * to    3                                  4
    """
    keys = list(dict.fromkeys([*expected, *recorded]))
    key_width = max(len("key"), *(len(str(k)) for k in keys))
    column = max(12, (width - key_width - 6) // 2)

    def cell(event: dict[str, Any], key: str) -> str:
        text = repr(event[key]) if key in event else "(none)"
        return text if len(text) <= column - 1 else text[: column - 4] + "..."

    lines = [f"  {'key':<{key_width}}  {'the record says':<{column}}the rules give"]
    for key in keys:
        mark = " " if recorded.get(key, object()) == expected.get(key, object()) else "*"
        lines.append(f"{mark} {key:<{key_width}}  {cell(recorded, key):<{column}}{cell(expected, key)}".rstrip())
    return "\n".join(lines)


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


# -- registration ---------------------------------------------------------------------

def _deciding_players() -> str:
    """The players that decide by themselves, as a reader would list them: "greedy, solver or no-peek"."""
    from solitaire_ds.players import PLAYERS

    names = [name for name in PLAYERS if name != "interactive"]
    return ", ".join(names[:-1]) + f" or {names[-1]}"


def register(subparsers: Any) -> None:
    """Add ``play``, ``simulate``, ``replay`` and ``klondike`` to ``subparsers``.

    >>> parser = argparse.ArgumentParser()
    >>> register(parser.add_subparsers())
    >>> parser.parse_args(["klondike", "--games", "3"]).show
    2
    """
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
    play.add_argument("--record", action="store_true",
                      help="print the full record: every event, and the board after each step "
                           "(by default, the game is told in about a screenful)")
    play.add_argument("--json", type=Path, metavar="FILE", help="also write the record as JSON")
    play.add_argument("--impl", default="solitaire_ds", metavar="PATH",
                      help="play on your code: a folder laid out like exercises/ (your structures, "
                      "shuffle and game rules, each where its exercise is started; default: the "
                      "package's own)")
    play.add_argument("--linked", action="store_true",
                      help="the linked classes (exercises 2, 4, 6) instead of the array ones")
    add_option_flags(play)
    play.set_defaults(handler=_play)

    sim = subparsers.add_parser(
        "simulate", help="play many deals and summarize the results",
        description="Play many deals (random from --seed, or from --decks FILE) and print a "
        "summary with 95% intervals. Same seed, same results, whatever --workers.")
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
    sim.add_argument("--player", help=f"who decides, in games with decisions ({_deciding_players()})")
    sim.add_argument("--impl", default="solitaire_ds", metavar="PATH",
                     help="play on your code, as play --impl does")
    sim.add_argument("--linked", action="store_true",
                     help="the linked classes (exercises 2, 4, 6) instead of the array ones")
    sim.add_argument("--show", type=show_count, metavar="K",
                     help="tell the first K games before the summary (default 0; klondike: "
                          f"their whole records, default {DEFAULT_SHOW})")
    add_option_flags(sim)
    sim.set_defaults(handler=_simulate)

    rep = subparsers.add_parser(
        "replay", help="re-play a JSON record and verify every event",
        description="Re-play a game record written by --json and check every event against "
        "the rules. A tampered or corrupt record is rejected with the event number.")
    rep.add_argument("file", type=Path, metavar="FILE.json")
    rep.add_argument("--quiet", action="store_true", help="only say whether it verifies")
    rep.set_defaults(handler=_replay)

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
