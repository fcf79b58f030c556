"""The gradebook a class run writes: ours, or the grade import layout of Canvas or Moodle, kept across runs.

Invariant: a gradebook is a header row, a ``Points Possible`` row (ours and Canvas's; Moodle's
import has none), then one row per student, keyed by the student's folder name (ours) or the
student id the roster gives (Canvas's ``SIS User ID``, Moodle's ``ID number``). Writing into
a gradebook already there replaces the rows of the students just graded, where they stood,
adds the new ones at the end, and keeps every other row byte for byte (a row is rebuilt, its
cells kept, only when the run adds an exercise column). A file whose first line is not the
header of the layout asked for is not ours: it is refused, never overwritten.

Vocabulary: a *layout* is the columns of one format (:data:`LAYOUTS`); a *roster* maps each
folder name to a :class:`Student`.

>>> from solitaire_ds.course.catalog import exercise
>>> from solitaire_ds.course.results import ExerciseResult, SubmissionResult
>>> ann = SubmissionResult("ann", "class/ann", (ExerciseResult(exercise(1), 17, 17),))
>>> roster = {"ann": Student("ann", "S001", "Ann Lee", "A1", login="alee")}
>>> print(gradebook_text([ann], "canvas", roster), end="")
Student,ID,SIS User ID,SIS Login ID,Section,Exercise 1: ArrayStack
Points Possible,,,,,10
Ann Lee,,S001,alee,A1,10.00
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from solitaire_ds.course.results import SubmissionResult

__all__ = ["LAYOUTS", "LMS", "GradebookError", "Student", "check_gradebook", "gradebook_text", "read_roster",
           "sheet_cell"]

#: The learning management systems whose grade import layout ``--lms`` writes.
LMS = ("canvas", "moodle")
#: The first cell of the row of points possible.
POINTS = "Points Possible"


class GradebookError(ValueError):
    """A roster or a gradebook that cannot be used, in one line that names the file."""


@dataclass(frozen=True)
class Student:
    """One row of a roster: the student's folder name, and who they are in the course's records."""

    folder: str
    student_id: str
    name: str
    section: str
    email: str = ""
    login: str = ""


@dataclass(frozen=True)
class _Layout:
    name: str
    lead: tuple[str, ...]  # the columns before the exercises'
    tail: tuple[str, ...]  # the columns after them
    key: int  # the column that names the student
    points_row: bool
    column: str  # an exercise's column, from its number and its short title
    pattern: re.Pattern[str]  # a column of an exercise, its number as group 1


_CANVAS_LEAD = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
_MOODLE_LEAD = ("ID number", "Full name", "Email address")

#: Every layout by name: ours ("plain", with the roster's columns when one is given) and the LMS ones.
LAYOUTS = {
    "plain": _Layout("plain", ("submission", "path"), ("total", "notes", "sandbox"), 0, True,
                     "ex{number:02d}_{slug}", re.compile(r"ex(\d\d)_[a-z0-9_]+")),
    "plain+roster": _Layout("plain", ("submission", "path", "student_id", "name", "section"),
                            ("total", "notes", "sandbox"), 0, True,
                            "ex{number:02d}_{slug}", re.compile(r"ex(\d\d)_[a-z0-9_]+")),
    "canvas": _Layout("canvas", _CANVAS_LEAD, (), 2, True, "Exercise {number}: {short}",
                      re.compile(r"Exercise (\d+): .+")),
    "moodle": _Layout("moodle", _MOODLE_LEAD, (), 0, False, "Exercise {number}: {short}",
                      re.compile(r"Exercise (\d+): .+")),
}


def _layout(lms: str | None, roster: bool) -> _Layout:
    return LAYOUTS[lms] if lms else LAYOUTS["plain+roster" if roster else "plain"]


# -- the roster ------------------------------------------------------------------------------------

_ROSTER_COLUMNS = ("folder", "student_id", "name", "section")


def read_roster(path: Path) -> dict[str, Student]:
    """Return the students of the roster CSV at ``path``, by folder name.

    Its first line names the columns ``folder``, ``student_id``, ``name``, ``section``
    (and, when the LMS wants them, ``email`` and ``login``), in any order and case. Raises
    :class:`GradebookError`, naming the file and line, for a file that cannot be read, a
    column missing, a row without a folder or an id, or a folder listed twice.

    Runtime complexity: O(size of the file).
    """
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise GradebookError(f"--roster {path}: cannot read it ({exc.strerror or type(exc).__name__})") from None
    except UnicodeDecodeError:
        raise GradebookError(f"--roster {path}: not a UTF-8 text file") from None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = [cell.strip().lower().replace(" ", "_") for cell in rows[0]] if rows else []
    for column in _ROSTER_COLUMNS:
        if column not in header:
            raise GradebookError(f"--roster {path}: no column {column!r} (its first line must name "
                                 "folder, student_id, name and section)")
    where = {column: header.index(column) for column in (*_ROSTER_COLUMNS, "email", "login") if column in header}
    students: dict[str, Student] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = {column: (row[at].strip() if at < len(row) else "") for column, at in where.items()}
        for needed in ("folder", "student_id"):
            if not cells[needed]:
                raise GradebookError(f"--roster {path}, line {line}: no {needed}")
        if cells["folder"] in students:
            raise GradebookError(f"--roster {path}, line {line}: the folder {cells['folder']!r} is listed twice")
        students[cells["folder"]] = Student(**cells)
    return students


# -- reading a gradebook ----------------------------------------------------------------------------


@dataclass
class _Record:
    cells: list[str]
    raw: str  # the record's text as it stood in the file, its line end included


def _records(text: str) -> list[_Record]:
    """The records of CSV ``text``, each with its own text (a quoted cell may span lines)."""
    consumed: list[str] = []

    def lines() -> Iterator[str]:
        for line in text.splitlines(keepends=True):
            consumed.append(line)
            yield line

    records = []
    for cells in csv.reader(lines()):
        raw = "".join(consumed)
        consumed.clear()
        if cells:
            records.append(_Record(cells, raw if raw.endswith(("\n", "\r")) else raw + "\n"))
    return records


@dataclass
class _Book:
    numbers: list[int]  # the exercise columns, in order
    points: dict[int, str]
    rows: list[_Record]


def _parse(text: str, layout: _Layout, where: str) -> _Book:
    """Read a gradebook of ``layout``; raise :class:`GradebookError` when ``text`` is not one."""
    records = _records(text)
    header = records[0].cells if records else []
    lead, tail = list(layout.lead), list(layout.tail)
    middle = header[len(lead): len(header) - len(tail)]
    numbers = [int(m.group(1)) if (m := layout.pattern.fullmatch(c)) else None for c in middle]
    if (header[: len(lead)] != lead or header[len(header) - len(tail):] != tail or len(header) < len(lead) + len(tail)
            or None in numbers or len(set(numbers)) != len(numbers)):
        shown = ",".join([*lead, "<exercises>", *tail])
        raise GradebookError(f"{where} is not a gradebook of solitaire-ds in this layout (its first line is not "
                             f"{shown}); give a new file name, or the gradebook an earlier run wrote")
    found = [n for n in numbers if n is not None]
    rows = records[1:]
    points: dict[int, str] = {}
    if layout.points_row and rows and rows[0].cells[0].strip() == POINTS and rows[0].cells[layout.key] in ("", POINTS):
        points = dict(zip(found, rows[0].cells[len(lead): len(lead) + len(found)], strict=False))
        rows = rows[1:]
    for number, row in enumerate(rows, start=2):
        if len(row.cells) != len(header):
            raise GradebookError(f"{where}: row {number} has {len(row.cells)} cells, its header {len(header)}; "
                                 "it is not a gradebook solitaire-ds wrote")
    return _Book(found, points, rows)


def check_gradebook(path: Path, lms: str | None = None, roster: bool = False) -> None:
    """Refuse (:class:`GradebookError`) a file at ``path`` that is not a gradebook of this layout.

    No file, or an empty one, is a new gradebook.
    """
    old = _read(path)
    if old:
        _parse(old, _layout(lms, roster), f"--csv {path}")


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise GradebookError(f"--csv {path}: cannot read it ({exc.strerror or type(exc).__name__})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GradebookError(f"--csv {path} is not a gradebook of solitaire-ds (not UTF-8 text); give a new "
                             "file name, or the gradebook an earlier run wrote") from None


# -- writing ----------------------------------------------------------------------------------------


def sheet_cell(text: str) -> str:
    """Return ``text`` safe for a spreadsheet cell: a leading ``'`` before a formula's first sign."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _line(cells: Sequence[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()


