"""Output files are written whole or not at all, never over an input, never through a link."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.cli import main
from solitaire_ds.cli.args import UsageError, write_output
from solitaire_ds.course.report import csv_text
from solitaire_ds.course.results import SubmissionResult
from tests.grading.submissions import SOLUTIONS, make_submission


def test_a_failed_write_keeps_the_old_file_and_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "grades.csv"
    target.write_text("the old gradebook\n")

    def full_disk(src: str, dst: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(UsageError, match=r"cannot write .*grades\.csv: No space left on device"):
        write_output(target, "the new one\n" * 1000)
    assert target.read_text() == "the old gradebook\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv"]


def test_a_link_planted_at_the_target_is_replaced_not_followed(tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("not yours\n")
    target = tmp_path / "results.jsonl"
    target.symlink_to(precious)
    write_output(target, "{}\n")
    assert precious.read_text() == "not yours\n"
    assert not target.is_symlink() and target.read_text() == "{}\n"


def test_the_decks_file_is_never_the_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    decks = tmp_path / "decks.txt"
    decks.write_text(str(Deck.shuffled(1)) + "\n")
    before = decks.read_bytes()
    for command in (["simulate", "perpetual-motion"], ["klondike"]):
        assert main([*command, "--decks", str(decks), "--jsonl", str(tmp_path / "." / "decks.txt")]) == 2
        err = capsys.readouterr().err
        assert "is the same file as" in err and err.count("\n") == 1
    assert decks.read_bytes() == before


def test_a_gradebook_inside_a_graded_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alice = make_submission(tmp_path, "alice", {1: None})
    work = alice / "structures" / "array_stack.py"
    before = work.read_bytes()
    assert main(["grade", str(alice), "--csv", str(work)]) == 2
    err = capsys.readouterr().err
    assert "is inside the folder" in err and "which this command reads" in err
    assert work.read_bytes() == before
    assert main(["grade", str(alice), "--csv", str(tmp_path / "x"), "--json", str(tmp_path / "x")]) == 2
    assert "--csv names the same file" in capsys.readouterr().err


def test_a_folder_name_that_looks_like_a_formula_stays_text() -> None:
    row = csv_text([SubmissionResult("=HYPERLINK(\"http://x\",\"y\")", "@evil", (), ("-1 point",))])
    assert "'=HYPERLINK" in row and ",'@evil," in row and "'-1 point" in row


def test_grading_writes_only_the_outputs_named(tmp_path: Path) -> None:
    cls = tmp_path / "class"
    alice = make_submission(cls, "alice", {1: None})
    before = {p: p.read_bytes() for p in cls.rglob("*") if p.is_file()}
    out = tmp_path / "out"
    out.mkdir()
    assert main(["grade", str(alice), "--exercise", "1", "--csv", str(out / "grades.csv")]) == 0
    assert {p: p.read_bytes() for p in cls.rglob("*") if p.is_file()} == before
    assert [p.name for p in out.iterdir()] == ["grades.csv"]
    assert SOLUTIONS.is_dir()
