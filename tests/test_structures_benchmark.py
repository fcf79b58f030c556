"""The structures benchmark runs, and its report applies the targets of issue 2."""

from __future__ import annotations

from benchmarks.structures import Row, measure, report


def test_benchmark_measures_every_class_at_every_size() -> None:
    rows = measure([800, 1600], repeats=1)
    names = [row.name for row in rows]
    assert names == [
        name
        for name in (
            "ArrayStack", "LinkedStack", "ArrayQueue", "LinkedQueue", "ArrayDeque", "LinkedDeque"
        )
        for _ in range(2)
    ]  # fmt: skip
    assert all(row.seconds > 0 and row.baseline_seconds > 0 for row in rows)


def test_report_marks_a_slow_class_as_a_miss_and_a_fast_one_as_a_pass() -> None:
    fast = [Row("ArrayStack", "array", "list", ops, ops * 1e-7, ops * 2e-8) for ops in (10, 100)]
    slow = [
        Row("LinkedQueue", "linked", "deque", 10, 1e-6, 1e-8),
        Row("LinkedQueue", "linked", "deque", 100, 1e-4, 1e-7),
    ]
    text, misses = report(fast + slow)
    assert "PASS  ArrayStack   within 6x of list: worst 5.00x" in text
    assert "PASS  ArrayStack   10x ops -> at most 12x time: worst 10.00x" in text
    assert "MISS  LinkedQueue  within 10x of deque: worst 1000.00x" in text
    assert "MISS  LinkedQueue  10x ops -> at most 12x time: worst 100.00x" in text
    assert misses == 2
