"""Attacks on what the judge believes: each a student's file, as data, with what its own code earns.

An attack is code appended to an exercise's empty skeleton or to its reference solution. Its
*own* code (a bug, an honest rewrite, or nothing) earns some score; its *cheat* tries to earn
more by making the worker say something other than what the code does: a batch reply cut
short, a snapshot cleaned up or made endless, a class the invariant does not know, a reply
dripped out slower than any rule notices, a random source read behind its back, or a message
that writes to the instructor's terminal. Graded anywhere (any sandbox, any machine), each
must score at most :attr:`Attack.earns`, and a classmate graded beside it keeps full marks
(``tests/grading/test_judge_trust.py``).

Nothing here assumes how the worker is walled in: every cheat works from inside the worker's
own process, which is all a student's file ever has.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from solitaire_ds.course import REPO_ROOT, exercise

__all__ = ["ATTACKS", "HONEST", "SMALL_WALLS", "Attack", "build"]


@dataclass(frozen=True)
class Attack:
    """One hostile (or honest) file: where it goes, what it appends, what it may earn."""

    exercise: int
    #: "skeleton" (the untouched exercise file) or "solution" (the reference), appended to.
    base: str
    #: The code appended: the student's own code, then the cheat.
    code: str
    #: The highest score its own code may earn on the exercise (the cheat must add nothing).
    earns: float
    #: What it tries, in one line.
    tries: str
    #: Limits fields it is graded under (the defaults for the rest): a drip is shown against
    #: small wall limits, so that the suite does not wait minutes for it.
    limits: dict[str, float] = field(default_factory=dict)


def build(root: Path, name: str, attack: Attack) -> Path:
    """Write ``attack`` as a submission folder ``root / name``; return the folder."""
    rel = exercise(attack.exercise).relpath
    base = REPO_ROOT / ("exercises" if attack.base == "skeleton" else "solutions") / rel
    target = root / name / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(base.read_text(encoding="utf-8") + "\n\n" + attack.code, encoding="utf-8")
    return root / name


def _join(*parts: str) -> str:
    """The pieces of an attack's code, each dedented, one after the other."""
    return "\n\n".join(textwrap.dedent(part).strip() for part in parts) + "\n"


# -- pieces of code ------------------------------------------------------------------------

#: Wraps the worker's own request handler, wherever the worker module is, so that ``_edit``
#: (defined before it) may change every reply before it is sent: the most a file can do to
#: what the judge reads, short of writing the pipe itself.
_ON_EVERY_REPLY = """
import dataclasses as _dc
import sys as _sys

_worker = _sys.modules.get("solitaire_ds.course.grader.worker")
if _worker is not None:
    _handle = _worker.Worker.handle

    def _edited(self, request):
        reply = _handle(self, request)
        try:
            return _edit(request, reply)
        except Exception:
            return reply

    _worker.Worker.handle = _edited
"""

#: An ArrayStack that never shrinks and leaves popped items in their slots: 7.89 of 10.
_STALE_STACK = """
def _pop(self):
    if self._size == 0:
        raise EmptyStructureError("pop from an empty stack")
    self._size -= 1
    return self._slots[self._size]  # the slot keeps the item; the capacity never halves


ArrayStack.pop = _pop
"""

#: An ArrayStack whose peek on an empty stack raises the wrong error: 8.42 of 10.
_WRONG_PEEK = """
def _peek(self):
    if self._size == 0:
        raise IndexError("peek at an empty stack")
    return self._slots[self._size - 1]


ArrayStack.peek = _peek
"""

#: Every snapshot answer rewritten to a clean one: the used slots only, in the smallest
#: capacity the invariant allows.
_CLEAN_SNAPSHOTS = """
def _clean(data):
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            slots, size = item.get("_slots"), item.get("_size")
            if isinstance(slots, list) and type(size) is int:
                capacity = 4
                while capacity < size:
                    capacity *= 2
                item["_slots"] = slots[:size] + [None] * (capacity - size)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _edit(request, reply):
    if request.op == "snapshot" and reply.raised is None:
        _clean(reply.value)
    return reply
"""

#: Every snapshot answer made endless: each node linked to itself, and a size of 2**62.
_ENDLESS_SNAPSHOTS = """
def _edit(request, reply):
    if request.op == "snapshot" and reply.raised is None and isinstance(reply.value, dict):
        objects = reply.value["objects"]
        root = objects[0]
        root["attrs"]["_size"] = 2 ** 62
        nodes = [i for i, o in enumerate(objects) if "next" in o.get("attrs", {})]
        if not nodes:
            objects.append({**root, "class": "_Node", "attrs": {"item": 0, "next": None}})
            nodes = [len(objects) - 1]
            root["attrs"]["_top"] = {"$obj": nodes[0]}
        for i in nodes:
            objects[i]["attrs"]["next"] = {"$obj": i}
    return reply
"""

#: A batch answered by its first result only: the checks of the rest would be skipped.
_SHORT_BATCHES = """
def _edit(request, reply):
    if request.op == "batch" and len(reply.results) > 1:
        return _dc.replace(reply, results=reply.results[:1])
    return reply
"""

#: Burns 30 ms of CPU every 4 s, for ``SECONDS``: never 10 s without CPU, so never a stall.
_DRIP = """
import time as _time


def _drip(seconds):
    end = _time.monotonic() + seconds
    while _time.monotonic() < end:
        busy = _time.process_time() + 0.03
        while _time.process_time() < busy:
            pass
        _time.sleep(4)
"""

