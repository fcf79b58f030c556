"""Nanoseconds per operation for the six structures, next to Python's own list and deque.

Run from the repository root::

    python -m benchmarks.structures          # 10^4, 10^5 and 10^6 operations
    python -m benchmarks.structures --quick  # 10^3, 10^4 and 10^5, one repeat
    python -m benchmarks.structures --cpu    # CPU time instead of wall time (busy machine)

Each workload first grows the structure and then shrinks it back to empty, so the
array classes cross every resize twice:

* stack: ``push, push, push, pop`` groups for the first half of the operations, then
  ``push, pop, pop, pop``; the same on a ``list`` (``append``/``pop``);
* queue: the same with ``enqueue``/``dequeue``; on a ``collections.deque``
  (``append``/``popleft``);
* deque: ``add_rear, add_front, add_rear, remove_front``, then
  ``add_front, remove_rear, remove_front, remove_rear``; on a ``collections.deque``.

Times are the best of several runs (more for the small sizes), the class and its
built-in taking turns, with the garbage collector off (as ``timeit`` does),
measured with ``time.perf_counter`` (``--cpu``: ``time.process_time``, steadier when other
processes share the machine).

Amortized O(1) predicts that 10x the operations take about 10x the time; the verdict
lines check 12x (noise, caches and allocation add a little). There is no target on the
constant factor: each of our operations is a Python method call, each of the built-ins'
one call into C, and the table says how far apart that puts them.

Peers: the queue workload also runs on the two queues a student would otherwise copy, so
the figures show what the circular buffer buys and what it costs:

* ``InsertQueue``, the queue of *Problem Solving with Algorithms and Data Structures*
  (``items.insert(0, item)`` to enqueue, ``items.pop()`` to dequeue): O(n) per enqueue,
  because every insert shifts the whole list. At 10^6 operations it runs once (about
  ten seconds), not best-of-several;
* ``CircularQueue``, the textbook circular queue of Goodrich, Tamassia and Goldwasser
  (a list, a front index, a size, ``%`` to wrap, doubling when full, halving at a quarter).
"""

from __future__ import annotations

import argparse
import collections
import gc
import itertools
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solitaire_ds.structures import (
    ArrayDeque,
    ArrayQueue,
    ArrayStack,
    LinkedDeque,
    LinkedQueue,
    LinkedStack,
)

__all__ = ["Row", "main", "measure"]

GROWTH_TARGET = 12.0

#: The clock: wall time by default; ``--cpu`` switches to this process's CPU time, which
#: other busy processes on a shared machine do not inflate.
_clock: Callable[[], float] = time.perf_counter

#: From this size on, the O(n) peer is timed once, not best-of-several.
SLOW_PEER_ONCE = 10**6


# -- the peers a student would otherwise copy ---------------------------------------------------


