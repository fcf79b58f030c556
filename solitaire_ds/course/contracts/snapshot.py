"""A structure's snapshot: what the judge reads of it, bounds, checks, and holds against its behaviour.

Invariant: the package's own ``_check()`` runs only on a copy the judge built from a
snapshot it has bounded and validated, under a CPU budget of its own, and a snapshot is
believed only as far as it agrees with what the structure answers in the same exchange.

The exercise names the reference class (``ArrayStack``, ...); its :class:`Shape` says which
fields the judge asks the worker to read (``_slots``, ``_size``, ``_front``, ``_top``,
``_head``, ``_tail``, ``_sentinel``) and which of its node class (``item``, ``next``,
``prev``). The worker reads them with ``getattr`` (a property answers as a field does) and
answers plain data (:meth:`~solitaire_ds.course.grader.worker.Worker.snapshot`): a claim,
since the worker runs the student's code. The judge then

* **bounds** it: at most as many objects as the items it observed can need, values nested
  a few lists deep, and every field of the class present;
* **validates** it, so that nothing in ``_check`` can loop for long: ``_size`` a number
  no larger than the objects present, the nodes followed link by link, a cycle found and
  named ("following next from _top, node 3 leads back to node 1");
* **checks** it: the package's ``_check`` on a copy made of the package's own classes,
  under :data:`CHECK_SECONDS` of CPU time;
* holds it against **behaviour** observed in the same exchange: ``_size`` must be what
  ``len()`` answered and, for an array class, ``_slots`` as long as ``len(_slots)`` read by
  a request of its own.

What this cannot prove: a worker whose every answer was rewritten to agree (the snapshot,
``len()``, ``len(_slots)``, the operations themselves) describes a structure that does not
exist, consistently; no judge outside the process can tell. The cross-checks make such a
lie cost rewriting everything, not one function.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import solitaire_ds.structures as structures

__all__ = ["CHECK_SECONDS", "SHAPES", "Claims", "Shape", "agree", "check_snapshot", "shape_of"]

#: The judge's CPU seconds for one ``_check`` of a validated copy (a few milliseconds at most).
CHECK_SECONDS = 2.0
#: How deeply lists may nest in a field of a snapshot.
_DEPTH = 6
#: The types of a value that holds nothing else.
_PLAIN = frozenset({type(None), bool, int, float, str})


@dataclass(frozen=True)
class Shape:
    """What the judge reads of a reference class: its ``fields``, those of them that hold a
    node (``links``), its node class's fields (``node``), and whether following ``next`` from
    the first link comes back to it (``ring``: a sentinel)."""

    fields: tuple[str, ...]
    links: tuple[str, ...] = ()
    node: tuple[str, ...] = ()
    ring: bool = False

    @property
    def array(self) -> bool:
        """Whether the class keeps its items in slots (its capacity is ``len(_slots)``)."""
        return "_slots" in self.fields


#: The six reference classes, as the judge reads them (the fields their ``_check`` reads).
SHAPES: dict[type[Any], Shape] = {
    structures.ArrayStack: Shape(("_slots", "_size")),
    structures.ArrayQueue: Shape(("_slots", "_front", "_size")),
    structures.ArrayDeque: Shape(("_slots", "_front", "_size")),
    structures.LinkedStack: Shape(("_top", "_size"), links=("_top",), node=("item", "next")),
    structures.LinkedQueue: Shape(("_head", "_tail", "_size"), links=("_head", "_tail"), node=("item", "next")),
    structures.LinkedDeque: Shape(("_sentinel", "_size"), links=("_sentinel",), node=("item", "next", "prev"),
                                  ring=True),
}


def shape_of(reference: type[Any]) -> Shape:
    """Return the shape of the reference class ``reference`` (one of the six).

    >>> shape_of(structures.LinkedQueue).links
    ('_head', '_tail')
    """
    return SHAPES[reference]


@dataclass(frozen=True)
class Claims:
    """What a checked snapshot says, to hold against what the structure does."""

    size: int
    #: ``len(_slots)`` for an array class, else None.
    capacity: int | None


class _Foreign:
    """An object of the snapshot that is not the structure nor one of its nodes (an item)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"<{self._name} object>"


