"""What crosses between the judge and a worker: typed messages, checked before they are believed.

The judge sends a :class:`Request` ("call push(5) on object 7") down one pipe; the worker
answers with a :class:`Reply` that holds plain data only, or the :class:`Raised` exception's
type and message. The worker runs the student's code, so everything it sends is checked here
before anything else reads it: a line that is too long, too deep, not JSON, or not the reply
to the request in flight is a :class:`ProtocolError` -- data about the worker ("the worker
answered something that is not a message"), never an exception in the judge. A batch's
reply answers each of its requests, in order: after one that raised where that was not
expected, the rest are *not run*; anything else breaks the protocol. Every string a reply
holds is made safe here, where it enters (:func:`~solitaire_ds.text.safe_text`). While a
request is in flight, the worker may ask the judge a :class:`Callback` (a draw from its
random source), answered with an :class:`Answer`. The judge's report to the runner is
another channel: :mod:`~solitaire_ds.course.grader.events`.

Values on the wire are JSON with a few tags, each a one-key object:

* ``null``, booleans, integers, finite floats, strings, lists, and objects with string
  keys that do not start with ``$``: themselves;
* ``{"$tuple": [...]}``, ``{"$dict": [[key, value], ...]}`` (other keys): tuples and dicts;
  ``{"$iter": [...]}`` (judge to worker only): an iterator over the items, not a list;
* ``{"$card": "AC"}``, ``{"$rank": 1}``, ``{"$suit": "C"}``, ``{"$move": ["pair", [1, 3]]}``,
  ``{"$deck": [["AC", ...], [1, 2, ...]]}``: the package's value types;
* ``{"$ref": [n, "ArrayStack"]}``: object ``n``, kept in the worker, of a class named
  ``ArrayStack`` -- the judge holds only this number and name; ``{"$obj": k}``: object ``k``
  of a snapshot's own list.

>>> check_wire({"$tuple": [1, "two", None]})
>>> Reply.from_line(Reply(3, value=[1, 2]).to_line(), expected_id=3).value
[1, 2]
>>> Reply.from_line(b'{"id": 3, "value": [[[[' + b'[' * 200 + b']', expected_id=3)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solitaire_ds.course.grader.messages.ProtocolError: the worker answered ... (a line that is not JSON)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from solitaire_ds.text import safe_text

__all__ = [
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "MAX_TEXT",
    "OPS",
    "TAGS",
    "Answer",
    "Callback",
    "ProtocolError",
    "Raised",
    "Reply",
    "Request",
    "Target",
    "Where",
    "check_wire",
    "dumps",
    "loads",
    "plain_line",
    "safe_wire",
]

#: The longest line either side may send (a whole Klondike game's events are about 60 kB).
MAX_LINE_BYTES = 8 << 20
#: How deeply lists and objects may nest in one message.
MAX_DEPTH = 48
#: The most values (list items, object entries) one message may hold.
MAX_VALUES = 400_000
#: The longest string kept from the worker (a message, a repr); longer ones are cut.
MAX_TEXT = 64_000
#: What a request may ask the worker to do.
OPS = frozenset({
    "import",    # load the student's module: its graded names and where each comes from
    "get",       # the value at the target
    "call",      # call the target with args and kwargs
    "method",    # call the target's method `name`
    "len", "bool", "list", "repr", "str",  # len(x), bool(x), list(x), repr(x), str(x)
    "eq",        # bool(target == args[0])
    "snapshot",  # the fields args[0] of the target and args[1] of each object they reach (the judge's check)
    "drive",     # call the target's method `name` until its method args[0] answers True, at most args[1] times
    "new",       # make a worker-side list (`name` "list") or random source args[0] of the judge's (`name` "rng")
    "batch",     # several requests in order, each answered; after an unexpected exception, the rest not run
    "reset",     # forget every object kept for the judge
})
#: The tags a value may carry on the wire.
TAGS = frozenset({"$tuple", "$dict", "$iter", "$card", "$rank", "$suit", "$move", "$deck", "$ref", "$obj"})
#: What a worker may ask the judge while a request is in flight.
CALLBACKS = frozenset({"randrange"})

#: The types of a JSON value that holds nothing else, and of one that holds no string.
_SCALARS = frozenset({type(None), bool, int, str})
_NUMBERS = frozenset({type(None), bool, int, float})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}\Z")
_MODULE = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*){0,4}\Z")


class ProtocolError(Exception):
    """A message that does not parse or does not belong: says what the sender did wrong."""


def _not_a_message(why: str) -> ProtocolError:
    return ProtocolError(f"the worker answered something that is not a message ({why})")


def _broke(why: str) -> ProtocolError:
    return ProtocolError(f"the worker broke the protocol: {why}")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def loads(line: bytes | str, limit: int = MAX_LINE_BYTES) -> Any:
    """Parse one JSON line within the bounds; raise :class:`ProtocolError` otherwise.

    NaN and infinities are refused, as are lines over ``limit`` bytes and nesting deeper
    than Python's own parser allows (a line of 100,000 ``[`` is refused, not a crash).

    >>> loads(b'{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> loads(b'[NaN]')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solitaire_ds.course.grader.messages.ProtocolError: the worker answered ... (a line that is not JSON)
    """
    if len(line) > limit:
        raise _not_a_message(f"a line of {len(line):,} bytes, more than {limit:,}")
    try:
        return json.loads(line, parse_constant=_reject_constant)
    except (ValueError, RecursionError, UnicodeDecodeError, MemoryError):
        raise _not_a_message("a line that is not JSON") from None


def dumps(data: Any) -> bytes:
    """Return ``data`` as one JSON line; a lone surrogate, which no UTF-8 writer accepts, goes
    as JSON's own escape (``\\ud800``): the line is always sent, the reader makes it safe."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n"
    return text.encode("utf-8", "backslashreplace")


def check_wire(data: Any) -> None:
    """Raise :class:`ProtocolError` unless ``data`` is a well-formed wire value (see the module).

    Runtime complexity: O(size of ``data``), iterative (no recursion to exhaust).

    >>> check_wire({"$ref": [1, "ArrayStack"], "x": 1})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solitaire_ds.course.grader.messages.ProtocolError: the worker answered something that is not a message ...
    """
    if type(data) in _SCALARS:  # the common answer: a number, a bool, a word
        return
    stack: list[tuple[Any, int]] = [(data, 0)]
    count = 0
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise _not_a_message(f"more than {MAX_VALUES:,} values")
        if depth > MAX_DEPTH:
            raise _not_a_message(f"values nested more than {MAX_DEPTH} deep")
        if value is None or isinstance(value, (bool, str)):
            continue
        if isinstance(value, int):
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                raise _not_a_message("a number that is not finite")
            continue
        if isinstance(value, list):
            if _SCALARS.issuperset(map(type, value)):  # the common case, at C speed
                count += len(value)
                continue
            stack.extend((item, depth + 1) for item in value)
            continue
        if not isinstance(value, dict):
            raise _not_a_message(f"a {type(value).__name__}")
        tags = [key for key in value if key.startswith("$")]
        if not tags:
            stack.extend((item, depth + 1) for item in value.values())
            continue
        if len(value) != 1:
            raise _not_a_message(f"a {tags[0]!r} with other keys beside it")
        tag, inner = tags[0], value[tags[0]]
        if tag not in TAGS:
            raise _not_a_message(f"an unknown tag {tag[:20]!r}")
        _check_tag(tag, inner)
        if tag in ("$tuple", "$dict", "$iter"):
            if not isinstance(inner, list):
                raise _not_a_message(f"a {tag} that is not a list")
            if tag == "$dict" and not all(isinstance(p, list) and len(p) == 2 for p in inner):
                raise _not_a_message("a $dict that is not a list of pairs")
            stack.extend((item, depth + 1) for item in inner)


def _check_tag(tag: str, inner: Any) -> None:
    """Check the shape of a value tag other than the containers ($tuple, $dict)."""
    ok = True
    if tag == "$card":
        ok = isinstance(inner, str) and len(inner) <= 3
    elif tag in ("$rank", "$obj"):
        ok = type(inner) is int and 0 <= inner < 1 << 31
    elif tag == "$suit":
        ok = isinstance(inner, str) and len(inner) == 1
    elif tag == "$move":
        ok = (isinstance(inner, list) and len(inner) == 2 and isinstance(inner[0], str) and len(inner[0]) <= 40
              and isinstance(inner[1], list) and len(inner[1]) <= 8
              and all(type(p) is int and abs(p) < 1000 for p in inner[1]))
    elif tag == "$deck":
        ok = (isinstance(inner, list) and len(inner) == 2 and isinstance(inner[0], list) and len(inner[0]) <= 52
              and all(isinstance(c, str) and len(c) <= 3 for c in inner[0])
              and isinstance(inner[1], list) and all(type(r) is int for r in inner[1]))
    elif tag == "$ref":
        ok = (isinstance(inner, list) and len(inner) == 2 and type(inner[0]) is int and 0 <= inner[0] < 1 << 40
              and isinstance(inner[1], str) and bool(_NAME.match(inner[1])))
    if not ok:
        raise _not_a_message(f"a malformed {tag}")


def _text(value: Any, what: str, limit: int = MAX_TEXT, newlines: bool = True) -> str:
    """Return ``value``, a string from the other side, made safe (see :func:`safe_text`)."""
    if not isinstance(value, str):
        raise _not_a_message(f"{what} that is not a string")
    return safe_text(value, limit, newlines=newlines)


def safe_wire(data: Any) -> Any:
    """Return the (checked) wire value ``data`` with every string in it (keys, values, the text
    of tags) made safe by :func:`~solitaire_ds.text.safe_text`, uncut; else ``data`` itself.

    Runtime complexity: O(size of ``data``); a list of numbers at C speed.

    >>> safe_wire({"a": ["ok", chr(27) + "[2J"], "n": [1, 2]})
    {'a': ['ok', '\\\\x1b[2J'], 'n': [1, 2]}
    """
    kind = type(data)
    if kind is str:
        return data if data.isascii() and data.isprintable() else safe_text(data, MAX_LINE_BYTES)
    if kind is list:
        if _NUMBERS.issuperset(map(type, data)):  # the common answer: numbers only
            return data
        return [safe_wire(item) for item in data]
    if kind is dict:
        return {safe_wire(key): safe_wire(value) for key, value in data.items()}
    return data


# -- judge -> worker ------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """What a request acts on: object ``ref``, or ``module`` (and ``package``), then ``path``.

    ``module`` is a dotted name inside ``solitaire_ds`` ("structures.array_stack"): the
    student's file for it, or with ``package`` the package's own module in the worker.
    ``path`` follows attributes from there ("ArrayStack", then "__name__").

    >>> Target.from_json(Target(module="solver", path=("search",)).to_json())
    Target(ref=None, module='solver', package=False, path=('search',))
    """

    ref: int | None = None
    module: str | None = None
    package: bool = False
    path: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"path": list(self.path)}
        if self.ref is not None:
            data["ref"] = self.ref
        if self.module is not None:
            data["module"] = self.module
            data["package"] = self.package
        return data

    @classmethod
    def from_json(cls, data: Any) -> Target:
        if not isinstance(data, dict) or ("ref" in data) == ("module" in data):
            raise ProtocolError(f"a target names an object or a module: {str(data)[:80]}")
        path = data.get("path", [])
        if not isinstance(path, list) or len(path) > 8 or not all(isinstance(p, str) and _NAME.match(p)
                                                                  for p in path):
            raise ProtocolError(f"a target's path is a few attribute names: {str(path)[:80]}")
        if "ref" in data:
            if type(data["ref"]) is not int:
                raise ProtocolError("a target's ref is a number")
            return cls(ref=data["ref"], path=tuple(path))
        module = data["module"]
        if not isinstance(module, str) or not _MODULE.match(module):
            raise ProtocolError(f"not a module name: {str(module)[:80]}")
        return cls(module=module, package=data.get("package") is True, path=tuple(path))


@dataclass(frozen=True)
class Request:
    """One thing the judge asks the worker to do (see :data:`OPS`), numbered ``id``.

    ``args`` and ``kwargs`` are wire values; ``batch`` holds the requests of a ``batch``,
    which stops after the first that raises unless that one ``may_raise`` (a test that
    expects an exception there).

    >>> line = Request(1, "method", Target(ref=7), name="push", args=(5,)).to_line()
    >>> Request.from_line(line).args
    (5,)
    """

    id: int
    op: str
    target: Target | None = None
    name: str = ""
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    batch: tuple[Request, ...] = ()
    may_raise: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "op": self.op}
        if self.may_raise:
            data["may_raise"] = True
        if self.target is not None:
            data["target"] = self.target.to_json()
        if self.name:
            data["name"] = self.name
        if self.args:
            data["args"] = list(self.args)
        if self.kwargs:
            data["kwargs"] = dict(self.kwargs)
        if self.batch:
            data["batch"] = [r.to_json() for r in self.batch]
        return data

    def to_line(self) -> bytes:
        return dumps(self.to_json())

    @classmethod
    def from_json(cls, data: Any) -> Request:
        if not isinstance(data, dict) or type(data.get("id")) is not int or data.get("op") not in OPS:
            raise ProtocolError(f"not a request: {str(data)[:80]}")
        name = data.get("name", "")
        if not isinstance(name, str) or (name and not _NAME.match(name)):
            raise ProtocolError(f"not a method name: {str(name)[:80]}")
        args, kwargs = data.get("args", []), data.get("kwargs", {})
        if not isinstance(args, list) or not isinstance(kwargs, dict):
            raise ProtocolError("args are a list and kwargs an object")
        batch = data.get("batch", [])
        if not isinstance(batch, list):
            raise ProtocolError("a batch is a list of requests")
        target = Target.from_json(data["target"]) if "target" in data else None
        return cls(data["id"], data["op"], target, name, tuple(args), kwargs,
                   tuple(cls.from_json(r) for r in batch), data.get("may_raise") is True)

    @classmethod
    def from_line(cls, line: bytes) -> Request:
        return cls.from_json(loads(line))


# -- worker -> judge ------------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """Where in the student's file an exception surfaced: the innermost frame there."""

    file: str
    line: int
    function: str

    def __str__(self) -> str:
        return f"in {self.file}, line {self.line}, in {self.function}"


@dataclass(frozen=True)
class Raised:
    """An exception the student's code raised in the worker, as data.

    ``kinds`` names the known classes it is an instance of, most specific first (the
    package's ``EmptyStructureError`` and ``IllegalMove``, Python's own); ``type`` is its
    own class's name, ``message`` its ``str()``; ``code`` the status of a ``SystemExit``,
    ``errno`` that of an ``OSError``.
    """

    type: str
    kinds: tuple[str, ...]
    message: str
    where: Where | None = None
    code: int | str | None = None
    errno: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "kinds": list(self.kinds), "message": self.message}
        if self.where is not None:
            data["where"] = [self.where.file, self.where.line, self.where.function]
        if self.code is not None:
            data["code"] = self.code
        if self.errno is not None:
            data["errno"] = self.errno
        return data

    @classmethod
    def from_json(cls, data: Any) -> Raised:
        if not isinstance(data, dict):
            raise _not_a_message("an exception that is not an object")
        name = data.get("type")
        if not isinstance(name, str) or not _NAME.match(name):
            raise _not_a_message("an exception whose type is not a name")
        kinds = data.get("kinds", [])
        if not isinstance(kinds, list) or len(kinds) > 20 or not all(isinstance(k, str) and _NAME.match(k)
                                                                     for k in kinds):
            raise _not_a_message("an exception's kinds that are not names")
        where = None
        if "where" in data:
            spot = data["where"]
            if not (isinstance(spot, list) and len(spot) == 3 and type(spot[1]) is int):
                raise _not_a_message("an exception's place that is not [file, line, function]")
            where = Where(_text(spot[0], "a file name", 300, newlines=False), spot[1],
                          _text(spot[2], "a function name", 300, newlines=False))
        code = data.get("code")
        if code is not None and not (type(code) is int or isinstance(code, str)):
            raise _not_a_message("an exit status that is not a number or text")
        errno = data.get("errno")
        if errno is not None and type(errno) is not int:
            raise _not_a_message("an errno that is not a number")
        return cls(name, tuple(kinds), _text(data.get("message", ""), "a message"), where,
                   code if not isinstance(code, str) else _text(code, "an exit status", 300, newlines=False),
                   errno)


