"""Exercise 2: LinkedStack meets the Stack contract (run with ``--impl`` to grade a folder)."""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.structure_contracts import StackContract
from solitaire_ds.structures import LinkedStack


@pytest.fixture(scope="module")
def structure_class(impl: str) -> type[Any]:
    """The LinkedStack of the implementation under test."""
    cls: type[Any] = load_module(impl, "structures.linked_stack").LinkedStack
    return cls


class TestLinkedStack(StackContract):
    """Every Stack test, run against LinkedStack."""

    reference = LinkedStack  # the invariant that applies: the exercise's, whatever the code says
