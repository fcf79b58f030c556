"""The structures benchmark runs every class and peer, and its report checks O(1) growth."""

from __future__ import annotations

from benchmarks.structures import Row, measure, report


def test_benchmark_measures_every_class_at_every_size() -> None:
    rows = measure([800, 1600], repeats=1)  # below the slow peer's limit: every class runs
    names = [row.name for row in rows]
    assert names == [
        name
        for name in (
            "ArrayStack", "LinkedStack", "ArrayQueue", "LinkedQueue", "ArrayDeque", "LinkedDeque",
            "InsertQueue", "CircularQueue",
        )
        for _ in range(2)
    ]  # fmt: skip
    assert all(row.seconds > 0 and row.baseline_seconds > 0 for row in rows)


def test_report_marks_a_class_that_grows_too_fast_as_a_miss_and_a_peer_is_not_counted() -> None:
    fast = [Row("ArrayStack", "array", "list", ops, ops * 1e-7, ops * 2e-8) for ops in (10, 100)]
    slow = [
        Row("LinkedQueue", "linked", "deque", 10, 1e-6, 1e-8),
        Row("LinkedQueue", "linked", "deque", 100, 1e-4, 1e-7),
    ]
    peer = [Row("InsertQueue", "peer", "deque", 10, 1e-6, 1e-8),
            Row("InsertQueue", "peer", "deque", 100, 1e-4, 1e-7)]
    text, misses = report(fast + slow + peer)
    assert "PASS  ArrayStack    10x ops -> worst 10.0x time (at most 12x): O(1) amortized; " \
        "5.0x list at 10^2" in text
    assert "MISS  LinkedQueue   10x ops -> worst 100.0x time (at most 12x): grows faster " \
        "than the operations; 1000.0x deque at 10^2" in text
    assert "MISS  InsertQueue   10x ops -> worst 100.0x time" in text
    assert misses == 1  # the O(n) peer is reported, not counted against the course's classes
