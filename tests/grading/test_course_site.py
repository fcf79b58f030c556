"""The course file's ``site``: where ``check`` says the tutorials are."""

from __future__ import annotations

from pathlib import Path

import pytest

from solitaire_ds.cli import course as course_commands
from solitaire_ds.cli import main
from solitaire_ds.course import REPO_ROOT, config
from solitaire_ds.course.config import CourseError, load_course

SITE = "https://example.org/solitaire-ds/"


def _course(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "course.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_site_is_read_and_is_optional(tmp_path: Path) -> None:
    assert load_course(_course(tmp_path, f'site = "{SITE}"\n[defaults]\npoints = 10\n')).site == SITE
    assert load_course(None).site is None  # the shipped course sets none


@pytest.mark.parametrize("value", ['"example.org"', "5", '"https://a b/"', '"https://x\\u001b[2J/"',
                                   '"https://' + "a" * 200 + '/"', "['https://x/']"])
def test_a_site_that_is_not_an_address_is_refused_in_one_line(tmp_path: Path, value: str) -> None:
    path = _course(tmp_path, f"site = {value}\n")
    with pytest.raises(CourseError) as caught:
        load_course(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: site must be an address starting https:// or http://, not ")
    assert "\n" not in message and "\x1b" not in message and len(message) < 300


def test_check_names_the_site_the_installed_course_file_sets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(config, "DEFAULT_COURSE", _course(tmp_path, f'site = "{SITE}"\n'))
    assert main(["check", "1", "--impl", str(REPO_ROOT / "solutions")]) == 0
    out = capsys.readouterr().out
    assert f'Its tutorial, "Exercise 2": {SITE}\nWhen it is written, run:\n  solitaire-ds check 2' in out


def test_without_a_site_check_names_the_docs_command_in_a_clone_else_the_instructor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert course_commands._tutorials() == "on the site `solitaire-ds docs` serves"
    monkeypatch.setattr(course_commands, "REPO_ROOT", tmp_path)  # an installed wheel: no mkdocs.yml
    assert course_commands._tutorials() == "on your course's site (ask your instructor where)"
    monkeypatch.setattr(config, "DEFAULT_COURSE", _course(tmp_path, f'site = "{SITE}"\n'))
    assert course_commands._tutorials() == SITE
