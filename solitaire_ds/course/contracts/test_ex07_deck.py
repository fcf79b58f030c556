"""Exercise 7: the Fisher-Yates shuffle behind ``Deck.shuffled`` (run with ``--impl``).

The expectations are trusted: the documented loop run here, and the package's pinned
deals. A failure says in plain words what the shuffle should have produced.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.pinned import SHUFFLED
from solitaire_ds.course.contracts.plain import doing


@pytest.fixture(scope="module")
def shuffle(impl: str) -> ModuleType:
    """The shuffle module of the implementation under test."""
    return load_module(impl, "shuffle")


def documented_shuffle(items: list[int], seed: int) -> list[int]:
    """The loop the exercise describes, written out as the trusted answer."""
    rng = random.Random(seed)
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = rng.randrange(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


@pytest.mark.parametrize("size", [0, 1, 2, 3, 10, 52])
def test_fisher_yates_follows_the_documented_loop(shuffle: ModuleType, size: int) -> None:
    for seed in range(5):
        items = list(range(size))
        with doing(f"fisher_yates(list(range({size})), random.Random({seed}))"):
            shuffle.fisher_yates(items, random.Random(seed))
        expected = documented_shuffle(list(range(size)), seed)
        assert items == expected, (
            f"fisher_yates(list(range({size})), random.Random({seed})) should give {expected}, "
            f"gave {items}: go from the last index down to 1 and use rng.randrange(i + 1)")


def test_fisher_yates_shuffles_in_place_and_returns_none(shuffle: ModuleType) -> None:
    items = list(range(8))
    with doing("fisher_yates(list(range(8)), random.Random(1))"):
        returned = shuffle.fisher_yates(items, random.Random(1))
    assert returned is None, "fisher_yates shuffles the list it is given and returns None"
    assert sorted(items) == list(range(8)), f"a shuffle must keep every item once, got {items}"


def test_every_order_of_three_cards_comes_up(shuffle: ModuleType) -> None:
    rng = random.Random(0)
    seen = set()
    for _ in range(600):
        items = [0, 1, 2]
        with doing("fisher_yates([0, 1, 2], rng), rng = random.Random(0), called 600 times"):
            shuffle.fisher_yates(items, rng)
        seen.add(tuple(items))
    assert len(seen) == 6, f"all 6 orders of 3 items should come up in 600 shuffles, saw {sorted(seen)}"


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_a_seed_deals_the_pinned_deck(shuffle: ModuleType, seed: int) -> None:
    cards = list(Deck.standard())  # the package's Deck, shuffled by the fisher_yates under test
    with doing(f"Deck.shuffled({seed}), which calls fisher_yates(cards, random.Random({seed}))"):
        shuffle.fisher_yates(cards, random.Random(seed))
    theirs = " ".join(card.code for card in cards)
    expected = SHUFFLED[seed]
    assert theirs == expected, (
        f"Deck.shuffled({seed}) should deal {expected[:23]}..., dealt {theirs[:23]}...")
