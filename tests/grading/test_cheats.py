"""The grader against a hostile student: no answer key, no classmate, no escape, no verdict.

Each case is a submission a cheating or sabotaging student could hand in, written by
someone who knows Python's internals. The student's code runs only in a worker; every
verdict is the judge's, in another process, so each attack scores what its real code earns.
Unless a test says otherwise, grading runs in the sandbox: CI installs bubblewrap, and a
test that needs the sandbox fails, rather than skips, where the sandbox is missing and
``CI`` is set. Most cases use exercise 7 (one small function, graded in about a second).
"""

from __future__ import annotations

import os
import tempfile
import textwrap
from pathlib import Path

import pytest

from solitaire_ds.course import exercise
from solitaire_ds.course.config import Course
from solitaire_ds.course.grader import runner as runner_module
from solitaire_ds.course.grader import submission as submission_module
from solitaire_ds.course.grader import walls as walls_module
from solitaire_ds.course.grader.runner import GradingError, Limits, grade_many, grade_submission
from solitaire_ds.course.grader.walls import Wall
from solitaire_ds.course.report import csv_text
from solitaire_ds.course.results import SubmissionResult
from tests.grading.submissions import SOLUTIONS, make_submission

LIMITS = Limits()
SKELETONS = SOLUTIONS.parent / "exercises"


def _zero(result: SubmissionResult, number: int) -> str:
    r = result.result(number)
    assert r.score == 0, f"exercise {number} scored {r.score}: {r.summary}"
    return r.reason


def _skeleton_plus(root: Path, name: str, number: int, code: str) -> Path:
    """A submission whose exercise ``number`` is the empty skeleton with ``code`` appended."""
    rel = exercise(number).relpath
    target = root / name / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text((SKELETONS / rel).read_text(encoding="utf-8") + "\n\n" + textwrap.dedent(code).strip() + "\n",
                      encoding="utf-8")
    return root / name


# -- walking Python's object graph reaches nothing that decides ----------------------------------

#: Lines appended to the empty skeleton: each reaches for whatever grades it, in its own way.
WALKS = {
    "subclasses": """
        for _cls in ().__class__.__base__.__subclasses__():
            for _name in ("handle", "_do", "to_wire", "describe"):
                if _cls.__name__ == "Worker" and hasattr(_cls, _name):
                    setattr(_cls, _name, lambda self, *a, **k: None)
        """,
    "type_subclasses": """
        for _cls in type.__subclasses__(object):
            if "pytest" in repr(_cls) or "hypothesis" in repr(_cls) or "Judge" in repr(_cls):
                raise SystemExit("found the judge")
        """,
    "traceback_frames": """
        try:
            raise ValueError
        except ValueError as _error:
            _frame = _error.__traceback__.tb_frame
            while _frame is not None:
                for _key in list(_frame.f_locals):
                    if _key in ("ok", "passed", "expected"):
                        _frame.f_locals[_key] = True
                _frame = _frame.f_back
        """,
    "globals_builtins": """
        _b = fisher_yates.__globals__["__builtins__"]
        _imp = _b["__import__"] if isinstance(_b, dict) else _b.__import__
        for _module in ("pytest", "_pytest", "hypothesis", "solitaire_ds.course.grader.judge"):
            try:
                _imp(_module)
            except BaseException:
                pass
        """,
    "forged_lines": """
        import os as _os
        for _fd in range(3, 64):
            for _id in range(1, 200):
                try:
                    _os.write(_fd, b'{"id": %d, "value": null}\\n' % _id)
                    _os.write(_fd, b'{"kind": "result", "id": "x", "exercise": 7, "ok": true}\\n')
                except OSError:
                    break
        _os._exit(0)
        """,
}