@dataclass(frozen=True)
class Reply:
    """The worker's answer to request ``id``: a wire ``value``, or what was ``raised``.

    A batch's reply holds one reply per request (``results``), in order; after the first
    that raised where that was not expected (see :class:`Request`), each of the rest is
    ``not_run``. Anything else is the worker breaking the protocol, never a verdict:

    >>> batch = (Request(2, "len", Target(ref=1)), Request(3, "len", Target(ref=1)))
    >>> line = Reply(1, results=(Reply(2, value=3), Reply(3, not_run=True))).to_line()
    >>> Reply.from_line(line, 1, batch)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solitaire_ds.course.grader.messages.ProtocolError: the worker broke the protocol: request 3 ... not run, ...
    """

    id: int
    value: Any = None
    raised: Raised | None = None
    results: tuple[Reply, ...] = ()
    not_run: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id}
        if self.not_run:
            data["not_run"] = True
        elif self.raised is not None:
            data["raised"] = self.raised.to_json()
        elif self.results:
            data["results"] = [r.to_json() for r in self.results]
        else:
            data["value"] = self.value
        return data

    def to_line(self) -> bytes:
        return dumps(self.to_json())

    @classmethod
    def from_json(cls, data: Any, expected_id: int, batch: Sequence[Request] = (), *,
                  is_batch: bool | None = None, plain: bool = False) -> Reply:
        """Read the reply to request ``expected_id`` (a batch of the requests ``batch``, if
        ``is_batch``: by default, if it holds any); ``plain``: its line holds no text to make
        safe (see :func:`plain_line`)."""
        if not isinstance(data, dict):
            raise _not_a_message("a reply that is not an object")
        if data.get("id") != expected_id or type(data.get("id")) is not int:
            raise _not_a_message(f"a reply to request {str(data.get('id'))[:20]}, not to {expected_id}")
        keys = set(data) - {"id"}
        if len(keys) != 1 or not keys <= {"value", "raised", "results", "not_run"}:
            raise _not_a_message(f"a reply with the keys {sorted(keys)[:5]}")
        is_batch = bool(batch) if is_batch is None else is_batch
        if is_batch != ("results" in data):
            what = "with one result per request" if is_batch else "with a value or an exception"
            raise _broke(f"request {expected_id} was not answered {what}")
        if "not_run" in data:
            raise _broke(f"request {expected_id} was answered 'not run' outside a batch")
        if "raised" in data:
            return cls(expected_id, raised=Raised.from_json(data["raised"]))
        if "results" in data:
            return cls(expected_id, results=_batch_results(data["results"], batch, plain))
        check_wire(data["value"])
        return cls(expected_id, value=data["value"] if plain else safe_wire(data["value"]))

    @classmethod
    def from_line(cls, line: bytes, expected_id: int, batch: Sequence[Request] = (), *,
                  is_batch: bool | None = None) -> Reply:
        return cls.from_json(loads(line), expected_id, batch, is_batch=is_batch, plain=plain_line(line))


