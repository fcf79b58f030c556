"""The games' speed: Perpetual Motion in one process, 100,000 Klondike games with 2 workers.

Run from the repository root::

    python -m benchmarks.games                  # the figures the targets name
    python -m benchmarks.games --games 10000    # a quicker look at Klondike

Measured in one run, and printed:

* Perpetual Motion: CPU milliseconds per deal in this process (best of three passes over the
  same deals, played without a record, as ``simulate`` plays them), against the target of
  3 ms;
* Klondike: the CPU time per game in this process (deck made and game played), then
  ``simulate klondike --games N --workers W`` as the command runs it
  (:func:`solitaire_ds.simulate.run_deals`): its wall time against the target (100,000 games
  in 25 s with 2 workers) and its CPU time, counted over this process and every worker;
* beside each game, the same game loop on a plain-list toolkit: the same game code, with
  every Stack a ``list`` and every Queue and Deque a ``collections.deque`` behind the same
  interface (:class:`ListStack`, :class:`ListQueue`, :class:`ListDeque`). The ratio is what
  the course's hand-built structures cost over Python's own containers; the game's own work
  is the same on both.

Figures are printed, never asserted: the machine may be shared, so the load average is
printed at the start and the end, and a wall time measured under load says so.
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from solitaire_ds.cards import Deck
from solitaire_ds.games.base import Game
from solitaire_ds.games.klondike import Klondike
from solitaire_ds.games.perpetual_motion import PerpetualMotion
from solitaire_ds.simulate import SimulationRun, deal_seed, run_deals, seeded_deals
from solitaire_ds.structures import Deque, EmptyStructureError, Queue, Stack, Toolkit

__all__ = ["LIST_TOOLKIT", "ListDeque", "ListQueue", "ListStack", "cpu_ms_per_game", "main"]

T = TypeVar("T")

#: Perpetual Motion: CPU milliseconds per deal in one process.
PM_TARGET_MS = 3.0
#: Klondike: this many games with this many workers, in this many seconds of wall time.
KLONDIKE_GAMES = 100_000
KLONDIKE_WORKERS = 2
KLONDIKE_TARGET_SECONDS = 25.0


class ListStack(Stack[T]):
    """A Stack on a Python ``list``: ``append`` pushes, ``pop`` pops (the baseline)."""

    def __init__(self, items: Iterable[T] | None = None) -> None:
        self._items: list[T] = list(items) if items is not None else []

    def push(self, item: T) -> None:
        self._items.append(item)

    def pop(self) -> T:
        if not self._items:
            raise EmptyStructureError("pop from an empty stack")
        return self._items.pop()

    def peek(self) -> T:
        if not self._items:
            raise EmptyStructureError("peek at an empty stack")
        return self._items[-1]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return reversed(self._items)

    def _check(self) -> None:
        assert isinstance(self._items, list)


class ListQueue(Queue[T]):
    """A Queue on a ``collections.deque``: ``append`` enqueues, ``popleft`` dequeues."""

    def __init__(self, items: Iterable[T] | None = None) -> None:
        self._items: collections.deque[T] = collections.deque(items if items is not None else ())

    def enqueue(self, item: T) -> None:
        self._items.append(item)

    def dequeue(self) -> T:
        if not self._items:
            raise EmptyStructureError("dequeue from an empty queue")
        return self._items.popleft()

    def peek(self) -> T:
        if not self._items:
            raise EmptyStructureError("peek at an empty queue")
        return self._items[0]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def _check(self) -> None:
        assert isinstance(self._items, collections.deque)


class ListDeque(Deque[T]):
    """A Deque on a ``collections.deque``: both ends are one call into C."""

    def __init__(self, items: Iterable[T] | None = None) -> None:
        self._items: collections.deque[T] = collections.deque(items if items is not None else ())

    def add_front(self, item: T) -> None:
        self._items.appendleft(item)

    def add_rear(self, item: T) -> None:
        self._items.append(item)

    def remove_front(self) -> T:
        if not self._items:
            raise EmptyStructureError("remove_front from an empty deque")
        return self._items.popleft()

    def remove_rear(self) -> T:
        if not self._items:
            raise EmptyStructureError("remove_rear from an empty deque")
        return self._items.pop()

    def peek_front(self) -> T:
        if not self._items:
            raise EmptyStructureError("peek_front at an empty deque")
        return self._items[0]

    def peek_rear(self) -> T:
        if not self._items:
            raise EmptyStructureError("peek_rear at an empty deque")
        return self._items[-1]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def _check(self) -> None:
        assert isinstance(self._items, collections.deque)


#: The baseline: the same games on Python's own containers.
LIST_TOOLKIT = Toolkit(ListStack, ListQueue, ListDeque, source="list and collections.deque")


def cpu_ms_per_game(
    game: type[Game], decks: Sequence[Deck], toolkit: Toolkit, repeats: int = 3
) -> float:
    """Return the CPU milliseconds per game of playing ``decks`` without a record (best pass)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for deck in decks:
            game(deck, toolkit=toolkit, record=False).run()
        best = min(best, time.process_time() - started)
    return best / len(decks) * 1000


