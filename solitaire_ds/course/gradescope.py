"""Gradescope: the autograder bundle, and the ``results.json`` its run writes.

Invariant: the bundle is everything Gradescope's documented autograder format asks for, and
nothing of the course but the package: ``setup.sh`` (run once when Gradescope builds the
image: installs bubblewrap, makes a virtual environment and installs the bundled wheel of
this very version with the pinned ``grading`` extra), ``run_autograder`` (run for each
submission: grades ``/autograder/submission`` and writes ``/autograder/results/results.json``)
``course.json`` (which exercises, and what students see of each), ``course.toml`` (the
points and test weights) and ``tests/`` (the instructor's own tests, if any). The autograder's
root can be moved with the environment variable ``SOLITAIRE_DS_AUTOGRADER_ROOT`` (the tests
use a temporary folder), the virtual environment with ``SOLITAIRE_DS_AUTOGRADER_VENV``.

``results.json`` has one entry per contract test (name, number, score, max_score, status,
output, visibility); the scores add up to the grader's own score for the submission.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solitaire_ds import __version__
from solitaire_ds.course.catalog import REPO_ROOT, Exercise, exercise
from solitaire_ds.course.config import DEFAULT_COURSE, Course, load_course
from solitaire_ds.course.results import SubmissionResult, TestOutcome

__all__ = ["VISIBILITIES", "build_bundle", "find_submission", "results_json", "run"]

#: What students see of an exercise's tests on Gradescope.
VISIBILITIES = ("visible", "after_due_date", "hidden")

_SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${{SOLITAIRE_DS_AUTOGRADER_VENV:-/autograder/venv}}"
if ! command -v bwrap >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq bubblewrap python3-venv >/dev/null
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet "$here/{wheel}[grading]"
"""

_RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${SOLITAIRE_DS_AUTOGRADER_VENV:-/autograder/venv}"
exec "$venv/bin/python" -m solitaire_ds.course.gradescope "$here/course.json"
"""


def results_json(result: SubmissionResult, visibility: dict[int, str], seconds: float = 0.0) -> dict[str, Any]:
    """Return Gradescope's ``results.json`` for one graded submission: one entry per test.

    Each test is worth its share of its exercise's points (``points / tests`` unless the
    course file weighs its tests); a test that did not run (the exercise could not import,
    say) fails with the reason.

    Runtime complexity: O(number of tests).

    >>> from solitaire_ds.course.results import ExerciseResult, TestOutcome
    >>> r = ExerciseResult(exercise(1), 1, 2, tests=(TestOutcome("t1", True), TestOutcome("t2", False, "boom")))
    >>> data = results_json(SubmissionResult("a", "a", (r,)), {1: "visible"})
    >>> [(t["number"], t["score"], t["status"]) for t in data["tests"]], data["score"]
    ([('1.1', 5.0, 'passed'), ('1.2', 0.0, 'failed')], 5.0)
    """
    tests = []
    for r in result.exercises:
        outcomes = r.tests or tuple(TestOutcome(f"test {k}", False) for k in range(1, r.total + 1))
        for k, outcome in enumerate(outcomes, start=1):
            passed = outcome.passed and not r.reason
            each = round(r.test_points(outcome), 4)
            tests.append({
                "name": f"Exercise {r.exercise.number}: {outcome.test}",
                "number": f"{r.exercise.number}.{k}",
                "score": each if passed else 0.0,
                "max_score": each,
                "status": "passed" if passed else "failed",
                "output": r.reason or outcome.message or "",
                "visibility": visibility.get(r.exercise.number, "visible"),
            })
    return {
        "score": result.score,
        "execution_time": round(seconds),
        "output": "\n".join(result.notes),
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def find_submission(folder: Path, exercises: Sequence[Exercise]) -> Path:
    """Return the folder laid out like ``exercises/`` that a student's upload holds.

    The files may be at the top (as Gradescope's drag-and-drop uploads them, with or
    without their ``structures/`` and ``games/`` folders), inside ``exercises/``, or in one
    folder of any name. Files found flat are laid out in a new temporary folder.
    """
    for candidate in (folder, folder / "exercises", *sorted(p for p in folder.iterdir() if p.is_dir())):
        if any((candidate / ex.relpath).is_file() for ex in exercises):
            return candidate
    flat = Path(tempfile.mkdtemp(prefix="solitaire-ds-upload-"))
    for ex in exercises:
        name = Path(ex.relpath).name
        found = sorted(folder.rglob(name))
        if found and found[0].is_file() and not found[0].is_symlink():
            target = flat / ex.relpath
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(found[0], target)
    return flat


def build_bundle(
    out: Path, numbers: Sequence[int], visibility: dict[int, str],
    course: Course | None = None, course_file: Path | None = None,
) -> list[str]:
    """Write Gradescope's autograder zip for exercises ``numbers`` to ``out``; return its names.

    The zip holds the course file ``course_file`` (the shipped default when None) as
    ``course.toml``, and the instructor's tests of ``course`` (as read from it and the
    tests folder by :func:`~solitaire_ds.course.config.load_course`) under ``tests/``.
    Needs a checkout of solitaire-ds (the bundled wheel is built from it with ``pip wheel``).
    """
    course = course or Course()
    extra = {f"tests/{Path(rel).name}": data.decode("utf-8") for rel, data in course.tests.items()
             if not rel.endswith("__init__.py")}
    if not (REPO_ROOT / "pyproject.toml").is_file():
        raise FileNotFoundError(f"{REPO_ROOT} is not a checkout of solitaire-ds; build the bundle from one")
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-bundle-") as tmp:
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp, str(REPO_ROOT)],
                       check=True, capture_output=True)
        (wheel,) = Path(tmp).glob(f"solitaire_ds-{__version__}-*.whl")
        chosen = {"version": __version__, "exercises": [
            {"number": n, "title": exercise(n).title, "visibility": visibility.get(n, "visible")} for n in numbers]}
        files = {
            "setup.sh": _SETUP.format(wheel=wheel.name),
            "run_autograder": _RUN,
            "course.json": json.dumps(chosen, indent=2) + "\n",
            "course.toml": (course_file or DEFAULT_COURSE).read_text(encoding="utf-8"),
            **extra,
        }
        partial = out.with_name(f".{out.name}.tmp")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as bundle:
            for name, text in files.items():
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if name in ("setup.sh", "run_autograder") else 0o644) << 16
                bundle.writestr(info, text)
            bundle.write(wheel, wheel.name)
        os.replace(partial, out)
    return [*files, wheel.name]


def run(course_file: Path) -> int:
    """Grade the submission under the autograder's root and write its ``results.json``."""
    from solitaire_ds.course.runner import grade_many

    root = Path(os.environ.get("SOLITAIRE_DS_AUTOGRADER_ROOT", "/autograder"))
    course = json.loads(course_file.read_text(encoding="utf-8"))
    chosen = [exercise(int(e["number"])) for e in course["exercises"]]
    visibility = {int(e["number"]): str(e["visibility"]) for e in course["exercises"]}
    here = course_file.parent
    tests = here / "tests"
    setup = load_course(here / "course.toml" if (here / "course.toml").is_file() else None,
                        tests if tests.is_dir() else None)
    started = time.monotonic()
    folder = find_submission(root / "submission", chosen)
    (result,) = grade_many([folder], chosen, course=setup)
    data = results_json(result, visibility, time.monotonic() - started)
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    partial = results / ".results.json.tmp"
    partial.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(partial, results / "results.json")
    print(f"graded: {result.score:g}/{result.max_score}")
    return 0


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1])))
