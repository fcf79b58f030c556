"""Exercise 6: LinkedDeque meets the Deque contract (run with ``--impl`` to grade a folder)."""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.structure_contracts import DequeContract
from solitaire_ds.structures import LinkedDeque


@pytest.fixture(scope="module")
def structure_class(impl: str) -> type[Any]:
    """The LinkedDeque of the implementation under test."""
    cls: type[Any] = load_module(impl, "structures.linked_deque").LinkedDeque
    return cls


class TestLinkedDeque(DequeContract):
    """Every Deque test, run against LinkedDeque."""

    reference = LinkedDeque  # the invariant that applies: the exercise's, whatever the code says
