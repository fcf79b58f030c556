"""Exercise 1: ArrayStack meets the Stack contract (run with ``--impl`` to grade a folder)."""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.structure_contracts import (
    ArrayContract,
    ShrinkingContract,
    StackContract,
)
from solitaire_ds.structures import ArrayStack


@pytest.fixture(scope="module")
def structure_class(impl: str) -> type[Any]:
    """The ArrayStack of the implementation under test."""
    cls: type[Any] = load_module(impl, "structures.array_stack").ArrayStack
    return cls


class TestArrayStack(StackContract, ArrayContract, ShrinkingContract):
    """Every Stack test and the array tests, run against ArrayStack."""

    reference = ArrayStack  # the invariant that applies: the exercise's, whatever the code says
