"""A student's own progress: each exercise not started, passed, or failing, and why.

Invariant: a status is only ever reported for the file as it is now. ``check`` remembers
each exercise's result beside the digest of the file it checked (and of the tests that
checked it) in ``.solitaire-ds/status.json`` in the student's folder; ``exercises list``
reuses a remembered result only when both digests still match, and checks again
otherwise. A file whose graded code is still the skeleton's (names and formatting aside)
is "not started" without running anything. The grader never reads this file: it is the
student's, and a grade comes only from ``grade``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solitaire_ds.course.catalog import REPO_ROOT, Exercise, started
from solitaire_ds.course.results import SubmissionResult

__all__ = ["STATUS_FILE", "Status", "checked", "digest", "remember", "statuses"]

#: Where a student's folder keeps the results of its last checks.
STATUS_FILE = Path(".solitaire-ds") / "status.json"


@dataclass(frozen=True)
class Status:
    """Where one exercise of a student's folder stands."""

    exercise: Exercise
    state: str  # "missing", "not started", "passed", "failing", "not checked"
    detail: str = ""

    @property
    def shown(self) -> str:
        """The state and its detail, for a table cell."""
        return f"{self.state} ({self.detail})" if self.detail else self.state


def digest(folder: Path, ex: Exercise) -> str:
    """Return the digest of ``ex``'s file in ``folder`` and of its contract tests."""
    sha = hashlib.sha256()
    for path in (folder / ex.relpath, REPO_ROOT / ex.test_file):
        sha.update(path.read_bytes() if path.is_file() else b"")
        sha.update(b"\0")
    return sha.hexdigest()


def statuses(folder: Path, exercises: Sequence[Exercise]) -> list[Status]:
    """Return each exercise's status in ``folder`` from what the last checks remembered.

    An exercise whose graded code is still the skeleton's has not started; an
    exercise started but not checked since its file changed is "not checked".
    """
    remembered = _read(folder)
    found = []
    for ex in exercises:
        if not (folder / ex.relpath).is_file():
            found.append(Status(ex, "missing"))
        elif not started(folder, ex):
            found.append(Status(ex, "not started"))
        else:
            entry = remembered.get(str(ex.number), {})
            if entry.get("digest") == digest(folder, ex) and entry.get("state") in ("passed", "failing"):
                found.append(Status(ex, str(entry["state"]), str(entry.get("detail", ""))))
            else:
                found.append(Status(ex, "not checked"))
    return found


def checked(result: SubmissionResult) -> dict[int, Status]:
    """Return the status a check's ``result`` gives each exercise it ran."""
    found = {}
    for r in result.exercises:
        passed = r.status == "pass"
        detail = "" if passed else (r.reason or f"{r.passed}/{r.total} tests")
        found[r.exercise.number] = Status(r.exercise, "passed" if passed else "failing", detail[:120])
    return found


def remember(folder: Path, result: SubmissionResult) -> None:
    """Keep the results of a check of ``folder`` for ``exercises list`` (best effort).

    A folder that cannot be written (read-only, someone else's) is left as it is.
    """
    data = _read(folder)
    for number, status in checked(result).items():
        data[str(number)] = {"digest": digest(folder, status.exercise), "state": status.state,
                             "detail": status.detail}
    path = folder / STATUS_FILE
    try:
        path.parent.mkdir(exist_ok=True)
        ignore = path.parent / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# written by solitaire-ds check\n*\n", encoding="utf-8")
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps({"version": 1, "exercises": data}, indent=1) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        return


def _read(folder: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads((folder / STATUS_FILE).read_text(encoding="utf-8"))
        exercises = data["exercises"] if isinstance(data, dict) and data.get("version") == 1 else {}
    except (OSError, ValueError, KeyError):
        return {}
    return {k: v for k, v in exercises.items() if isinstance(v, dict)} if isinstance(exercises, dict) else {}
