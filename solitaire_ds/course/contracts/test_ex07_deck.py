"""Exercise 7: the Fisher-Yates shuffle behind ``Deck.shuffled`` (run with ``--impl``).

The expectations are trusted: the documented loop run here, and the package's pinned
deals. The shuffle is handed a list made for it and an ``rng`` that offers ``randrange``
alone, as the module's docstring says; the list is read back after. Each draw is the
judge's: the ``rng`` the student's code holds asks this process for it, which draws from
its own ``random.Random(seed)`` and counts the calls itself (nothing the code can read
holds the generator or the count).
A failure says in plain words what the shuffle should have produced.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.pinned import SHUFFLED
from solitaire_ds.course.contracts.plain import doing
from solitaire_ds.course.grader.proxy import Submission


@pytest.fixture(scope="module")
def shuffle(impl: str) -> Any:
    """The shuffle module of the implementation under test."""
    return load_module(impl, "shuffle")


def documented_shuffle(items: list[Any], seed: int) -> list[Any]:
    """The loop the exercise describes, written out as the trusted answer."""
    rng = random.Random(seed)
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = rng.randrange(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def shuffled(impl: Submission, shuffle: Any, items: list[Any], seed: int, shown: str,
             calls: list[tuple[int, ...]] | None = None) -> tuple[object, list[Any], int]:
    """Run the student's ``fisher_yates`` on a copy of ``items`` with a randrange-only rng
    seeded ``seed`` (the judge's: see the module); return what it returned, the list after
    it, and how many draws it made (``calls``, when given, gets each draw's arguments)."""
    theirs = impl.new_list(items)
    rng = impl.randrange_only(seed)
    with doing(f"fisher_yates({shown}, rng) with rng = random.Random({seed}) offering randrange only"):
        returned = shuffle.fisher_yates(theirs, rng)
    if calls is not None:
        calls.extend(rng.calls)
    return returned, list(theirs), rng.draws


def _draw_order_differs(size: int, calls: list[tuple[int, ...]]) -> str:
    """Say where the draws' bounds leave the documented ones (randrange(n), ..., randrange(2));
    "" when every draw asked what the documented loop asks.

    >>> _draw_order_differs(4, [(4,), (0, 3), (2,)])
    ''
    >>> _draw_order_differs(4, [(2,), (3,), (4,)])
    'draw 1 was randrange(2), expected randrange(4)'
    """
    documented = [(i + 1,) for i in range(size - 1, 0, -1)]
    for number, (theirs, wanted) in enumerate(zip(calls, documented, strict=False), start=1):
        if theirs not in (wanted, (0, *wanted), (0, *wanted, 1)):  # randrange(0, n) draws as randrange(n)
            asked = ", ".join(map(repr, theirs))
            return f"draw {number} was randrange({asked}), expected randrange({wanted[0]})"
    return ""


@pytest.mark.parametrize("size", [0, 1, 2, 3, 10, 52])
def test_fisher_yates_follows_the_documented_loop(impl: Submission, shuffle: Any, size: int) -> None:
    for seed in range(5):
        calls: list[tuple[int, ...]] = []
        _, items, draws = shuffled(impl, shuffle, list(range(size)), seed, f"list(range({size}))", calls)
        expected = documented_shuffle(list(range(size)), seed)
        assert sorted(items) == list(range(size)), (
            f"fisher_yates(list(range({size})), random.Random({seed})) should keep every item once, "
            f"gave {items}")
        assert draws == max(size - 1, 0), (
            f"fisher_yates(list(range({size})), rng) should call rng.randrange {max(size - 1, 0)} times "
            f"(once for each slot but the first), called it {draws} times")
        if items == expected:
            continue
        order = _draw_order_differs(size, calls)
        assert not order, (
            f"fisher_yates(list(range({size})), random.Random({seed})): {order}; the draws must come in the "
            "documented order, j = rng.randrange(i + 1) for i from len(items) - 1 down to 1")
        # every draw asked what the documented loop asks (and got the same answer): what
        # differs is what the code did with the items
        if items == list(range(size)):
            raise AssertionError(
                f"fisher_yates(list(range({size})), random.Random({seed})) drew the documented numbers, but the "
                f"list it was given came back as it was: shuffle that list in place (not a copy of it), "
                f"so it reads {expected}")
        assert items == expected, (
            f"fisher_yates(list(range({size})), random.Random({seed})) drew the documented numbers, but the "
            f"items end in another order: {items}, expected {expected}; each draw j swaps items[i] and items[j]")


def test_fisher_yates_shuffles_in_place_and_returns_none(impl: Submission, shuffle: Any) -> None:
    returned, items, _ = shuffled(impl, shuffle, list(range(8)), 1, "list(range(8))")
    assert returned is None, "fisher_yates shuffles the list it is given and returns None"
    assert sorted(items) == list(range(8)), f"a shuffle must keep every item once, got {items}"
    assert items != list(range(8)), "fisher_yates(list(range(8)), random.Random(1)) left the list as it was"


def test_every_order_of_three_items_comes_up(impl: Submission, shuffle: Any) -> None:
    seen = set()
    for seed in range(60):
        _, items, _ = shuffled(impl, shuffle, [0, 1, 2], seed, "[0, 1, 2]")
        seen.add(tuple(items))
    assert len(seen) == 6, f"all 6 orders of 3 items should come up in 60 shuffles, saw {sorted(seen)}"


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_a_seed_deals_the_pinned_deck(impl: Submission, shuffle: Any, seed: int) -> None:
    # the package's Deck, shuffled by the fisher_yates under test, as Deck.shuffled(seed) does
    _, cards, _ = shuffled(impl, shuffle, list(Deck.standard()), seed, "the 52 cards of Deck.standard()")
    theirs = " ".join(card.code for card in cards)
    expected = SHUFFLED[seed]
    assert theirs == expected, (
        f"Deck.shuffled({seed}) should deal {expected[:23]}..., dealt {theirs[:23]}...")
