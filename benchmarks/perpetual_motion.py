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
import os
import time

from benchmarks.games import LIST_TOOLKIT, PM_TARGET_MS, cpu_ms_per_game
from solitaire_ds.cards import Deck
from solitaire_ds.games.perpetual_motion import PerpetualMotion
from solitaire_ds.simulate import SimulationRun, run_deals, seeded_deals
from solitaire_ds.structures import ArrayQueue, ArrayStack, LinkedQueue, LinkedStack, Toolkit

TARGET_SECONDS = 10.0


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
    baseline = cpu_ms_per_game(PerpetualMotion, decks, LIST_TOOLKIT, repeats=1)
    print(f"  {'list':12} + {'deque':12}: {baseline:.2f} ms CPU per deal (the plain-Python baseline)")
    for toolkit in (Toolkit(), Toolkit(ArrayStack, LinkedQueue), Toolkit(LinkedStack, ArrayQueue),
                    Toolkit(LinkedStack, LinkedQueue)):
        per_deal = cpu_ms_per_game(PerpetualMotion, decks, toolkit, repeats=1)
        verdict = ""
        if toolkit == Toolkit():
            verdict = f"; target <= {PM_TARGET_MS:g} ms: {'MET' if per_deal <= PM_TARGET_MS else 'MISSED'}"
        print(f"  {toolkit.stack.__name__:12} + {toolkit.queue.__name__:12}: "
              f"{per_deal:.2f} ms CPU per deal, {per_deal / baseline:.2f}x the baseline{verdict}")


if __name__ == "__main__":
    main()