def test_an_empty_skeleton_scores_zero_whatever_it_walks(tmp_path: Path, sandboxed: Wall) -> None:
    folders = [_skeleton_plus(tmp_path, name, 7, code) for name, code in sorted(WALKS.items())]
    honest = make_submission(tmp_path, "honest", {7: None})
    results = grade_many([*folders, honest], [exercise(7)], LIMITS, jobs=2)
    for name, result in zip(sorted(WALKS), results, strict=False):
        assert result.result(7).score == 0, f"{name}: {result.result(7).summary}"
    assert results[-1].result(7).score == 10  # a classmate graded beside them is untouched
    assert "honest" in csv_text(results)


def test_hostile_output_fails_that_test_and_nothing_else(tmp_path: Path, sandboxed: Wall) -> None:
    hostile = _skeleton_plus(tmp_path, "hostile", 7, """
        import os as _os, sys as _sys

        def fisher_yates(items, rng):
            for _fd in range(1, 64):
                try:
                    _os.write(_fd, b"[" * 100_000 + b"\\n")
                except OSError:
                    pass
            _sys.stdout.write("{" * 1000)
        """)
    honest = make_submission(tmp_path, "honest", {7: None})
    results = grade_many([hostile, honest], [exercise(7)], LIMITS, jobs=2)
    assert results[0].result(7).score == 0
    assert all(len(f.message) < 2000 for f in results[0].result(7).failures)
    assert results[1].result(7).score == 10
    assert csv_text(results).count("\n") == 4  # a header, the points possible and two students: the CSV is written


# -- what the worker is given: its file, the package, an empty environment -------------------------

def test_the_instructors_environment_and_tests_are_out_of_reach(
        tmp_path: Path, sandboxed: Wall, monkeypatch: pytest.MonkeyPatch) -> None:
    canary = f"canary-{os.getpid()}-{tmp_path.name}"
    monkeypatch.setenv("INSTRUCTOR_API_TOKEN", canary)
    hidden = f"def test_hidden(impl):\n    assert '{canary}-test'\n"
    course = Course(tests={"test_ex05_hidden.py": hidden.encode()})
    snoop = _skeleton_plus(tmp_path, "snoop", 7, """
        import os as _os

        def _everything():
            found = [repr(dict(_os.environ))]
            for _root, _dirs, _files in _os.walk("/", onerror=lambda e: None):
                _dirs[:] = [d for d in _dirs if d not in ("proc", "sys", "dev")]
                for _name in _files:
                    if _name.startswith("test_ex"):
                        try:
                            found.append(open(_os.path.join(_root, _name)).read())
                        except (OSError, ValueError):
                            pass
            return " ".join(found)

        def fisher_yates(items, rng):
            raise ValueError(_everything()[-3000:])
        """)
    (result,) = grade_many([snoop], [exercise(7)], LIMITS, course=course)
    shown = csv_text([result]) + "".join(f.message for f in result.result(7).failures)
    assert "ValueError" in shown  # the snoop ran and said what it found
    assert canary not in shown


# -- gaming by objects ------------------------------------------------------------------------------

COUNTER = """
    from solitaire_ds.structures.base import EmptyStructureError


    class _Anything:
        def __eq__(self, other):
            return True

        def __ne__(self, other):
            return False

        __hash__ = object.__hash__


    class ArrayStack:
        def __init__(self, items=()):
            self._size = 0
            self._slots = [None] * 4
            for _ in items:
                self._size += 1

        def push(self, item):
            self._size += 1

        def pop(self):
            if not self._size:
                raise EmptyStructureError("pop from an empty stack")
            self._size -= 1
            return ANSWER

        def peek(self):
            if not self._size:
                raise EmptyStructureError("peek at an empty stack")
            return ANSWER

        def __len__(self):
            return self._size

        def __iter__(self):
            return iter([ANSWER] * self._size)

        def __eq__(self, other):
            return True
    """


def test_an_object_equal_to_anything_earns_only_what_its_code_does(tmp_path: Path, sandboxed: Wall) -> None:
    cheat = _skeleton_plus(tmp_path, "cheat", 1, COUNTER.replace("ANSWER", "_Anything()"))
    plain = _skeleton_plus(tmp_path, "plain", 1, COUNTER.replace("ANSWER", "None"))
    cheat_result, plain_result = grade_many([cheat, plain], [exercise(1)], LIMITS, jobs=2)
    assert cheat_result.result(1).score <= plain_result.result(1).score < 5


