"""The similarity notes: a figure that survives trivial edits, chosen from data, never a crash.

The figures come from :mod:`tests.grading.copies`: the reference against each bug-zoo
variant (a copy with one typical mistake) and against an independent honest rewrite of
each exercise. These tests read code only; none grades a submission.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from solitaire_ds.course import REPO_ROOT, exercise
from solitaire_ds.course.markers import exercise_view, solution_view
from solitaire_ds.course.similarity import (
    ASIDE,
    MAX_TOKENS,
    MIN_SHINGLES,
    THRESHOLD,
    fingerprint,
    graded_code,
    graded_names,
    overlap,
    similarity_notes,
)
from tests.grading.copies import figures

FIGURES = figures()
DOCS = REPO_ROOT / "docs" / "how-to" / "grade-a-class.md"


def _reference(number: int) -> tuple[str, list[str], frozenset[int], frozenset[int]]:
    """Exercise ``number``'s reference text, graded names, skeleton shingles and own shingles."""
    rel = exercise(number).relpath
    source = (REPO_ROOT / "solitaire_ds" / rel).read_text(encoding="utf-8")
    names = graded_names(source, rel)
    skeleton = graded_code(exercise_view(source, rel), names)
    reference = graded_code(solution_view(source, rel), names)
    assert skeleton is not None and reference is not None
    return solution_view(source, rel), names, skeleton.shingles(), reference.shingles() - skeleton.shingles()


def _own(text: str, names: list[str], skeleton: frozenset[int]) -> frozenset[int]:
    code = graded_code(text, names)
    assert code is not None
    return code.shingles() - skeleton


# -- the figure survives what changes nothing ----------------------------------------------------

def _pass_added(text: str) -> str:
    line = "            self.discarded += 2\n"
    assert line in text
    return text.replace(line, line + "            pass\n", 1)


def _renamed(text: str) -> str:  # every local a name of the copier's own
    for old, new in (("tops", "showing"), ("moves", "found"), ("first", "a"), ("second", "b"), ("low", "lo"),
                     ("high", "hi"), ("lower", "gone")):
        text = re.sub(rf"\b{old}\b", new, text)
    return text


def _recommented(text: str) -> str:  # comments and docstrings gone, a comment of one's own on every line
    text = re.sub(r'"""(?:.|\n)*?"""', '"""My own words."""', text)
    return "\n".join(line.split("  #")[0] + ("  # mine" if line.strip() else "") for line in text.splitlines()) + "\n"


def _relaid(text: str) -> str:  # other indentation, blank lines, long lines broken inside brackets
    text = text.replace("    ", "  ").replace("\n\n", "\n\n\n")
    return text.replace("(i + 1, j + 1)", "(\n    i + 1,\n    j + 1,\n)")


def _unhinted(text: str) -> str:  # no type hints
    text = re.sub(r"\) -> [^:\n]+:", "):", text)
    return re.sub(r"(\w): (?:list\[Move\]|Move|Card \| None)(\s*[,)=])", r"\1\2", text)


@pytest.mark.parametrize("edit", [_pass_added, _renamed, _recommented, _relaid, _unhinted],
                         ids=lambda f: f.__name__.strip("_"))
def test_a_copy_of_the_reference_with_a_trivial_edit_is_100_percent_the_same(edit: object) -> None:
    text, names, skeleton, reference = _reference(9)
    edited = edit(text)  # type: ignore[operator]
    assert edited != text
    assert overlap(_own(edited, names, skeleton), reference) == 1.0
    assert fingerprint(edited, names) == fingerprint(text, names)


def test_a_block_added_or_deleted_changes_only_the_figure_near_it() -> None:
    text, names, skeleton, reference = _reference(12)
    start = "    if incumbent is not None:\n        best, best_path = incumbent.value, list(incumbent.moves)\n"
    assert start in text
    deleted = text.replace(start, "")  # every name after it would be renumbered by first appearance
    added = text.replace("    best_possible = model.best_possible\n",
                         "    best_possible = model.best_possible\n    checked = 0\n    checked += 1\n")
    for variant in (deleted, added):
        assert overlap(_own(variant, names, skeleton), reference) >= 0.9


# -- the threshold, from data --------------------------------------------------------------------

def test_every_bug_zoo_variant_is_noted_as_near_the_reference() -> None:
    bugs = [f for f in FIGURES if f.kind == "bug" and f.compared]
    assert len(bugs) >= 40
    assert [(f.name, round(f.figure, 2)) for f in bugs if not f.noted] == []


def test_no_honest_rewrite_is_noted_and_each_is_well_below_the_threshold() -> None:
    honest = [f for f in FIGURES if f.kind == "honest"]
    assert len(honest) == 12
    assert [(f.name, round(f.figure, 2)) for f in honest if f.figure > THRESHOLD - 0.1] == []


def test_an_exercise_too_short_to_tell_is_not_compared() -> None:
    short = {f.exercise for f in FIGURES if not f.compared}
    assert short == {7}  # three lines the docstring spells out: every honest student writes them so


