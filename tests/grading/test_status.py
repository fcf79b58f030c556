"""``exercises list`` in a student's folder: not started, passed, failing, for the file as it is now."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from solitaire_ds.cli import main
from solitaire_ds.course import REPO_ROOT
from solitaire_ds.course.status import STATUS_FILE

BROKEN_PEEK = "\n\ndef _peek(self):\n    raise ValueError('no')\n\n\nLinkedStack.peek = _peek\n"


def _row(out: str, number: int) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith(f"{number} "))


@pytest.fixture
def student(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "me"
    assert main(["exercises", "init", str(folder)]) == 0
    shutil.copyfile(REPO_ROOT / "solutions/structures/array_stack.py", folder / "structures/array_stack.py")
    linked = folder / "structures/linked_stack.py"
    shutil.copyfile(REPO_ROOT / "solutions/structures/linked_stack.py", linked)
    with linked.open("a", encoding="utf-8") as f:
        f.write(BROKEN_PEEK)
    queue = folder / "structures/array_queue.py"  # reformatted, nothing written: not started
    queue.write_text(queue.read_text(encoding="utf-8").replace("    ", "  "), encoding="utf-8")
    monkeypatch.chdir(folder)
    return folder


def test_list_shows_where_the_student_stands(student: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exercises", "list"]) == 0
    out = capsys.readouterr().out
    assert "Checking 2 exercise(s)" in out
    assert _row(out, 1).endswith("passed")
    assert "failing (" in _row(out, 2) and "/17 tests)" in _row(out, 2)
    assert _row(out, 3).endswith("not started") and _row(out, 12).endswith("not started")
    assert "1 of 12 passed" in out

    assert main(["exercises", "list"]) == 0  # remembered: nothing runs again
    again = capsys.readouterr().out
    assert "Checking" not in again and _row(again, 1).endswith("passed")

    with (student / "structures/array_stack.py").open("a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    assert main(["exercises", "list", "--no-run"]) == 0
    assert _row(capsys.readouterr().out, 1).endswith("not checked")


def test_check_in_the_folder_is_remembered_and_an_instructors_check_writes_nothing(
    student: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "1"]) == 0
    assert (student / STATUS_FILE).is_file()
    capsys.readouterr()
    assert main(["exercises", "list", "--no-run"]) == 0
    assert _row(capsys.readouterr().out, 1).endswith("passed")

    other = tmp_path / "theirs"
    shutil.copytree(student, other, ignore=shutil.ignore_patterns(".solitaire-ds"))
    assert main(["check", "1", "--impl", str(other)]) == 0
    assert main(["exercises", "list", "--impl", str(other), "--no-run"]) == 0
    assert not (other / ".solitaire-ds").exists()


def test_list_outside_a_students_folder_shows_the_course(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("solitaire_ds.course.catalog.REPO_ROOT", tmp_path)  # as from a wheel: no exercises/
    assert main(["exercises", "list"]) == 0
    out = capsys.readouterr().out
    assert "exercises init DIR" in out and "ArrayStack" in out and "status" not in out


def test_a_check_reaching_the_checkout_from_elsewhere_writes_nothing_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no exercise files here: check falls back to the checkout's exercises/
    before = sorted(p.name for p in (REPO_ROOT / "exercises").iterdir())
    assert main(["check", "7"]) == 1
    assert "Checking " + str(REPO_ROOT / "exercises") in capsys.readouterr().out
    assert sorted(p.name for p in (REPO_ROOT / "exercises").iterdir()) == before
