"""Benchmark: ``simulate perpetual-motion --games 10000 --workers 2`` against its target.

Run from the repository root::

    python -m benchmarks.perpetual_motion [--games N] [--workers K]

Prints the wall time, deals per second, the CPU time per deal measured in one process
for each structure toolkit (the game depends on the interface, so any toolkit plays the
same game) beside a plain-Python baseline measured in the same run (the same game on a
Stack that is a ``list`` and a Queue that is a ``collections.deque``, with the ratio of
each toolkit to it), and whether the targets were met on this machine: 10,000 deals in
under 10 s with 2 workers, and at most 3 ms of CPU a deal in one process on the package's
own structures. Figures are printed, never asserted: machines are shared.
"""

from __future__ import annotations

import argparse
import collections
import os
import time
from collections.abc import Iterable, Iterator
from typing import Any

from solitaire_ds.cards import Deck
from solitaire_ds.games.perpetual_motion import PerpetualMotion
from solitaire_ds.simulate import SimulationRun, run_deals, seeded_deals
from solitaire_ds.structures import ArrayQueue, ArrayStack, LinkedQueue, LinkedStack, Toolkit

TARGET_SECONDS = 10.0
#: CPU milliseconds a deal in one process, on the package's own ArrayStack and ArrayQueue.
TARGET_MS_PER_DEAL = 3.0


class _ListStack(ArrayStack[Any]):
    """The baseline Stack: Python's list, top last (the game sees the same interface)."""

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items = list(items)

    def push(self, item: Any) -> None:
        self._items.append(item)

    def pop(self) -> Any:
        return self._items.pop()

    def peek(self) -> Any:
        return self._items[-1]

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[Any]:
        return reversed(self._items)


class _DequeQueue(ArrayQueue[Any]):
    """The baseline Queue: ``collections.deque``, front first."""

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items = collections.deque(items)

    def enqueue(self, item: Any) -> None:
        self._items.append(item)

    def dequeue(self) -> Any:
        return self._items.popleft()

    def peek(self) -> Any:
        return self._items[0]

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)


def _ms_per_deal(decks: list[Deck], toolkit: Toolkit) -> float:
    cpu = time.process_time()
    for deck in decks:
        PerpetualMotion(deck, toolkit=toolkit, record=False).run()
    return (time.process_time() - cpu) / len(decks) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    run = SimulationRun("perpetual-motion", {"gather": "right-face-down"})
    sources = seeded_deals(1, args.games)
    started = time.perf_counter()
    results = run_deals(run, sources, args.workers)
    wall = time.perf_counter() - started
    verdict = "MET" if wall < TARGET_SECONDS * args.games / 10_000 else "MISSED"
    print(f"simulate perpetual-motion --games {args.games} --workers {args.workers}: "
          f"{wall:.2f} s wall, {len(results) / wall:,.0f} deals/s "
          f"(target: 10,000 deals in {TARGET_SECONDS:.0f} s: {verdict})")

    decks = [Deck.shuffled(s) for s in range(300)]
    baseline = _ms_per_deal(decks, Toolkit(_ListStack, _DequeQueue))
    print(f"  {'list':12} + {'deque':12}: {baseline:.2f} ms CPU per deal (the plain-Python baseline)")
    for toolkit in (Toolkit(), Toolkit(ArrayStack, LinkedQueue), Toolkit(LinkedStack, ArrayQueue),
                    Toolkit(LinkedStack, LinkedQueue)):
        per_deal = _ms_per_deal(decks, toolkit)
        verdict = ""
        if toolkit == Toolkit():
            verdict = f"; target <= {TARGET_MS_PER_DEAL:g} ms: {'MET' if per_deal <= TARGET_MS_PER_DEAL else 'MISSED'}"
        print(f"  {toolkit.stack.__name__:12} + {toolkit.queue.__name__:12}: "
              f"{per_deal:.2f} ms CPU per deal, {per_deal / baseline:.2f}x the baseline{verdict}")


if __name__ == "__main__":
    main()
