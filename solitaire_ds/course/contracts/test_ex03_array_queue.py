"""Exercise 3: ArrayQueue meets the Queue contract (run with ``--impl`` to grade a folder)."""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.structure_contracts import ArrayContract, QueueContract
from solitaire_ds.structures import ArrayQueue


@pytest.fixture(scope="module")
def structure_class(impl: str) -> type[Any]:
    """The ArrayQueue of the implementation under test."""
    cls: type[Any] = load_module(impl, "structures.array_queue").ArrayQueue
    return cls


class TestArrayQueue(QueueContract, ArrayContract):
    """Every Queue test and the array tests, run against ArrayQueue."""

    reference = ArrayQueue  # the invariant that applies: the exercise's, whatever the code says
