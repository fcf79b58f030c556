"""The judge believes nothing the worker says: every attack of ``attacks.py`` earns what its own code does.

Each attack is a student's file whose cheat makes the worker say something other than what
the code does (see :mod:`tests.grading.attacks`). The attacks are graded several to a
``grade_many`` call beside an honest classmate who must keep full marks, behind each wall
(``tier``: bubblewrap in the default run, a user id per exercise and no wall at all under the
``every_tier`` marker): what the judge checks holds whatever walls the worker in.
Then the pieces, one by one and without a worker process: the batch protocol, the snapshot's
bounds and checks, the judge's random source, and the text that enters from a worker.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from solitaire_ds.course import exercise
from solitaire_ds.course.contracts.snapshot import _cpu_budget, _OutOfTime, check_snapshot
from solitaire_ds.course.grader.messages import Callback, ProtocolError, Raised, Reply, Request, Target
from solitaire_ds.course.grader.proxy import LocalSubmission, WorkerStopped
from solitaire_ds.course.grader.random_source import MAX_DRAWS, RandrangeSource
from solitaire_ds.course.grader.runner import Limits, grade_many
from solitaire_ds.course.grader.walls import Wall
from solitaire_ds.course.grader.worker import Worker
from solitaire_ds.course.report import csv_text
from solitaire_ds.course.results import SubmissionResult
from solitaire_ds.structures import LinkedDeque, LinkedStack
from solitaire_ds.text import safe_text
from tests.grading.attacks import ATTACKS, HONEST, SMALL_WALLS, Attack, build
from tests.grading.conftest import TIERS
from tests.grading.submissions import make_submission


def _grade(root: Path, attacks: dict[str, Attack], limits: Limits,
           wall: Wall) -> tuple[dict[str, SubmissionResult], SubmissionResult]:
    """Grade ``attacks`` and an honest classmate (the reference files of the same exercises) behind ``wall``."""
    numbers = sorted({a.exercise for a in attacks.values()})
    folders = [build(root, name, attack) for name, attack in attacks.items()]
    honest = make_submission(root, "honest_classmate", dict.fromkeys(numbers))
    results = grade_many([*folders, honest], [exercise(n) for n in numbers], limits, jobs=2, sandbox=wall)
    return dict(zip(attacks, results, strict=False)), results[-1]


def _shown_safely(result: SubmissionResult) -> None:
    """Every text of ``result`` a terminal or a file shows is safe: no control character, no
    lone surrogate reaches them raw."""
    texts = [r.summary for r in result.exercises] + [
        t.message for r in result.exercises for t in r.tests] + [csv_text([result])]
    for text in texts:
        assert safe_text(text, len(text) + 10) == text, repr(text[:300])


@pytest.mark.parametrize("tier", TIERS, indirect=True)
def test_each_attack_earns_at_most_what_its_own_code_does(tmp_path: Path, tier: Wall) -> None:
    attacks = {name: a for name, a in ATTACKS.items() if not a.limits}
    graded, honest = _grade(tmp_path, {**attacks, **HONEST}, Limits(), tier)
    for name, attack in attacks.items():
        result = graded[name].result(attack.exercise)
        assert result.score <= attack.earns + 0.005, f"{name} ({attack.tries}): {result.score}, {result.summary}"
        _shown_safely(graded[name])
    for name, attack in HONEST.items():
        result = graded[name].result(attack.exercise)
        assert result.score == attack.earns, f"{name} ({attack.tries}): {result.summary}"
    assert all(r.score == r.max_score for r in honest.exercises), [r.summary for r in honest.exercises]
    # the endless snapshot is refused by what it claims, at once: it never pins the judge
    assert graded["snapshot_endless"].seconds < 120
    assert "form a cycle" in graded["snapshot_endless"].result(2).summary
    # a cut-short batch is the worker breaking the protocol, not a guess at the student's bug
    assert graded["batch_cut_short"].result(1).summary.startswith("the worker broke the protocol: ")
    # a lone surrogate in a message is text like any other: every test runs
    assert not any(t.message.startswith("not run") for t in graded["lone_surrogate"].result(5).tests)
    escaped = graded["escape_sequences"].result(7).summary
    assert "\\x1b[2J" in escaped and "\x1b" not in escaped


@pytest.mark.parametrize("tier", TIERS, indirect=True)
def test_a_drip_meets_the_wall_limits_and_the_job_slot_is_freed(tmp_path: Path, tier: Wall) -> None:
    drips = {name: a for name, a in ATTACKS.items() if a.limits}
    assert all(a.limits == SMALL_WALLS for a in drips.values())
    # one folder drips in two exercises: the submission's ceiling stops the second
    both = build(tmp_path, "drip_twice", ATTACKS["drip_stack"])
    build(tmp_path, "drip_twice", ATTACKS["drip_every_call"])
    limits = Limits(**SMALL_WALLS)
    numbers = sorted({a.exercise for a in drips.values()})
    honest = make_submission(tmp_path, "honest_classmate", {7: None})  # a small exercise: quick under any load
    folders = [build(tmp_path, name, attack) for name, attack in drips.items()]
    *results, twice, classmate = grade_many([*folders, both, honest], [exercise(n) for n in numbers], limits,
                                            jobs=2, sandbox=tier)
    for (name, attack), result in zip(drips.items(), results, strict=True):
        assert result.result(attack.exercise).score <= attack.earns + 0.005, (name, result.result(attack.exercise))
        assert any("on the wall clock" in f.message for f in result.result(attack.exercise).failures), name
    every = results[list(drips).index("drip_every_call")].result(7)
    assert any(t.message == "not run: the exercise kept the grader waiting 8 s (wall clock) in all"
               for t in every.tests), [t.message for t in every.tests]
    assert twice.result(1).score <= ATTACKS["drip_stack"].earns and twice.result(7).score == 0
    said = " ".join([twice.result(7).reason, *(t.message for t in twice.result(7).tests)])
    assert "the submission kept the grader waiting 12 s (wall clock) in all" in said, said
    assert sum(r.wall for r in twice.exercises) < 12 + 2 * SMALL_WALLS["call_wall_seconds"]
    assert classmate.result(7).score == 10, classmate.result(7).summary


# -- the batch protocol -----------------------------------------------------------------------


def _batch(*ops: tuple[str, bool]) -> tuple[Request, ...]:
    return tuple(Request(i, op, Target(ref=1), may_raise=may) for i, (op, may) in enumerate(ops, start=2))


RAISED = {"type": "ValueError", "kinds": ["ValueError"], "message": "no"}


@pytest.mark.parametrize(("results", "why"), [
    ([{"id": 2, "value": 1}], "a batch of 3 requests was answered with 1 results"),
    ([{"id": 2, "value": 1}, {"id": 3, "not_run": True}, {"id": 4, "not_run": True}],
     "request 3 of a batch was reported not run, though no request before it raised"),
    ([{"id": 2, "raised": RAISED}, {"id": 3, "value": 1}, {"id": 4, "not_run": True}],
     "request 3 of a batch was answered after an earlier one raised"),
    ([{"id": 2, "value": 1}, {"id": 4, "value": 1}, {"id": 3, "value": 1}], "a reply to request 4, not to 3"),
])
def test_a_batch_reply_answers_every_request_in_order(results: list[object], why: str) -> None:
    batch = _batch(("len", False), ("len", False), ("len", False))
    with pytest.raises(ProtocolError) as caught:
        Reply.from_json({"id": 1, "results": results}, 1, batch)
    assert why in str(caught.value)


def test_after_an_unexpected_raise_the_rest_are_not_run_and_an_expected_one_goes_on() -> None:
    batch = _batch(("len", True), ("len", False), ("len", False))
    results = [{"id": 2, "raised": RAISED}, {"id": 3, "raised": RAISED}, {"id": 4, "not_run": True}]
    reply = Reply.from_json({"id": 1, "results": results}, 1, batch)
    assert [r.not_run for r in reply.results] == [False, False, True]
    with pytest.raises(ProtocolError, match="the worker broke the protocol: request 1 was not answered"):
        Reply.from_json({"id": 1, "raised": RAISED}, 1, batch)


def test_the_worker_answers_each_request_of_a_batch() -> None:
    worker = Worker("solitaire_ds")
    made = worker.handle(Request(1, "call", Target(module="structures.array_stack", path=("ArrayStack",))))
    ref = made.value["$ref"][0]
    requests = (Request(3, "method", Target(ref=ref), name="pop"), Request(4, "len", Target(ref=ref)),
                Request(5, "len", Target(ref=ref)))
    reply = worker.handle(Request(2, "batch", batch=requests))
    assert [(r.raised is not None, r.not_run) for r in reply.results] == [(True, False), (False, True),
                                                                          (False, True)]
    Reply.from_line(reply.to_line(), 2, requests)  # and the judge accepts it


# -- the snapshot -------------------------------------------------------------------------------


def _linked(size: object, *nexts: object) -> dict[str, object]:
    nodes = [{"class": "_Node", "attrs": {"item": k, "next": n}} for k, n in enumerate(nexts)]
    top = {"$obj": 1} if nexts else None
    return {"objects": [{"class": "LinkedStack", "attrs": {"_top": top, "_size": size}}, *nodes]}


@pytest.mark.parametrize(("data", "items", "message"), [
    (_linked(2 ** 62, {"$obj": 1}), 1, "following next from _top, node 1 leads back to node 1: the nodes form a cycle"),
    (_linked(2 ** 62, None), 1, "_size is 4,611,686,018,427,387,904 but only 1 nodes are linked"),
    (_linked(2, {"$obj": 2}, {"$obj": 1}), 2, "node 2 leads back to node 1: the nodes form a cycle"),
    (_linked("2", None), 1, "_size is '2', not a number"),
    (_linked(1, {"$obj": 2}, {"$obj": 3}, {"$obj": 4}, {"$obj": 5}, {"$obj": 6}, {"$obj": 7}, {"$obj": 8},
             {"$obj": 9}, {"$obj": 10}, None), 1, "reaches 11 objects from its fields, more than 1 items can need"),
    ({"objects": [{"class": "LinkedStack", "attrs": {"_top": None}}]}, 0,
     "the LinkedStack has no _size: its invariant reads it"),
    ({"objects": []}, 0, "the worker answered a snapshot of the LinkedStack that is not one"),
    ({"objects": [{"class": "LinkedStack", "attrs": {"_top": [[[[[[[1]]]]]]], "_size": 0}}]}, 0,
     "a field nests lists more than 6 deep"),
])
def test_a_snapshot_is_bounded_and_validated_before_the_invariant_runs(data: object, items: int,
                                                                        message: str) -> None:
    with pytest.raises(AssertionError) as caught:
        check_snapshot(LinkedStack, data, items)
    assert message in str(caught.value)


def test_a_sentinel_ring_is_no_cycle_but_a_ring_that_skips_it_is() -> None:
    def ring(*nexts: int) -> dict[str, object]:
        sentinel = {"class": "_Node", "attrs": {"item": None, "next": {"$obj": nexts[0]}, "prev": {"$obj": 2}}}
        nodes = [{"class": "_Node", "attrs": {"item": k, "next": {"$obj": n}, "prev": {"$obj": 1}}}
                 for k, n in enumerate(nexts[1:])]
        return {"objects": [{"class": "LinkedDeque", "attrs": {"_sentinel": {"$obj": 1}, "_size": 1}},
                            sentinel, *nodes]}

    assert check_snapshot(LinkedDeque, ring(2, 1), 1).size == 1  # sentinel -> node -> sentinel
    with pytest.raises(AssertionError, match="node 2 leads back to node 2: the nodes form a cycle"):
        check_snapshot(LinkedDeque, ring(2, 2), 1)


def test_the_invariant_check_runs_under_its_own_cpu_budget() -> None:
    with pytest.raises(_OutOfTime), _cpu_budget(0.2):
        while True:
            pass


def test_a_property_is_read_as_a_field() -> None:
    class Counted:
        def __init__(self) -> None:
            self._count = 3

        @property
        def _size(self) -> int:
            return self._count

    snapshot = Worker("solitaire_ds").snapshot(Counted(), ["_size", "_top"], ["item", "next"])
    assert snapshot == {"objects": [{"class": "Counted", "attrs": {"_size": 3}}]}


# -- exercise 7's random source -------------------------------------------------------------------


def test_the_judges_random_source_answers_and_counts_on_the_local_transport_too() -> None:
    impl = LocalSubmission("solitaire_ds")
    rng = impl.randrange_only(7)
    items = impl.new_list(list(range(10)))
    impl.module("shuffle").fisher_yates(items, rng)
    expected = list(range(10))
    random.Random(7).shuffle(expected)  # the documented loop, which Random.shuffle is
    assert list(items) == expected
    assert rng.draws == 9


def test_the_random_source_is_bounded() -> None:
    source = RandrangeSource(1)
    assert source.draw((1, 2, 3, 4)).error == "TypeError"
    assert source.draw((5, 1)).error == "ValueError"
    impl = LocalSubmission("solitaire_ds")
    connection = impl.connection()
    number = connection.sources.register(source)
    source.draws = MAX_DRAWS
    assert connection.answer(Callback("randrange", number, (10,))).error == "RuntimeError"
    source.draws = 2 * MAX_DRAWS
    with pytest.raises(WorkerStopped, match="called randrange more than 20,000 times"):
        connection.answer(Callback("randrange", number, (10,)))
    assert connection.answer(Callback("randrange", number + 99, (10,))).error == "LookupError"
    with pytest.raises(ProtocolError):
        Callback.from_json({"callback": "shuffle", "source": 1, "args": []})


# -- text from the worker ---------------------------------------------------------------------------


def test_text_from_the_worker_is_made_safe_where_it_enters() -> None:
    raised = Raised.from_json({"type": "ValueError", "kinds": ["ValueError"],
                               "message": "\x1b[2J\rfake row\n\ud800", "where": ["a\x1b.py", 1, "f\r"],
                               "code": "\x07"})
    assert raised.message == "\\x1b[2J\\rfake row\n\\ud800"
    assert raised.where is not None and str(raised.where) == "in a\\x1b.py, line 1, in f\\r"
    assert raised.code == "\\x07"
    reply = Reply.from_json({"id": 1, "value": {"k\x1b": ["\x9b", 1, {"$card": "AC"}]}}, 1)
    assert reply.value == {"k\\x1b": ["\\x9b", 1, {"$card": "AC"}]}
    line = Reply(1, raised=Raised("ValueError", ("ValueError",), "\ud800")).to_line()  # a lone surrogate is sent
    assert Reply.from_line(line, 1).raised is not None
