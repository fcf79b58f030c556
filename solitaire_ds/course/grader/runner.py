"""The runner: a submission's grade, from a judge process that never runs the student's code.

Invariant: the runner never imports a submission, and no submission can change a
verdict. For each submission it copies the student's files (regular files only, each at
most :data:`MAX_FILE_BYTES`), writes each exercise's worker a copy of the package in which
the graded modules are skeletons (no test, no judge inside), and starts one *judge*
process: pytest with the contract tests, the instructor's tests and the judge plugin
(:mod:`solitaire_ds.course.grader.judge`). The judge starts each exercise's *worker*
in a sandbox (:mod:`solitaire_ds.course.grader.sandbox`), asks it for plain data, and
writes a verdict per test to a file only the runner and the judge know. The runner reads
that file with bounds (:class:`~solitaire_ds.course.grader.messages.Event`) and scores it.

Limits are counted in CPU time of the workers (per test, per exercise, per submission:
:class:`~solitaire_ds.course.results.Limits`), so a busy machine gives the same grade as
an idle one; a wall-clock limit on the judge is only a backstop against a fault of the
grader itself.

The denominators come from collecting the tests, which the student's code cannot touch:
the judge never imports it. Graded code that is the same as the reference's or another
submission's of the same run, a graded class not written in the student's own file, and a
structure kept in a Python list it grows item by item get notes for the instructor
(:mod:`solitaire_ds.course.similarity`, :mod:`solitaire_ds.course.honesty`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from solitaire_ds.course.catalog import EXERCISES, REPO_ROOT, Exercise, resolve_impl
from solitaire_ds.course.config import Course
from solitaire_ds.course.grader.messages import Event
from solitaire_ds.course.grader.plan import JudgeConfig, exercise_number, test_name
from solitaire_ds.course.grader.sandbox import Sandbox, find_sandbox, python_executable
from solitaire_ds.course.grader.scoring import (
    JudgeRun,
    collected_ids,
    exercise_score,
    last_line,
    portable,
    read_events,
)
from solitaire_ds.course.honesty import list_notes
from solitaire_ds.course.markers import exercise_view, solution_view
from solitaire_ds.course.results import ExerciseResult, Limits, SubmissionResult
from solitaire_ds.course.similarity import fingerprint, graded_names, similarity_notes

__all__ = [
    "JUDGE_INI",
    "MAX_FILE_BYTES",
    "GradingError",
    "JudgeRun",
    "Limits",
    "Reference",
    "available_exercises",
    "collected_ids",
    "contracts_dir",
    "copy_submission",
    "exercise_score",
    "grade_many",
    "grade_submission",
    "graded_names_of",
    "judge_arguments",
    "read_events",
    "reference_tests",
    "sandbox_or_why",
    "worker_files",
]

#: The largest submission file the grader copies (a textbook answer is a few kB).
MAX_FILE_BYTES = 1 << 20
#: How long the judge may take on the wall clock, per exercise, before the runner gives up
#: on it (a backstop against a fault of the grader: the limits that decide are CPU time).
_JUDGE_WALL_PER_EXERCISE = 600.0


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


def sandbox_or_why(required: bool = False) -> Sandbox | str:
    """Return the sandbox to grade in, or why there is none; raise if one is ``required``."""
    sandbox, why = find_sandbox()
    if sandbox is not None:
        return sandbox
    if required:
        raise GradingError(f"no sandbox, and --require-sandbox was given: {why}")
    return why


# -- the package as graders and workers see it ----------------------------------------------


@cache
def _package_source(relpath: str) -> str:
    return (REPO_ROOT / "solitaire_ds" / relpath).read_text(encoding="utf-8")


@cache
def graded_names_of(ex: Exercise) -> tuple[str, ...]:
    """Return the classes and functions a submission must write itself for ``ex``."""
    return tuple(graded_names(_package_source(ex.relpath), f"solitaire_ds/{ex.relpath}"))


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
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)


def copy_submission(folder: Path, exercises: Sequence[Exercise], into: Path) -> tuple[Path, dict[int, str]]:
    """Copy each exercise's file of ``folder`` into ``into``; return it and why files were left out.

    Only regular files inside ``folder`` are copied (a link that leads out of it, to the
    reference or a classmate's work, is refused), at most :data:`MAX_FILE_BYTES` each; the
    original folder is only read. The copy is what the workers see, read-only.
    """
    problems: dict[int, str] = {}
    root = folder.resolve()
    into.mkdir(parents=True)
    for ex in exercises:
        source = folder / ex.relpath
        real = Path(os.path.realpath(source))
        if not source.is_file():
            problems[ex.number] = f"{ex.relpath} is missing"
        elif real != root / ex.relpath:  # a link somewhere on the way
            problems[ex.number] = f"{ex.relpath} is a link to another file; submit the file itself"
        elif real.stat().st_size > MAX_FILE_BYTES:
            problems[ex.number] = f"{ex.relpath} is larger than {MAX_FILE_BYTES >> 20} MB"
        else:
            target = into / ex.relpath
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(real, "rb") as original:
                target.write_bytes(original.read(MAX_FILE_BYTES + 1)[:MAX_FILE_BYTES])
    for path in [into, *into.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    return into, problems


# -- the judge process ------------------------------------------------------------------------



def _judge_environment() -> dict[str, str]:
    """The judge's environment: the grader's own, without options meant for other test runs."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "HYPOTHESIS", "SOLITAIRE_DS", "COV_")) and k != "PYTHONPATH"}
    env.update({"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"})
    return env


#: The judge's pytest settings: none (the contract tests name their own ids, in plain words).
JUDGE_INI = "[pytest]\n"


def judge_arguments(files: Sequence[str], config: Path, ini: Path, collect_only: bool = False) -> list[str]:
    """Return pytest's arguments for a judge run of the test ``files`` with the judge ``config``."""
    return [
        *files,
        "-c", str(ini),
        "--rootdir", str(REPO_ROOT),
        "-p", "solitaire_ds.course.grader.judge",
        "-p", "_hypothesis_pytestplugin",
        "-p", "no:cacheprovider",
        "-p", "no:terminal",  # the results file is the only report
        "--assert=plain",  # every contract assert says its own words: no rewriting to pay for
        "--grader-config", str(config),
        "--continue-on-collection-errors",
        *(["--collect-only"] if collect_only else []),
    ]  # fmt: skip


def _run_judge(files: Sequence[str], config: JudgeConfig, tmp: Path, wall: float,
               collect_only: bool = False) -> JudgeRun:
    """Run one judge process on ``files``; return what it reported."""
    path = tmp / "judge.json"
    config.write(path)
    ini = tmp / "judge.ini"
    ini.write_text(JUDGE_INI, encoding="utf-8")
    output = tmp / "judge-output.txt"
    command = [sys.executable, "-m", "pytest", *judge_arguments(files, path, ini, collect_only)]
    timed_out = False
    with open(output, "wb") as out:
        process = subprocess.Popen(command, cwd=tmp, env=_judge_environment(), stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + wall
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                timed_out = True
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, 9)
                _, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
    events, unreadable = read_events(config.results)
    workers = next((sum(e.cpus.values()) for e in events if e.kind == "end"), 0.0)
    tail = output.read_bytes()[-3000:].decode("utf-8", "replace")
    return JudgeRun(events, process.returncode, usage.ru_utime + usage.ru_stime + workers, tail, timed_out,
                     unreadable)



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
            run = _run_judge(files, config, Path(tmp), wall=300.0, collect_only=True)
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
    require_sandbox: bool = False,
    course: Course | None = None,
) -> SubmissionResult:
    """Grade the folder ``path`` on ``exercises`` (every available one when omitted).

    ``course`` sets the points, the test weights and the instructor's own tests (the
    shipped default when omitted). Raise :class:`GradingError` when the folder does not
    exist or the grader cannot run, or, with ``require_sandbox``, when there is no
    sandbox to run it in.
    """
    return _grade(path, exercises, limits, reference, require_sandbox, course or Course())[0]


