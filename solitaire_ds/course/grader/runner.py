"""The runner: a submission's grade, from a judge process that never runs the student's code.

Invariant: the runner never imports a submission, and no submission can change a
verdict. Before anything is graded it chooses the wall the students' code will run
behind and sees it hold (:mod:`~solitaire_ds.course.grader.walls`); an instructor's run
that finds none refuses. For each submission it copies the student's files (regular
files only, each at most :data:`MAX_FILE_BYTES`), gives each exercise a folder of its own
(the worker's copy of the package, in which the graded modules are skeletons, and the
copy of the submission it is shown; behind a wall of user ids, readable by that
exercise's id alone), and starts one *judge* process
(:mod:`~solitaire_ds.course.grader.launch`): pytest with the contract tests, the
instructor's tests and the judge plugin (:mod:`~solitaire_ds.course.grader.judge`). The
judge starts each exercise's *worker* behind the wall, asks it for plain data, and
reports a verdict per test over a pipe only it holds; the runner reads that report with
bounds (:class:`~solitaire_ds.course.grader.events.Event`) and scores it.

Limits are counted in CPU time of the workers (per test, per exercise, per submission:
:class:`~solitaire_ds.course.results.Limits`), so a busy machine gives the same grade as
an idle one; a wall-clock limit on the judge is only a backstop against a fault of the
grader itself.

The denominators come from collecting the tests, which the student's code cannot touch:
the judge never imports it. Graded code much like the reference's or another submission's
of the same run, a graded class not written in the student's own file, and a structure kept
in a Python list it grows item by item get notes for the instructor
(:mod:`solitaire_ds.course.similarity`, :mod:`solitaire_ds.course.honesty`).

No class run ends early: every step the runner takes for one submission outside the judge
(copying, reading for the notes, comparing, naming) is bounded and a failure there is a
note on that submission (or, for the comparison, on the class's rows); a submission the
grader fails on altogether is a row of zeros that says why. Names that are not UTF-8 are
written with ``\\xNN`` escapes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from solitaire_ds.course.catalog import EXERCISES, REPO_ROOT, Exercise, resolve_impl
from solitaire_ds.course.config import Course
from solitaire_ds.course.grader.events import Event
from solitaire_ds.course.grader.launch import JUDGE_INI, Interrupted, judge_arguments, run_judge, stop_all, stopping
from solitaire_ds.course.grader.plan import JudgeConfig, exercise_number, test_name
from solitaire_ds.course.grader.sandbox import TreeLimit
from solitaire_ds.course.grader.scoring import (
    JudgeRun,
    collected_ids,
    exercise_score,
    last_line,
    portable,
    read_events,
)
from solitaire_ds.course.grader.submission import (
    MAX_FILE_BYTES,
    compare,
    copy_submission,
    graded_names_of,
    read_code,
    skeletons,
)
from solitaire_ds.course.grader.users import UserIds, passable_temp
from solitaire_ds.course.grader.walls import Guarded, Policy, Wall, WallError, choose_wall
from solitaire_ds.course.markers import exercise_view
from solitaire_ds.course.results import ExerciseResult, Limits, SubmissionResult
from solitaire_ds.text import safe_name, safe_text

__all__ = [
    "JUDGE_INI",
    "MAX_FILE_BYTES",
    "GradingError",
    "Guarded",
    "Interrupted",
    "JudgeRun",
    "Limits",
    "Reference",
    "Wall",
    "WallError",
    "available_exercises",
    "collected_ids",
    "contracts_dir",
    "copy_submission",
    "exercise_score",
    "grade_many",
    "grade_submission",
    "graded_names_of",
    "guarding",
    "judge_arguments",
    "read_events",
    "reference_tests",
    "stop_all",
    "wall_for",
    "worker_files",
]

#: How long the judge itself may take on the wall clock beyond waiting for its workers (starting
#: pytest and Hypothesis, collecting, checking): a backstop against a fault of the grader, added
#: to the submission's own wall-clock ceiling (``Limits.submission_wall_seconds``), which is
#: what ends a submission whose code keeps the judge waiting.
_JUDGE_OWN_WALL = 180.0
#: Where the runner's user ids come from (made when a run needs them).
_USERS: list[UserIds] = []


class GradingError(Exception):
    """The grader itself cannot run (no contract tests, an instructor test that does not import): says why."""


@dataclass(frozen=True)
class Reference:
    """The tests each available exercise has (collected; no student code involved), in order."""

    tests: dict[int, tuple[str, ...]]
    problems: dict[int, str] = field(default_factory=dict)


def contracts_dir(root: Path = REPO_ROOT) -> Path:
    """Return the contract tests' folder, ``solitaire_ds/course/contracts`` under ``root``.

    They ship inside the package; raise :class:`GradingError` when they are missing all the
    same (a damaged install).
    """
    folder = root / "solitaire_ds" / "course" / "contracts"
    if not folder.is_dir():
        raise GradingError(
            f"the contract tests were not found in {folder}; reinstall solitaire-ds "
            "(pip install --force-reinstall solitaire-ds)"
        )
    return folder


def available_exercises(numbers: Iterable[int] | None = None) -> list[Exercise]:
    """Return the exercises (all, or those numbered) whose contract test file exists."""
    contracts_dir()
    wanted = None if numbers is None else set(numbers)
    return [
        ex
        for ex in EXERCISES
        if (wanted is None or ex.number in wanted) and (REPO_ROOT / ex.test_file).is_file()
    ]


def wall_for(policy: Policy, guarded: Guarded | None = None) -> Wall:
    """Return the wall to grade behind (:func:`~solitaire_ds.course.grader.walls.choose_wall`);
    raise :class:`GradingError` with its one line when ``policy`` asks for a wall and none holds."""
    try:
        return choose_wall(policy, guarded)
    except WallError as exc:
        raise GradingError(str(exc)) from None


# -- the package as graders and workers see it ----------------------------------------------


#: What of the course a worker holds: the worker, its messages, and the module loader.
_WORKER_COURSE = ("course/__init__.py", "course/catalog.py", "course/grader/__init__.py",
                  "course/grader/worker.py", "course/grader/messages.py")


@cache
def worker_files(ex: Exercise) -> tuple[tuple[str, bytes], ...]:
    """Return the package copy exercise ``ex``'s worker gets: no answer key, no test, no judge.

    Every module of ``solitaire_ds`` but the course and the command line, plus the worker's
    own few modules; the module ``ex`` grades is its skeleton (the exercise view), and for
    a structure exercise (1-6) all six structure modules are, so one structure cannot be
    built by wrapping another's reference class.

    Runtime complexity: O(size of the package), once per exercise.
    """
    root = REPO_ROOT / "solitaire_ds"
    family = {e.relpath for e in EXERCISES
              if e.relpath == ex.relpath or (ex.number <= 6 and e.relpath.startswith("structures/"))}
    files = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if "__pycache__" in rel or (rel.startswith(("course/", "cli/")) and rel not in _WORKER_COURSE):
            continue
        if rel in ("conftest.py",):
            continue
        text = path.read_text(encoding="utf-8")
        if rel in family:
            text = exercise_view(text, f"solitaire_ds/{rel}")
        files.append((f"solitaire_ds/{rel}", text.encode("utf-8")))
    return tuple(files)


def _write_files(folder: Path, files: Iterable[tuple[str, bytes]]) -> None:
    for rel, data in files:
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def _seal(folder: Path, group: int | None) -> None:
    """Make ``folder`` read-only: for everybody (``group`` None), or for root and ``group`` alone."""
    for path in [folder, *folder.rglob("*")]:
        if group is None:
            path.chmod(0o555 if path.is_dir() else 0o444)
        else:
            os.chown(path, 0, group, follow_symlinks=False)
            path.chmod(0o550 if path.is_dir() else 0o440)




# -- the reference: what tests there are ------------------------------------------------------


_REFERENCE_CACHE: dict[tuple[int, str], tuple[str, ...] | str] = {}


def reference_tests(
    exercises: Sequence[Exercise], limits: Limits | None = None, course: Course | None = None
) -> Reference:
    """Collect the tests of ``exercises`` (the contract's and the ``course``'s own).

    Each exercise is collected once for the life of the process. Collecting never runs a
    student's code. An instructor test file that does not import raises
    :class:`GradingError` naming it; an exercise whose contract file collects no test is
    explained in :attr:`Reference.problems`.
    """
    course = course or Course()
    available = {ex.number for ex in available_exercises()}
    keys = {ex.number: (ex.number, course.tests_key(ex.number)) for ex in exercises}
    missing = [ex for ex in exercises if ex.number in available and keys[ex.number] not in _REFERENCE_CACHE]
    if missing:
        with tempfile.TemporaryDirectory(prefix="solitaire-ds-collect-") as tmp:
            files = _test_files(missing, course, Path(tmp))
            config = JudgeConfig(results=Path(tmp) / "results.jsonl", limits=limits or Limits(), graded={})
            run = run_judge(files, config, Path(tmp), wall=300.0, collect_only=True)
        ids = next((list(e.ids) for e in run.events if e.kind == "collected"), None)
        if ids is None:
            raise GradingError(f"collecting the contract tests failed: {last_line(run.output)}")
        for event in run.events:
            if event.kind == "broken":
                raise GradingError(event.message)
        for ex in missing:
            mine = tuple(i for i in ids if exercise_number(i.split("::")[0]) == ex.number)
            _REFERENCE_CACHE[keys[ex.number]] = mine or f"{ex.test_file} holds no tests"
    tests: dict[int, tuple[str, ...]] = {}
    problems: dict[int, str] = {}
    for ex in exercises:
        found = _REFERENCE_CACHE.get(keys[ex.number], f"{ex.test_file} is missing")
        if isinstance(found, str):
            problems[ex.number] = found
        else:
            tests[ex.number] = tuple(portable(i) for i in found)
    return Reference(tests, problems)



def _test_files(exercises: Sequence[Exercise], course: Course, tmp: Path) -> list[str]:
    """Return the test files to run for ``exercises``: each contract file, then the instructor's
    (written under ``tmp/instructor/``; the judge imports them from there)."""
    files: list[str] = []
    for ex in exercises:
        files.append(str(REPO_ROOT / ex.test_file))
        for rel in course.test_files(ex.number):
            target = tmp / "instructor" / Path(rel).name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(course.tests[rel])
            files.append(str(target))
    return files



def grade_submission(
    path: str | Path,
    exercises: Sequence[Exercise] | None = None,
    limits: Limits | None = None,
    reference: Reference | None = None,
    sandbox: Policy = "best",
    course: Course | None = None,
    guarded: Guarded | None = None,
    secret: bytes | None = None,
) -> SubmissionResult:
    """Grade the folder ``path`` on ``exercises`` (every available one when omitted).

    ``course`` sets the points, the test weights and the instructor's own tests (the
    shipped default when omitted). ``sandbox`` says which wall to grade behind: the best
    there is (``"best"``, what ``check`` uses), a wall or a refusal (``"required"``), or none
    (``"none"``). The games' tests draw decks for the submission's files with the key
    ``secret`` (the public key when None, as ``check`` does). Raise :class:`GradingError`
    when the folder does not exist, the grader cannot run, or no wall holds where one is
    required.
    """
    stopping(clear=True)
    wall = wall_for(sandbox, guarding([path], guarded))
    with _user_ids(wall, 1) as users:
        return _grade(path, exercises, limits, reference, wall, course or Course(), users, secret)[0]


@contextlib.contextmanager
def _user_ids(wall: Wall, judges: int) -> Iterator[list[int]]:
    """Hold two user ids per judge that may run at once (none unless ``wall`` uses them)."""
    if not wall.users:
        yield []
        return
    if not _USERS:
        _USERS.append(UserIds(wall.python))
    try:
        taken = _USERS[0].take(2 * judges)
    except OSError as exc:
        raise GradingError(f"cannot grade as user ids of their own: {exc}") from None
    try:
        yield taken
    finally:
        _USERS[0].give_back(taken)


def guarding(paths: Sequence[str | Path], guarded: Guarded | None) -> Guarded:
    """``guarded``, with the submission folders among what a worker must not read."""
    guarded = guarded or Guarded()
    folders = tuple(Path(p).resolve() for p in paths)
    return Guarded(guarded.private + folders, guarded.trusted)


def _grade(
    path: str | Path,
    exercises: Sequence[Exercise] | None,
    limits: Limits | None,
    reference: Reference | None,
    wall: Wall,
    course: Course,
    users: Sequence[int] = (),
    secret: bytes | None = None,
) -> tuple[SubmissionResult, dict[int, frozenset[int]]]:
    """Grade one folder behind ``wall`` (workers as ``users``, two ids taking turns by exercise),
    the games on decks drawn with ``secret``; return its result and the shingles of each
    exercise's own graded code."""
    started = time.monotonic()
    limits = limits or Limits()
    try:
        folder = resolve_impl(str(path))
    except Exception as exc:
        raise GradingError(str(exc)) from None
    if not isinstance(folder, Path):
        raise GradingError(f"{path!r} is the package itself; give the folder of a submission")
    if exercises is None:
        exercises = available_exercises()
    if course.tests and reference is None:
        reference = reference_tests(exercises, limits, course)  # refuses instructor files that do not import
    available = {ex.number for ex in available_exercises()}
    runnable = [ex for ex in exercises if ex.number in available]
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-grade-", dir=passable_temp() if wall.users else None) as name:
        tmp = Path(name)
        own_folder = tmp / "judge"  # the judge's alone, whatever the wall
        own_folder.mkdir(mode=0o700)
        if wall.users:
            tmp.chmod(0o711)  # workers' user ids may pass through to their own folders, and list nothing
        copy, problems, copied = copy_submission(folder, runnable, own_folder / "submission")
        notes.extend(copied)
        to_run = [ex for ex in runnable if ex.number not in problems]
        own = read_code(copy, to_run, notes)
        untouched = skeletons(copy, to_run)
        run = _judge(to_run, copy, tmp, limits, wall, course, users, secret) if to_run else None
    collected = reference.tests if reference is not None else collected_ids(run, exercises)
    results = []
    for ex in exercises:
        if ex.number not in available:
            continue
        ids = collected.get(ex.number, ())
        if ex.number in problems or not ids:
            why = problems.get(ex.number) or f"exercise {ex.number} has no tests"
            results.append(ExerciseResult(course.exercise(ex), 0, len(ids), reason=why))
            continue
        assert run is not None
        scored = exercise_score(course, ex, ids, run, limits)
        skeleton = ex.number in untouched and scored.passed == 0  # a skeleton that passes a test says so
        results.append(dataclasses.replace(scored, not_started=True) if skeleton else scored)
    if run is not None and run.unreadable:
        notes.append(f"the judge's report had {run.unreadable} unreadable lines (the grade counts the others)")
    seconds = round(time.monotonic() - started, 2)
    name_of = safe_name(Path(path).name or str(path))  # a folder's name may not be UTF-8
    cpu = round(run.cpu, 2) if run is not None else 0.0
    return SubmissionResult(name_of, safe_name(str(path), 2000), tuple(results), tuple(notes), seconds, cpu,
                            sandbox=wall.describe()), own


