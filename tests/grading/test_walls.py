"""The walls as they really stand, in every tier, against students who know ``/proc``, signals and ``setsid``.

A class of one honest student, one untouched skeleton and one attacker per attack of
:mod:`tests.grading.wall_attacks` is graded with ``solitaire-ds grade``, run as a command the way
an instructor runs it, in each tier of :mod:`tests.grading.tiers`. In each: every attack scores
what its own code earns (0), the honest student keeps full marks and every file of the class is
unchanged, the CSV is written, nothing any student started is still running or left in a
temporary folder, no cgroup is left behind, and every row names the wall. Where no wall can be
built, ``grade`` refuses in one line, and ``--no-sandbox`` grades and says so.

CI runs as root with bubblewrap installed: there, every tier runs; a test that cannot build its
tier fails rather than skips where ``CI`` is set.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from solitaire_ds.course import REPO_ROOT, exercise
from tests.grading.tiers import (
    DOCKER_BWRAP,
    NO_USERNS_BWRAP,
    STUDENT_UID,
    SYSTEM_PATH,
    Tier,
    fake_bwrap,
    install,
    leftover_cgroups,
    need,
)
from tests.grading.wall_attacks import WALL_ATTACKS
from tests.grading.zoo import load_bugs, make_buggy_submission

SOLUTIONS = REPO_ROOT / "solutions"
SKELETONS = REPO_ROOT / "exercises"
MARKER = f"wall{secrets.token_hex(6)}"
CANARY = f"canary{secrets.token_hex(6)}"
HIDDEN_TEST = f"""
from solitaire_ds.course.catalog import load_module


def test_hidden_{CANARY}(impl):
    assert load_module(impl, "shuffle").fisher_yates([], None) is None, "{CANARY}-hidden-test"
"""



def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _make_class(root: Path) -> Path:
    """The class: honest (exercise 7 solved), empty (its skeleton) and one folder per attack on it."""
    root.mkdir(parents=True)
    rel = exercise(7).relpath
    for name, source in (("honest", SOLUTIONS), ("empty", SKELETONS)):
        target = root / name / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, target)
    for name, (_, code) in WALL_ATTACKS.items():
        target = root / name / rel
        target.parent.mkdir(parents=True)
        attack = textwrap.dedent(code).strip().replace("MARKER", MARKER)
        target.write_text((SKELETONS / rel).read_text(encoding="utf-8") + "\n\n" + attack + "\n", encoding="utf-8")
    return root


def _running() -> list[str]:
    """Processes whose command line or working folder names this module's marker."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if MARKER.encode() in (proc / "cmdline").read_bytes():
                found.append(proc.name)
        except OSError:
            continue
    return found


def _junk() -> list[str]:
    places = [Path("/tmp"), Path("/dev/shm"), Path("/var/tmp")]
    return [str(p) for place in places if place.is_dir() for p in place.glob(f"*{MARKER}*")]


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder outside root's closed ones (others may pass through it), removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="solitaire-ds-walls-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def student_install(outside: Path) -> tuple[Path, Path]:
    """An unprivileged user's home and the package installed from its wheel in it, with the system's
    Python (one every user may run): the user's own, mode 700. Root runs it too (the user-id tier),
    and a worker's user id cannot read it (the answer key is out of its reach)."""
    need(os.geteuid() == 0, "the tiers as root, and an unprivileged user's install, need root (CI runs as root)")
    python = f"/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]}"
    need(os.path.exists(python), f"{python} (a Python every user may run) is missing")
    home = outside / "student"
    home.mkdir()
    os.chown(home, STUDENT_UID, STUDENT_UID)
    bin_folder = install(home / "install", python, owner=STUDENT_UID)
    (home / "install").chmod(0o700)
    return home, bin_folder


@pytest.fixture(scope="module")
def user_ids_tier(student_install: tuple[Path, Path], outside: Path) -> Tier:
    """Root, bubblewrap failing as Docker's seccomp makes it fail, no cgroup, a private install."""
    need(shutil.which("unshare") is not None, "unshare (util-linux) makes the run's mount namespace")
    fakes = fake_bwrap(outside / "docker-bin", DOCKER_BWRAP)
    return Tier("user ids", student_install[1], f"{fakes}:{SYSTEM_PATH}", no_cgroup=True)


