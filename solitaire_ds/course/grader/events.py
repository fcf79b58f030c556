"""What the judge reports to the runner: one :class:`Event` per line.

The tests collected, each exercise begun or broken, each test's result, the end, on a channel
only the two of them know. The judge runs no student code, so these are trusted; the runner
still reads them with the bounds of :mod:`~solitaire_ds.course.grader.messages`, so a damaged
report costs one submission's grade, never the class's, and their text is made safe again on
the way in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solitaire_ds.course.grader.messages import MAX_TEXT, ProtocolError, dumps
from solitaire_ds.text import safe_text

__all__ = ["EVENT_KINDS", "Event"]

#: The events the judge writes for the runner.
EVENT_KINDS = frozenset({"collected", "begin", "broken", "result", "end"})


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


@dataclass(frozen=True)
class Event:
    """One line of the judge's report to the runner.

    * ``collected``: ``ids``, every test collected, in order (the denominators);
    * ``begin``: ``exercise`` starts (its worker is started on its first test);
    * ``broken``: ``exercise`` cannot be graded at all (``message``: its file does not
      import, a graded class is not written in it, ...); its tests fail unrun;
    * ``result``: test ``id`` of ``exercise`` passed (``ok``) or not, with ``message``;
      ``ran`` is False for a test not run; ``cpu`` is the CPU time its worker used, ``wall``
      the wall time of its longest call;
    * ``end``: the run is over; ``cpus`` holds each exercise's workers' CPU time, ``walls``
      the wall time the judge waited for them, ``cpu`` the judge's own CPU time (its process
      alone: the workers it waited for are in ``cpus``).

    >>> Event.from_line(Event("result", id="t::a", exercise=1, ok=True).to_line()).ok
    True
    """

    kind: str
    ids: tuple[str, ...] = ()
    id: str = ""
    exercise: int = 0
    ok: bool = False
    ran: bool = True
    message: str = ""
    cpu: float = 0.0
    cpus: Mapping[int, float] = field(default_factory=dict)
    wall: float = 0.0
    walls: Mapping[int, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.kind == "collected":
            data["ids"] = list(self.ids)
        if self.kind in ("begin", "broken", "result"):
            data["exercise"] = self.exercise
        if self.kind in ("broken", "result"):
            data["message"] = self.message
        if self.kind == "result":
            data.update(id=self.id, ok=self.ok, ran=self.ran, cpu=round(self.cpu, 4), wall=round(self.wall, 4))
        if self.kind == "end":
            data["cpus"] = {str(k): round(v, 4) for k, v in self.cpus.items()}
            data["walls"] = {str(k): round(v, 4) for k, v in self.walls.items()}
            data["cpu"] = round(self.cpu, 4)
        return data

    def to_line(self) -> bytes:
        return dumps(self.to_json())

    @classmethod
    def from_line(cls, line: bytes) -> Event:
        """Read one event; raise :class:`ProtocolError` when it is not one."""
        try:
            data = json.loads(line, parse_constant=_reject_constant)
        except (ValueError, RecursionError, UnicodeDecodeError):
            raise ProtocolError("a results line that is not JSON") from None
        if not isinstance(data, dict) or data.get("kind") not in EVENT_KINDS:
            raise ProtocolError("a results line that is not an event")
        kind = data["kind"]
        try:
            if kind == "collected":
                ids = data["ids"]
                if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                    raise TypeError("ids")
                return cls(kind, ids=tuple(ids))
            if kind == "end":
                cpus, walls, own = data.get("cpus", {}), data.get("walls", {}), data.get("cpu", 0.0)
                if not isinstance(cpus, dict) or not isinstance(walls, dict):
                    raise TypeError("cpus")
                if not isinstance(own, (int, float)):
                    raise TypeError("cpu")
                return cls(kind, cpus={int(k): float(v) for k, v in cpus.items()},
                           walls={int(k): float(v) for k, v in walls.items()}, cpu=float(own))
            exercise = data["exercise"]
            if type(exercise) is not int:
                raise TypeError("exercise")
            if kind == "begin":
                return cls(kind, exercise=exercise)
            if not isinstance(data["message"], str):
                raise TypeError("message")
            message = safe_text(data["message"], 4 * MAX_TEXT)
            if kind == "broken":
                return cls(kind, exercise=exercise, message=message)
            wall = data.get("wall", 0.0)
            if not (isinstance(data["id"], str) and isinstance(data["ok"], bool) and isinstance(data["ran"], bool)
                    and isinstance(data["cpu"], (int, float)) and isinstance(wall, (int, float))):
                raise TypeError("result")
            return cls(kind, id=data["id"], exercise=exercise, ok=data["ok"], ran=data["ran"],
                       message=message, cpu=float(data["cpu"]), wall=float(wall))
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            raise ProtocolError(f"a {kind} event without a well-formed {exc}") from None