def _judge(exercises: Sequence[Exercise], submission: Path, tmp: Path, limits: Limits,
           wall: Wall, course: Course, users: Sequence[int], secret: bytes | None = None) -> JudgeRun:
    """Run the judge on ``exercises`` of the copied ``submission``; return its report.

    Each exercise gets a folder of its own in ``tmp``: its worker's copy of the package, the
    copy of the submission it is shown, and its working folder. Behind a wall of user ids
    (two, taking turns, so that the next exercise's worker can start while one ends), the
    first two are readable by root and that exercise's id alone, and the working folder is
    the id's own.
    """
    own = tmp / "judge"
    code, shown, scratch, uid_of = {}, {}, {}, {}
    for index, ex in enumerate(exercises):
        folder = tmp / f"ex{ex.number:02d}"
        folder.mkdir()
        code[ex.number], scratch[ex.number] = folder / "code", folder / "scratch"
        _write_files(code[ex.number], worker_files(ex))
        scratch[ex.number].mkdir()
        if wall.users:
            uid = uid_of[ex.number] = users[index % 2]
            shown[ex.number] = folder / "submission"
            shutil.copytree(submission, shown[ex.number])
            for part in (code[ex.number], shown[ex.number]):
                _seal(part, uid)
            os.chown(folder, 0, uid)
            folder.chmod(0o750)
            os.chown(scratch[ex.number], uid, uid)
            scratch[ex.number].chmod(0o700)
        else:
            shown[ex.number] = submission
            _seal(code[ex.number], None)
    if not wall.users:
        _seal(submission, None)
    config = JudgeConfig(
        results=own / "results.jsonl", limits=limits, graded={ex.number: list(graded_names_of(ex)) for ex in exercises},
        submission=submission, code=code, shown=shown, scratch=scratch, users=uid_of, logs=own,
        wall=wall.to_json(), secret=(secret or b"").hex(),
    )
    before = _package_digest() if wall.kind == "none" else ""
    backstop = limits.submission_wall_seconds + _JUDGE_OWN_WALL
    run = run_judge(_test_files(exercises, course, own), config, own, backstop)
    if before and _package_digest() != before:  # only possible without a wall
        run.events = [e for e in run.events if e.kind in ("collected", "end")] + [
            Event("broken", exercise=ex.number, message="not graded: the grader's own files changed while "
                  "this submission was graded") for ex in exercises]
    return run