#: Small wall limits for the drips (the mechanism is the same at any size): a call may wait
#: 3 s, an exercise 8 s, a submission 12 s (less than two exercises' worth).
SMALL_WALLS = {"call_wall_seconds": 3.0, "exercise_wall_seconds": 8.0, "submission_wall_seconds": 12.0}

ATTACKS: dict[str, Attack] = {
    # -- the invariant: the exercise names it, the snapshot is the judge's to check ----------
    "renamed_subclass": Attack(1, "solution", _join(_STALE_STACK, """
        class Stack_(ArrayStack):
            def __repr__(self):
                return "ArrayStack(" + repr(self._slots[:self._size]) + ")"


        ArrayStack.__new__ = lambda cls, *args, **kwargs: object.__new__(Stack_)
        """), 7.89, "a stale, never-shrinking stack makes objects of a subclass of another name, "
                   "which no invariant is known by"),
    "snapshot_cleaned": Attack(1, "solution", _join(_STALE_STACK, _CLEAN_SNAPSHOTS, _ON_EVERY_REPLY), 7.89,
                               "a stale, never-shrinking stack replaces every snapshot the worker takes "
                               "with a clean one"),
    "snapshot_endless": Attack(2, "solution", _join(_ENDLESS_SNAPSHOTS, _ON_EVERY_REPLY), 10.0,
                               "every snapshot of a correct stack links a node to itself with a size of "
                               "2**62, to pin the judge in the invariant's loop"),
    # -- the batch: one result per request, in order -----------------------------------------
    "batch_cut_short": Attack(1, "solution", _join(_WRONG_PEEK, _SHORT_BATCHES, _ON_EVERY_REPLY), 8.42,
                              "a buggy stack answers each batch with its first result only, so the "
                              "checks of the others are skipped"),
    # -- the wall clock -----------------------------------------------------------------------
    "drip_once": Attack(7, "solution", _join(_DRIP, """
        _reference = fisher_yates


        def fisher_yates(items, rng):
            if len(items) == 10:  # one test only: a reply 45 s late
                _drip(45)
            _reference(items, rng)
        """), 9.09, "one reply dripped out 45 s late, 30 ms of CPU every 4 s: never a stall",
        limits=SMALL_WALLS),
    "drip_stack": Attack(1, "solution", _join(_DRIP, """
        _push = ArrayStack.push


        def _dripping_push(self, item):
            _drip(45)
            _push(self, item)


        ArrayStack.push = _dripping_push
        """), 1.58, "a stack whose every push drips out 45 s late, to hold the grader's job slot (left "
                    "alone, the three tests that push nothing pass)",
        limits=SMALL_WALLS),
    "drip_every_call": Attack(7, "solution", _join(_DRIP, """
        _reference = fisher_yates


        def fisher_yates(items, rng):
            _drip(45)
            _reference(items, rng)
        """), 0.0, "every reply dripped out 45 s late, to hold the grader's job slot for hours",
        limits=SMALL_WALLS),
    # -- exercise 7's random source -----------------------------------------------------------
    "rng_attribute": Attack(7, "skeleton", _join("""
        def fisher_yates(items, rng):
            rng._random.shuffle(items)
            rng.draws = max(len(items) - 1, 0)
        """), 0.0, "shuffles with the random source's own Random, read from its attribute, then "
                  "sets its draw count"),
    "rng_referents": Attack(7, "skeleton", _join("""
        import gc as _gc
        import random as _random


        def fisher_yates(items, rng):
            for found in _gc.get_referents(rng):
                if isinstance(found, _random.Random):
                    found.shuffle(items)
            for name in dir(rng):
                if "draw" in name:
                    setattr(rng, name, max(len(items) - 1, 0))
        """), 1.82, "finds a Random among the objects the random source holds, shuffles with it, "
                   "then fixes its draw count (left alone, 0 and 1 items are shuffled)"),
    # -- text from the worker -------------------------------------------------------------------
    "escape_sequences": Attack(7, "skeleton", _join("""
        def fisher_yates(items, rng):
            raise ValueError("\\x1b[2J\\x1b[H\\rmallory  10.00/10  pass\\n\\x1b]0;graded\\x07\\x1b[8m")
        """), 0.0, "an exception message that clears the terminal and writes a fake row of "
                  "the grade table"),
    "lone_surrogate": Attack(5, "solution", _join("""
        def _peek_front(self):
            if self._size == 0:
                raise ValueError("peek_front at an empty deque \\ud800")
            return self._slots[self._front]


        ArrayDeque.peek_front = _peek_front
        """), 8.95, "an exception message holding a lone surrogate, which no UTF-8 writer accepts"),
}

#: Honest files that must keep full marks.
HONEST: dict[str, Attack] = {
    "size_property": Attack(1, "solution", _join("""
        def _get_size(self):
            return self._count


        def _set_size(self, value):
            self._count = value


        ArrayStack._size = property(_get_size, _set_size)
        """), 10.0, "_size is a property over another field"),
    "linked_size_property": Attack(2, "solution", _join("""
        LinkedStack._size = property(lambda self: self._count,
                                     lambda self, value: setattr(self, "_count", value))
        """), 10.0, "_size is a property over another field, in a linked class"),
}
