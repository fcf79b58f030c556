"""The games on decks nobody knows in advance: drawn for each file, with a secret only the judge holds.

Exercises 8-12 play their public decks and decks drawn for the file under test from the
grading secret (the public key without one), against the package's own games, which the
judge plays. These tests grade the replay cheat of ``attacks_decks`` (it scored 10/10 while
the decks were public), the solutions with a fresh secret, and a file that looks for the
secret wherever its worker can look; and the ``--secret`` option of ``grade`` and of the
Gradescope bundle. Grading runs in the sandbox (CI installs bubblewrap; a test that needs
it fails, not skips, where it is missing and ``CI`` is set).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import stat
import zipfile
from pathlib import Path
from typing import Any

import pytest

from solitaire_ds.cli import main
from solitaire_ds.course import exercise
from solitaire_ds.course.contracts.drawn import PUBLIC_KEY, Draw
from solitaire_ds.course.contracts.test_ex08_perpetual_motion import in_fours
from solitaire_ds.course.grader import runner as runner_module
from solitaire_ds.course.grader.runner import Limits, grade_many, grade_submission
from solitaire_ds.course.grader.walls import Wall
from solitaire_ds.course.results import SubmissionResult
from solitaire_ds.course.secret import SECRET_BYTES
from tests.grading.attacks_decks import ATTACKS
from tests.grading.conftest import TIERS
from tests.grading.submissions import SOLUTIONS, make_submission

LIMITS = Limits()
#: Two secrets as random as any (not bytes 0, 1, 2, ..., which many a binary file holds).
SECRET = hashlib.sha256(b"a course's grading secret").digest()
OTHER = hashlib.sha256(b"another course's grading secret").digest()
#: The deck a failure message names for the game to see (the drawn decks give one).
_DECK_SHOWN = re.compile(r"--deck '([^']+)'")


def _handed_in(root: Path, name: str, number: int, code: str) -> Path:
    target = root / name / exercise(number).relpath
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(code, encoding="utf-8")
    return root / name


def _decks_named(result: SubmissionResult, number: int) -> list[str]:
    return [found.group(1) for f in result.result(number).failures for found in _DECK_SHOWN.finditer(f.message)]


# -- the draw itself --------------------------------------------------------------------------


def test_the_decks_depend_on_the_key_the_label_and_the_file_only() -> None:
    draw = Draw(SECRET, "games/aces_up.py", b"class AcesUp: ...\n")
    first = [d.deck for d in draw.decks("shuffled", 3)]
    assert first == [d.deck for d in Draw(SECRET, "games/aces_up.py", b"class AcesUp: ...\n").decks("shuffled", 3)]
    assert len(set(first)) == 3
    others = [Draw(OTHER, "games/aces_up.py", b"class AcesUp: ...\n"), Draw(PUBLIC_KEY, "games/aces_up.py", b""),
              Draw(SECRET, "games/aces_up.py", b"class AcesUp: ...\n\n")]
    for other in others:
        assert not set(first) & {d.deck for d in other.decks("shuffled", 3)}
    assert first[0] != draw.deck("won", 1).deck
    # the derivation is part of the contract (a student's check draws what it drew last year)
    assert str(Draw(PUBLIC_KEY, "games/aces_up.py", b"").deck("shuffled", 1).deck).startswith("6D TS 4C 3H 4D")


# -- cheats earn what their own code does ----------------------------------------------------------


@pytest.mark.parametrize("tier", TIERS, indirect=True)
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_file_that_replays_the_public_decks_earns_only_what_its_code_does(
        tmp_path: Path, tier: Wall, name: str) -> None:
    attack = ATTACKS[name]
    twice = [_handed_in(tmp_path, f"{name}_{n}", attack.exercise, attack.code) for n in (1, 2)]
    public, = grade_many(twice[:1], [exercise(attack.exercise)], LIMITS, sandbox=tier)
    first, again = grade_many(twice, [exercise(attack.exercise)], LIMITS, jobs=2, secret=SECRET, sandbox=tier)
    other, = grade_many(twice[:1], [exercise(attack.exercise)], LIMITS, secret=OTHER, sandbox=tier)
    for result in (public, first, again, other):
        assert result.result(attack.exercise).score <= attack.most, (name, result.result(attack.exercise).summary)
    # the same file gets the same decks and the same score; another secret draws other decks
    assert first.result(attack.exercise).score == again.result(attack.exercise).score
    assert _decks_named(first, attack.exercise) == _decks_named(again, attack.exercise) != []
    assert not set(_decks_named(first, attack.exercise)) & set(_decks_named(other, attack.exercise))
    if attack.exercise != 8:
        return
    # each deck named is one drawn for this very file with the key given (the public one without a secret)
    rel = exercise(attack.exercise).relpath
    for key, result in ((PUBLIC_KEY, public), (SECRET, first), (OTHER, other)):
        draw = Draw(key, rel, attack.code.encode())
        drawn = {str(d.deck) for d in draw.decks("deals", 2)}
        drawn |= {str(in_fours(d).deck) for d in draw.decks("fours of a kind", 2)}
        assert set(_decks_named(result, attack.exercise)) <= drawn
        assert f"drawn for your {rel}" in result.result(attack.exercise).summary


def test_the_solutions_score_full_marks_with_any_secret(sandboxed: Wall) -> None:
    secret = secrets.token_bytes(SECRET_BYTES)  # a new one each run: the decks vary from run to run
    result = grade_submission(SOLUTIONS, [exercise(n) for n in range(8, 13)], LIMITS, secret=secret)
    lost = {r.exercise.number: r.summary for r in result.exercises if r.score != r.max_score}
    assert not lost, f"with the secret {secret.hex()}, the solutions lost points: {lost}"


# -- the secret stays in the judge -------------------------------------------------------------------

#: Appended to exercise 8's solution: looks for the secret in its environment, its arguments,
#: every process's command line and environment it can read, and the files around it; if it
#: finds it, the file does not import (0 points), else it is the solution (10). The secret is
#: put together at run time, so the file itself never holds it.
SNOOP = """
import os as _os
import sys as _sys


