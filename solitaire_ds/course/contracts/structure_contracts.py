"""The contracts of the three ADTs, written once and run against every class that claims one.

Each ADT has two parts:

* a mixin of example tests (``StackContract``, ``QueueContract``, ``DequeContract``)
  whose methods take a ``structure_class`` fixture; a test module defines that fixture
  (loading the class from the implementation under test) and a ``Test...`` class that
  inherits the mixin, the way CPython's ``test_heapq`` runs one ``TestHeap`` against
  two modules;
* a Hypothesis ``RuleBasedStateMachine`` factory (``stack_machine(cls, reference)`` and so on) that
  drives the structure and a trusted model (``list`` / ``collections.deque``) side by
  side, calls ``_check()`` after every step, and says in plain words which steps led to
  a difference ("after ArrayStack(), push(1), push(2), pop() returned 1, expected 2").

Both go through :class:`Operations`, which records every operation done on a structure:
a wrong answer, a broken ``_check()`` or an exception the structure raises fails with a
message naming the operations in order, the failing one last.

``run_machine(machine)`` runs a machine with the grading settings: deterministic
(``derandomize=True``), no deadline, 200 steps per run so sizes climb past several
resizes and wrap-arounds and come back down.
"""


from __future__ import annotations

import ast
import collections
import functools
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from solitaire_ds.course.contracts.operations import Operations, evaluate
from solitaire_ds.course.contracts.structure_machines import (
    STATEFUL_SETTINGS,
    deque_machine,
    queue_machine,
    run_machine,
    stack_machine,
)
from solitaire_ds.course.grader.proxy import Iteration, ObjectProxy, equal

__all__ = [
    "STATEFUL_SETTINGS",
    "ArrayContract",
    "DequeContract",
    "Operations",
    "QueueContract",
    "ShrinkingContract",
    "StackContract",
    "deque_machine",
    "evaluate",
    "queue_machine",
    "run_machine",
    "stack_machine",
]

# -- example tests -------------------------------------------------------------------------
#
# Each example builds its structure through ``Operations``, so a failure names every
# operation that led to it, in order, including an error the structure raised.


