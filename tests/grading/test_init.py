"""``solitaire-ds exercises init DIR``: the skeletons and a README, never a solution, never over a file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from solitaire_ds.cli import main
from solitaire_ds.course import EXERCISES
from solitaire_ds.course.generate import expected_files


def test_init_writes_the_skeletons_and_readme_and_no_solution(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    assert main(["exercises", "init", str(folder)]) == 0
    written = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert written == sorted(["README.md", *(ex.relpath for ex in EXERCISES)])
    expected = expected_files()
    readme = (folder / "README.md").read_text()
    assert readme == expected["exercises/README.md"] and "<!--" not in readme  # no note for maintainers
    for ex in EXERCISES:
        text = (folder / ex.relpath).read_text()
        assert text == expected[f"exercises/{ex.relpath}"]
        assert text != expected[f"solutions/{ex.relpath}"]  # a skeleton, never the answer
        assert "raise NotImplementedError(" in text


def test_init_refuses_a_folder_that_is_not_empty_and_never_overwrites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mine"
    (folder / "structures").mkdir(parents=True)
    mine = folder / "structures" / "array_stack.py"
    mine.write_text("# my own work\n")
    assert main(["exercises", "init", str(folder)]) == 2
    assert "is not empty" in capsys.readouterr().err
    assert main(["exercises", "init", str(folder), "--force"]) == 0
    assert "kept 1 already there" in capsys.readouterr().out
    assert mine.read_text() == "# my own work\n"
    assert (folder / "structures" / "linked_stack.py").is_file()


def test_check_runs_inside_the_folder_init_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "mine"
    assert main(["exercises", "init", str(folder)]) == 0
    capsys.readouterr()
    here = Path.cwd()
    os.chdir(folder)
    try:
        assert main(["check", "1"]) == 1  # the skeleton fails its checks: it was found and run
    finally:
        os.chdir(here)
    out = capsys.readouterr().out
    assert f"Checking {folder.resolve()}" in " ".join(out.split()) and "NotImplementedError" in out  # wrapped at words