class _OutOfTime(Exception):
    """The judge's CPU budget for one invariant check ran out."""


def check_snapshot(reference: type[Any], data: Any, items: int | None = None) -> Claims:
    """Bound and validate the snapshot ``data`` of a ``reference`` structure, then run the
    package's ``_check`` on a copy of it; return what it claims. Raise AssertionError, in
    plain words, at the first thing wrong.

    ``items`` is how many items ``len()`` answered in the same exchange (None if it did not
    answer): the snapshot may hold no more objects than that many items can need.

    >>> data = {"objects": [{"class": "LinkedStack", "attrs": {"_top": {"$obj": 1}, "_size": 2 ** 62}},
    ...                     {"class": "_Node", "attrs": {"item": 1, "next": {"$obj": 1}}}]}
    >>> check_snapshot(structures.LinkedStack, data)
    Traceback (most recent call last):
    ...
    AssertionError: following next from _top, node 1 leads back to node 1: the nodes form a cycle
    """
    shape = shape_of(reference)
    name = reference.__name__
    objects = _objects(data, name)
    if items is not None and items >= 0:
        slots = objects[0].get("_slots")
        most = 2 * (items + 1) + (len(slots) if type(slots) is list else 0) + 4
        if len(objects) > most:
            raise AssertionError(f"the {name} reaches {len(objects):,} objects from its fields, more than "
                                 f"{items} items can need (are removed nodes still linked?)")
    root = objects[0]
    for field in shape.fields:
        if field not in root:
            raise AssertionError(f"the {name} has no {field}: its invariant reads it")
    for field in ("_size", "_front"):
        if field in shape.fields and type(root[field]) is not int:
            raise AssertionError(f"{field} is {_shown(root[field])}, not a number")
    size: int = root["_size"]
    nodes = _nodes(objects, shape)
    # each loop of _check counts nodes up to _size: with no more than there are objects, it ends
    if shape.links and size > len(objects):
        raise AssertionError(f"_size is {size:,} but only {len(nodes)} nodes are linked")
    copy = _mirror(objects, nodes, reference, shape)
    try:
        with _cpu_budget(CHECK_SECONDS):
            reference._check(copy)
    except _OutOfTime:
        raise AssertionError(f"the invariant check took more than {CHECK_SECONDS:g} s of the judge's "
                             "CPU time") from None
    slots = root.get("_slots")
    return Claims(size, len(slots) if shape.array and type(slots) is list else None)


def agree(claims: Claims, items: Any, capacity: Any = None) -> None:
    """Check that a snapshot's ``claims`` agree with what the structure answered in the same
    exchange: ``len()`` (``items``) and, for an array class, ``len(_slots)`` (``capacity``).

    >>> agree(Claims(3, 4), 3, 16)
    Traceback (most recent call last):
    ...
    AssertionError: _slots holds 4 slots in the snapshot, but len(_slots) answered 16
    """
    if claims.size != items:
        raise AssertionError(f"_size is {claims.size} but len() answered {_shown(items)}")
    if claims.capacity is not None and claims.capacity != capacity:
        raise AssertionError(f"_slots holds {claims.capacity} slots in the snapshot, but len(_slots) answered "
                             f"{_shown(capacity)}")


# -- reading the claim --------------------------------------------------------------------------


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "an object" if "$obj" in value or "$ref" in value else "a dict"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _objects(data: Any, name: str) -> list[dict[str, Any]]:
    """Return each object's fields; raise AssertionError when ``data`` is not a snapshot."""
    entries = data.get("objects") if type(data) is dict else None
    if type(entries) is not list:
        entries = []
    objects: list[dict[str, Any]] = []
    for entry in entries:
        attrs = entry.get("attrs") if type(entry) is dict else None
        if type(attrs) is not dict:
            break
        objects.append(attrs)
    if not objects or len(objects) != len(entries):
        raise AssertionError(f"the worker answered a snapshot of the {name} that is not one "
                             "(the worker broke the protocol)")
    return objects