@pytest.fixture(scope="module")
def bubblewrap_tier() -> Tier:
    """This checkout's own install, with bubblewrap on the PATH."""
    need(shutil.which("bwrap") is not None, "bubblewrap is not installed (apt install bubblewrap)")
    return Tier("bubblewrap", Path(sys.executable).parent, os.environ["PATH"])


def _grade_class(tier: Tier, work: Path) -> tuple[dict[str, list[str]], dict[str, dict], str]:
    """Grade the class of this module in ``tier``; check what every tier must hold; return the CSV's rows,
    each student's results (their JSON) and what the run printed."""
    try:
        return _graded_class(tier, work)
    finally:  # a wall that failed must not leave a poisoned virtual environment behind
        dropped = list(tier.bin.parent.rglob(f"zz_{MARKER}.pth"))
        for path in dropped:
            path.unlink()
        assert dropped == [], f"a worker wrote into the grader's virtual environment: {dropped}"


def _graded_class(tier: Tier, work: Path) -> tuple[dict[str, list[str]], dict[str, dict], str]:
    # the instructor's layout: the class and the tests private, the temporary folder one others may pass
    work.chmod(0o711)
    klass = _make_class(work / "class")
    klass.chmod(0o700)
    tests = work / "instructor"
    tests.mkdir(mode=0o700)
    (tests / "test_ex07_hidden.py").write_text(HIDDEN_TEST, encoding="utf-8")
    temporary = work / "tmp"
    temporary.mkdir(mode=0o711)
    before = _digest(klass)
    tier.env.update(INSTRUCTOR_TOKEN=CANARY, TMPDIR=str(temporary))
    done = tier.run("grade", *sorted(str(p) for p in klass.iterdir()), "--exercise", "7",
                    "--jobs", "2", "--tests", str(tests), "--csv", str(work / "grades.csv"),
                    "--json-dir", str(work / "json"), cwd=work)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = {row[0]: row for row in csv.reader((work / "grades.csv").read_text(encoding="utf-8").splitlines())
            if row[0] != "Points Possible"}
    results = {name: json.loads((work / "json" / f"{name}.json").read_text(encoding="utf-8"))
               for name in rows if name != "submission"}
    assert set(results) == {"honest", "empty", *WALL_ATTACKS}
    # the honest classmate keeps full marks, every file of the class is as it was
    assert rows["honest"][rows["submission"].index("total")] == "10.00", rows["honest"]
    assert _digest(klass) == before
    # every attack earns what its code does: the skeleton's 0
    column = rows["submission"].index("ex07_deck")
    scored = {name: row[column] for name, row in rows.items() if name not in ("submission", "honest")}
    assert set(scored.values()) == {"0.00"}, scored
    # every row names the wall; nothing of the instructor's reached a student's results
    sandbox = rows["submission"].index("sandbox")
    assert len({row[sandbox] for name, row in rows.items() if name != "submission"}) == 1
    everything = json.dumps(results)
    assert CANARY not in everything.replace(f"test_hidden_{CANARY}", "")  # the test's name is no secret
    assert f"{CANARY}-hidden-test" not in everything
    # nothing any student started is running or left behind, however it hid
    time.sleep(0.5)  # a daemon that survived would write its junk again by now
    assert _running() == [] and _junk() == []
    assert list(temporary.iterdir()) == []
    assert leftover_cgroups() == []
    return rows, results, done.stderr


def _message(results: dict[str, dict], name: str, needle: str) -> str:
    """The output of the first failing exercise-7 test of student ``name`` that contains ``needle``."""
    for test in results[name]["tests"]:
        if test["name"].startswith("Exercise 7") and needle in test.get("output", ""):
            return str(test["output"])
    return ""


def test_every_attack_earns_only_its_own_code_behind_bubblewrap(bubblewrap_tier: Tier, outside: Path) -> None:
    work = outside / "bubblewrap"
    work.mkdir()
    rows, results, printed = _grade_class(bubblewrap_tier, work)
    assert "sandbox: bubblewrap" in rows["honest"][rows["submission"].index("sandbox")]
    assert "grade: sandbox: bubblewrap" in printed
    uid = _message(results, "snoop", "uid=").split("uid=")[1].split()[0]
    assert uid != "0"  # inside, nobody; outside, as root, a user id of its own
    forks = int(_message(results, "forker", "forks allowed").split("forks allowed: ")[1].split()[0])
    assert forks < 64


