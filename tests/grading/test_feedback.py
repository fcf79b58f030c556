"""Feedback that can be handed back: every failing test, where it surfaced, one file per student."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solitaire_ds.cli import main
from tests.grading.submissions import make_submission

BROKEN_POP = """
def _pop(self):
    raise RuntimeError("oops " + "```" + "x" * 3000 + " end of a long message")


ArrayStack.pop = _pop
"""


def test_grade_writes_feedback_and_json_for_each_student(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_submission(tmp_path / "class", "alice", {1: BROKEN_POP})
    bob = make_submission(tmp_path / "class", "bob", {1: None})
    out = tmp_path / "out"
    out.mkdir()
    args = ["grade", str(alice), str(bob), "--exercise", "1", "--feedback", str(out / "feedback"),
            "--json-dir", str(out / "json")]
    assert main(args) == 0
    capsys.readouterr()
    feedback = (out / "feedback" / "alice.md").read_text()
    failing = [line for line in feedback.splitlines() if line.startswith("### ")]
    assert len(failing) == 9  # every failing test, not the first only
    assert "raised RuntimeError: oops" in feedback
    assert "x" * 3000 + " end of a long message" in feedback  # whole, however long
    assert "\n````text\n" in feedback  # a fence longer than the message's own backticks
    assert "(in structures/array_stack.py, line " in feedback and "in _pop)" in feedback
    assert "Every test passes." in (out / "feedback" / "bob.md").read_text()
    data = json.loads((out / "json" / "alice.json").read_text())
    assert len(data["tests"]) == 19 and sum(t["status"] == "failed" for t in data["tests"]) == 9


def test_a_file_that_cannot_be_written_stops_no_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_submission(tmp_path / "class", "alice", {1: None})
    bob = make_submission(tmp_path / "class", "bob", {1: None})
    out = tmp_path / "out"
    (out / "feedback" / "alice.md").mkdir(parents=True)  # a folder where alice's feedback would go
    args = ["grade", str(alice), str(bob), "--exercise", "1", "--feedback", str(out / "feedback"),
            "--csv", str(out / "grades.csv")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"cannot write {out / 'feedback' / 'alice.md'}" in " ".join(err.split())  # wrapped at words
    assert "Every test passes." in (out / "feedback" / "bob.md").read_text()
    assert (out / "grades.csv").read_text().count("10.00,10.00") == 2


def test_check_all_shows_every_failing_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = make_submission(tmp_path, "mine", {1: BROKEN_POP})
    assert main(["check", "1", "--impl", str(mine)]) == 1
    assert capsys.readouterr().out.count("failing test") == 1
    assert main(["check", "1", "--impl", str(mine), "--all"]) == 1
    assert capsys.readouterr().out.count("failing test:") == 9


def test_feedback_inside_a_graded_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_submission(tmp_path, "alice", {1: None})
    assert main(["grade", str(alice), "--feedback", str(alice / "notes")]) == 2
    assert "inside the folder" in capsys.readouterr().err
    assert not (alice / "notes").exists()


def test_check_shows_a_long_game_message_whole_down_to_the_step_that_differs() -> None:
    from solitaire_ds.course.catalog import exercise
    from solitaire_ds.course.report import check_text
    from solitaire_ds.course.results import ExerciseResult, Failure, SubmissionResult

    steps = [f"step {n}: the same as the reference" for n in range(1, 41)]
    message = "\n".join([*steps, "step 41: rule 3 moved 7♣ onto pile 2, expected pile 4"])
    failing = Failure("test_ex11_klondike.py::test_rule_3", message)
    result = ExerciseResult(exercise(11), passed=0, total=1, failures=(failing,))
    text = check_text(SubmissionResult("exercises", "exercises", (result,)))
    assert "    step 41: rule 3 moved 7♣ onto pile 2, expected pile 4" in text
    assert text.count("the same as the reference") == 40


LONG_POP = """
def _pop(self):
    raise RuntimeError(" ".join(["a long message that goes on"] * 12) + " and ends here")


