"""The data the similarity notes' threshold was chosen from: the bug zoo and honest rewrites.

Each ``honest/NN_slug.toml`` is an independent, honest rewrite of one exercise: the
exercise's skeleton with each ``raise NotImplementedError(...)`` replaced, in order, by one
``[[block]]`` of code written without looking at the reference (a line starting with ``<<``
is written four spaces less indented: a method of the student's own after the one the
block fills). Every rewrite passes every contract test.

:func:`figures` compares, exercise by exercise, the reference's own graded code with each
bug-zoo variant's (the reference with one typical mistake patched in: a copy with a bug)
and with the rewrite's, as the grader does. ``python -m tests.grading.copies`` prints the
table.
"""

from __future__ import annotations

import re
import sys
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

from solitaire_ds.course import EXERCISES, REPO_ROOT, exercise
from solitaire_ds.course.markers import exercise_view, solution_view
from solitaire_ds.course.similarity import MIN_SHINGLES, THRESHOLD, graded_code, graded_names, overlap
from tests.grading.zoo import load_bugs

__all__ = ["HONEST", "Figure", "figures", "honest_files", "make_honest_submission"]

HONEST = Path(__file__).resolve().parent / "honest"
_RAISE = re.compile(r"^(?P<indent>[ \t]*)raise NotImplementedError\(")


def _package(rel: str) -> str:
    return (REPO_ROOT / "solitaire_ds" / rel).read_text(encoding="utf-8")


def honest_files() -> dict[str, str]:
    """Return each honest rewrite's text, by its exercise file (``structures/array_stack.py``)."""
    files = {}
    for path in sorted(HONEST.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        rel = exercise(int(data["exercise"])).relpath
        blocks = [textwrap.dedent(str(b["code"])).strip("\n") for b in data["block"]]
        out: list[str] = []
        for line in exercise_view(_package(rel), rel).splitlines(keepends=True):
            found = _RAISE.match(line)
            if not found:
                out.append(line)
                continue
            indent = found["indent"]
            for code in blocks.pop(0).splitlines():
                if code.startswith("<<"):
                    out.append(indent[:-4] + code[2:] + "\n")
                else:
                    out.append((indent + code).rstrip() + "\n")
        if blocks:
            raise ValueError(f"{path.name}: {len(blocks)} blocks more than the skeleton has NotImplementedErrors")
        files[rel] = "".join(out)
    return files


def make_honest_submission(root: Path) -> Path:
    """Write every honest rewrite into the folder ``root`` (laid out like ``exercises/``); return it."""
    for rel, text in honest_files().items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@dataclass(frozen=True)
class Figure:
    """How much of a variant's own graded code the reference's has, or the other way round."""

    exercise: int
    kind: str  # "bug" (a bug-zoo variant of the reference) or "honest" (a rewrite)
    name: str
    own: int  # shingles of its own (the skeleton's left out)
    reference: int  # the reference's own shingles
    figure: float  # the overlap

    @property
    def compared(self) -> bool:
        """Whether the grader compares the two at all (both long enough)."""
        return min(self.own, self.reference) >= MIN_SHINGLES

    @property
    def noted(self) -> bool:
        """Whether the grader would note the pair."""
        return self.compared and self.figure >= THRESHOLD


def figures() -> list[Figure]:
    """Compare the reference with every bug-zoo variant and every honest rewrite, as the grader does."""
    honest = honest_files()
    bugs = load_bugs()
    rows = []
    for ex in EXERCISES:
        source, rel = _package(ex.relpath), ex.relpath
        names = graded_names(source, rel)
        skeleton = _shingles(exercise_view(source, rel), names, frozenset())
        reference_text = solution_view(source, rel)
        reference = _shingles(reference_text, names, skeleton)
        variants = []
        for bug in (b for b in bugs if b.exercise == ex.number):
            text = reference_text
            for old, new in bug.replacements:
                text = text.replace(old, new, 1)
            variants.append(("bug", bug.name, text))
        variants.append(("honest", f"honest/{ex.number:02d}_{ex.slug}", honest[rel]))
        for kind, name, text in variants:
            mine = _shingles(text, names, skeleton)
            rows.append(Figure(ex.number, kind, name, len(mine), len(reference), overlap(mine, reference)))
    return rows


def _shingles(text: str, names: list[str], skeleton: frozenset[int]) -> frozenset[int]:
    code = graded_code(text, names)
    return (code.shingles() if code is not None else frozenset()) - skeleton


def main() -> int:
    """Print every figure, then the range of each kind among those the grader compares."""
    rows = figures()
    print("| exercise | variant | own shingles | the reference's | the same | noted |")
    print("| ---: | --- | ---: | ---: | ---: | --- |")
    for r in rows:
        noted = "yes" if r.noted else "no" if r.compared else "not compared (too short)"
        print(f"| {r.exercise} | {r.name} | {r.own} | {r.reference} | {r.figure:.0%} | {noted} |")
    for kind in ("bug", "honest"):
        compared = [r.figure for r in rows if r.kind == kind and r.compared]
        print(f"{kind}: {len(compared)} compared, {min(compared):.0%} to {max(compared):.0%}, "
              f"{sum(f >= THRESHOLD for f in compared)} at or above {THRESHOLD:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