def test_every_attack_earns_only_its_own_code_as_root_without_namespaces(user_ids_tier: Tier,
                                                                         outside: Path) -> None:
    work = outside / "user-ids"
    work.mkdir()
    rows, results, printed = _grade_class(user_ids_tier, work)
    wall = rows["honest"][rows["submission"].index("sandbox")]
    assert wall.startswith("sandbox: a user id per exercise, no namespaces (bubblewrap: Creating new namespace "
                           "failed: Operation not permitted); no cgroup"), wall
    assert wall in printed
    uid = int(_message(results, "snoop", "uid=").split("uid=")[1].split()[0])
    assert 60600 <= uid < 61100  # a user id of the pool, never root
    forks = int(_message(results, "forker", "forks allowed").split("forks allowed: ")[1].split()[0])
    assert forks < 64  # no cgroup: RLIMIT_NPROC holds the user id's processes


def test_as_root_without_namespaces_grading_refuses_what_it_cannot_keep_private(user_ids_tier: Tier,
                                                                               outside: Path) -> None:
    work = outside / "readable"
    work.mkdir(mode=0o755)
    shutil.copytree(SOLUTIONS, work / "alice")  # every user may read it, as a folder made by default is
    done = user_ids_tier.run("grade", str(work / "alice"), "--exercise", "7", "--csv", str(work / "grades.csv"),
                             cwd=work)
    assert done.returncode == 2, done.stdout + done.stderr
    (line,) = done.stderr.splitlines()
    assert line == ("solitaire-ds grade: error: no sandbox here: bubblewrap: Creating new namespace failed: Operation "
                    f"not permitted, and as root: {work / 'alice'} can be read by every user, so a student's code "
                    f"could read it: make it private (chmod -R go-rwx {work / 'alice'}). Fix that, or install "
                    "bubblewrap, or pass --no-sandbox to grade without a wall (see solitaire-ds grade --help)")
    assert not (work / "grades.csv").exists()
    # and this checkout's own install, where every user may read it: the answer key would be in reach
    readable = all(os.stat(p).st_mode & 0o005 for p in (REPO_ROOT / "solitaire_ds", *REPO_ROOT.parents))
    if readable:
        work.chmod(0o711)
        (work / "alice").chmod(0o700)
        mine = Tier("this checkout", Path(sys.executable).parent, user_ids_tier.path, no_cgroup=True)
        done = mine.run("grade", str(work / "alice"), "--exercise", "7", cwd=work)
        assert done.returncode == 2 and f"{REPO_ROOT / 'solitaire_ds'} can be read by every user" in done.stderr


def test_a_checkout_and_a_wheel_install_give_the_same_results(student_install: tuple[Path, Path],
                                                               outside: Path) -> None:
    # the same buggy file, graded by this checkout and by the package installed from its wheel:
    # the same examples, so the same failing example and message, whatever Hypothesis counts as
    # local code (it mines constants from a checkout's source, never from site-packages)
    bug = next(b for b in load_bugs() if b.name == "01_stack_resize_copies_reversed")
    work = outside / "same-anywhere"
    make_buggy_submission(bug, work / "class" / "buggy")
    secret = work / "secret"
    secret.write_bytes(bytes(range(32)))
    found = []
    for name, bin_folder in (("checkout", Path(sys.executable).parent), ("wheel", student_install[1])):
        tier = Tier(name, bin_folder, os.environ["PATH"])
        done = tier.run("grade", str(work / "class" / "buggy"), "--exercise", "1", "--secret", str(secret),
                        "--json", str(work / f"{name}.json"), cwd=work)
        assert done.returncode == 0, done.stderr
        results = json.loads((work / f"{name}.json").read_text(encoding="utf-8"))
        results.pop("execution_time")
        found.append(results)
    assert found[0] == found[1]
    assert 0 < found[0]["score"] < 10  # the bug was caught, with its examples