def _index(value: Any, count: int) -> int | None:
    """The object ``value`` refers to (``{"$obj": k}``, ``0 < k < count``), or None."""
    if type(value) is dict and len(value) == 1:
        k = value.get("$obj")
        if type(k) is int and 0 < k < count:
            return k
    return None


def _nodes(objects: list[dict[str, Any]], shape: Shape) -> list[int]:
    """Return the nodes: the objects reached by following ``next`` from each of the
    structure's links. Assert each has the node's fields, and that each walk ends (at
    nothing, at a node an earlier walk reached, or for a ring back at its start) instead of
    going round a cycle, which is named. Runtime complexity: O(nodes)."""
    count = len(objects)
    nodes: dict[int, None] = {}
    for link in shape.links:
        start = _index(objects[0][link], count)
        walked: set[int] = set()
        last = k = start
        while k is not None:
            if k in walked:
                if shape.ring and k == start:
                    break
                raise AssertionError(f"following next from {link}, node {last} leads back to node {k}: "
                                     "the nodes form a cycle")
            if k in nodes:  # the rest was walked from an earlier link
                break
            walked.add(k)
            nodes[k] = None
            attrs = objects[k]
            for field in shape.node:
                if field not in attrs:
                    raise AssertionError(f"node {k} has no field {field}: a node (of any class) has the fields "
                                         f"{', '.join(shape.node)}")
            last, k = k, _index(attrs["next"], count)
    return list(nodes)


def _mirror(objects: list[dict[str, Any]], nodes: list[int], reference: type[Any], shape: Shape) -> Any:
    """Rebuild the snapshot with the package's classes; return the structure.

    Only the shape's fields are set: the structure's on it, the node's on each node; any
    other object (an item) is an opaque stand-in. No field may nest lists more than
    :data:`_DEPTH` deep.
    """
    count = len(objects)
    node_class = getattr(sys.modules[reference.__module__], "_Node", None)
    made: dict[int, Any] = {k: object.__new__(node_class) for k in nodes} if node_class is not None else {}
    made[0] = object.__new__(reference)

    def value(wire: Any, depth: int) -> Any:
        kind = type(wire)
        if kind in _PLAIN:
            return wire
        if kind is dict and len(wire) == 1:
            if "$obj" in wire:
                k = _index(wire, count)
                if k is None:
                    return _Foreign("object")
                if k not in made:
                    made[k] = _Foreign("item")
                return made[k]
            if type(wire.get("$tuple")) is list:
                return tuple(value(wire["$tuple"], depth))
        if kind is list:
            if depth >= _DEPTH:
                raise AssertionError(f"a field nests lists more than {_DEPTH} deep")
            if _PLAIN.issuperset(map(type, wire)):  # the usual slots: numbers, text, None
                return wire
            return [value(item, depth + 1) for item in wire]
        return _Foreign("value")

    for field in shape.fields:
        object.__setattr__(made[0], field, value(objects[0][field], 0))
    for k in nodes:
        for field in shape.node:
            object.__setattr__(made[k], field, value(objects[k][field], 0))
    return made[0]


def _out_of_time(signum: int, frame: Any) -> None:
    raise _OutOfTime


@functools.cache
def _timer() -> bool:
    """Whether a CPU-time timer can interrupt the judge here: the platform has one, this is
    the main thread (the judge's pytest run), and its handler is set (once)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return False
    try:
        signal.signal(signal.SIGPROF, _out_of_time)
    except (ValueError, OSError):  # pragma: no cover - no signals here
        return False
    return True


@contextlib.contextmanager
def _cpu_budget(seconds: float) -> Iterator[None]:
    """Raise :class:`_OutOfTime` in the code run inside once it used ``seconds`` of CPU time.

    A profiling timer where there is one (see :func:`_timer`); elsewhere (a browser's Python)
    nothing: the validation already bounds the work.
    """
    if not _timer():
        yield
        return
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