class _CommonContract:
    """What all three ADTs share: ``add`` and ``remove`` name the usual methods.

    ``reference`` is the package's class whose invariant the structure must keep: each
    exercise's test class names it (``reference = ArrayStack``), so that the invariant
    checked is the exercise's, whatever class the student's code says its objects are.
    Without one, no invariant is checked.
    """

    adt = ""
    add = ""
    remove = ""
    reference: type[Any] | None = None

    @pytest.fixture(autouse=True)
    def _checked_to_the_end(self) -> Iterator[None]:
        """Every queued operation of the test is sent and checked before the test ends."""
        self._made: list[Operations] = []
        yield
        for ops in self._made:
            ops.flush()

    def new(self, cls: type[Any], *args: object, shown: str | None = None) -> Operations:
        """Make ``cls(*args)``, recording it as the first operation.

        With a worker, the steps whose answers are only checked wait in a queue (see
        :class:`~solitaire_ds.course.contracts.operations.Operations`); whatever is
        still queued is sent and checked when the test ends.
        """
        made = getattr(self, "_made", None)
        ops = Operations(cls, *args, adt=self.adt, shown=shown, deferred=made is not None, reference=self.reference)
        if made is not None:
            made.append(ops)
        return ops

    def test_new_structure_is_empty(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.look(f"len({self.adt})", len, 0)
        ops.look("is_empty()", lambda s: s.is_empty(), True)
        ops.look(f"bool({self.adt})", bool, False)
        ops.look(f"list({self.adt})", list, [])

    def test_len_and_bool_count_the_items(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        for count in range(1, 40):
            ops.do_later(self.add, count)
            order = list(range(count, 0, -1)) if self.iterates_reversed else list(range(1, count + 1))
            ops.agrees_with(count, order, deep=False, truth=True)

    #: How the ADT iterates [1, 'two', 3] added in order, and which end it peeks at.
    iterates_reversed = False
    peek = ""

    def _order_culprit(self, structure: Any) -> str:
        """Say which of the student's methods put [1, 'two', 3] in the wrong order."""
        expected = [3, "two", 1] if self.iterates_reversed else [1, "two", 3]
        try:
            iterated = list(structure)
            peeked = getattr(structure, self.peek)()
        except Exception:  # the failure itself is reported already
            return ""
        # a hint names a method only when the answers imply it: every item is there, in an
        # order that one method explains (a lost or extra item could come from anywhere)
        if iterated == expected or sorted(map(repr, iterated)) != sorted(map(repr, expected)):
            return ""
        told = ("repr is given code: it lists the items in the order the constructor adds them, "
                f"read through your __iter__, which gave {iterated!r}; ")
        if iterated == expected[::-1] and peeked == expected[-1]:
            return told + (f"{self.peek}() gave {peeked!r}, not {expected[0]!r}, so the items went "
                           f"in the wrong way round: look at __init__ and {self.add}")
        if peeked == expected[0]:
            direction = "from the top to the bottom" if self.iterates_reversed else "from the front"
            return told + f"{self.peek}() is right, so look at __iter__: it goes {direction}"
        return ""

    def test_repr_rebuilds(self, structure_class: type[Any]) -> None:
        name = structure_class.__name__
        ops = self.new(structure_class, [1, "two", 3])
        try:
            ops.look(f"repr({self.adt})", repr, f"{name}([1, 'two', 3])")
        except AssertionError as error:
            culprit = self._order_culprit(ops.structure)
            if not culprit:
                raise
            raise AssertionError(f"{error}\n{culprit}") from None
        self.new(structure_class).look(f"repr({self.adt})", repr, f"{name}([])")
        # what repr shows, given back to the class, makes an equal structure (the items are
        # read back as literals: nothing the student's code wrote is ever run here)
        shown = repr(ops.structure)[len(name):]
        evaluate(f"{name}{shown} == {name}([1, 'two', 3])",
                 lambda: equal(structure_class(ast.literal_eval(shown)), ops.structure), True)

    def test_equal_only_to_same_class_with_same_items(self, structure_class: type[Any]) -> None:
        name = structure_class.__name__
        evaluate(f"{name}([1, 2, 3]) == {name}([1, 2, 3])",
                 lambda: equal(structure_class([1, 2, 3]), structure_class([1, 2, 3])), True)
        evaluate(f"{name}() == {name}()", lambda: equal(structure_class(), structure_class()), True)
        for other, make in [
            (f"{name}([1, 2])", lambda: structure_class([1, 2])),
            (f"{name}([3, 2, 1])", lambda: structure_class([3, 2, 1])),
            ("[1, 2, 3]", lambda: [1, 2, 3]),
            ("(1, 2, 3)", lambda: (1, 2, 3)),
        ]:
            evaluate(f"{name}([1, 2, 3]) == {other}",
                     lambda make=make: equal(structure_class([1, 2, 3]), make()), False)  # type: ignore[misc]

    def test_iteration_changes_nothing(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, list(range(10)), shown="range(10)")
        first = ops.run(f"list({self.adt})", lambda: list(ops.structure), call=("", ()))
        ops.look(f"list({self.adt})", list, first)
        ops.look(f"len({self.adt})", len, 10)
        ops.check_later()

    def test_constructor_takes_any_iterable(self, structure_class: type[Any]) -> None:
        name = structure_class.__name__
        evaluate(f"{name}(x for x in [1, 2, 3]) == {name}([1, 2, 3])",
                 lambda: equal(structure_class(Iteration([1, 2, 3])), structure_class([1, 2, 3])), True)
        evaluate(f"{name}('abc') == {name}(['a', 'b', 'c'])",
                 lambda: equal(structure_class("abc"), structure_class(["a", "b", "c"])), True)

    def test_removed_items_are_not_kept_alive(self, structure_class: type[Any]) -> None:
        # _check() asserts that no unused slot (or unlinked node) still holds an item
        ops = self.new(structure_class, list(range(100)), shown="range(100)")
        ops.check_later()
        for _ in range(95):
            ops.do_later(self.remove)
            ops.check_later()

    def test_grows_and_shrinks_back_to_empty(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, list(range(50)), shown="range(50)")
        for _ in range(50):
            ops.do_later(self.remove)
        ops.look("is_empty()", lambda s: s.is_empty(), True)
        ops.check_later()


# -- array classes: how often the slots are copied -------------------------------------------
#
# Every change of ``len(_slots)`` copies every item. Counting those changes shows the
# amortized cost without a clock: a class that grows by a constant, or halves at half
# full, passes every other test and still costs O(n) a step.


def _count_copies(ops: Operations, steps: list[tuple[str, tuple[object, ...]]]) -> list[int]:
    """Do ``steps`` (method, args) on the structure; return the capacities it went through.

    The capacity is ``len(_slots)``, read after each step; with a worker, all the steps
    and readings go in one exchange.
    """
    structure = ops.structure
    readings: list[int] = []
    if isinstance(structure, ObjectProxy):
        connection, target = structure._connection, structure._target()
        slots = structure._target("_slots")
        requests = [connection.request("len", slots)]
        for method, args in steps:
            requests += [connection.request("method", target, method, args), connection.request("len", slots)]
        replies = connection.batch(requests)
        for number, reply in enumerate(replies):
            answer: Callable[[], Any] = functools.partial(connection.outcome, reply)
            if number % 2 == 1:  # a step: record it, and fail as ops.do would if it raised
                method, args = steps[number // 2]
                ops.run(f"{method}({', '.join(map(repr, args))})", answer, call=(method, args))
            else:
                readings.append(int(ops.run("len(_slots)", answer, record=False)))
    else:
        readings.append(len(ops.run("len(_slots)", lambda: structure._slots, record=False)))
        for method, args in steps:
            ops.do_later(method, *args)
            readings.append(len(ops.run("len(_slots)", lambda: structure._slots, record=False)))
    capacities = readings[:1]
    for capacity in readings[1:]:
        if capacity != capacities[-1]:
            capacities.append(capacity)
    return capacities


def _show_capacities(capacities: list[int]) -> str:
    shown = " -> ".join(map(str, capacities[:7]))
    return shown + (" -> ..." if len(capacities) > 7 else "")


class ArrayContract:
    """The array classes double their slots when full; needs a ``structure_class`` fixture."""

    adt = ""
    add = ""

    def test_adding_many_items_copies_the_slots_at_most_a_few_times(
        self, structure_class: type[Any]
    ) -> None:
        name = structure_class.__name__
        ops = Operations(structure_class, adt=self.adt)
        capacities = _count_copies(ops, [(self.add, (item,)) for item in range(1000)])
        # doubling from 4 slots to hold 1,000 items: 4 -> 8 -> ... -> 1024, eight copies
        assert len(capacities) - 1 <= 8, (
            f"after {name}(), {self.add}(0), ..., {self.add}(999), the capacity changed "
            f"{len(capacities) - 1} times ({_show_capacities(capacities)}); " + _growth_says(capacities, self.adt)
        )


#: Where each array class's docstring asks for doubling, quoted by the growth message.
_DOUBLING_RULE = {
    "stack": 'the module docstring says "A push that finds every slot full doubles the capacity"',
    "queue": 'the docstring of _grow says "Copy the items of the full buffer, front first, to a list twice as long"',
    "deque": 'the docstring of _grow says "Copy the items of the full buffer, front first, to a list twice as long"',
}


def _growth_says(capacities: list[int], adt: str) -> str:
    """What growing through ``capacities`` costs, and the rule it breaks (8 copies allowed).

    Growing by a factor (1.5, say) still costs O(1) amortized, so only the rule is quoted;
    growing by a constant number of slots costs O(n) per add, and that is said.

    >>> _growth_says([4, 6, 9, 13, 19, 28], "deque")[:61]
    'it grows by a factor of about 1.5, which is still O(1) amorti'
    >>> _growth_says([4, 8, 12, 16, 20], "stack")[:58]
    'it grows by 4 slots at a time, so an add copies O(n) items'
    """
    rule = _DOUBLING_RULE.get(adt, "the docstring asks for doubling")
    steps = list(itertools.pairwise(capacities))
    growing = bool(steps) and all(b > a for a, b in steps)
    if growing and len({b - a for a, b in steps}) == 1:
        return (f"it grows by {steps[0][1] - steps[0][0]} slots at a time, so an add copies O(n) items on "
                f"average; double the capacity when every slot is full, as {rule} (8 copies for 1,000 items)")
    if growing and len(steps) >= 2 and all(b >= 1.2 * a for a, b in steps[1:]):
        factor = (capacities[-1] / capacities[0]) ** (1 / len(steps))
        return (f"it grows by a factor of about {factor:.1f}, which is still O(1) amortized, but not what the "
                f"exercise asks: {rule} (8 copies for 1,000 items)")
    return ("every change copies every item, so double the capacity when every slot is full, as "
            f"{rule} (8 copies for 1,000 items)")


def _resize_hint(capacities: list[int]) -> str:
    """What the capacities seen say about the resizing, when they say it (else nothing more).

    >>> _resize_hint([4, 8, 4, 8])
    'Halve when a pop leaves the stack a quarter full, not half full'
    >>> _resize_hint([4, 5, 4, 5])
    'The capacity changes by one slot at a time: a push writes into a free slot, and only a full stack doubles'
    >>> _resize_hint([4, 8, 16])
    ''
    """
    steps = list(itertools.pairwise(capacities))
    if steps and all(b in (2 * a, a // 2) for a, b in steps) and any(b < a for a, b in steps):
        return "Halve when a pop leaves the stack a quarter full, not half full"
    if steps and all(abs(b - a) == 1 for a, b in steps):
        return ("The capacity changes by one slot at a time: a push writes into a free slot, "
                "and only a full stack doubles")
    return ""


#: How many times a push and a pop repeat at each size: one resize back and forth is two
#: changes, so a few pairs already show a stack that copies on (almost) every step.
_PAIRS = 5


class ShrinkingContract:
    """A stack that halves at a quarter full; needs a ``structure_class`` fixture."""

    def test_push_and_pop_at_any_size_copy_the_slots_at_most_once(
        self, structure_class: type[Any]
    ) -> None:
        name = structure_class.__name__
        for size in range(1, 140):
            for pair in (("push", "pop"), ("pop", "push")):
                ops = Operations(structure_class, list(range(size)), adt="stack",
                                 shown=f"range({size})")
                steps: list[tuple[str, tuple[object, ...]]] = [
                    ("push", (0,)) if method == "push" else ("pop", ()) for method in pair
                ]
                shown = ", ".join(f"{method}({', '.join(map(repr, args))})" for method, args in steps)
                capacities = _count_copies(ops, steps * _PAIRS)
                assert len(capacities) - 1 <= 1, (
                    f"after {name}(range({size})), then {shown} {_PAIRS} times, the capacity "
                    f"changed {len(capacities) - 1} times ({_show_capacities(capacities)}); every "
                    "change copies every item, so a push and a pop at this size cost O(n) each. "
                    + _resize_hint(capacities)
                )


class StackContract(_CommonContract):
    """The Stack contract; needs a ``structure_class`` fixture."""

    adt = "stack"
    add = "push"
    remove = "pop"
    iterates_reversed = True
    peek = "peek"

    def test_pop_returns_the_last_pushed(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do_later("push", 1)
        ops.do_later("push", 2)
        ops.expect("pop", 2)
        ops.expect("pop", 1)
        ops.look("is_empty()", lambda s: s.is_empty(), True)

    def test_peek_returns_the_top_without_removing_it(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do_later("push", 1)
        ops.do_later("push", 2)
        ops.expect("peek", 2)
        ops.expect("peek", 2)
        ops.look("len(stack)", len, 2)

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1, 2, 3])
        ops.expect("peek", 3)
        for item in (3, 2, 1):
            ops.expect("pop", item)

    def test_iteration_goes_top_to_bottom(self, structure_class: type[Any]) -> None:
        self.new(structure_class, [1, 2, 3]).look("list(stack)", list, [3, 2, 1])

    def test_pop_on_empty_stack_raises_with_message(self, structure_class: type[Any]) -> None:
        self.new(structure_class).raises("pop", "pop from an empty stack")

    def test_peek_on_empty_stack_raises_with_message(self, structure_class: type[Any]) -> None:
        self.new(structure_class).raises("peek", "peek at an empty stack")

    def test_pop_after_emptying_raises_with_message(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1])
        ops.expect("pop", 1)
        ops.raises("pop", "pop from an empty stack")
        ops.raises("peek", "peek at an empty stack")

    def test_many_pushes_then_pops_come_back_reversed(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        for item in range(1000):
            ops.do_later("push", item)
        for item in range(999, -1, -1):
            ops.expect("pop", item)
        ops.check_later()

    def test_matches_a_list_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(stack_machine(structure_class, self.reference))


class QueueContract(_CommonContract):
    """The Queue contract; needs a ``structure_class`` fixture."""

    adt = "queue"
    add = "enqueue"
    remove = "dequeue"
    peek = "peek"

    def test_dequeue_returns_the_first_enqueued(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do_later("enqueue", 1)
        ops.do_later("enqueue", 2)
        ops.expect("dequeue", 1)
        ops.expect("dequeue", 2)
        ops.look("is_empty()", lambda s: s.is_empty(), True)

    def test_peek_returns_the_front_without_removing_it(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do_later("enqueue", 1)
        ops.do_later("enqueue", 2)
        ops.expect("peek", 1)
        ops.expect("peek", 1)
        ops.look("len(queue)", len, 2)

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1, 2, 3])
        ops.expect("peek", 1)
        for item in (1, 2, 3):
            ops.expect("dequeue", item)

    def test_iteration_goes_front_to_back(self, structure_class: type[Any]) -> None:
        self.new(structure_class, [1, 2, 3]).look("list(queue)", list, [1, 2, 3])

    def test_dequeue_on_empty_queue_raises_with_message(self, structure_class: type[Any]) -> None:
        self.new(structure_class).raises("dequeue", "dequeue from an empty queue")

    def test_peek_on_empty_queue_raises_with_message(self, structure_class: type[Any]) -> None:
        self.new(structure_class).raises("peek", "peek at an empty queue")

    def test_queue_can_be_reused_after_emptying(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1])
        ops.expect("dequeue", 1)
        ops.raises("dequeue", "dequeue from an empty queue")
        ops.do_later("enqueue", 2)
        ops.do_later("enqueue", 3)
        ops.look("list(queue)", list, [2, 3])
        ops.check_later()

    def test_alternating_enqueue_and_dequeue_keeps_working(
        self, structure_class: type[Any]
    ) -> None:
        ops = self.new(structure_class)
        for item in range(50):  # the front and back go round a small buffer many times
            ops.do_later("enqueue", item)
            ops.expect("dequeue", item)
            ops.check_later()

    def test_order_survives_wrapping_and_growing(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        expected: collections.deque[int] = collections.deque()
        for round_number in range(1, 60):
            for item in range(round_number):  # add a few more than are removed each round
                ops.do_later("enqueue", item)
                expected.append(item)
            for _ in range(round_number // 2):
                ops.expect("dequeue", expected.popleft())
            ops.check_later()
        ops.look("list(queue)", list, list(expected))

    def test_matches_a_deque_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(queue_machine(structure_class, self.reference))


class DequeContract(_CommonContract):
    """The Deque contract; needs a ``structure_class`` fixture."""

    adt = "deque"
    add = "add_rear"
    remove = "remove_front"
    peek = "peek_front"

    def test_both_ends_work_like_collections_deque(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        ops.do_later("add_rear", 2)
        ops.do_later("add_front", 1)
        ops.do_later("add_rear", 3)
        ops.look("list(deque)", list, [1, 2, 3])
        ops.expect("peek_front", 1)
        ops.expect("peek_rear", 3)
        ops.expect("remove_rear", 3)
        ops.expect("remove_front", 1)
        ops.expect("remove_front", 2)
        ops.look("is_empty()", lambda s: s.is_empty(), True)

    def test_constructor_adds_in_order(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [1, 2, 3])
        ops.expect("peek_front", 1)
        ops.expect("peek_rear", 3)

    def test_iteration_goes_front_to_rear(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class, [2, 3])
        ops.do_later("add_front", 1)
        ops.look("list(deque)", list, [1, 2, 3])

    @pytest.mark.parametrize(
        ("method", "message"),
        [
            ("remove_front", "remove_front from an empty deque"),
            ("remove_rear", "remove_rear from an empty deque"),
            ("peek_front", "peek_front at an empty deque"),
            ("peek_rear", "peek_rear at an empty deque"),
        ],
    )
    def test_empty_deque_raises_with_message(
        self, structure_class: type[Any], method: str, message: str
    ) -> None:
        self.new(structure_class).raises(method, message)
        ops = self.new(structure_class, ["x"])
        ops.expect("remove_rear", "x")
        ops.raises(method, message)

    def test_adding_at_the_front_only_reverses(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        for item in range(100):
            ops.do_later("add_front", item)
        ops.look("list(deque)", list, list(range(99, -1, -1)))
        for item in range(100):
            ops.expect("remove_rear", item)
        ops.check_later()

    def test_alternating_ends_keep_working(self, structure_class: type[Any]) -> None:
        ops = self.new(structure_class)
        for item in range(50):  # go round a small buffer both ways, many times
            ops.do_later("add_front", item)
            ops.expect("remove_rear", item)
            ops.check_later()
            ops.do_later("add_rear", item)
            ops.expect("remove_front", item)
            ops.check_later()

    def test_matches_a_deque_over_random_operations(self, structure_class: type[Any]) -> None:
        run_machine(deque_machine(structure_class, self.reference))