def test_without_root_or_bubblewrap_grade_refuses_and_no_sandbox_grades_and_says_so(
        student_install: tuple[Path, Path], outside: Path) -> None:
    home, bin_folder = student_install
    fakes = fake_bwrap(outside / "locked-down-bin", NO_USERNS_BWRAP)
    tier = Tier("unprivileged", bin_folder, f"{fakes}:{SYSTEM_PATH}", uid=STUDENT_UID)
    klass = home / "class"
    for name, source in (("honest", SOLUTIONS), ("empty", SKELETONS)):
        target = klass / name / exercise(7).relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / exercise(7).relpath, target)
    for path in [klass, *klass.rglob("*")]:
        os.chown(path, STUDENT_UID, STUDENT_UID)
    refused = tier.run("grade", str(klass / "honest"), "--csv", str(home / "grades.csv"), cwd=home)
    assert refused.returncode == 2
    (line,) = refused.stderr.splitlines()
    said = NO_USERNS_BWRAP.replace("bwrap: ", "bubblewrap: ").rstrip(".")
    assert line == (f"solitaire-ds grade: error: no sandbox here: {said}, and the grader is not root, so "
                    "it cannot run each student's code as a user id of its own. Install bubblewrap (Debian and "
                    "Ubuntu: apt install bubblewrap), or grade as root, or pass --no-sandbox to grade without a "
                    "wall (see solitaire-ds grade --help)")
    assert not (home / "grades.csv").exists() and not (home / ".config").exists()  # a refusal makes nothing
    done = tier.run("grade", "--no-sandbox", str(klass / "honest"), str(klass / "empty"), "--exercise", "7",
                    "--csv", str(home / "grades.csv"), cwd=home)
    assert done.returncode == 0, done.stderr
    rows = [row for row in csv.reader((home / "grades.csv").read_text(encoding="utf-8").splitlines())
            if row[0] != "Points Possible"]
    assert rows[0][-1] == "sandbox" and rows[1][:4][2:] == ["10.00", "10.00"] and rows[2][2] == "0.00"
    assert all(row[-1].startswith("not sandboxed (--no-sandbox)") for row in rows[1:])
    assert "solitaire-ds grade: not sandboxed (--no-sandbox)" in done.stderr


BUSY = """
import os as _os, sys as _sys

if _os.fork() == 0:  # a daemon of its own, that a wall must end with the run
    _os.setsid()
    _os.execv(_sys.executable, [_sys.executable, "-S", "-c", "import time; time.sleep(60)", "MARKER"])


def fisher_yates(items, rng):
    while True:
        pass
"""


@pytest.mark.parametrize(("tier_name", "how"), [("bubblewrap", "ctrl-c"), ("user ids", "sigterm")])
def test_ctrl_c_or_sigterm_ends_every_judge_worker_and_sandbox_of_the_run(
        request: pytest.FixtureRequest, outside: Path, tier_name: str, how: str) -> None:
    tier: Tier = request.getfixturevalue("bubblewrap_tier" if tier_name == "bubblewrap" else "user_ids_tier")
    work = outside / f"interrupted-{how}"
    work.mkdir(mode=0o711)
    klass = work / "class"
    klass.mkdir(mode=0o700)
    for number in range(4):
        target = klass / f"busy{number}" / exercise(7).relpath
        target.parent.mkdir(parents=True)
        target.write_text(BUSY.replace("MARKER", MARKER), encoding="utf-8")
    temporary = work / "tmp"
    temporary.mkdir(mode=0o711)
    env = {"PATH": tier.path, "HOME": str(work), "LANG": "C.UTF-8", "TMPDIR": str(temporary)}
    process = subprocess.Popen(tier.command("grade", *sorted(map(str, klass.iterdir())), "--exercise", "7",
                                            "--jobs", "2", "--csv", str(work / "grades.csv")),
                               cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # its own process group, as a terminal's foreground job
    try:
        deadline = time.monotonic() + 120
        while len(_of_run(temporary)) < 2 and _running() == []:  # judges and their workers are busy
            assert process.poll() is None and time.monotonic() < deadline, "the run never got going"
            time.sleep(0.2)
        time.sleep(1)
        if how == "ctrl-c":
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == (130 if how == "ctrl-c" else 143), err
    assert err.splitlines()[-1] == ("solitaire-ds: interrupted" if how == "ctrl-c" else "solitaire-ds: terminated")
    assert "Traceback" not in err
    time.sleep(0.5)
    assert _of_run(temporary) == [] and _running() == []  # every judge, sandbox and worker, every daemon
    assert list(temporary.iterdir()) == [] and leftover_cgroups() == []
    assert not (work / "grades.csv").exists()  # an interrupted run writes no half gradebook


def _of_run(temporary: Path) -> list[str]:
    """The processes whose command line names the run's temporary folder: judges, sandboxes, workers."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(temporary).encode() in (proc / "cmdline").read_bytes():
                found.append(proc.name)
        except OSError:
            continue
    return found