def _found(halves):
    needles = [(halves[0] + halves[1]).encode(), bytes.fromhex(halves[0] + halves[1])]
    seen = [repr(dict(_os.environ)).encode(), repr(_sys.argv).encode()]
    for pid in _os.listdir("/proc"):
        for name in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as file:
                    seen.append(file.read(1 << 20))
            except OSError:
                pass
    if any(n in s for n in needles for s in seen):
        return True
    read = 0
    for top in (_os.path.dirname(_os.path.dirname(_os.getcwd())), "/tmp", "/"):
        for folder, subfolders, files in _os.walk(top, onerror=lambda error: None):
            subfolders[:] = [s for s in subfolders if _os.path.join(folder, s) not in ("/proc", "/sys", "/dev", "/usr")]
            for name in files:
                read += 1
                if read > 20000:
                    return False
                try:
                    with open(_os.path.join(folder, name), "rb") as file:
                        data = file.read(1 << 20)
                except OSError:
                    continue
                if any(n in data for n in needles):
                    return True
    return False


if _found(HALVES):
    raise ImportError("found the grading secret")
"""


def _snoop(root: Path, secret: bytes) -> Path:
    text = secret.hex()
    return make_submission(root, "snoop", {8: SNOOP.replace("HALVES", repr((text[:32], text[32:])))})


def test_the_worker_never_sees_the_secret(tmp_path: Path, sandboxed: Wall) -> None:
    (result,) = grade_many([_snoop(tmp_path, SECRET)], [exercise(8)], LIMITS, secret=SECRET)
    assert result.result(8).score == 10, result.result(8).summary


def test_without_a_wall_the_same_search_finds_it(tmp_path: Path) -> None:
    # shows that the search above can succeed: with no wall, the worker is the grader's own user
    (result,) = grade_many([_snoop(tmp_path, SECRET)], [exercise(8)], LIMITS, sandbox="none", secret=SECRET)
    assert result.result(8).score == 0 and "found the grading secret" in result.result(8).reason


# -- the option and the bundle ----------------------------------------------------------------------


def _caught(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Replace grading with a stub that keeps the secret it is given."""
    given: list[Any] = []

    def grade(*args: Any, secret: bytes | None = None, **kwargs: Any) -> list[SubmissionResult]:
        given.append(args[8] if len(args) > 8 else secret)
        return []

    monkeypatch.setattr(runner_module, "grade_many", grade)
    return given


def test_grade_makes_a_secret_on_first_use_and_says_so_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    given = _caught(monkeypatch)
    assert main(["grade", str(SOLUTIONS), "--exercise", "8"]) == 0
    path = tmp_path / "config" / "solitaire-ds" / "grading-secret"
    said = capsys.readouterr().err
    assert "made a grading secret in" in said and str(path) in said
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert main(["grade", str(SOLUTIONS), "--exercise", "8"]) == 0
    assert "grading secret" not in capsys.readouterr().err
    assert given == [path.read_bytes()] * 2 and len(given[0]) == SECRET_BYTES
    mine = tmp_path / "ours"
    mine.write_bytes(OTHER)
    assert main(["grade", str(SOLUTIONS), "--exercise", "8", "--secret", str(mine)]) == 0
    assert given[-1] == OTHER


@pytest.mark.parametrize(("content", "said"), [
    (None, "cannot read the grading secret"),
    (b"", "is empty"),
    (b"x" * (SECRET_BYTES - 1), f"is not a grading secret: it holds {SECRET_BYTES - 1} bytes"),
    (b"[defaults]\npoints = 10\n" * 3, f"is not a grading secret: it holds more than {SECRET_BYTES} bytes"),
    ("folder", "cannot read the grading secret"),
], ids=["missing", "empty", "short", "a-course-file", "a-folder"])
def test_a_secret_that_is_not_one_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        content: bytes | str | None, said: str) -> None:
    given = _caught(monkeypatch)
    path = tmp_path / "secret"
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    for command in (["grade", str(SOLUTIONS)], ["autograder", "gradescope", "--out", str(tmp_path / "a.zip")]):
        assert main([*command, "--secret", str(path)]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    assert given == [] and not (tmp_path / "a.zip").exists()


def test_the_bundle_carries_the_secret_and_its_run_grades_with_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from solitaire_ds.course import gradescope

    mine = tmp_path / "ours"
    mine.write_bytes(SECRET)
    bundle = tmp_path / "autograder.zip"
    assert main(["autograder", "gradescope", "--exercises", "8", "--out", str(bundle), "--secret", str(mine)]) == 0
    with zipfile.ZipFile(bundle) as archive:
        assert archive.read("secret") == SECRET
        assert stat.S_IMODE(archive.getinfo("secret").external_attr >> 16) == 0o600
        archive.extractall(tmp_path / "autograder" / "source")
    given = _caught(monkeypatch)
    monkeypatch.setenv("SOLITAIRE_DS_AUTOGRADER_ROOT", str(tmp_path / "autograder"))
    (tmp_path / "autograder" / "submission").mkdir()
    assert gradescope.run(tmp_path / "autograder" / "source") == 0
    assert given == [SECRET], capsys.readouterr().out
    assert stat.S_IMODE((tmp_path / "autograder" / "source" / "secret").stat().st_mode) == 0o600
