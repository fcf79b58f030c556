"""The grader against a hostile student: no answer key, no classmate, no escape.

Each case is a submission a cheating or sabotaging student could hand in. The walls are
tested each on its own where they overlap: first the screen that reads a file before it
runs (``Limits.screen``), then, with the screen off, what holds while the code runs (the
submission's own definitions, the sandbox, the process tree). Unless a test says
otherwise, grading runs in the sandbox: CI installs bubblewrap, and a test that needs the
sandbox fails, rather than skips, where the sandbox is missing and ``CI`` is set.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from solitaire_ds.course import exercise
from solitaire_ds.course import runner as runner_module
from solitaire_ds.course.report import csv_text
from solitaire_ds.course.results import SubmissionResult
from solitaire_ds.course.runner import GradingError, Limits, grade_many, grade_submission, sandbox_or_why
from solitaire_ds.course.sandbox import Sandbox
from tests.grading.submissions import SOLUTIONS, make_submission

LIMITS = Limits(test_seconds=10, exercise_seconds=60, memory_bytes=512 << 20)
UNSCREENED = Limits(test_seconds=10, exercise_seconds=60, memory_bytes=512 << 20, screen=False)


@pytest.fixture(scope="module")
def sandboxed() -> Sandbox:
    found = sandbox_or_why()
    if isinstance(found, str):
        if os.environ.get("CI"):
            pytest.fail(f"CI installs bubblewrap, yet there is no sandbox: {found}")
        pytest.skip(found)
    return found


def _zero(result: SubmissionResult, number: int) -> str:
    r = result.result(number)
    assert r.score == 0, f"exercise {number} scored {r.score}: {r.summary}"
    return r.reason


# -- the screen: read before it runs ------------------------------------------------------------

SCREENED = {
    "wrapper": (4, """
        import collections
        _Box = getattr(collections, "de" + "que")

        class LinkedQueue:
            def __init__(self, items=()):
                self._box = _Box(items)
            def enqueue(self, item):
                self._box.append(item)
            def dequeue(self):
                return self._box.popleft()
        """, "calls getattr() with a computed name"),
    "their_solutions": (5, """
        import importlib.metadata
        _files = importlib.metadata.distribution("solitaire-ds").locate_file("solutions")
        """, "imports importlib.metadata"),
    "classmate": (6, """
        exec(open("../alice/structures/linked_deque.py").read())
        """, "calls exec()"),
}


@pytest.mark.parametrize("case", sorted(SCREENED))
def test_a_file_that_reaches_for_code_it_does_not_hold_scores_zero(tmp_path: Path, case: str) -> None:
    number, code, reason = SCREENED[case]
    folder = make_submission(tmp_path, case, {number: code})
    result = grade_submission(folder, [exercise(number)], LIMITS)
    assert reason in _zero(result, number)


# -- the child's own definitions ----------------------------------------------------------------

DEFINITIONS = {
    "re_export": (1, "from solitaire_ds.structures.array_stack import ArrayStack  # noqa",
                  "ArrayStack must be written in structures/array_stack.py, not taken from "
                  "solitaire_ds.structures.array_stack"),
    "empty_subclass": (2, """
        from solitaire_ds.structures.linked_stack import LinkedStack as _Reference

        class LinkedStack(_Reference):
            pass
        """, "LinkedStack must be written in structures/linked_stack.py, not built on "
             "solitaire_ds.structures.linked_stack.LinkedStack"),
    "renamed": (3, """
        from solitaire_ds.structures import array_queue as _theirs
        ArrayQueue = _theirs.ArrayQueue
        """, "ArrayQueue must be written in structures/array_queue.py, not taken from "
             "solitaire_ds.structures.array_queue"),
}


@pytest.mark.parametrize("case", sorted(DEFINITIONS))
def test_a_graded_class_must_be_written_in_the_submission(tmp_path: Path, case: str) -> None:
    number, code, reason = DEFINITIONS[case]
    folder = make_submission(tmp_path, case, {number: code})
    result = grade_submission(folder, [exercise(number)], UNSCREENED)  # the screen lets imports of the package by
    assert _zero(result, number) == reason


def test_in_the_sandbox_the_reference_is_only_a_skeleton(tmp_path: Path, sandboxed: Sandbox) -> None:
    # Loaded by path, the reference would be "written in the file": the sandbox holds no reference.
    code = """
        import solitaire_ds.structures as _package
        _source = _package.__path__[0] + "/array_stack.py"
        exec(compile(open(_source).read(), __file__, "exec"))
        """
    folder = make_submission(tmp_path, "by_path", {1: code})
    result = grade_submission(folder, [exercise(1)], UNSCREENED)
    assert result.result(1).score == 0
    assert "NotImplementedError" in result.result(1).summary


# -- the sandbox: nothing else within reach, nothing left behind ---------------------------------

def test_classmates_and_the_instructors_files_are_out_of_reach(tmp_path: Path, sandboxed: Sandbox) -> None:
    canary = tmp_path / "instructor" / "grades.csv"
    canary.parent.mkdir()
    canary.write_text("alice,10\n")
    alice = make_submission(tmp_path / "class", "alice", {1: None})
    target = alice / "structures" / "array_stack.py"
    before = target.read_bytes()
    mallory = make_submission(tmp_path / "class", "mallory", {1: f"""
        for _path in ({str(target)!r}, {str(canary)!r}):
            try:
                with open(_path, "w") as _out:
                    _out.write("def sabotage(): pass\\n")
            except OSError:
                pass
        """})
    results = grade_many([mallory, alice], [exercise(1)], UNSCREENED, jobs=2)
    assert target.read_bytes() == before
    assert canary.read_text() == "alice,10\n"
    assert results[1].result(1).score == 10
    assert not any("not written by the grader" in note for note in results[1].notes)


def test_nothing_it_starts_outlives_it_and_its_tmp_is_its_own(tmp_path: Path, sandboxed: Sandbox) -> None:
    marker = f"{os.getpid()}.{tmp_path.name}"
    folder = make_submission(tmp_path, "lingerer", {1: f"""
        import subprocess
        subprocess.Popen(["sleep", "{marker}"], start_new_session=True)
        with open("/tmp/junk-{marker}", "wb") as _out:
            _out.write(bytes(10 << 20))
        """})
    grade_submission(folder, [exercise(1)], UNSCREENED)
    assert not list(Path("/tmp").glob(f"junk-{marker}"))
    alive = []
    for proc in Path("/proc").iterdir():
        try:
            if marker.encode() in (proc / "cmdline").read_bytes():
                alive.append(proc.name)
        except OSError:
            continue
    assert alive == []


def test_the_submission_folder_is_only_read(tmp_path: Path, sandboxed: Sandbox) -> None:
    folder = make_submission(tmp_path, "scribbler", {1: """
        import pathlib
        for _file in pathlib.Path("/submission").rglob("*.py"):
            try:
                _file.write_text("")
            except OSError:
                pass
        """})
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    result = grade_submission(folder, [exercise(1)], UNSCREENED)
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert result.result(1).score == 10


def test_a_link_out_of_the_submission_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "linker" / "structures"
    folder.mkdir(parents=True)
    (folder / "array_stack.py").symlink_to(SOLUTIONS / "structures" / "array_stack.py")
    result = grade_submission(folder.parent, [exercise(1)], LIMITS)
    assert _zero(result, 1) == "structures/array_stack.py is a link to another file; submit the file itself"


# -- notes, the fallback, and the same grade every time -----------------------------------------

def test_code_copied_from_the_reference_or_a_classmate_is_noted(tmp_path: Path) -> None:
    copied = make_submission(tmp_path, "copied", {1: None})
    twin_a = make_submission(tmp_path, "twin_a", {1: None})
    twin_b = make_submission(tmp_path, "twin_b", {1: None})
    text = (twin_a / "structures" / "array_stack.py").read_text()
    assert "        return self._size\n" in text
    mine = text.replace("        return self._size\n", "        return 0 + self._size  # my own way\n")
    (twin_a / "structures" / "array_stack.py").write_text(mine)
    reformatted = mine.replace("0 + self._size  # my own way", "(0+self._size)")
    (twin_b / "structures" / "array_stack.py").write_text(reformatted)
    results = {r.name: r for r in grade_many([copied, twin_a, twin_b], [exercise(1)], LIMITS)}
    assert "exercise 1: the graded code is the same as the reference solution's (names and formatting aside)" \
        in results["copied"].notes
    twins = "exercise 1: the graded code is the same as twin_b's (names and formatting aside)"
    assert twins in results["twin_a"].notes
    assert all(r.score == 10 for r in results.values())  # a note, never a score


def test_without_a_sandbox_grading_says_so_or_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "find_sandbox", lambda: (None, "bubblewrap (bwrap) is not installed"))
    folder = make_submission(tmp_path, "plain", {1: None})
    result = grade_submission(folder, [exercise(1)], LIMITS)
    assert result.notes[0] == "graded without a sandbox: bubblewrap (bwrap) is not installed"
    assert result.result(1).score == 10
    assert "graded without a sandbox" in csv_text([result])
    with pytest.raises(GradingError, match="--require-sandbox"):
        grade_submission(folder, [exercise(1)], LIMITS, require_sandbox=True)


def test_grading_a_class_twice_gives_the_same_csv(tmp_path: Path) -> None:
    honest = make_submission(tmp_path, "honest", {1: None, 2: None})
    buggy = make_submission(tmp_path, "buggy", {1: textwrap.dedent("""
        def _pop(self):
            return self._slots[0]

        ArrayStack.pop = _pop
        """), 2: None})
    first = csv_text(grade_many([honest, buggy], [exercise(1), exercise(2)], LIMITS, jobs=2))
    second = csv_text(grade_many([honest, buggy], [exercise(1), exercise(2)], LIMITS, jobs=2))
    assert first == second
    assert "honest" in first and "buggy" in first
