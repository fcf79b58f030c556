"""Exercise 4: LinkedQueue meets the Queue contract (run with ``--impl`` to grade a folder)."""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.structure_contracts import QueueContract
from solitaire_ds.structures import LinkedQueue


@pytest.fixture(scope="module")
def structure_class(impl: str) -> type[Any]:
    """The LinkedQueue of the implementation under test."""
    cls: type[Any] = load_module(impl, "structures.linked_queue").LinkedQueue
    return cls


class TestLinkedQueue(QueueContract):
    """Every Queue test, run against LinkedQueue."""

    reference = LinkedQueue  # the invariant that applies: the exercise's, whatever the code says
