"""The Fisher-Yates shuffle: the documented loop, every order, and nothing of rng but randrange."""

from __future__ import annotations

import random

import pytest

from solitaire_ds.shuffle import fisher_yates
from tests.test_layout import import_graph


class OnlyRandRange:
    """An rng that offers ``randrange`` and nothing else, and remembers each call."""

    __slots__ = ("_rng", "calls")

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.calls: list[int] = []

    def randrange(self, stop: int, /) -> int:
        self.calls.append(stop)
        return self._rng.randrange(stop)


def test_fisher_yates_matches_the_documented_loop() -> None:
    items = list(range(10))
    expected = list(range(10))
    rng = random.Random(5)
    for i in range(9, 0, -1):
        j = rng.randrange(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    fisher_yates(items, random.Random(5))
    assert items == expected


def test_fisher_yates_reaches_every_order_of_three_items_about_equally() -> None:
    counts: dict[tuple[int, ...], int] = {}
    rng = random.Random(0)
    for _ in range(6000):
        items = [0, 1, 2]
        fisher_yates(items, rng)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 6
    assert all(800 < n < 1200 for n in counts.values()), counts


@pytest.mark.parametrize("size", [0, 1, 2, 7, 52])
def test_fisher_yates_asks_rng_for_randrange_alone_one_draw_per_slot_from_the_last(size: int) -> None:
    rng = OnlyRandRange(3)
    items = list(range(size))
    fisher_yates(items, rng)
    assert rng.calls == list(range(size, 1, -1))  # randrange(i + 1) for i = size - 1 down to 1
    expected = list(range(size))
    fisher_yates(expected, random.Random(3))
    assert items == expected  # the same draws as random.Random's own randrange


def test_the_students_file_stands_alone() -> None:
    # the exercise's file imports nothing of the package (cards imports it, not the other way)
    graph = import_graph()
    assert graph["solitaire_ds.shuffle"] == set()
    assert "solitaire_ds.shuffle" in graph["solitaire_ds.cards"]