def _short(title: str) -> str:
    """An exercise's title before its colon: ``ArrayStack`` of "ArrayStack: a stack in a resizing array"."""
    return title.split(":")[0].strip()


def gradebook_text(
    results: Sequence[SubmissionResult],
    lms: str | None = None,
    roster: Mapping[str, Student] | None = None,
    old: str = "",
) -> str:
    """Return the gradebook of ``results`` in the layout of ``lms`` (ours when None), merged into ``old``.

    Ours has a row per submission: its folder's name and path (then the roster's
    ``student_id``, ``name`` and ``section`` when a roster is given), a column per exercise,
    the total, the notes (a note said of several exercises said once) and the wall it was
    graded behind. Canvas's has ``Student``, ``ID`` (Canvas's own, left empty: Canvas finds
    the student by the next), ``SIS User ID``, ``SIS Login ID``, ``Section``, then a column
    per exercise; Moodle's has ``ID number``, ``Full name``, ``Email address``, then a column
    per exercise. Ours and Canvas's have a ``Points Possible`` row. A text cell a
    spreadsheet would read as a formula gets a leading ``'``.

    ``old`` is the gradebook already in the file: see the module's invariant. A student
    graded again keeps the scores of the exercises this run did not grade. Raises
    :class:`GradebookError` when ``old`` is not a gradebook of this layout, or a student has
    no row in ``roster`` that the layout needs.

    Runtime complexity: O(rows x exercises).
    """
    from solitaire_ds.course.results import merged_notes

    layout = _layout(lms, roster is not None)
    book = _parse(old, layout, "the gradebook") if old else _Book([], {}, [])
    columns = {r.exercise.number: r.exercise for sub in results for r in sub.exercises}
    numbers = sorted(set(book.numbers) | set(columns))
    points = {**book.points, **{n: str(ex.points) for n, ex in columns.items()}}
    lead = len(layout.lead)

    def student(sub: SubmissionResult) -> Student | None:
        if roster is None:
            return None
        if sub.name not in roster:
            raise GradebookError(f"the roster has no row for the folder {sub.name!r}")
        return roster[sub.name]

    def new_row(sub: SubmissionResult, kept: Mapping[int, str]) -> list[str]:
        scores = {**kept, **{r.exercise.number: f"{r.score:.2f}" for r in sub.exercises}}
        cells = [scores.get(n, "") for n in numbers]
        who = student(sub)
        if layout.name == "canvas":
            assert who is not None
            return [who.name, "", who.student_id, who.login, who.section, *cells]
        if layout.name == "moodle":
            assert who is not None
            return [who.student_id, who.name, who.email, *cells]
        ids = [who.student_id, who.name, who.section] if who is not None else []
        total = sum(float(c) for c in cells if _number(c))
        notes = "; ".join(merged_notes(sub.notes))
        return [sheet_cell(sub.name), sheet_cell(sub.path), *ids, *cells, f"{total:.2f}", sheet_cell(notes),
                sheet_cell(sub.sandbox)]

    def key(sub: SubmissionResult) -> str:
        row = new_row(sub, {})
        return row[layout.key]

    graded: dict[str, list[SubmissionResult]] = {}
    for sub in results:
        graded.setdefault(key(sub), []).append(sub)
    header = [*layout.lead, *(_column(layout, n) for n in numbers), *layout.tail]
    if old:  # the file's own name of each exercise column it had
        header = _header(old, layout, numbers, header)
    out = [_line(header)]
    if layout.points_row:
        cells = [points.get(n, "") for n in numbers]
        ours_total = [f"{sum(int(c) for c in cells if c.isdigit())}", "", ""] if layout.tail else []
        out.append(_line([POINTS, *([""] * (lead - 1)), *cells, *ours_total]))
    same_columns = book.numbers == numbers
    written: set[str] = set()
    for row in book.rows:
        name = row.cells[layout.key]
        if name in graded:
            if name not in written:
                kept = dict(zip(book.numbers, row.cells[lead: lead + len(book.numbers)], strict=True))
                out += [_line(new_row(sub, kept)) for sub in graded[name]]
                written.add(name)
        elif same_columns:
            out.append(row.raw)
        else:
            old_cells = dict(zip(book.numbers, row.cells[lead: lead + len(book.numbers)], strict=True))
            tail = row.cells[lead + len(book.numbers):]
            out.append(_line([*row.cells[:lead], *(old_cells.get(n, "") for n in numbers), *tail]))
    for name, subs in graded.items():
        if name not in written:
            out += [_line(new_row(sub, {})) for sub in subs]
    return "".join(out)


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _column(layout: _Layout, number: int) -> str:
    from solitaire_ds.course.catalog import exercise

    ex = exercise(number)
    return layout.column.format(number=number, slug=ex.slug, short=_short(ex.title))


def _header(old: str, layout: _Layout, numbers: Sequence[int], made: list[str]) -> list[str]:
    """The new header, keeping the old file's own name of each exercise column it had."""
    header = _records(old)[0].cells
    lead, tail = len(layout.lead), len(layout.tail)
    named = {int(m.group(1)): c for c in header[lead: len(header) - tail] if (m := layout.pattern.fullmatch(c))}
    return [*layout.lead, *(named.get(n, made[lead + k]) for k, n in enumerate(numbers)), *layout.tail]