def _package_digest() -> str:
    """A digest of the package's files (the contract tests among them)."""
    digest = hashlib.sha256()
    for path in sorted((REPO_ROOT / "solitaire_ds").rglob("*.py")):
        with contextlib.suppress(OSError):
            digest.update(path.as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()




def grade_many(
    paths: Sequence[str | Path],
    exercises: Sequence[Exercise] | None = None,
    limits: Limits | None = None,
    jobs: int = 1,
    progress: Callable[[SubmissionResult], None] | None = None,
    sandbox: Policy | Wall = "required",
    course: Course | None = None,
    guarded: Guarded | None = None,
    secret: bytes | None = None,
) -> list[SubmissionResult]:
    """Grade each folder of ``paths`` with up to ``jobs`` running at once; keep their order.

    The wall is chosen once, before anything is graded (``sandbox``: a wall already chosen,
    or a policy as for :func:`grade_submission`; an instructor's run requires one), with the
    folders of ``paths`` and ``guarded`` among what a worker must not reach. Graded code much
    like (names, comments and layout aside) the reference solution's or another submission's
    of this run gets a note with the figure
    (:func:`~solitaire_ds.course.similarity.similarity_notes`); the scores do not change. A
    submission the grader fails on is a row of zeros that says why, and the others are
    graded. A ``course`` whose weight groups match none of their exercise's tests raises
    :class:`~solitaire_ds.course.config.CourseError`, and an instructor test file that does
    not import :class:`GradingError`, before anything is graded. ``secret`` is the key of the
    decks drawn for each submission (see :func:`grade_submission`). Ctrl-C or SIGTERM
    (:func:`stop_all`) ends every judge, worker and sandbox of the run before it returns.
    """
    limits = limits or Limits()
    course = course or Course()
    if exercises is None:
        exercises = available_exercises()
    stopping(clear=True)
    TreeLimit.remove_orphans()
    wall = sandbox if isinstance(sandbox, Wall) else wall_for(sandbox, guarding(paths, guarded))
    reference = reference_tests(exercises, limits, course)
    course.check_groups({n: [test_name(i) for i in ids] for n, ids in reference.tests.items()})
    workers = max(1, min(jobs, len(paths)))
    with _user_ids(wall, workers) as users:
        turns: list[list[int]] = [users[2 * k:2 * k + 2] for k in range(workers)]
        free = list(range(workers))
        free_lock = threading.Lock()

        def one(path: str | Path) -> tuple[SubmissionResult, dict[int, frozenset[int]]]:
            with free_lock:
                slot = free.pop()
            try:
                graded = _grade(path, exercises, limits, reference, wall, course, turns[slot] if users else [],
                                secret)
            except (Exception, Interrupted) as exc:  # one submission's failure is its own row, never the run's end
                if isinstance(exc, Interrupted) or stopping():
                    raise
                graded = _not_graded(path, exercises, reference, course, exc, wall), {}
            finally:
                with free_lock:
                    free.append(slot)
            if progress is not None:
                with contextlib.suppress(Exception):
                    progress(graded[0])
            return graded

        if workers == 1:
            done = [one(p) for p in paths]  # a judge run from here is ended by run_judge itself
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                futures = [pool.submit(one, p) for p in paths]
                try:
                    done = [future.result() for future in futures]
                except BaseException:  # Ctrl-C, SIGTERM, or a failure of the grader
                    stop_all()  # every judge ends its workers; nothing of the run stays behind
                    pool.shutdown(wait=True, cancel_futures=True)  # before the ids are given back
                    raise
    keys = [f"{result.name} ({result.path})" if [r.name for r, _ in done].count(result.name) > 1 else result.name
            for result, _ in done]
    notes = compare({key: own for key, (_, own) in zip(keys, done, strict=True)}, exercises)
    return [dataclasses.replace(result, notes=(*result.notes, *notes.get(key, ())))
            for key, (result, _) in zip(keys, done, strict=True)]


def _not_graded(path: str | Path, exercises: Sequence[Exercise], reference: Reference, course: Course,
                exc: Exception, wall: Wall) -> SubmissionResult:
    """The row of a submission the grader failed on: each exercise 0, saying why."""
    what = safe_text(str(exc), 300, newlines=False)
    why = f"not graded: the grader failed on this submission ({type(exc).__name__}: {what})"
    available = {ex.number for ex in available_exercises()}
    results = tuple(ExerciseResult(course.exercise(ex), 0, len(reference.tests.get(ex.number, ())), reason=why)
                    for ex in exercises if ex.number in available)
    return SubmissionResult(safe_name(Path(path).name or str(path)), safe_name(str(path), 2000), results, (why,),
                            sandbox=wall.describe())


def own_cpu() -> float:
    """Return the CPU seconds this process and its waited-for children used (for benchmarks)."""
    import resource  # not in a browser's Python (Pyodide), which never grades

    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