class InsertQueue:
    """The list-backed queue of Problem Solving with Algorithms and Data Structures, 3.12."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def enqueue(self, item: Any) -> None:
        self.items.insert(0, item)  # shifts every item one place: O(n)

    def dequeue(self) -> Any:
        return self.items.pop()

    def __len__(self) -> int:
        return len(self.items)


class CircularQueue:
    """The textbook circular queue (Goodrich, Tamassia, Goldwasser, *Data Structures and
    Algorithms in Python*, 6.2.2): a list, a front index and a size, ``%`` to wrap."""

    DEFAULT_CAPACITY = 10

    def __init__(self) -> None:
        self._data: list[Any] = [None] * CircularQueue.DEFAULT_CAPACITY
        self._size = 0
        self._front = 0

    def __len__(self) -> int:
        return self._size

    def dequeue(self) -> Any:
        if self._size == 0:
            raise IndexError("Queue is empty")
        answer = self._data[self._front]
        self._data[self._front] = None
        self._front = (self._front + 1) % len(self._data)
        self._size -= 1
        if 0 < self._size < len(self._data) // 4:
            self._resize(len(self._data) // 2)
        return answer

    def enqueue(self, e: Any) -> None:
        if self._size == len(self._data):
            self._resize(2 * len(self._data))
        avail = (self._front + self._size) % len(self._data)
        self._data[avail] = e
        self._size += 1

    def _resize(self, cap: int) -> None:
        old = self._data
        self._data = [None] * cap
        walk = self._front
        for k in range(self._size):
            self._data[k] = old[walk]
            walk = (1 + walk) % len(old)
        self._front = 0


# -- the workloads: each takes a fresh structure and a number of operations -------------------


def _two_method_workload(add: Callable[[Any], None], remove: Callable[[], Any], ops: int) -> None:
    groups = ops // 8  # each half is ops // 2 operations in groups of four
    for i in range(groups):  # grow: net +2 per group
        add(i)
        add(i)
        add(i)
        remove()
    for i in range(groups):  # shrink: net -2 per group, back to empty
        add(i)
        remove()
        remove()
        remove()


def _stack_ops(stack: Any, ops: int) -> None:
    _two_method_workload(stack.push, stack.pop, ops)


def _list_ops(items: list[int], ops: int) -> None:
    _two_method_workload(items.append, items.pop, ops)


def _queue_ops(queue: Any, ops: int) -> None:
    _two_method_workload(queue.enqueue, queue.dequeue, ops)


def _deque_as_queue_ops(items: collections.deque[int], ops: int) -> None:
    _two_method_workload(items.append, items.popleft, ops)


def _four_method_workload(
    add_front: Callable[[Any], None],
    add_rear: Callable[[Any], None],
    remove_front: Callable[[], Any],
    remove_rear: Callable[[], Any],
    ops: int,
) -> None:
    groups = ops // 8
    for i in range(groups):
        add_rear(i)
        add_front(i)
        add_rear(i)
        remove_front()
    for i in range(groups):
        add_front(i)
        remove_rear()
        remove_front()
        remove_rear()


def _deque_ops(deque: Any, ops: int) -> None:
    _four_method_workload(
        deque.add_front, deque.add_rear, deque.remove_front, deque.remove_rear, ops
    )


def _builtin_deque_ops(items: collections.deque[int], ops: int) -> None:
    _four_method_workload(items.appendleft, items.append, items.popleft, items.pop, ops)


@dataclass(frozen=True)
class _Case:
    name: str
    kind: str  # "array", "linked" or "peer"
    make: Callable[[], Any]
    run: Callable[[Any, int], None]
    baseline_name: str
    make_baseline: Callable[[], Any]
    run_baseline: Callable[[Any, int], None]


_CASES = (
    _Case("ArrayStack", "array", ArrayStack, _stack_ops, "list", list, _list_ops),
    _Case("LinkedStack", "linked", LinkedStack, _stack_ops, "list", list, _list_ops),
    _Case(
        "ArrayQueue", "array", ArrayQueue, _queue_ops,
        "deque", collections.deque, _deque_as_queue_ops,
    ),
    _Case(
        "LinkedQueue", "linked", LinkedQueue, _queue_ops,
        "deque", collections.deque, _deque_as_queue_ops,
    ),
    _Case(
        "ArrayDeque", "array", ArrayDeque, _deque_ops,
        "deque", collections.deque, _builtin_deque_ops,
    ),
    _Case(
        "LinkedDeque", "linked", LinkedDeque, _deque_ops,
        "deque", collections.deque, _builtin_deque_ops,
    ),
    _Case(
        "InsertQueue", "peer", InsertQueue, _queue_ops,
        "deque", collections.deque, _deque_as_queue_ops,
    ),
    _Case(
        "CircularQueue", "peer", CircularQueue, _queue_ops,
        "deque", collections.deque, _deque_as_queue_ops,
    ),
)  # fmt: skip


# -- measuring -------------------------------------------------------------------------------


def _time_once(make: Callable[[], Any], run: Callable[[Any, int], None], ops: int) -> float:
    structure = make()
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        start = _clock()
        run(structure, ops)
        elapsed = _clock() - start
    finally:
        if gc_was_on:
            gc.enable()
    assert len(structure) == 0, "the workload must leave the structure empty"
    return elapsed


def _best_pair(case: _Case, ops: int, repeats: int) -> tuple[float, float]:
    """Best time of the class and of its built-in, run in turn so both see the same machine."""
    best = best_baseline = float("inf")
    for _ in range(repeats):
        best = min(best, _time_once(case.make, case.run, ops))
        best_baseline = min(best_baseline, _time_once(case.make_baseline, case.run_baseline, ops))
    return best, best_baseline


@dataclass(frozen=True)
class Row:
    """One class at one size: its time per operation and its built-in's."""

    name: str
    kind: str
    baseline: str
    ops: int
    seconds: float
    baseline_seconds: float

    @property
    def ns_per_op(self) -> float:
        return self.seconds / self.ops * 1e9

    @property
    def baseline_ns_per_op(self) -> float:
        return self.baseline_seconds / self.ops * 1e9

    @property
    def ratio(self) -> float:
        return self.seconds / self.baseline_seconds


