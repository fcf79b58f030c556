"""The solution markers and the two views the generator writes from them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from solitaire_ds.course import EXERCISES, Exercise
from solitaire_ds.course.generate import (
    GENERATED_TAG,
    MOST_BLANK_LINES,
    LayoutError,
    build,
    differences,
    expected_files,
)
from solitaire_ds.course.markers import MarkerError, exercise_view, find_blocks, solution_view

SOURCE = '''"""A module."""

import os


def double(x: int) -> int:
    """Return twice x.

    >>> double(2)
    4
    """
    # BEGIN SOLUTION: return x added to itself
    y = x + x
    return y
    # END SOLUTION


class Box:
    def get(self) -> int:
        """Return the content."""
        if True:
            # BEGIN SOLUTION: return "the" content
            return 1
            # END SOLUTION
        return 0
'''


def test_solution_view_drops_only_the_marker_lines() -> None:
    out = solution_view(SOURCE, "m.py")
    assert "BEGIN SOLUTION" not in out and "END SOLUTION" not in out
    assert out.count("\n") == SOURCE.count("\n") - 4
    ast.parse(out)


def test_exercise_view_replaces_each_block_at_its_indentation() -> None:
    out = exercise_view(SOURCE, "m.py")
    assert '    raise NotImplementedError("return x added to itself")\n' in out
    assert '            raise NotImplementedError("return \\"the\\" content")\n' in out
    assert "y = x + x" not in out
    assert '"""Return twice x.' in out and "def double(x: int) -> int:" in out
    ast.parse(out)


def test_exercise_view_raises_the_hint() -> None:
    namespace: dict[str, object] = {}
    exec(compile(exercise_view(SOURCE, "m.py"), "m.py", "exec"), namespace)
    with pytest.raises(NotImplementedError, match="return x added to itself"):
        namespace["double"](2)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def f():\n    # BEGIN SOLUTION: x\n    pass\n", "m.py:2: BEGIN SOLUTION is never closed"),
        (
            "def f():\n    # BEGIN SOLUTION: x\n    # BEGIN SOLUTION: y\n",
            "m.py:3: BEGIN SOLUTION inside the block opened at line 2 (blocks cannot nest)",
        ),
        ("def f():\n    # BEGIN SOLUTION\n", "m.py:2: BEGIN SOLUTION needs a hint"),
        ("def f():\n    # BEGIN SOLUTION:   \n", "m.py:2: BEGIN SOLUTION needs a hint"),
        ("x = 1\n# END SOLUTION\n", "m.py:2: END SOLUTION without a BEGIN SOLUTION"),
        (
            "def f():\n    # BEGIN SOLUTION: x\n    pass\n# END SOLUTION\n",
            "m.py:4: END SOLUTION is indented differently from its BEGIN SOLUTION at line 2",
        ),
    ],
)
def test_malformed_markers_are_reported_with_file_and_line(source: str, message: str) -> None:
    with pytest.raises(MarkerError) as info:
        find_blocks(source, "m.py")
    assert str(info.value).startswith(message)


def _fixture_package(tmp_path: Path) -> tuple[Path, tuple[Exercise, ...]]:
    package = tmp_path / "pkg"
    (package / "structures").mkdir(parents=True)
    (package / "structures" / "thing.py").write_text(SOURCE)
    (package / "plain.py").write_text("x = 1\n")
    exercises = (
        Exercise(1, "thing", "Thing", "structures.thing", 10),
        Exercise(2, "plain", "Plain", "plain", 10),  # no markers: not generated
        Exercise(3, "later", "Later", "games.later", 10),  # not written yet: not generated
    )
    return package, exercises


def test_generator_writes_only_marked_modules_with_headers(tmp_path: Path) -> None:
    package, exercises = _fixture_package(tmp_path)
    files = expected_files(package, exercises)
    assert sorted(files) == [
        "exercises/README.md",
        "exercises/structures/thing.py",
        "solutions/README.md",
        "solutions/structures/thing.py",
    ]
    assert files["solutions/structures/thing.py"].splitlines()[1] == (
        f"# {GENERATED_TAG}; edit solitaire_ds/structures/thing.py instead."
    )
    assert "fill in the NotImplementedError parts" in files["exercises/structures/thing.py"]