# -- honest code is graded as honest ----------------------------------------------------------------

def test_honest_files_with_imports_prints_and_helpers_score_full_marks(tmp_path: Path, sandboxed: Wall) -> None:
    folder = make_submission(tmp_path, "honest_extras", {
        1: """
            import io
            import sys
            from collections import deque


            def _debug(stack: "ArrayStack", name: str) -> str:
                buffer = io.StringIO()
                print(name, getattr(stack, name), file=buffer)
                return buffer.getvalue()


            def _as_deque(stack: "ArrayStack") -> "deque[object]":  # a type hint names deque
                ...


            _original_pop = ArrayStack.pop


            def _pop(self):  # a leftover debugging print
                print("pop", file=sys.stderr)
                return _original_pop(self)


            ArrayStack.pop = _pop
            """,
        7: """
            import functools

            def _traced(function):
                @functools.wraps(function)
                def wrapper(*args, **kwargs):
                    return function(*args, **kwargs)
                return wrapper

            fisher_yates = _traced(fisher_yates)
            """,
    })
    result = grade_submission(folder, [exercise(1), exercise(7)], LIMITS)
    assert result.result(1).score == 10, result.result(1).summary
    assert result.result(7).score == 10, result.result(7).summary
    assert not any("deque" in note for note in result.notes), result.notes


def test_nothing_is_left_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a temporary folder of this test's own: other tests grade in parallel in the shared one
    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setenv("TMPDIR", str(private))
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    folder = make_submission(tmp_path, "one", {7: None})
    (result,) = grade_many([folder], [exercise(7)], LIMITS)
    assert result.result(7).score == 10  # it did grade, in the private folder
    assert list(private.iterdir()) == []


HELPER = "def doubled(n):\n    return 2 * n\n\n\ndef draw(rng, i):\n    return rng.randrange(i + 1)\n"


@pytest.mark.parametrize("form", ["import helpers", "from .helpers import"])
def test_a_module_of_the_students_own_beside_the_exercise_file_scores_full_marks(
    tmp_path: Path, sandboxed: Wall, form: str
) -> None:
    folder = make_submission(tmp_path, "helped", {1: None, 7: None})
    stack, shuffle = folder / exercise(1).relpath, folder / exercise(7).relpath
    use = {"import helpers": ("import helpers\n", "helpers.doubled", "helpers.draw"),
           "from .helpers import": ("from .helpers import doubled, draw\n", "doubled", "draw")}[form]
    future = "from __future__ import annotations\n"
    text = stack.read_text().replace(future, future + use[0])
    stack.write_text(text.replace("self._resize(2 * len(self._slots))", f"self._resize({use[1]}(len(self._slots)))"))
    text = shuffle.read_text().replace(future, future + use[0])
    shuffle.write_text(text.replace("j = rng.randrange(i + 1)", f"j = {use[2]}(rng, i)"))
    (folder / "structures" / "helpers.py").write_text(HELPER)
    (folder / "helpers.py").write_text(HELPER)  # beside shuffle.py, at the top of the folder
    assert use[1] in stack.read_text() and use[2] in shuffle.read_text()
    result = grade_submission(folder, [exercise(1), exercise(7)], LIMITS)
    assert result.result(1).score == 10, result.result(1).summary
    assert result.result(7).score == 10, result.result(7).summary


