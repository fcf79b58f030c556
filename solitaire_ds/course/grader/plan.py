"""What one judge run is given, and how its tests are named: shared by the runner and the judge.

The runner writes a :class:`JudgeConfig` as JSON and starts the judge (a pytest run with the
:mod:`~solitaire_ds.course.grader.judge` plugin) with its path; the judge reads it back. It
lives apart from the judge so that the runner (and ``solitaire-ds check``) need not import
pytest to write it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

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
    """What one judge run needs, read from the runner's JSON file (see the module)."""

    results: Path
    limits: Limits
    graded: dict[int, list[str]]
    #: "pipe": a sandboxed worker process per exercise; "local": this process serves them.
    transport: str = "pipe"
    impl: str = ""  # the folder under test ("local")
    python: str = ""
    submission: Path = Path()
    scratch: Path = Path()
    code: dict[int, Path] = field(default_factory=dict)
    sandbox: str | None = None

    @classmethod
    def read(cls, path: Path) -> JudgeConfig:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            results=Path(data["results"]),
            limits=Limits(**data["limits"]),
            graded={int(k): list(v) for k, v in data["graded"].items()},
            transport=data.get("transport", "pipe"),
            impl=data.get("impl", ""),
            python=data.get("python", ""),
            submission=Path(data.get("submission", "")),
            scratch=Path(data.get("scratch", "")),
            code={int(k): Path(v) for k, v in data.get("code", {}).items()},
            sandbox=data.get("sandbox"),
        )

    def write(self, path: Path) -> None:
        data = {
            "results": str(self.results), "limits": self.limits.__dict__, "graded": self.graded,
            "transport": self.transport, "impl": self.impl, "python": self.python,
            "submission": str(self.submission), "scratch": str(self.scratch),
            "code": {str(k): str(v) for k, v in self.code.items()}, "sandbox": self.sandbox,
        }
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