def _grade(
    path: str | Path,
    exercises: Sequence[Exercise] | None,
    limits: Limits | None,
    reference: Reference | None,
    require_sandbox: bool,
    course: Course,
) -> tuple[SubmissionResult, dict[int, str | None]]:
    """Grade one folder; return its result and the fingerprint of each exercise's graded code."""
    started = time.monotonic()
    limits = limits or Limits()
    sandbox = sandbox_or_why(require_sandbox)
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
    prints: dict[int, str | None] = {}
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-grade-") as name:
        tmp = Path(name)
        copy, problems = copy_submission(folder, runnable, tmp / "submission")
        to_run = [ex for ex in runnable if ex.number not in problems]
        for ex in to_run:
            text = _text(copy / ex.relpath)
            prints[ex.number] = fingerprint(text, graded_names_of(ex))
            notes.extend(f"exercise {ex.number}: {note}" for note in list_notes(text, ex.relpath))
        run = _judge(to_run, copy, tmp, limits, sandbox, course) if to_run else None
    if isinstance(sandbox, str):
        notes.insert(0, f"graded without a sandbox: {sandbox}")
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
        results.append(exercise_score(course, ex, ids, run, limits))
    if run is not None and run.unreadable:
        notes.append(f"the judge's report had {run.unreadable} unreadable lines (the grade counts the others)")
    seconds = round(time.monotonic() - started, 2)
    name_of = Path(path).name or str(path)
    cpu = round(run.cpu, 2) if run is not None else 0.0
    return SubmissionResult(name_of, str(path), tuple(results), tuple(notes), seconds, cpu), prints