def plain_line(line: bytes) -> bool:
    """Whether every string of the JSON line ``line`` is printable ASCII already, told at C speed:
    JSON allows no raw control character, so ASCII with no escape (``\\``) and no DEL has none.

    >>> plain_line(b'[1, "two"]'), plain_line(b'["' + bytes([92]) + b'u001b"]')
    (True, False)
    """
    return line.isascii() and b"\\" not in line and b"\x7f" not in line


def _batch_results(results: Any, batch: Sequence[Request], plain: bool = False) -> tuple[Reply, ...]:
    """Read a batch's results: one per request, in order, "not run" only after an unexpected raise."""
    if not isinstance(results, list) or len(results) != len(batch):
        count = len(results) if isinstance(results, list) else "no list of"
        raise _broke(f"a batch of {len(batch)} requests was answered with {count} results")
    replies: list[Reply] = []
    stopped = False  # a request raised where it was not expected: the rest are not run
    for data, request in zip(results, batch, strict=True):
        if type(data) is dict and "not_run" in data and len(data) == 2 and data.get("id") == request.id:
            if data["not_run"] is not True or not stopped:
                raise _broke(f"request {request.id} of a batch was reported not run, "
                             "though no request before it raised")
            replies.append(Reply(request.id, not_run=True))
            continue
        if stopped:
            raise _broke(f"request {request.id} of a batch was answered after an earlier one raised")
        reply = Reply.from_json(data, request.id, request.batch, is_batch=request.op == "batch", plain=plain)
        stopped = reply.raised is not None and not request.may_raise
        replies.append(reply)
    return tuple(replies)


