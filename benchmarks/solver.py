"""Deals per second and peak memory of the solver player, as ``simulate`` runs it.

Run from the repository root::

    python -m benchmarks.solver            # the issue's targets (below)
    python -m benchmarks.solver --quick    # a tenth of the deals

Targets (issue 4), each with ``--workers 2`` on a 2-core machine:

* ``simulate idiots-delight --player solver --games 10000``: under 2 minutes;
* ``simulate aces-up --player solver --games 1000``, with and without ``--aces-only``:
  under 2 minutes each, under 1 GB of memory.

Each line also gives the CPU seconds of all the processes (this one and its workers): the
machine is shared, and the wall-clock time depends on the other users.

Peak memory is ``resource.getrusage`` ``ru_maxrss`` of this process plus the largest of
its finished worker processes (kilobytes on Linux), printed in MB. Each run uses a fresh
pool, so the children's figure is that run's own workers.
"""

from __future__ import annotations

import argparse
import resource
import time
from typing import Any

from solitaire_ds.simulate import SimulationRun, run_deals, seeded_deals

__all__ = ["RUNS", "main", "measure"]

#: (label, game, options, deals) of each run, as the issue states the targets.
RUNS: list[tuple[str, str, dict[str, Any], int]] = [
    ("idiots-delight", "idiots-delight", {"deal_any_time": False}, 10_000),
    ("aces-up", "aces-up", {"aces_only": False}, 1_000),
    ("aces-up --aces-only", "aces-up", {"aces_only": True}, 1_000),
]

TARGET_SECONDS = 120.0
TARGET_MB = 1024.0


def _cpu_seconds() -> float:
    """Return the user and system CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(
    game: str, options: dict[str, Any], deals: int, workers: int
) -> tuple[float, float, float]:
    """Return (seconds, peak MB, CPU seconds) of ``deals`` solver deals of ``game``.

    The CPU seconds add up every process's time: on a shared machine the wall-clock time
    depends on the other users, the CPU time much less.
    """
    run = SimulationRun(game, options, "solver")
    cpu = _cpu_seconds()
    started = time.perf_counter()
    run_deals(run, seeded_deals(0, deals), workers)
    elapsed = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, (own + children) / 1024, cpu


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the deals")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    for label, game, options, deals in RUNS:
        count = max(1, deals // 10) if args.quick else deals
        seconds, mb, cpu = measure(game, options, count, args.workers)
        scaled = seconds * deals / count
        verdict = "ok" if scaled < TARGET_SECONDS and mb < TARGET_MB else "MISSED"
        print(f"{label:22} {count:6} deals in {seconds:7.1f} s = {count / seconds:8.1f} deals/s "
              f"(CPU {cpu:6.1f} s); peak memory {mb:6.0f} MB; {deals} deals would take "
              f"{scaled:6.1f} s (target {TARGET_SECONDS:.0f} s, {TARGET_MB:.0f} MB): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