def _judge(exercises: Sequence[Exercise], submission: Path, tmp: Path, limits: Limits,
           sandbox: Sandbox | str, course: Course) -> JudgeRun:
    """Run the judge on ``exercises`` of the copied ``submission``; return its report."""
    code = {}
    for ex in exercises:
        code[ex.number] = tmp / "code" / f"ex{ex.number:02d}"
        _write_files(code[ex.number], worker_files(ex))
    scratch = tmp / "scratch"
    scratch.mkdir()
    config = JudgeConfig(
        results=tmp / "results.jsonl", limits=limits, graded={ex.number: list(graded_names_of(ex)) for ex in exercises},
        python=python_executable(), submission=submission, scratch=scratch, code=code,
        sandbox=sandbox.bwrap if isinstance(sandbox, Sandbox) else None,
    )
    before = _package_digest() if not isinstance(sandbox, Sandbox) else ""
    wall = 120.0 + _JUDGE_WALL_PER_EXERCISE * len(exercises)
    run = _run_judge(_test_files(exercises, course, tmp), config, tmp, wall)
    if before and _package_digest() != before:  # only possible without a sandbox
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




def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def grade_many(
    paths: Sequence[str | Path],
    exercises: Sequence[Exercise] | None = None,
    limits: Limits | None = None,
    jobs: int = 1,
    progress: Callable[[SubmissionResult], None] | None = None,
    require_sandbox: bool = False,
    course: Course | None = None,
) -> list[SubmissionResult]:
    """Grade each folder of ``paths`` with up to ``jobs`` running at once; keep their order.

    Graded code that is the same (names and formatting aside) as the reference solution's
    or as another submission's of this run gets a note; the scores do not change. A
    ``course`` whose weight groups match none of their exercise's tests raises
    :class:`~solitaire_ds.course.config.CourseError`, and an instructor test file that does
    not import :class:`GradingError`, before anything is graded.
    """
    limits = limits or Limits()
    course = course or Course()
    if exercises is None:
        exercises = available_exercises()
    sandbox_or_why(require_sandbox)
    reference = reference_tests(exercises, limits, course)
    course.check_groups({n: [test_name(i) for i in ids] for n, ids in reference.tests.items()})

    def one(path: str | Path) -> tuple[SubmissionResult, dict[int, str | None]]:
        graded = _grade(path, exercises, limits, reference, require_sandbox, course)
        if progress is not None:
            progress(graded[0])
        return graded

    if jobs <= 1 or len(paths) <= 1:
        done = [one(p) for p in paths]
    else:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            done = list(pool.map(one, paths))
    keys = [f"{result.name} ({result.path})" if [r.name for r, _ in done].count(result.name) > 1 else result.name
            for result, _ in done]
    notes = similarity_notes({key: prints for key, (_, prints) in zip(keys, done, strict=True)},
                             *_reference_prints(exercises))
    return [dataclasses.replace(result, notes=(*result.notes, *notes[key]))
            for key, (result, _) in zip(keys, done, strict=True)]


def _reference_prints(exercises: Sequence[Exercise]) -> tuple[dict[int, str | None], dict[int, str | None]]:
    """Return the fingerprints of the reference's graded code and of the skeleton's, by exercise."""
    reference, skeleton = {}, {}
    for ex in exercises:
        rel = f"solitaire_ds/{ex.relpath}"
        source = _package_source(ex.relpath)
        names = graded_names_of(ex)
        reference[ex.number] = fingerprint(solution_view(source, rel), names)
        skeleton[ex.number] = fingerprint(exercise_view(source, rel), names)
    return reference, skeleton


def own_cpu() -> float:
    """Return the CPU seconds this process and its waited-for children used (for benchmarks)."""
    import resource  # not in a browser's Python (Pyodide), which never grades

    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