def test_a_helper_that_is_a_link_or_another_exercise_is_not_copied(tmp_path: Path) -> None:
    folder = make_submission(tmp_path, "linker", {1: None, 3: None})
    (folder / "structures" / "helpers.py").symlink_to(SOLUTIONS / "structures" / "array_stack.py")
    for k in range(submission_module.MAX_HELPERS + 2):
        (folder / "structures" / f"more{k:02d}.py").write_text("X = 1\n")
    copy, problems, notes = submission_module.copy_submission(folder, [exercise(1)], tmp_path / "copy")
    assert problems == {}
    assert "structures/helpers.py was not copied beside the exercise files: it is a link" in notes
    most = submission_module.MAX_HELPERS
    assert any(note.startswith(f"only {most} modules of structures were copied") for note in notes)
    assert not (copy / "structures" / "array_queue.py").exists()  # another exercise's file: never a helper
    assert not (copy / "structures" / "helpers.py").exists()
    assert len(list((copy / "structures").glob("more*.py"))) == submission_module.MAX_HELPERS - 1


# -- the submission's own definitions ----------------------------------------------------------------

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
    result = grade_submission(folder, [exercise(number)], LIMITS)
    assert _zero(result, number) == reason


def test_in_the_sandbox_the_reference_is_only_a_skeleton(tmp_path: Path, sandboxed: Wall) -> None:
    # Loaded by path, the reference would be "written in the file": the sandbox holds no reference.
    code = """
        import solitaire_ds.structures as _package
        _source = _package.__path__[0] + "/array_stack.py"
        exec(compile(open(_source).read(), __file__, "exec"))
        """
    folder = make_submission(tmp_path, "by_path", {1: code})
    result = grade_submission(folder, [exercise(1)], LIMITS)
    assert result.result(1).score == 0
    assert "NotImplementedError" in result.result(1).summary


# -- the sandbox: nothing else within reach, nothing left behind ---------------------------------

def test_classmates_and_the_instructors_files_are_out_of_reach(tmp_path: Path, sandboxed: Wall) -> None:
    canary = tmp_path / "instructor" / "grades.csv"
    canary.parent.mkdir()
    canary.write_text("alice,10\n")
    alice = make_submission(tmp_path / "class", "alice", {7: None})
    target = alice / "shuffle.py"
    before = target.read_bytes()
    mallory = make_submission(tmp_path / "class", "mallory", {7: f"""
        for _path in ({str(target)!r}, {str(canary)!r}):
            try:
                with open(_path, "w") as _out:
                    _out.write("def sabotage(): pass\\n")
            except OSError:
                pass
        """})
    results = grade_many([mallory, alice], [exercise(7)], LIMITS, jobs=2)
    assert target.read_bytes() == before
    assert canary.read_text() == "alice,10\n"
    assert results[1].result(7).score == 10
    assert not any("not written by the grader" in note for note in results[1].notes)


def test_nothing_it_starts_outlives_it_and_its_tmp_is_its_own(tmp_path: Path, sandboxed: Wall) -> None:
    marker = f"{os.getpid()}.{tmp_path.name}"
    folder = make_submission(tmp_path, "lingerer", {7: f"""
        import subprocess
        subprocess.Popen(["sleep", "{marker}"], start_new_session=True)
        with open("/tmp/junk-{marker}", "wb") as _out:
            _out.write(bytes(10 << 20))
        """})
    grade_submission(folder, [exercise(7)], LIMITS)
    assert not list(Path("/tmp").glob(f"junk-{marker}"))
    alive = []
    for proc in Path("/proc").iterdir():
        try:
            if marker.encode() in (proc / "cmdline").read_bytes():
                alive.append(proc.name)
        except OSError:
            continue
    assert alive == []


def test_the_submission_folder_is_only_read(tmp_path: Path, sandboxed: Wall) -> None:
    folder = make_submission(tmp_path, "scribbler", {7: """
        import pathlib
        for _file in pathlib.Path("/submission").rglob("*.py"):
            try:
                _file.write_text("")
            except OSError:
                pass
        """})
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    result = grade_submission(folder, [exercise(7)], LIMITS)
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert result.result(7).score == 10


