"""Messages name the cause their failure establishes, and only that one.

Each bug in ``wrong_cause/`` is built from ``solutions/`` and run in this process through
the contract check that catches it; its message is held to what the failure shows, and the
neighbouring bug (its pair in the table) keeps its own message.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase

from solitaire_ds.course import exercise
from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts import test_ex07_deck as deck_contract
from solitaire_ds.course.contracts.structure_contracts import ArrayContract
from solitaire_ds.course.contracts.structure_machines import queue_machine, run_machine, stack_machine
from solitaire_ds.course.grader.proxy import LocalSubmission
from solitaire_ds.course.grader.submission import compare, reference_shingles
from solitaire_ds.structures import ArrayQueue, LinkedQueue, LinkedStack
from tests.grading.zoo import load_bugs, make_buggy_submission

BUGS = {bug.name: bug for bug in load_bugs(Path(__file__).resolve().parent / "wrong_cause")}


def _impl(name: str, root: Path) -> LocalSubmission:
    return LocalSubmission(str(make_buggy_submission(BUGS[name], root / name)))


def _message(run: Callable[[], None]) -> str:
    with pytest.raises(AssertionError) as caught:
        run()
    return str(caught.value)


def _queue_machine(impl: LocalSubmission) -> None:
    cls = load_module(impl, "structures.array_queue").ArrayQueue
    run_machine(queue_machine(cls, ArrayQueue))


def test_a_front_wrapped_with_the_wrong_modulus_is_told_the_front_not_a_stale_slot(tmp_path: Path) -> None:
    message = _message(lambda: _queue_machine(_impl("queue_front_wraps_with_wrong_modulus", tmp_path)))
    # the first difference: what the queue answers, or (when the answers agree) the front index
    assert ("_front is " in message and "the reference's after the same steps" in message) or (
        " returned " in message and ", expected " in message), message
    assert "stale" not in message and "still holds" not in message, message


def test_a_stale_slot_is_still_told_it_is_stale(tmp_path: Path) -> None:
    message = _message(lambda: _queue_machine(_impl("queue_dequeue_leaves_a_stale_slot", tmp_path)))
    assert "still holds" in message, message
    assert "_front is" not in message, message


def _growth(impl: LocalSubmission) -> None:
    class Contract(ArrayContract):
        adt = "deque"
        add = "add_rear"

    cls = load_module(impl, "structures.array_deque").ArrayDeque
    Contract().test_adding_many_items_copies_the_slots_at_most_a_few_times(cls)


def test_growing_one_and_a_half_times_is_told_the_rule_not_a_cost(tmp_path: Path) -> None:
    message = _message(lambda: _growth(_impl("deque_grows_one_and_a_half_times", tmp_path)))
    assert "factor of about 1.5, which is still O(1) amortized" in message, message
    assert '"Copy the items of the full buffer, front first, to a list twice as long"' in message, message
    assert "O(n)" not in message, message


def test_growing_by_a_constant_is_told_its_cost(tmp_path: Path) -> None:
    message = _message(lambda: _growth(_impl("deque_grows_by_four_slots", tmp_path)))
    assert "grows by 4 slots at a time, so an add copies O(n) items" in message, message
    assert "amortized" not in message, message


def test_a_dummy_head_is_told_what_was_counted_and_no_cycle(tmp_path: Path) -> None:
    cls = load_module(_impl("dummy_head_linked_queue", tmp_path), "structures.linked_queue").LinkedQueue
    message = _message(lambda: run_machine(queue_machine(cls, LinkedQueue), phases=[Phase.generate]))
    assert "empty queue but _head is not None (the invariant: _head and _tail are None exactly" in message, message
    assert "cycle" not in message and " at 0x" not in message, message
    from solitaire_ds.course.contracts.operations import Operations

    ops = Operations(cls, [1, 2], adt="queue", reference=LinkedQueue)
    message = _message(ops.check)
    assert "following next from _head reaches more than _size = 2 nodes (the invariant: exactly _size" in message
    assert "cycle" not in message, message


def test_a_cycle_is_still_told_it_is_a_cycle() -> None:
    from solitaire_ds.course.contracts.operations import Operations

    ops = Operations(LinkedQueue, [1, 2, 3], adt="queue", reference=LinkedQueue)
    ops.structure._tail.next = ops.structure._head
    assert "the nodes form a cycle" in _message(ops.check)


def test_a_node_class_of_ones_own_with_the_documented_fields_passes(tmp_path: Path) -> None:
    cls = load_module(_impl("linked_stack_own_node_class", tmp_path), "structures.linked_stack").LinkedStack
    run_machine(stack_machine(cls, LinkedStack), phases=[Phase.generate])
    stack = cls([1, 2])
    stack._check()  # the given _check, in the student's own file, accepts it too


def test_a_node_without_the_documented_fields_is_told_the_fields(tmp_path: Path) -> None:
    cls = load_module(_impl("linked_stack_node_without_next", tmp_path), "structures.linked_stack").LinkedStack
    message = _message(lambda: run_machine(stack_machine(cls, LinkedStack), phases=[Phase.generate]))
    assert "has no field next: a node (of any class) has the fields item, next" in message, message


def _shuffle_loop(impl: LocalSubmission) -> None:
    shuffle: Any = load_module(impl, "shuffle")
    for size in (0, 1, 2, 3, 10):
        deck_contract.test_fisher_yates_follows_the_documented_loop(impl, shuffle, size)


def test_a_shuffle_of_a_copy_is_told_the_list_was_not_shuffled_in_place(tmp_path: Path) -> None:
    message = _message(lambda: _shuffle_loop(_impl("shuffle_copies_the_list", tmp_path)))
    assert "drew the documented numbers, but the list it was given came back as it was" in message, message
    assert "documented order" not in message, message


def test_a_shuffle_that_swaps_the_wrong_slot_is_told_the_items_end_in_another_order(tmp_path: Path) -> None:
    message = _message(lambda: _shuffle_loop(_impl("shuffle_swaps_the_wrong_slot", tmp_path)))
    assert "drew the documented numbers, but the items end in another order" in message, message
    assert "documented order" not in message, message


def test_a_shuffle_drawing_in_another_order_is_told_the_draw(tmp_path: Path) -> None:
    message = _message(lambda: _shuffle_loop(_impl("shuffle_draws_upwards", tmp_path)))
    assert "draw 1 was randrange(2), expected randrange(3)" in message, message
    assert "the draws must come in the documented order" in message, message


def test_no_copy_note_where_the_contract_dictates_the_code() -> None:
    deck, stack = exercise(7), exercise(1)
    assert deck.dictated and not stack.dictated
    own = {name: {7: reference_shingles(deck), 1: reference_shingles(stack)} for name in ("ann", "bo")}
    notes = compare(own, [stack, deck])
    for name in ("ann", "bo"):
        assert notes[name] and all(note.startswith("exercise 1:") for note in notes[name]), notes
