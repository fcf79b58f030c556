"""The synthetic class's distinct submissions, graded for real: the reference solutions, the
untouched skeletons, and two submissions of bug-zoo bugs.

Grading 40 submissions would take minutes; a class of 40 is made instead from these four,
exercise by exercise (the recipe is ``docgen.class_report.CLASS``, shared with the docs page).
What grading them gives is stored in ``docs/data/class-results.json``, which the docs build
and the fast tests read; the slow test ``test_the_stored_class_results_are_what_grading_gives``
grades them again and compares. After a change to the contract tests, refresh the file::

    python -m tests.grading.class_of_40 --write
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from solitaire_ds.course import REPO_ROOT, exercise
from solitaire_ds.course.grader.runner import Limits, grade_many
from solitaire_ds.course.report import gradescope_json
from tests.grading.zoo import load_bugs, make_buggy_submission

__all__ = ["BUGS", "DATA", "EXERCISES", "grade_distinct", "stored"]

DATA = REPO_ROOT / "docs" / "data" / "class-results.json"
#: The exercises the synthetic class is graded on: two structures, quick to grade.
EXERCISES = (1, 3)
#: The buggy submissions: the bug-zoo bug planted in each exercise (an exercise not named is missing).
BUGS = {
    "bugs-a": {1: "02_stack_peek_pops", 3: "10_queue_len_is_capacity"},
    "bugs-b": {1: "03_stack_halving_off_by_one"},
}


def _kept(data: dict[str, Any]) -> dict[str, Any]:
    """What a results.json says of the grade (not how long it took, nor the instructor's notes)."""
    return {"score": data["score"], "tests": data["tests"]}


def grade_distinct(root: Path, jobs: int = 2) -> dict[str, dict[str, Any]]:
    """Grade the four distinct submissions (no wall: it is the package's own code); return each
    one's results.json, by name."""
    bugs = {bug.name: bug for bug in load_bugs()}
    paths = {"solutions": REPO_ROOT / "solutions", "skeleton": REPO_ROOT / "exercises"}
    for name, planted in BUGS.items():
        for bug in planted.values():
            make_buggy_submission(bugs[bug], root / name)
        paths[name] = root / name
    results = grade_many(list(paths.values()), [exercise(n) for n in EXERCISES], Limits(), jobs=jobs,
                         sandbox="none")
    return {name: _kept(gradescope_json(result)) for name, result in zip(paths, results, strict=True)}


def stored() -> dict[str, dict[str, Any]]:
    """Return the stored results of the four submissions, by name."""
    data: dict[str, dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["submissions"]
    return data


def main(argv: list[str] | None = None) -> int:
    """Grade the four submissions; with ``--write``, store what grading gives, else say whether it is stored."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"write {DATA.relative_to(REPO_ROOT)}")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="class-of-40-") as root:
        graded = grade_distinct(Path(root))
    if args.write:
        about = ("The synthetic class's distinct submissions, as the grader scores them "
                 "(written by python -m tests.grading.class_of_40 --write).")
        data = {"about": about, "exercises": list(EXERCISES), "bugs": BUGS, "submissions": graded}
        DATA.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {DATA.relative_to(REPO_ROOT)}")
        return 0
    same = DATA.is_file() and stored() == graded
    print("the stored results are what grading gives" if same else "the stored results differ: run with --write")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
