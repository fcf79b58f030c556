"""The bug zoo: typical student mistakes kept as small patches of ``solutions/``.

Each ``bugzoo/NN_name.toml`` names an exercise, describes the bug in one line, and lists
snippet replacements for that exercise's file (see ``bugzoo/README.md``).
``python -m tests.grading.zoo`` grades every bug in full and prints the table
bug -> exercise -> score.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from solitaire_ds.course import exercise
from solitaire_ds.course.grader.runner import Limits, available_exercises, grade_many
from solitaire_ds.course.results import ExerciseResult
from tests.grading.submissions import SOLUTIONS

__all__ = ["ZOO", "Bug", "grade_bugs", "load_bugs", "make_buggy_submission", "pack"]

ZOO = Path(__file__).resolve().parent / "bugzoo"


@dataclass(frozen=True)
class Bug:
    """One mistake: where it goes and what it changes."""

    name: str
    exercise: int
    description: str
    replacements: tuple[tuple[str, str], ...]


def load_bugs(folder: Path = ZOO) -> list[Bug]:
    """Return every bug in ``folder``, in file-name order."""
    bugs = []
    for path in sorted(folder.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        replacements = tuple((str(r["old"]), str(r["new"])) for r in data["replace"])
        bugs.append(Bug(path.stem, int(data["exercise"]), str(data["bug"]), replacements))
    return bugs


def pack(bugs: list[Bug]) -> list[list[Bug]]:
    """Group bugs so that no group holds two bugs of the same exercise.

    One group becomes one submission folder: far fewer folders to build and grade than
    one folder per bug (each exercise still runs in a process of its own).

    >>> b = [Bug("a", 1, "", ()), Bug("b", 1, "", ()), Bug("c", 2, "", ())]
    >>> [[x.name for x in g] for g in pack(b)]
    [['a', 'c'], ['b']]
    """
    groups: list[list[Bug]] = []
    for bug in bugs:
        for group in groups:
            if all(other.exercise != bug.exercise for other in group):
                group.append(bug)
                break
        else:
            groups.append([bug])
    return groups


def grade_bugs(bugs: list[Bug], root: Path, limits: Limits, jobs: int = 2) -> dict[str, ExerciseResult]:
    """Grade every bug; return each bug's result on its own exercise, by bug name."""
    groups = pack(bugs)
    paths = []
    for number, group in enumerate(groups):
        folder = root / f"group{number:02d}"
        for bug in group:
            make_buggy_submission(bug, folder)
        paths.append(folder)
    chosen = [exercise(n) for n in sorted({b.exercise for b in bugs})]
    results = grade_many(paths, chosen, limits, jobs=jobs)
    return {
        bug.name: result.result(bug.exercise)
        for group, result in zip(groups, results, strict=True)
        for bug in group
    }


def make_buggy_submission(bug: Bug, root: Path) -> Path:
    """Write into ``root/`` the exercise's solution file with the bug applied; return ``root``.

    Raise ValueError when a snippet does not occur exactly once (the solution changed).
    """
    rel = exercise(bug.exercise).relpath
    text = (SOLUTIONS / rel).read_text(encoding="utf-8")
    for old, new in bug.replacements:
        count = text.count(old)
        if count != 1:
            raise ValueError(
                f"bug {bug.name}: the snippet {old.strip()[:60]!r} occurs {count} times in "
                f"solutions/{rel} (it must occur exactly once)"
            )
        text = text.replace(old, new)
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return root


def main(argv: list[str] | None = None) -> int:
    """Grade every bug in full and print the bug-zoo table (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    available = {ex.number for ex in available_exercises()}
    bugs = [b for b in load_bugs() if b.exercise in available]
    root = Path(tempfile.mkdtemp(prefix="bugzoo-"))
    try:
        results = grade_bugs(bugs, root, Limits(), jobs=args.jobs)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("| bug | exercise | tests passed | score | first failure |")
    print("| --- | --- | ---: | ---: | --- |")
    for bug in bugs:
        r = results[bug.name]
        summary = r.summary.replace("|", "\\|")[:90]
        print(
            f"| {bug.description} | {bug.exercise}. {r.exercise.slug} | {r.passed}/{r.total} "
            f"| {r.score:g}/{r.max_score} | {summary} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
