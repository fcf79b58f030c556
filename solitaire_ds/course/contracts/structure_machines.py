"""The stateful contracts: a structure and a trusted model, side by side.

A Hypothesis ``RuleBasedStateMachine`` factory per ADT (``stack_machine(cls, reference)`` and
so on) drives the structure and a model (``list`` / ``collections.deque``) together, checks
the invariant of ``reference`` (the package's class the exercise names) after every step,
and says in plain words which steps led to a difference.
``run_machine(machine)`` runs a machine with the grading settings: deterministic
(``derandomize=True``), no deadline, 200 steps per run so sizes climb past several
resizes and wrap-arounds and come back down.
"""


from __future__ import annotations

import collections
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from solitaire_ds.course.contracts.operations import Operations

__all__ = ["STATEFUL_SETTINGS", "deque_machine", "queue_machine", "run_machine", "stack_machine"]

STATEFUL_SETTINGS = settings(
    max_examples=15,
    stateful_step_count=100,
    derandomize=True,
    database=None,
    deadline=None,
    report_multiple_bugs=False,  # one failure, shrunk to its shortest steps, is easier to read
    # no "explain" phase: its list of source lines adds nothing to the steps our message names
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: The invariant is checked after each of the first this many steps of a run.
_EVERY_STEP = 16
_ITEMS = st.integers(min_value=-1000, max_value=1000)
_BATCHES = st.lists(_ITEMS, min_size=1, max_size=12)
_COUNTS = st.integers(min_value=1, max_value=12)


def run_machine(machine: type[RuleBasedStateMachine], **overrides: Any) -> None:
    """Run ``machine`` as a test with :data:`STATEFUL_SETTINGS` (``overrides`` replace some).

    A failure's message already names every step in plain words, so Hypothesis's notes
    (the same steps as Python code) are dropped from it.
    """
    try:
        run_state_machine_as_test(machine, settings=settings(STATEFUL_SETTINGS, **overrides))
    except AssertionError as error:
        if str(error).startswith("after ") and hasattr(error, "__notes__"):
            del error.__notes__
        raise



# -- the stateful machines -----------------------------------------------------------------


class _ModelMachine(RuleBasedStateMachine):
    """Shared bookkeeping: the structure, its model, and the steps taken so far."""

    cls: type[Any]
    reference: type[Any] | None
    adt: str

    def __init__(self) -> None:
        super().__init__()
        # deferred: the steps and checks of one run go to the worker together, at teardown
        self.ops = Operations(self.cls, adt=self.adt, deferred=True, reference=self.reference)
        self.model: Any = self.new_model()
        self.looks = 0

    def teardown(self) -> None:
        self.ops.agrees_with(len(self.model), self.model_order())
        self.ops.flush()

    def new_model(self) -> Any:
        raise NotImplementedError

    def call_empty(self, method: str, message: str) -> None:
        """Call ``method`` on the empty structure and check the error and its message."""
        self.ops.raises(method, message)

    def remove(self, method: str, expected: object) -> None:
        self.ops.expect(method, expected)

    def look(self, method: str, expected: object) -> None:
        self.ops.expect(method, expected)

    def add(self, method: str, item: object) -> None:
        self.ops.do_later(method, item)

    @invariant()
    def agrees_with_the_model(self) -> None:
        # len, bool, is_empty() and the order after every step; the invariant, which reads
        # every node, after each of the first steps, every 16th step after them and at the end
        self.looks += 1
        deep = self.looks <= _EVERY_STEP or self.looks % 16 == 0
        self.ops.agrees_with(len(self.model), self.model_order(), deep)

    def model_order(self) -> list[Any]:
        return list(self.model)


def stack_machine(cls: type[Any], reference: type[Any] | None) -> type[RuleBasedStateMachine]:
    """Return a state machine checking the Stack ``cls`` against a ``list`` (top last).

    ``reference`` is the package's class whose invariant applies (None: no invariant).
    """

    class StackMachine(_ModelMachine):
        adt = "stack"

        def new_model(self) -> list[Any]:
            return []

        def model_order(self) -> list[Any]:
            order: list[Any] = self.model[::-1]  # a stack iterates from the top down
            return order

        @rule(item=_ITEMS)
        def push(self, item: int) -> None:
            self.add("push", item)
            self.model.append(item)

        @rule(items=_BATCHES)
        def push_several(self, items: list[int]) -> None:
            for item in items:
                self.push(item)

        @precondition(lambda self: bool(self.model))
        @rule()
        def pop(self) -> None:
            self.remove("pop", self.model.pop())

        @precondition(lambda self: bool(self.model))
        @rule(count=_COUNTS)
        def pop_several(self, count: int) -> None:
            for _ in range(min(count, len(self.model))):
                self.pop()

        @precondition(lambda self: bool(self.model))
        @rule()
        def peek(self) -> None:
            self.look("peek", self.model[-1])

        @precondition(lambda self: not self.model)
        @rule()
        def pop_or_peek_when_empty(self) -> None:
            self.call_empty("pop", "pop from an empty stack")
            self.call_empty("peek", "peek at an empty stack")

    StackMachine.cls = cls
    StackMachine.reference = reference
    StackMachine.__name__ = StackMachine.__qualname__ = f"{cls.__name__}Machine"
    return StackMachine


def queue_machine(cls: type[Any], reference: type[Any] | None) -> type[RuleBasedStateMachine]:
    """Return a state machine checking the Queue ``cls`` against a ``collections.deque``.

    ``reference`` is the package's class whose invariant applies (None: no invariant).
    """

    class QueueMachine(_ModelMachine):
        adt = "queue"

        def new_model(self) -> collections.deque[Any]:
            return collections.deque()

        @rule(item=_ITEMS)
        def enqueue(self, item: int) -> None:
            self.add("enqueue", item)
            self.model.append(item)

        @rule(items=_BATCHES)
        def enqueue_several(self, items: list[int]) -> None:
            for item in items:
                self.enqueue(item)

        @precondition(lambda self: bool(self.model))
        @rule()
        def dequeue(self) -> None:
            self.remove("dequeue", self.model.popleft())

        @precondition(lambda self: bool(self.model))
        @rule(count=_COUNTS)
        def dequeue_several(self, count: int) -> None:
            for _ in range(min(count, len(self.model))):
                self.dequeue()

        @precondition(lambda self: bool(self.model))
        @rule()
        def peek(self) -> None:
            self.look("peek", self.model[0])

        @precondition(lambda self: not self.model)
        @rule()
        def dequeue_or_peek_when_empty(self) -> None:
            self.call_empty("dequeue", "dequeue from an empty queue")
            self.call_empty("peek", "peek at an empty queue")

    QueueMachine.cls = cls
    QueueMachine.reference = reference
    QueueMachine.__name__ = QueueMachine.__qualname__ = f"{cls.__name__}Machine"
    return QueueMachine


def deque_machine(cls: type[Any], reference: type[Any] | None) -> type[RuleBasedStateMachine]:
    """Return a state machine checking the Deque ``cls`` against a ``collections.deque``.

    ``reference`` is the package's class whose invariant applies (None: no invariant).
    """

    class DequeMachine(_ModelMachine):
        adt = "deque"

        def new_model(self) -> collections.deque[Any]:
            return collections.deque()

        @rule(item=_ITEMS)
        def add_front(self, item: int) -> None:
            self.add("add_front", item)
            self.model.appendleft(item)

        @rule(item=_ITEMS)
        def add_rear(self, item: int) -> None:
            self.add("add_rear", item)
            self.model.append(item)

        @rule(items=_BATCHES, front=st.booleans())
        def add_several(self, items: list[int], front: bool) -> None:
            for item in items:
                if front:
                    self.add_front(item)
                else:
                    self.add_rear(item)

        @precondition(lambda self: bool(self.model))
        @rule()
        def remove_front(self) -> None:
            self.remove("remove_front", self.model.popleft())

        @precondition(lambda self: bool(self.model))
        @rule()
        def remove_rear(self) -> None:
            self.remove("remove_rear", self.model.pop())

        @precondition(lambda self: bool(self.model))
        @rule(count=_COUNTS, front=st.booleans())
        def remove_several(self, count: int, front: bool) -> None:
            for _ in range(min(count, len(self.model))):
                if front:
                    self.remove_front()
                else:
                    self.remove_rear()

        @precondition(lambda self: bool(self.model))
        @rule()
        def peek_both_ends(self) -> None:
            self.look("peek_front", self.model[0])
            self.look("peek_rear", self.model[-1])

        @precondition(lambda self: not self.model)
        @rule()
        def remove_or_peek_when_empty(self) -> None:
            for method, verb in [
                ("remove_front", "from"),
                ("remove_rear", "from"),
                ("peek_front", "at"),
                ("peek_rear", "at"),
            ]:
                self.call_empty(method, f"{method} {verb} an empty deque")

    DequeMachine.cls = cls
    DequeMachine.reference = reference
    DequeMachine.__name__ = DequeMachine.__qualname__ = f"{cls.__name__}Machine"
    return DequeMachine