def test_a_link_out_of_the_submission_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "linker" / "structures"
    folder.mkdir(parents=True)
    (folder / "array_stack.py").symlink_to(SOLUTIONS / "structures" / "array_stack.py")
    result = grade_submission(folder.parent, [exercise(1)], LIMITS)
    assert _zero(result, 1) == "structures/array_stack.py is a link to another file; submit the file itself"


# -- notes, the fallback, and the same grade every time -----------------------------------------

def test_code_copied_from_the_reference_or_a_classmate_is_noted(tmp_path: Path) -> None:
    copied = make_submission(tmp_path, "copied", {9: None})
    padded = make_submission(tmp_path, "padded", {9: None})  # the reference, and one pass statement
    twin_a = make_submission(tmp_path, "twin_a", {9: None})
    twin_b = make_submission(tmp_path, "twin_b", {9: None})
    skeleton = tmp_path / "skeleton"
    (skeleton / "games").mkdir(parents=True)
    (skeleton / exercise(9).relpath).write_bytes((SKELETONS / exercise(9).relpath).read_bytes())
    rel = exercise(9).relpath
    text = (twin_a / rel).read_text()
    line = "            self.discarded += 2\n"
    assert line in text
    (padded / rel).write_text(text.replace(line, line + "            pass\n"))
    # the twins are a classmate's rewrite of the reference's play(), each reformatted its own way
    start, end = text.index("        i, j = sorted(move.piles)\n"), text.index("    def _why_no_move")
    theirs = textwrap.dedent("""\
            i, j = sorted(move.piles)
            same = first.rank == second.rank if move.kind == "pair" else first.suit == second.suit
            if not same:
                what = "rank" if move.kind == "pair" else "suit"
                raise IllegalMove(f"{first.label} and {second.label} are not the same {what}")
            if move.kind == "pair":
                for number in (i, j):
                    self.piles[number - 1].pop()
                self.discarded = self.discarded + 2
                self.emit({"type": "pair", "piles": [i, j], "cards": [first.code, second.code]})
                return
            lower_first = first.rank < second.rank
            gone = self.piles[(i if lower_first else j) - 1].pop()
            kept = self.piles[(j if lower_first else i) - 1].peek()
            self.discarded = self.discarded + 1
            self.emit({"type": "suit", "piles": [i, j], "discard": gone.code, "keep": kept.code})

        """)
    mine = text[:start] + textwrap.indent(theirs, " " * 8) + text[end:]
    (twin_a / rel).write_text(mine)
    (twin_b / rel).write_text(mine.replace("    ", "  ").replace("lower_first", "low").replace("# ", "## "))
    results = {r.name: r for r in grade_many([copied, padded, twin_a, twin_b, skeleton], [exercise(9)], LIMITS)}
    same = "exercise 9: 100% the same as the reference solution's (names, comments and layout aside)"
    assert same in results["copied"].notes and same in results["padded"].notes  # not also each other's
    twins = [note for note in results["twin_a"].notes if note.startswith("exercise 9: ")]
    assert twins == ["exercise 9: 100% the same as twin_b's (names, comments and layout aside)"]  # not the reference
    assert not any(note.startswith("exercise 9") for note in results["skeleton"].notes)  # nobody's work
    scores = {n: results[n].score for n in ("copied", "padded", "twin_a", "twin_b")}
    assert scores == dict.fromkeys(scores, 10), [results[n].result(9).summary for n in scores]  # never a score


LIST_SHORTCUTS = """
import collections
from collections import deque


def _push(self, item):
    list.append(self._slots, item)
    self._size += 1


def _pop(self):
    slots = self._slots
    self._size -= 1
    return slots.pop()


def _clear(self):
    collections.deque.clear(self._slots)
    deque.append(self._slots, None)


ArrayStack.push, ArrayStack.pop, ArrayStack.clear = _push, _pop, _clear
"""


