"""What one judge run is given, and how its tests are named: shared by the runner and the judge.

The runner writes a :class:`JudgeConfig` as JSON and starts the judge (a pytest run with the
:mod:`~solitaire_ds.course.grader.judge` plugin) with its path; the judge reads it back. It
lives apart from the judge so that the runner (and ``solitaire-ds check``) need not import
pytest to write it.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solitaire_ds.course.results import Limits

__all__ = ["JudgeConfig", "exercise_number", "test_name"]

_FILE_PATTERN = re.compile(r"test_ex(\d+)_")


def exercise_number(path: str | Path) -> int | None:
    """Return the exercise number of a contract test file, from its name.

    >>> exercise_number("solitaire_ds/course/contracts/test_ex03_array_queue.py")
    3
    >>> exercise_number("tests/test_cards.py") is None
    True
    """
    found = _FILE_PATTERN.match(Path(path).name)
    return int(found.group(1)) if found else None


def test_name(test_id: str) -> str:
    """Return the name a test is reported by: its id without the contract file.

    An instructor's own test keeps its file's name.

    >>> test_name("solitaire_ds/course/contracts/test_ex01_array_stack.py::TestArrayStack::test_len")
    'TestArrayStack::test_len'
    >>> test_name("/tmp/x/instructor/test_ex01_more.py::test_many")
    'instructor/test_ex01_more.py::test_many'
    """
    file, _, rest = test_id.partition("::")
    parts = file.replace("\\", "/").split("/")
    if len(parts) >= 2 and parts[-2] == "instructor":
        return f"instructor/{parts[-1]}::{rest}"
    return rest


@dataclass(frozen=True)
class JudgeConfig:
    """What one judge run needs, read from the runner's JSON file (see the module).

    The events go to ``events_fd`` (a pipe the runner reads) when it is set, else to the file
    ``results`` (the practice pages, which run the judge in the browser's own process).
    Each exercise ``n`` has its worker's copy of the package (``code[n]``), the copy of the
    submission it is shown (``shown[n]``), a working folder (``scratch[n]``) and, behind a wall
    that uses them, the user id it runs as (``users[n]``); ``logs`` holds what workers print.
    """

    results: Path
    limits: Limits
    graded: dict[int, list[str]]
    #: "pipe": a sandboxed worker process per exercise; "local": this process serves them.
    transport: str = "pipe"
    impl: str = ""  # the folder under test ("local")
    submission: Path = Path()  # the judge's own copy of the submission (read, never run)
    code: dict[int, Path] = field(default_factory=dict)
    shown: dict[int, Path] = field(default_factory=dict)
    scratch: dict[int, Path] = field(default_factory=dict)
    users: dict[int, int] = field(default_factory=dict)
    logs: Path = Path()
    wall: dict[str, Any] = field(default_factory=dict)  # a Wall's to_json()
    events_fd: int = -1
    #: The key the games' tests draw their decks with, in hex ('': the public key); see
    #: :mod:`solitaire_ds.course.contracts.drawn`. Only the judge reads it.
    secret: str = ""

    @classmethod
    def read(cls, path: Path) -> JudgeConfig:
        data = json.loads(path.read_text(encoding="utf-8"))

        def paths(key: str) -> dict[int, Path]:
            return {int(k): Path(v) for k, v in data.get(key, {}).items()}

        return cls(
            results=Path(data["results"]),
            limits=Limits(**data["limits"]),
            graded={int(k): list(v) for k, v in data["graded"].items()},
            transport=data.get("transport", "pipe"),
            impl=data.get("impl", ""),
            submission=Path(data.get("submission", "")),
            code=paths("code"), shown=paths("shown"), scratch=paths("scratch"),
            users={int(k): int(v) for k, v in data.get("users", {}).items()},
            logs=Path(data.get("logs", "")),
            wall=dict(data.get("wall", {})),
            events_fd=int(data.get("events_fd", -1)),
            secret=data.get("secret", ""),
        )

    def write(self, path: Path) -> None:
        def paths(folders: dict[int, Path]) -> dict[str, str]:
            return {str(k): str(v) for k, v in folders.items()}

        data = {
            "results": str(self.results), "limits": self.limits.__dict__, "graded": self.graded,
            "transport": self.transport, "impl": self.impl, "submission": str(self.submission),
            "code": paths(self.code), "shown": paths(self.shown), "scratch": paths(self.scratch),
            "users": {str(k): v for k, v in self.users.items()}, "logs": str(self.logs),
            "wall": self.wall, "events_fd": self.events_fd, "secret": self.secret,
        }
        # readable by the grader's own user only: it may hold the secret
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as out:
            out.write(json.dumps(data, indent=1))
