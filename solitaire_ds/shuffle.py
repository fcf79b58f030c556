"""The Fisher-Yates shuffle: every order of a list equally likely, and one order per seed.

Vocabulary: ``items`` is the list to shuffle, in place; ``rng`` is any object with a
``randrange(n)`` method that returns a whole number from ``0`` to ``n - 1``
(``random.Random(seed)`` is one). The shuffle calls nothing else of ``rng``: the checks hand
it an ``rng`` that offers ``randrange`` alone, so passing the list on to ``rng.shuffle`` is
not an answer.

Invariant: the slots are filled from the last one down. When the loop has filled slot
``i``, the items in slots ``i``, ``i + 1``, ... are final: each was drawn, with equal
chances, from the items still in the slots not yet final (its own slot included), and
slots ``0`` to ``i - 1`` hold the items not drawn yet. So each of the ``n!`` orders comes
out with the same chance, ``1/n!``.

Contract: for ``i`` from the last index down to 1, ``j = rng.randrange(i + 1)`` and items
``i`` and ``j`` swap places: one ``randrange`` call for each slot but the first, in that
order. The order of the calls is part of the contract, because the decks the games deal for
a seed (pinned by the checks, and named by seed in every record and figure) depend on it.

>>> import random
>>> deck = ["A", "2", "3", "4", "5", "6"]
>>> fisher_yates(deck, random.Random(1))
>>> deck
['3', '4', '6', 'A', '5', '2']
"""

from __future__ import annotations

from typing import Protocol, TypeVar

__all__ = ["RandRange", "fisher_yates"]

T = TypeVar("T")


class RandRange(Protocol):
    """What the shuffle needs of a random number generator: ``randrange(n)``, nothing else."""

    def randrange(self, stop: int, /) -> int:
        """Return a whole number from ``0`` to ``stop - 1``, each with the same chance."""
        ...


def fisher_yates(items: list[T], rng: RandRange) -> None:
    """Shuffle ``items`` in place, every order equally likely (Fisher-Yates, Knuth's Algorithm P).

    Needs ``rng``, any object with a ``randrange(n)`` method (``random.Random`` has one), and
    calls nothing else of it. Returns None: the list it is given is the one shuffled.

    The order of the draws is part of the contract (the seeds' decks depend on it): for
    ``i`` from the last index down to 1, take ``j = rng.randrange(i + 1)`` (so ``j`` may be
    ``i`` itself) and swap items ``i`` and ``j``. A list of 0 or 1 items draws nothing.

    Runtime complexity: O(n): one draw and one swap per slot.

    >>> import random
    >>> items = list(range(5))
    >>> fisher_yates(items, random.Random(1))
    >>> sorted(items) == [0, 1, 2, 3, 4], items
    (True, [2, 3, 4, 0, 1])
    """
    # BEGIN SOLUTION: fill the slots from the last one down, each by a swap with a slot drawn from those not yet final
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]
    # END SOLUTION