def test_build_then_check_reports_nothing_and_removes_stale_files(tmp_path: Path) -> None:
    package, exercises = _fixture_package(tmp_path)
    files = expected_files(package, exercises)
    out = tmp_path / "out"
    (out / "exercises").mkdir(parents=True)
    (out / "exercises" / "old.py").write_text(f"# {GENERATED_TAG}\n")
    (out / "exercises" / "mine.py").write_text("# hand-written\n")
    assert differences(out, files) == [
        "exercises/README.md: missing",
        "exercises/structures/thing.py: missing",
        "solutions/README.md: missing",
        "solutions/structures/thing.py: missing",
        "exercises/old.py: stale (no longer generated)",
    ]
    build(out, files)
    assert differences(out, files) == []
    assert (out / "exercises" / "mine.py").exists()
    assert not (out / "exercises" / "old.py").exists()
    assert build(out, files) == []
    (out / "solutions" / "structures" / "thing.py").write_text("changed\n")
    assert differences(out, files)[0].startswith("solutions/structures/thing.py: differs")


def test_every_course_module_with_markers_parses(tmp_path: Path) -> None:
    for rel, text in expected_files(exercises=EXERCISES).items():
        if rel.endswith(".py"):
            ast.parse(text, rel)


@pytest.mark.parametrize(
    ("source", "line"),
    [
        # three blank lines in the module itself
        ("x = 1\n\n\n\ndef f():\n    # BEGIN SOLUTION: h\n    return 1\n    # END SOLUTION\n", 4),
        # two blank lines, then a block that starts with one: the solution view joins them
        ("x = 1\n\n\n# BEGIN SOLUTION: say y\n\ny = 2\n# END SOLUTION\n", 5),
        ("def f():\n    # BEGIN SOLUTION: h\n    pass\n\n    # END SOLUTION\n\n\nz = 3\n", 7),
    ],
)
def test_a_marked_module_with_more_than_two_blank_lines_in_a_row_is_refused_with_its_line(
    tmp_path: Path, source: str, line: int
) -> None:
    package, exercises = _fixture_package(tmp_path)
    (package / "structures" / "thing.py").write_text(source)
    with pytest.raises(LayoutError) as info:
        expected_files(package, exercises)
    assert str(info.value).startswith(f"solitaire_ds/structures/thing.py:{line}: 3 blank lines in a row")
    assert isinstance(info.value, MarkerError)  # the command line reports it in one line, as a marker error


#: What speaks to the package's maintainers, not to a student: a hidden HTML comment, a pointer
#: to the source to edit instead, a to-do note.
_FOR_MAINTAINERS = re.compile(r"<!--|\bedit solitaire_ds/|\b(?:TODO|FIXME|XXX)\b|\bmaintainers?\b", re.IGNORECASE)


def test_no_generated_file_holds_more_than_two_blank_lines_in_a_row() -> None:
    too_many = "\n" * (MOST_BLANK_LINES + 2)  # the end of a line, then three empty ones
    for rel, text in expected_files().items():
        assert too_many not in text, f"{rel} has {MOST_BLANK_LINES + 1} blank lines in a row"


def test_no_file_a_student_gets_speaks_to_the_maintainers() -> None:
    student = {rel: text for rel, text in expected_files().items() if rel.startswith("exercises/")}
    assert "exercises/README.md" in student and "exercises/shuffle.py" in student
    found = {rel: m.group() for rel, text in student.items() if (m := _FOR_MAINTAINERS.search(text))}
    assert found == {}
    # the finder catches each kind (the student's README carried the first one)
    for note in ("<!-- generated; edit solitaire_ds/course/generate.py instead. -->", "# TODO: faster",
                 "edit solitaire_ds/cards.py instead", "(for maintainers)"):
        assert _FOR_MAINTAINERS.search(note), note