def test_the_docs_state_the_threshold_and_what_is_left_aside() -> None:
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    assert f"{THRESHOLD:.0%}" in text and f"{MIN_SHINGLES} " in text
    for word in ("comments", "docstrings", "`pass`", "names", "layout", "type hints", "skeleton", "bug zoo"):
        assert word in text, word


# -- the notes ---------------------------------------------------------------------------------

def test_the_notes_give_the_figure_the_reference_first_then_classmates() -> None:
    reference = frozenset(range(20, 200))
    ann, bo = frozenset(range(200)), frozenset(range(10, 200))  # both hold all of the reference's
    cy, eve = frozenset(range(1000, 1200)), frozenset(range(1000, 1190)) | {5, 6}  # each other's, not its
    notes = similarity_notes({"ann": {9: ann}, "bo": {9: bo}, "cy": {9: cy}, "eve": {9: eve}, "dee": {9: frozenset()},
                              "fay": {9: frozenset(range(1000, 1100)) | frozenset(range(20, 120))}}, {9: reference})
    assert notes["ann"] == notes["bo"] == [f"exercise 9: 100% the same as the reference solution's {ASIDE}"]
    assert notes["cy"] == [f"exercise 9: 98% the same as eve's {ASIDE}"]
    assert notes["eve"] == [f"exercise 9: 98% the same as cy's {ASIDE}"]
    assert notes["dee"] == []  # dee left it as the skeleton: nothing of its own
    assert notes["fay"] == []  # half the reference's, half cy's: neither 80%


def test_a_figure_just_below_the_threshold_is_not_noted_and_never_rounds_up() -> None:
    ours = frozenset(range(1000))
    just = frozenset(range(int(1000 * THRESHOLD) - 1)) | frozenset(range(5000, 5000 + 1000))
    assert similarity_notes({"x": {1: just | frozenset(range(2000, 2000))}}, {1: ours}) == {"x": []}
    nearly = frozenset(range(999)) | {5000}
    assert similarity_notes({"x": {1: nearly}}, {1: ours})["x"] == [
        f"exercise 1: 99% the same as the reference solution's {ASIDE}"]


# -- bounded, whatever the file ------------------------------------------------------------------

def _with(body: str) -> str:
    return f"class ArrayStack:\n    def push(self, item):\n        return {body}\n"


@pytest.mark.parametrize("body", ["1 + " * 800 + "1", "1 + " * 100_000 + "1", "(" * 5000 + "1" + ")" * 5000,
                                  "[" * 300 + "]" * 300, "f'{" * 150 + "1" + "}'" * 150])
def test_deep_and_long_expressions_are_read_without_recursion(body: str) -> None:
    started = time.process_time()
    code = graded_code(_with(body), ["ArrayStack"])  # a code, or None where tokenize refuses it: never a crash
    assert code is None or code.shingles()
    assert time.process_time() - started < 5


def test_a_file_of_a_megabyte_is_read_to_a_bound(capsys: pytest.CaptureFixture[str]) -> None:
    line = "        self._slots[self._size] = item + 1 - 2 * 3\n"
    text = "class ArrayStack:\n    def push(self, item):\n" + line * ((1 << 20) // len(line))
    started = time.process_time()
    code = graded_code(text, ["ArrayStack"])
    seconds = time.process_time() - started
    with capsys.disabled():
        print(f"\n1 MB of graded code: {seconds:.2f} CPU-s to read, {len(code.tokens) if code else 0} tokens kept")
    assert code is not None and code.cut and len(code.tokens) <= MAX_TOKENS
    assert seconds < 5


def test_a_class_of_200_is_compared_in_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    """200 submissions of 12 exercises, each a reference or rewrite with a tenth of its own shingles changed."""
    rng = random.Random(0)
    pools = [frozenset(rng.randrange(1 << 60) for _ in range(rng.randrange(100, 500))) for _ in range(12)]
    own = {}
    for k in range(200):
        own[f"s{k:03d}"] = {n + 1: frozenset(h if rng.random() > 0.1 else rng.randrange(1 << 60) for h in pool)
                            for n, pool in enumerate(pools)}
    started = time.process_time()
    notes = similarity_notes(own, dict(enumerate(pools, start=1)))
    seconds = time.process_time() - started
    with capsys.disabled():
        print(f"\ncomparing 200 submissions of 12 exercises: {seconds:.2f} CPU-s")
    assert all(len(n) == 12 for n in notes.values())  # every one ~90% the same as all: noted, listed briefly
    assert max(len(note) for n in notes.values() for note in n) < 400
    assert seconds < 30


def test_a_file_that_does_not_tokenize_has_no_code(tmp_path: Path) -> None:
    assert graded_code("class ArrayStack:\n    def push(self):\n        return '''\n", ["ArrayStack"]) is None
    assert graded_code("def other():\n    pass\n", ["ArrayStack"]) is None