def test_a_list_method_reached_any_way_is_noted(tmp_path: Path) -> None:
    folder = make_submission(tmp_path, "listy", {1: LIST_SHORTCUTS})
    result = grade_submission(folder, [exercise(1)], LIMITS)
    lines = [note.split(":", 2)[1].strip() for note in result.notes if note.startswith("exercise 1: ")]
    text = (folder / exercise(1).relpath).read_text().splitlines()
    assert [text[int(line.split()[-1]) - 1].strip() for line in lines] == [
        "list.append(self._slots, item)", "return slots.pop()", "collections.deque.clear(self._slots)",
        "deque.append(self._slots, None)"], result.notes


def test_without_a_wall_grading_refuses_unless_told_not_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a user's machine without bubblewrap (the tiers as they really run are the attack suite's)
    monkeypatch.setattr(walls_module, "find_sandbox", lambda: (None, "bubblewrap (bwrap) is not installed"))
    monkeypatch.setattr(walls_module.os, "geteuid", lambda: 1000)
    folder = make_submission(tmp_path, "plain", {7: None})
    with pytest.raises(GradingError, match=r"^no sandbox here: bubblewrap .bwrap. is not installed, and the grader "
                                           r"is not root.*Install bubblewrap.*--no-sandbox"):
        grade_many([folder], [exercise(7)], LIMITS)
    (result,) = grade_many([folder], [exercise(7)], LIMITS, sandbox="none")
    assert result.result(7).score == 10
    assert result.sandbox.startswith("not sandboxed (--no-sandbox)")
    assert "not sandboxed (--no-sandbox)" in csv_text([result])
    checked = grade_submission(folder, [exercise(7)], LIMITS)  # check: a student is no adversary to themselves
    assert checked.result(7).score == 10 and checked.sandbox.startswith("not sandboxed")


def test_a_step_that_fails_on_one_submission_is_a_note_and_the_class_is_graded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    honest = make_submission(tmp_path, "honest", {7: None})
    odd = make_submission(tmp_path, "odd", {7: "# odd"})
    gone = tmp_path / "gone"  # listed, then removed before its turn
    real_code, real_grade = submission_module.graded_code, runner_module._grade

    def reading(text: str, names: object) -> object:
        if "# odd" in text:
            raise RecursionError("maximum recursion depth exceeded")
        return real_code(text, names)  # type: ignore[arg-type]

    def grading(path: object, *args: object) -> object:
        if path == gone:
            raise GradingError(f"implementation folder not found: {str(gone)!r}")
        return real_grade(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(submission_module, "graded_code", reading)
    monkeypatch.setattr(runner_module, "_grade", grading)
    results = {r.name: r for r in grade_many([honest, odd, gone], [exercise(7)], LIMITS)}
    assert results["honest"].score == results["odd"].score == 10
    assert "exercise 7: shuffle.py could not be read for the notes (RecursionError); its score does not " \
           "depend on them" in results["odd"].notes
    assert results["gone"].score == 0 and results["gone"].result(7).reason.startswith(
        "not graded: the grader failed on this submission (GradingError: implementation folder not found")
    monkeypatch.setattr(submission_module, "similarity_notes", lambda *a: 1 / 0)
    (again,) = grade_many([honest], [exercise(7)], LIMITS)
    assert again.score == 10 and again.notes[-1] == ("the comparison with the reference and the classmates failed "
                                                     "(ZeroDivisionError): no similarity notes in this run")


def test_grading_a_class_twice_gives_the_same_csv(tmp_path: Path) -> None:
    honest = make_submission(tmp_path, "honest", {7: None, 9: None})
    buggy = make_submission(tmp_path, "buggy", {7: textwrap.dedent("""
        def fisher_yates(items, rng):
            for i in range(len(items) - 1, 0, -1):
                j = rng.randrange(i)
                items[i], items[j] = items[j], items[i]
        """), 9: None})
    first = csv_text(grade_many([honest, buggy], [exercise(7), exercise(9)], LIMITS, jobs=2))
    second = csv_text(grade_many([honest, buggy], [exercise(7), exercise(9)], LIMITS, jobs=2))
    assert first == second
    assert "honest" in first and "buggy" in first
