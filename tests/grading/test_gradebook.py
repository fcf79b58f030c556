"""The gradebook kept across runs, the roster, and the LMS import layouts (Canvas, Moodle)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from solitaire_ds.cli import main
from solitaire_ds.course.catalog import exercise
from solitaire_ds.course.gradebook import GradebookError, Student, gradebook_text, read_roster
from solitaire_ds.course.results import ExerciseResult, SubmissionResult
from tests.grading.submissions import make_submission

FIVE = ("ann", "bo", "cy", "di", "ed")


def _result(name: str, passed: int, number: int = 1) -> SubmissionResult:
    ex = exercise(number)
    return SubmissionResult(name, f"class/{name}", (ExerciseResult(ex, passed, 17),), (f"a note on {name}",))


def _roster(tmp_path: Path, names: tuple[str, ...] = FIVE) -> Path:
    path = tmp_path / "roster.csv"
    rows = ["Folder,Student_ID,Name,Section,Email,Login"]
    rows += [f"{n},S{k:03d},\"{n.title()}, {n.upper()}\",L{k % 2},{n}@uni.example,{n}01" for k, n in enumerate(names)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_grading_one_student_into_a_gradebook_of_five_keeps_the_other_four_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cy = make_submission(tmp_path / "class", "cy", {1: None})
    book = tmp_path / "grades.csv"
    # the gradebook a first run wrote, by hand edits untouched (CRLF line ends, as a spreadsheet saves them)
    before = gradebook_text([_result(n, 3) for n in FIVE]).replace("\n", "\r\n").encode()
    book.write_bytes(before)
    assert main(["grade", str(cy), "--exercise", "1", "--csv", str(book)]) == 0
    capsys.readouterr()
    old_lines, new_lines = before.splitlines(keepends=True), book.read_bytes().splitlines(keepends=True)
    assert len(new_lines) == len(old_lines) == 7  # the header, the points possible, five students
    kept = [k for k, line in enumerate(old_lines) if not line.startswith(b"cy,")]
    assert [new_lines[k] for k in kept[2:]] == [old_lines[k] for k in kept[2:]]  # ann, bo, di, ed: byte for byte
    rows = list(csv.reader(book.read_text(encoding="utf-8").splitlines()))
    assert [row[0] for row in rows] == ["submission", "Points Possible", *FIVE]
    assert rows[4][:4] == ["cy", str(cy), "10.00", "10.00"]  # in its place, graded again


def test_a_regrade_of_other_exercises_keeps_the_scores_already_there_and_adds_a_column() -> None:
    first = gradebook_text([_result("ann", 17), _result("bo", 0)])
    second = gradebook_text([_result("bo", 17, number=2), _result("cy", 17, number=2)], old=first)
    rows = list(csv.reader(second.splitlines()))
    assert rows[0] == ["submission", "path", "ex01_array_stack", "ex02_linked_stack", "total", "notes", "sandbox"]
    assert rows[1] == ["Points Possible", "", "10", "10", "20", "", ""]
    assert [row[:5] for row in rows[2:]] == [
        ["ann", "class/ann", "10.00", "", "10.00"],
        ["bo", "class/bo", "0.00", "10.00", "10.00"],
        ["cy", "class/cy", "", "10.00", "10.00"],
    ]


@pytest.mark.parametrize("text", [
    "name,score\nann,10\n",  # someone else's
    "submission,path,ex01_array_stack,total,notes,sandbox\nann,class/ann,10.00\n",  # a row cut short
    "\xff\xfe not text",
])
def test_a_csv_that_is_not_one_of_ours_is_refused_in_one_line_and_left_alone(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "class" / "bo").mkdir(parents=True)
    book = tmp_path / "grades.csv"
    book.write_bytes(text.encode("latin-1"))
    assert main(["grade", str(tmp_path / "class" / "bo"), "--csv", str(book)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("solitaire-ds grade: error: ") and err.count("\n") == 1
    assert str(book) in err and "gradebook" in err
    assert out == "" and book.read_bytes() == text.encode("latin-1")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class", "grades.csv"]  # nothing written beside it


# -- the LMS layouts, as documented -----------------------------------------------------------------------


def test_the_canvas_layout_is_the_one_canvas_documents_for_a_grade_import(tmp_path: Path) -> None:
    roster = read_roster(_roster(tmp_path))
    text = gradebook_text([_result("bo", 17), _result("ann", 0)], "canvas", roster)
    rows = list(csv.reader(text.splitlines()))
    # Canvas: Student, ID, SIS User ID, SIS Login ID, Section, then a column per assignment;
    # the second row gives the points possible (https://teaching.resources.osu.edu/toolsets/
    # carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades)
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Exercise 1: ArrayStack"]
    assert rows[1] == ["Points Possible", "", "", "", "", "10"]
    assert rows[2] == ["Bo, BO", "", "S001", "bo01", "L1", "10.00"]
    assert rows[3] == ["Ann, ANN", "", "S000", "ann01", "L0", "0.00"]


def test_the_moodle_layout_has_an_identifier_column_and_no_points_row(tmp_path: Path) -> None:
    roster = read_roster(_roster(tmp_path))
    text = gradebook_text([_result("bo", 17)], "moodle", roster)
    rows = list(csv.reader(text.splitlines()))
    # Moodle maps "ID number" to the user's useridnumber, or "Email address" to useremail
    # (https://docs.moodle.org/311/en/Grade_import); every other row is a student
    assert rows == [["ID number", "Full name", "Email address", "Exercise 1: ArrayStack"],
                    ["S001", "Bo, BO", "bo@uni.example", "10.00"]]
    again = gradebook_text([_result("ann", 17)], "moodle", roster, old=text)
    assert again == text + "S000,\"Ann, ANN\",ann@uni.example,10.00\n"


def test_grade_writes_a_canvas_gradebook_from_the_roster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bo = make_submission(tmp_path / "class", "bo", {1: None})
    book = tmp_path / "canvas.csv"
    args = ["grade", str(bo), "--exercise", "1", "--csv", str(book), "--roster", str(_roster(tmp_path)),
            "--lms", "canvas"]
    assert main(args) == 0
    capsys.readouterr()
    assert book.read_text(encoding="utf-8") == (
        "Student,ID,SIS User ID,SIS Login ID,Section,Exercise 1: ArrayStack\n"
        "Points Possible,,,,,10\n"
        "\"Bo, BO\",,S001,bo01,L1,10.00\n")
    # the same file given as our own gradebook
    assert main([*args[:-2]]) == 2  # a Canvas file is not our own layout: refused, kept
    assert "is not a gradebook of solitaire-ds in this layout" in capsys.readouterr().err


@pytest.mark.parametrize(("roster", "extra", "message"), [
    (None, ["--lms", "canvas"], "--lms canvas needs --roster FILE"),
    ("folder,name,section\nbo,Bo,L1\n", [], "no column 'student_id'"),
    ("folder,student_id,name,section\nbo,S1,Bo,L1\nbo,S2,Bo,L1\n", [], "line 3: the folder 'bo' is listed twice"),
    ("folder,student_id,name,section\nann,S1,Ann,L1\n", [], "no row for the folder 'bo'"),
])
def test_a_roster_that_cannot_be_used_is_refused_before_grading(
    tmp_path: Path, roster: str | None, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "class" / "bo").mkdir(parents=True)
    args = ["grade", str(tmp_path / "class" / "bo"), "--csv", str(tmp_path / "g.csv"), *extra]
    if roster is not None:
        (tmp_path / "roster.csv").write_text(roster, encoding="utf-8")
        args += ["--roster", str(tmp_path / "roster.csv")]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert message in err and err.count("\n") == 1 and out == ""
    assert not (tmp_path / "g.csv").exists()


def test_the_roster_joins_our_gradebook_only_beside_a_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grade", str(tmp_path), "--roster", str(_roster(tmp_path))]) == 2
    assert "--roster joins the gradebook --csv writes" in capsys.readouterr().err
    text = gradebook_text([_result("ann", 17)], roster=read_roster(_roster(tmp_path)))
    assert text.splitlines()[:2] == ["submission,path,student_id,name,section,ex01_array_stack,total,notes,sandbox",
                                     "Points Possible,,,,,10,10,,"]


def test_a_roster_row_without_an_id_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("folder,student_id,name,section\nann,,Ann,L1\n", encoding="utf-8")
    with pytest.raises(GradebookError, match=r"r\.csv, line 2: no student_id"):
        read_roster(path)
    assert read_roster(_roster(tmp_path))["cy"] == Student("cy", "S002", "Cy, CY", "L0", "cy@uni.example", "cy01")