@dataclass(frozen=True)
class Callback:
    """What a worker asks the judge while a request is in flight: ``kind`` (see
    :data:`CALLBACKS`) of the judge's object number ``source``, with ``args`` (integers only,
    which the judge validates and bounds before it acts).

    >>> Callback.from_line(Callback("randrange", 2, (10,)).to_line())
    Callback(kind='randrange', source=2, args=(10,))
    """

    kind: str
    source: int
    args: tuple[int, ...] = ()

    def to_line(self) -> bytes:
        return dumps({"callback": self.kind, "source": self.source, "args": list(self.args)})

    @classmethod
    def from_json(cls, data: Any) -> Callback:
        if not isinstance(data, dict) or set(data) != {"callback", "source", "args"}:
            raise _broke("a callback that is not {callback, source, args}")
        kind, source, args = data["callback"], data["source"], data["args"]
        if kind not in CALLBACKS or type(source) is not int:
            raise _broke(f"a callback of an unknown kind {str(kind)[:20]!r}")
        if not isinstance(args, list) or len(args) > 3 or not all(type(a) is int for a in args):
            raise _broke("a callback whose arguments are not up to three integers")
        return cls(kind, source, tuple(args))

    @classmethod
    def from_line(cls, line: bytes) -> Callback:
        return cls.from_json(loads(line))


@dataclass(frozen=True)
class Answer:
    """The judge's answer to a :class:`Callback`: an integer ``value``, or an exception to
    raise in the worker, as its builtin ``error`` type's name and ``message``.

    >>> Answer.from_line(Answer(error="ValueError", message="empty range").to_line())
    Answer(value=0, error='ValueError', message='empty range')
    """

    value: int = 0
    error: str = ""
    message: str = ""

    #: The exceptions an answer may raise in the worker.
    ERRORS: ClassVar[frozenset[str]] = frozenset({"ValueError", "TypeError", "RuntimeError", "LookupError"})

    def to_line(self) -> bytes:
        data: dict[str, Any] = {"error": self.error, "message": self.message} if self.error else {"value": self.value}
        return dumps(data)

    @classmethod
    def from_line(cls, line: bytes) -> Answer:
        data = loads(line)
        if isinstance(data, dict) and set(data) == {"value"} and type(data["value"]) is int:
            return cls(data["value"])
        if (isinstance(data, dict) and set(data) == {"error", "message"} and data["error"] in cls.ERRORS
                and isinstance(data["message"], str)):
            return cls(error=data["error"], message=data["message"][:300])
        raise ProtocolError("the judge's answer to a callback is not one")
