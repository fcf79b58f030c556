"""Many deals of one game, in parallel, with results in deal order.

Where the deals come from:

* a master seed ``S``: deal ``i`` (counted from 1) is ``Deck.shuffled(deal_seed(S, i))``,
  so every deal can be played again alone with ``play --seed <its seed>``;
* a file of decks: one deck per line (blank lines and ``#`` comments skipped), all read
  and checked before anything is played.

Results come back in deal order whatever the number of worker processes, so the same
seed gives the same results with ``--workers 1`` or ``--workers 8``.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, TextIO, overload

from solitaire_ds.blame import GameStopped, stop_of
from solitaire_ds.cards import Deck, DeckError
from solitaire_ds.games import game_class
from solitaire_ds.games.base import Game, GameOptions
from solitaire_ds.structures.toolkit import Toolkit
from solitaire_ds.text import shown, terminal_width

__all__ = [
    "DealSource",
    "DeckFileError",
    "Progress",
    "ProgressBar",
    "SeededDeals",
    "SimulationRun",
    "deal_seed",
    "end_progress_line",
    "peak_memory_mb",
    "read_decks",
    "run_deals",
    "seeded_deals",
    "timing_line",
]


@dataclass(frozen=True)
class DealSource:
    """Where one deal comes from: a seed, or a line of a decks file."""

    deal: int
    seed: int | None = None
    line: int | None = None
    deck: str | None = None

    def make_deck(self) -> Deck:
        """Return the deck this source stands for."""
        if self.deck is not None:
            return Deck.parse(self.deck)
        assert self.seed is not None
        return Deck.shuffled(self.seed)

    def label(self) -> dict[str, int]:
        """Return the keys that say where the deal came from (for JSON lines)."""
        where = {"seed": self.seed} if self.seed is not None else {"line": self.line}
        return {"deal": self.deal, **{k: v for k, v in where.items() if v is not None}}


class DeckFileError(ValueError):
    """A decks file with a bad line; the message names the file and the line."""


def deal_seed(master: int, deal: int) -> int:
    """Return the seed of deal number ``deal`` (from 1) of a run with master seed ``master``.

    A hash, so that runs with nearby master seeds share no deals; stable on every machine.

    >>> deal_seed(1, 1)
    8031388300216795445
    """
    digest = hashlib.sha256(f"solitaire-ds:{master}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class SeededDeals(Sequence[DealSource]):
    """The deals of a master seed, made one at a time when asked for (none are stored).

    Deal ``i`` (from 1) is at index ``i - 1``; a slice is another :class:`SeededDeals`.
    So ``--games`` can be large without a list of that many deals being built first.

    Runtime complexity: O(1) memory; O(1) per deal looked at.

    >>> deals = SeededDeals(1, 1000)
    >>> len(deals), deals[0].seed == deal_seed(1, 1), deals[-1].deal
    (1000, True, 1000)
    >>> [d.deal for d in deals[10:13]]
    [11, 12, 13]
    """

    def __init__(self, master: int, games: int, first: int = 1) -> None:
        if games < 0:
            raise ValueError(f"a run has 0 or more games, not {games}")
        self.master = master
        self._first = first
        self._range = range(first, first + games)

    def __len__(self) -> int:
        return len(self._range)

    @overload
    def __getitem__(self, index: int) -> DealSource: ...

    @overload
    def __getitem__(self, index: slice) -> SeededDeals: ...

    def __getitem__(self, index: int | slice) -> DealSource | SeededDeals:
        if isinstance(index, slice):
            part = self._range[index]
            if part.step != 1:
                raise ValueError("seeded deals slice only with step 1")
            return SeededDeals(self.master, len(part), part.start)
        number = self._range[index]  # IndexError when out of range, as a list
        return DealSource(number, seed=deal_seed(self.master, number))

    def __iter__(self) -> Iterator[DealSource]:
        for number in self._range:
            yield DealSource(number, seed=deal_seed(self.master, number))

    def __repr__(self) -> str:
        return f"SeededDeals({self.master}, {len(self)}, first={self._first})"


def seeded_deals(master: int, games: int) -> SeededDeals:
    """Return ``games`` deal sources drawn from the master seed (made lazily).

    >>> [d.deal for d in seeded_deals(3, 2)]
    [1, 2]
    """
    return SeededDeals(master, games)


#: The longest line a decks file may have: 52 codes of up to 3 characters, with room for
#: spaces and a comment. A longer line is refused without reading the rest of it.
MAX_DECK_LINE = 4096


def read_decks(path: Path) -> list[DealSource]:
    """Read and check a decks file; raise :class:`DeckFileError` at the first bad line.

    Each line is read up to :data:`MAX_DECK_LINE` characters, so a huge one-line file is
    refused at once, never read whole into memory.
    """
    try:
        return _read_decks(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckFileError(f"cannot read {path}: {exc}") from None


def _read_decks(path: Path) -> list[DealSource]:
    sources: list[DealSource] = []
    with open(path, encoding="utf-8") as text:
        for number, line in enumerate(iter(lambda: text.readline(MAX_DECK_LINE + 1), ""), start=1):
            if len(line) > MAX_DECK_LINE:
                raise DeckFileError(f"{path}, line {number}: longer than {MAX_DECK_LINE} characters "
                                    f"(starts {shown(line)}); a deck is one line of 52 card codes")
            _read_deck_line(path, number, line, sources)
    if not sources:
        raise DeckFileError(f"{path} holds no decks")
    return sources


def _read_deck_line(path: Path, number: int, line: str, sources: list[DealSource]) -> None:
    """Append the deck on ``line`` (if it holds one) to ``sources``."""
    content = line.split("#", 1)[0].strip()
    if not content:
        return
    try:
        deck = Deck.parse(content)
    except DeckError as exc:
        raise DeckFileError(f"{path}, line {number}: {exc}") from None
    sources.append(DealSource(len(sources) + 1, line=number, deck=str(deck)))


@dataclass(frozen=True)
class SimulationRun:
    """What every deal of a run shares: the game, its options and the player."""

    game: str
    options: dict[str, Any]
    player: str | None = None
    #: A student's own class of the game, structures and shuffle (``simulate --impl``), or
    #: None for the package's. Worker processes receive them by reference (they fork).
    game_type: type[Game] | None = None
    toolkit: Toolkit | None = None
    shuffle: Callable[[list[Any], random.Random], None] | None = None
    #: The student's folder those come from: a deal their code stops raises GameStopped.
    folder: Path | None = None

    def play(self, source: DealSource) -> dict[str, Any]:
        """Play one deal without recording events; return its labelled result.

        On a student's code (``game_type``, ``toolkit`` or ``shuffle`` given), any exception
        becomes :class:`~solitaire_ds.blame.GameStopped`, saying whose code failed where (it
        crosses from a worker process, where a traceback does not).
        """
        if self.game_type is None and self.toolkit is None and self.shuffle is None:
            return self._play(source)
        try:
            return self._play(source)
        except Exception as exc:
            raise GameStopped(stop_of(exc, self.folder)) from None

    def _play(self, source: DealSource) -> dict[str, Any]:
        cls, options = self._rules
        deck = source.make_deck()
        if self.shuffle is not None and source.seed is not None:  # dealt by the student's shuffle
            cards = list(Deck.standard())
            self.shuffle(cards, random.Random(source.seed))
            deck = Deck(cards)
        kit = {"toolkit": self.toolkit} if self.toolkit is not None else {}
        game = cls(deck, options, record=False, **kit)
        choose = None
        if cls.has_decisions:
            from solitaire_ds.players import make_player

            choose = make_player(self.player or "greedy", cls)
        return {**source.label(), **game.run(choose)}

    @cached_property
    def _rules(self) -> tuple[type[Game], GameOptions]:
        """The game's class and its options, looked up and checked once, not once a deal
        (options are frozen, so every game of the run shares them)."""
        cls = self.game_type or game_class(self.game)
        return cls, cls.options_type.from_json(self.options)

    def play_chunk(self, chunk: Sequence[DealSource]) -> list[dict[str, Any]]:
        """Play several deals (the unit of work a worker process takes)."""
        return [self.play(source) for source in chunk]


Progress = Callable[[int, int], None]


def run_deals(
    run: SimulationRun,
    sources: Sequence[DealSource],
    workers: int = 1,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Play every deal and return the results in deal order.

    ``workers`` processes share the deals in chunks; the order of the results, and so
    every figure computed from them, does not depend on ``workers``.
    """
    total = len(sources)
    chunk_size = max(1, min(200, total // (workers * 8) or 1))
    # A generator, not a list: the chunks are cut as the workers take them.
    chunks = (sources[i:i + chunk_size] for i in range(0, total, chunk_size))
    results: list[dict[str, Any]] = []
    for part in _map(run.play_chunk, chunks, min(workers, -(-total // chunk_size))):
        results += part
        if progress is not None:
            progress(len(results), total)
    return results


def _map(
    func: Callable[[Sequence[DealSource]], list[dict[str, Any]]],
    chunks: Iterator[Sequence[DealSource]],
    workers: int,
) -> Iterator[list[dict[str, Any]]]:
    if workers <= 1:
        yield from map(func, chunks)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(workers, initializer=_ignore_interrupts) as pool:
        yield from pool.imap(func, chunks)


def peak_memory_mb() -> tuple[float, float] | None:
    """Return the peak resident memory, in MB, of this process and of its largest child.

    The child figure is the largest finished worker process (``RUSAGE_CHILDREN``); None
    where the ``resource`` module does not exist (Windows).
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    unit = 1024 * 1024 if sys.platform == "darwin" else 1024
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / unit
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / unit
    return own, children


def timing_line(done: int, elapsed: float, workers: int, unit: str = "deals") -> str:
    """Return the closing line: wall time, ``unit`` per second, workers and peak memory.

    It differs from run to run, so the commands print it on stderr, apart from the report.

    >>> timing_line(1000, 2.0, 2).startswith("time: 2.00 s, 500 deals per second (2 workers)")
    True
    """
    rate = done / max(elapsed, 1e-9)
    line = (f"time: {elapsed:.2f} s, {rate:,.0f} {unit} per second "
            f"({workers} worker{'s' if workers != 1 else ''})")
    memory = peak_memory_mb()
    if memory is not None:
        own, children = memory
        line += f"; peak memory {own:,.0f} MB in this process"
        if workers > 1:
            line += f", {children:,.0f} MB in the largest worker"
    return line


class ProgressBar:
    """Progress of a long run on ``stream`` (stderr by default).

    On a terminal: one line redrawn in place -- a bar, the count, the rate, the time
    elapsed and the time left -- at most ten times a second. Off a terminal (a log file,
    ``nohup``, ``2>err``): a plain line every :attr:`every` seconds and one at the end, so a
    long run says it is alive without filling the log. :meth:`interrupted` ends the line
    cleanly before a Ctrl-C message.
    """

    #: Seconds between two lines off a terminal.
    every = 10.0

    def __init__(self, label: str, stream: TextIO | None = None, unit: str = "deals") -> None:
        self.label = label
        self.unit = unit
        self.stream = stream = stream if stream is not None else sys.stderr
        try:
            self.terminal = stream.isatty() and os.environ.get("TERM") != "dumb"
        except (AttributeError, ValueError):
            self.terminal = False
        self.enabled = True
        self.start = time.perf_counter()
        self._last = float("-inf")
        self._open = False  # a terminal line is drawn and not yet ended
        self._drawn = 0  # the length of the line last drawn on the terminal
        _BARS.append(self)

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        finished = done >= total
        if not finished and now - self._last < (0.1 if self.terminal else self.every):
            return
        self._last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else float("nan")
        timing = f"{_clock(elapsed)} elapsed" + ("" if finished else f", {_clock(left)} left")
        if self.terminal:
            line = _bar_line(self.label, done, total, f"{self.unit}, {timing}", terminal_width(stream=self.stream) - 1)
            # Open before it is drawn: a Ctrl-C can arrive between any two lines here, and an
            # extra line end is harmless where a missing one glues the message to the bar.
            self._open = True
            # Spaces over what is left of a longer line before (the time left may get shorter).
            self.stream.write(f"\r{line:<{self._drawn}}")
            self._drawn = len(line)
            if finished:
                self.stream.write("\n")
                self._open = False
        else:
            self.stream.write(f"{self.label}: {done:,} of {total:,} {self.unit}, {rate:,.0f}/s, {timing}\n")
        self.stream.flush()

    def interrupted(self) -> None:
        """End a terminal line left open (see :func:`end_progress_line`)."""
        self._end()

    def _end(self) -> None:
        """End a terminal line left open, so that what follows starts on a line of its own."""
        if self._open:
            self.stream.write("\n")
            self.stream.flush()
            self._open = False


_BARS: list[ProgressBar] = []


def _bar_line(label: str, done: int, total: int, rest: str, width: int) -> str:
    """One progress line of at most ``width`` characters: the bar shrinks first, then goes,
    then the line is cut (a terminal this narrow still gets one line, never a wrapped one).

    >>> _bar_line("Aces Up", 50, 100, "deals, 0:01 elapsed, 0:01 left", 79)
    'Aces Up [##########..........] 50/100 deals, 0:01 elapsed, 0:01 left'
    >>> _bar_line("Aces Up", 50, 100, "deals, 0:01 elapsed, 0:01 left", 60)
    'Aces Up [######......] 50/100 deals, 0:01 elapsed, 0:01 left'
    >>> _bar_line("Aces Up", 50, 100, "deals, 0:01 elapsed, 0:01 left", 30)
    'Aces Up 50/100 deals, 0:01 ...'
    """
    count = f"{done:,}/{total:,} {rest}"
    cells = min(20, width - len(label) - len(count) - 4)  # the label, " [", "] " and the count
    if cells >= 5:
        filled = cells * done // max(total, 1)
        return f"{label} [{'#' * filled}{'.' * (cells - filled)}] {count}"
    line = f"{label} {count}"
    return line if len(line) <= width else line[: max(width - 3, 0)] + "..."


def end_progress_line() -> None:
    """End any progress line left open on a terminal (before an interruption's message)."""
    for bar in _BARS:
        bar._end()


def _ignore_interrupts() -> None:
    """In a worker process: Ctrl-C is the parent's to handle (no traceback from each worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _clock(seconds: float) -> str:
    """``'1:05'`` for 65 seconds, ``'1:02:03'`` past an hour; ``'?'`` when unknown.

    >>> _clock(65), _clock(3723), _clock(float("nan"))
    ('1:05', '1:02:03', '?')
    """
    if seconds != seconds or seconds == float("inf"):
        return "?"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