def _cpu_seconds(times: os.times_result) -> tuple[float, float]:
    """Return (this process, its finished children) CPU seconds, user + system."""
    return times.user + times.system, times.children_user + times.children_system


def _side_by_side(game: type[Game], decks: Sequence[Deck], unit: str) -> tuple[float, str]:
    """Return the course toolkit's ms per game and a line with the plain-list ratio beside it."""
    ours = cpu_ms_per_game(game, decks, Toolkit())
    plain = cpu_ms_per_game(game, decks, LIST_TOOLKIT)
    return ours, (f"{game.title}: {ours:.2f} ms CPU per {unit} in one process on the course's "
                  f"structures, {plain:.2f} ms on list/collections.deque ({ours / plain:.2f}x)")


def _verdict(value: float, target: float) -> str:
    return "MET" if value <= target else "MISSED"


def main(argv: Sequence[str] | None = None, out: Callable[[str], Any] = print) -> None:
    """Measure and print the games' figures (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=KLONDIKE_GAMES, help="Klondike games")
    parser.add_argument("--workers", type=int, default=KLONDIKE_WORKERS)
    parser.add_argument("--deals", type=int, default=300, help="Perpetual Motion deals")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    out(f"machine: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")

    pm_decks = [Deck.shuffled(seed) for seed in range(args.deals)]
    pm_ms, line = _side_by_side(PerpetualMotion, pm_decks, "deal")
    out(f"{line}  (target {PM_TARGET_MS:g} ms: {_verdict(pm_ms, PM_TARGET_MS)})")

    sample = min(args.games, 2000)
    started = time.process_time()
    kl_decks = [Deck.shuffled(deal_seed(args.seed, n)) for n in range(1, sample + 1)]
    deck_ms = (time.process_time() - started) / sample * 1000
    _, line = _side_by_side(Klondike, kl_decks, "game")
    out(f"{line}; making its deck: {deck_ms:.3f} ms")

    before = _cpu_seconds(os.times())
    started = time.perf_counter()
    results = run_deals(SimulationRun(Klondike.name, {}), seeded_deals(args.seed, args.games),
                        args.workers)
    wall = time.perf_counter() - started
    after = _cpu_seconds(os.times())  # the pool has ended: its workers count as children
    own, workers = after[0] - before[0], after[1] - before[1]
    target = KLONDIKE_TARGET_SECONDS * args.games / KLONDIKE_GAMES
    out(f"simulate klondike --games {len(results):,} --workers {args.workers}: {wall:.1f} s wall "
        f"(target {target:g} s: {_verdict(wall, target)}), {own + workers:.1f} s CPU "
        f"({workers:.1f} s in the workers, {(own + workers) / len(results) * 1000:.3f} ms "
        f"a game); load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