def measure(sizes: list[int], repeats: int) -> list[Row]:
    """Time every class and its built-in at each size; return one row per (class, size)."""
    rows = []
    for case in _CASES:
        for ops in sizes:
            # small sizes are cheap: repeat them more, so the best run is a quiet one
            runs = max(repeats, 10**6 // ops)
            if case.name == "InsertQueue":  # O(n) a step: its own cost dwarfs the noise
                runs = 1 if ops >= SLOW_PEER_ONCE else repeats
            seconds, base = _best_pair(case, ops, runs)
            rows.append(Row(case.name, case.kind, case.baseline_name, ops, seconds, base))
    return rows


class _DoNothing:
    """A stack whose methods do nothing: the cost of calling a Python method at all."""

    __slots__ = ()

    def push(self, item: object) -> None:
        pass

    def pop(self) -> None:
        pass

    def __len__(self) -> int:
        return 0


def _call_floor(ops: int, repeats: int) -> tuple[float, float]:
    """Return ns/op of the stack workload on do-nothing methods and on a list."""
    case = _Case("floor", "array", _DoNothing, _stack_ops, "list", list, _list_ops)
    seconds, base = _best_pair(case, ops, repeats)
    return seconds / ops * 1e9, base / ops * 1e9


# -- reporting -------------------------------------------------------------------------------


def _power(ops: int) -> str:
    exponent = len(str(ops)) - 1
    return f"10^{exponent}" if ops == 10**exponent else str(ops)


def report(rows: list[Row]) -> tuple[str, int]:
    """Return the table and the PASS/MISS lines as text, and the number of misses.

    A miss is one of the six classes whose time grew more than ``GROWTH_TARGET`` times
    for 10x the operations; a peer that does (the O(n) ``InsertQueue``) is reported, not
    counted.
    """
    lines = [
        f"{'class':<13} {'ops':>5} {'ns/op':>8} {'built-in':>9} {'ns/op':>8} "
        f"{'ratio':>6} {'growth':>7}",
        "-" * 62,
    ]
    verdicts = []
    misses = 0
    previous: Row | None = None
    for row in rows:
        growth = ""
        if previous is not None and previous.name == row.name:
            factor = row.seconds / previous.seconds
            growth = f"{factor:.1f}x"
        lines.append(
            f"{row.name:<13} {_power(row.ops):>5} {row.ns_per_op:>8.1f} {row.baseline:>9} "
            f"{row.baseline_ns_per_op:>8.1f} {row.ratio:>5.2f}x {growth:>7}"
        )
        previous = row
    for name in dict.fromkeys(row.name for row in rows):
        mine = [row for row in rows if row.name == name]
        growths = [b.seconds / a.seconds for a, b in itertools.pairwise(mine)]
        worst_growth = max(growths, default=0.0)
        ok = worst_growth <= GROWTH_TARGET
        misses += not ok and mine[0].kind != "peer"
        verdict = "O(1) amortized" if ok else "grows faster than the operations"
        verdicts.append(
            f"{'PASS' if ok else 'MISS'}  {name:<13} 10x ops -> worst {worst_growth:.1f}x time "
            f"(at most {GROWTH_TARGET:g}x): {verdict}; {mine[-1].ratio:.1f}x {mine[0].baseline} "
            f"at {_power(mine[-1].ops)}"
        )
    return "\n".join([*lines, "", *verdicts]), misses


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; return 0 (1 with ``--strict`` and a miss)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.structures", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one repeat")
    parser.add_argument("--repeats", type=int, default=None, help="runs per measurement (best kept)")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when one of the six classes is not O(1)"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="time with process CPU time (for a busy, shared machine)"
    )
    args = parser.parse_args(argv)
    global _clock
    _clock = time.process_time if args.cpu else time.perf_counter
    clock_name = "time.process_time" if args.cpu else "time.perf_counter"
    sizes = [10**3, 10**4, 10**5] if args.quick else [10**4, 10**5, 10**6]
    repeats = args.repeats or (1 if args.quick else 5)
    print(
        f"Python {sys.version.split()[0]}, {clock_name}, best of at least {repeats} runs, "
        "garbage collector off while timing"
    )
    print()
    table, misses = report(measure(sizes, repeats))
    print(table)
    floor, builtin = _call_floor(sizes[-1], repeats)
    print()
    print(
        f"For scale: a Python method that does nothing costs {floor:.1f} ns/op in the stack "
        f"workload, list {builtin:.1f} ns/op ({floor / builtin:.1f}x): the interpreter's call "
        "overhead alone is a large part of each of our operations."
    )
    return 1 if misses and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
