"""Exercise 5: ArrayDeque meets the Deque contract (run with ``--impl`` to grade a folder)."""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.structure_contracts import ArrayContract, DequeContract
from solitaire_ds.structures import ArrayDeque


@pytest.fixture(scope="module")
def structure_class(impl: str) -> type[Any]:
    """The ArrayDeque of the implementation under test."""
    cls: type[Any] = load_module(impl, "structures.array_deque").ArrayDeque
    return cls


class TestArrayDeque(DequeContract, ArrayContract):
    """Every Deque test and the array tests, run against ArrayDeque."""

    reference = ArrayDeque  # the invariant that applies: the exercise's, whatever the code says