ArrayStack.pop = _pop
"""


def test_at_80_columns_grade_cuts_no_line_and_says_each_thing_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A long failure, an exercise never started, a note true of two exercises: 80 columns, nothing cut."""
    from fractions import Fraction

    from solitaire_ds.course import REPO_ROOT, exercise

    bo = make_submission(tmp_path / "class", "bo", {1: LONG_POP, 3: None, 4: None})
    skeleton = bo / exercise(2).relpath
    skeleton.write_bytes((REPO_ROOT / "exercises" / exercise(2).relpath).read_bytes())
    monkeypatch.setenv("COLUMNS", "80")
    out = tmp_path / "out"
    out.mkdir()
    args = ["grade", str(bo), *(f"--exercise={n}" for n in (1, 2, 3, 4)), "--feedback", str(out / "feedback"),
            "--json-dir", str(out / "json")]
    assert main(args) == 0
    printed, err = capsys.readouterr()
    for line in printed.splitlines():  # the table, in a pipe as on a terminal (stderr: the pty test below)
        assert len(line) <= 80, line
    assert err.count("\n") == 1 and err.startswith("solitaire-ds grade: sandbox: ")  # in a log: one line
    flat = " ".join(printed.split())
    assert " ".join(["a long message that goes on"] * 12) + " and ends here" in flat  # wrapped, whole
    assert flat.count("not started: the file is the skeleton") == 1
    assert flat.count("the same as the reference solution's") == 1  # three exercises alike: one note
    assert "exercises 1, 3 and 4: 100% the same as the reference solution" in flat
    feedback = (out / "feedback" / "bo.md").read_text()
    part = feedback[feedback.index("## Exercise 2"):feedback.index("## Exercise 3")]
    assert part.strip().splitlines()[1:] == ["", "Not started: the file is the skeleton."]
    data = json.loads((out / "json" / "bo.json").read_text())
    twos = [t for t in data["tests"] if t["number"].split(".")[0] == "2"]
    assert [(t["number"], t["output"], t["max_score"]) for t in twos] == [
        ("2", "not started: the file is the skeleton", 10.0)]
    assert data["extra_data"]["not_started"] == [2]
    for number in (1, 3, 4):  # each test's maximum, to four places: they add up to the points exactly
        maxima = [Fraction(str(t["max_score"])) for t in data["tests"] if t["number"].startswith(f"{number}.")]
        assert len(maxima) > 1 and sum(maxima) == 10


def test_per_test_maxima_add_up_to_the_points_exactly_whatever_the_weights() -> None:
    import dataclasses
    from fractions import Fraction

    from solitaire_ds.course.catalog import exercise
    from solitaire_ds.course.results import ExerciseResult, TestOutcome

    ex = exercise(12)
    for points, weights in ((130, [6.0] * 6 + [1.0] * 11), (10, [1.0] * 17), (7, [1.0, 2.5, 1 / 3, 3.0])):
        tests = tuple(TestOutcome(f"t{k}", True, weight=w) for k, w in enumerate(weights))
        result = ExerciseResult(dataclasses.replace(ex, points=points), len(tests), len(tests), tests=tests)
        maxima = result.test_maxima()
        assert sum(Fraction(str(m)) for m in maxima) == points
        assert all(abs(m - result.test_points(t)) <= 0.0001 for m, t in zip(maxima, tests, strict=True))


def test_on_an_80_column_terminal_no_line_of_grade_is_wider_than_80(tmp_path: Path) -> None:
    """What grade prints on stdout and stderr, on a pseudo-terminal: the wall, progress, table."""
    from tests.terminal import on_a_terminal, too_wide

    klass = tmp_path / "class"
    for name in ("bo", "a-student-with-a-long-folder-name-" * 3):
        make_submission(klass, name, {1: LONG_POP})
    status, lines = on_a_terminal("grade", *(str(p) for p in sorted(klass.iterdir())), "--exercise", "1",
                                  cwd=tmp_path)
    assert status == 0, lines
    assert any(line.startswith("solitaire-ds grade: sandbox: ") for line in lines)
    assert too_wide(lines) == []
