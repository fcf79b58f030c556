"""The runner: a submission's contract tests, each exercise in a sandboxed child of its own.

Invariant: the grader never imports a submission, and no exercise's code can touch
another exercise's grade, another submission's, or the instructor's files. The submission
is copied first (its regular files only); each exercise then runs in a child process of
its own (:mod:`solitaire_ds.course.child`), inside a bubblewrap sandbox where there is one
(:mod:`solitaire_ds.course.sandbox`), with a copy of the package in which the graded
modules are skeletons. A file that reaches for code it does not hold scores 0 before it
runs (:mod:`solitaire_ds.course.honesty`).

Every limit that decides a score counts CPU time, so a busy machine gives the same grade
as an idle one: each test (an alarm in the plugin), each exercise (``RLIMIT_CPU``) and a
submission's exercises together (``Limits.submission_seconds``). Wall-clock limits, six
times as long, are only a backstop for code that sleeps. When an exercise's child stops
early (out of CPU time, killed, ``os._exit``), the tests that passed before keep their
points and the test it stopped in is named; memory a runaway exercise kept, a signal
handler it changed or a loop it left running dies with its process, so grading one
exercise alone (``--exercise N``) gives the same score as grading all of them.

The denominators come from the reference run: the tests collected with
``--impl solitaire_ds``. Graded code that is the same as the reference's or another
submission's of the same run gets a note (:mod:`solitaire_ds.course.similarity`).
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from solitaire_ds.course import plugin
from solitaire_ds.course.catalog import EXERCISES, REPO_ROOT, Exercise, resolve_impl
from solitaire_ds.course.child import Run, grader_files, package_files, run_child
from solitaire_ds.course.config import Course
from solitaire_ds.course.honesty import forbidden, suspicious
from solitaire_ds.course.markers import exercise_view, solution_view
from solitaire_ds.course.results import ExerciseResult, Failure, Limits, SubmissionResult, TestOutcome
from solitaire_ds.course.sandbox import Sandbox, find_sandbox
from solitaire_ds.course.similarity import fingerprint, graded_names, similarity_notes

__all__ = [
    "GradingError",
    "Limits",
    "Reference",
    "available_exercises",
    "contracts_dir",
    "copy_submission",
    "exercise_result",
    "grade_many",
    "grade_submission",
    "graded_names_of",
    "reference_tests",
    "sandbox_or_why",
]

_OUTPUT_SHOWN = 4000  # bytes kept from each end of the child's own output (diagnostics)
#: What a child runs besides the submission: the package and the contract tests.
_GRADER_PARTS = ("solitaire_ds",)


class GradingError(Exception):
    """The grader itself cannot run (no contract tests, a broken reference): says why."""


@dataclass(frozen=True)
class Reference:
    """The reference run: each available exercise's test ids, in order."""

    tests: dict[int, tuple[str, ...]]
    problems: dict[int, str] = field(default_factory=dict)


def contracts_dir(root: Path = REPO_ROOT) -> Path:
    """Return the contract tests' folder, ``solitaire_ds/course/contracts`` under ``root``.

    They ship inside the package, so they are there in a checkout and in a wheel alike;
    raise :class:`GradingError` when they are missing all the same (a damaged install).
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


def reference_tests(
    exercises: Sequence[Exercise], limits: Limits | None = None, course: Course | None = None
) -> Reference:
    """Collect the contract tests of ``exercises`` on the reference implementation.

    Only the exercises asked for are collected (``check 1`` collects one file), each once
    for the life of the process, so grading many submissions, or a few exercises at a
    time, collects each file once. The ``course``'s own tests for an exercise are
    collected with it. An exercise whose contract file does not collect, or collects no
    test, is left out of :attr:`Reference.tests` and explained in :attr:`Reference.problems`.
    """
    course = course or Course()
    available = {ex.number for ex in available_exercises()}
    keys = {ex.number: (ex.number, course.tests_key(ex.number)) for ex in exercises}
    missing = [ex for ex in exercises if ex.number in available and keys[ex.number] not in _REFERENCE_CACHE]
    if missing:
        found_now = _collect_reference(missing, limits or Limits(), course)
        _REFERENCE_CACHE.update({keys[n]: v for n, v in found_now.items()})
    tests: dict[int, tuple[str, ...]] = {}
    problems: dict[int, str] = {}
    for ex in exercises:
        found = _REFERENCE_CACHE.get(keys[ex.number], f"{ex.test_file} is missing")
        if isinstance(found, str):
            problems[ex.number] = found
        else:
            tests[ex.number] = found
    return Reference(tests, problems)


#: Each exercise's reference test ids, or why it has none, as collected by this process,
#: by exercise and the digest of the instructor's tests for it.
_REFERENCE_CACHE: dict[tuple[int, str], tuple[str, ...] | str] = {}


def _collect_reference(
    exercises: Sequence[Exercise], limits: Limits, course: Course
) -> dict[int, tuple[str, ...] | str]:
    """Collect the contract files of ``exercises`` (and the course's own) with ``--impl solitaire_ds``.

    Return each exercise's test ids, or why it has none.
    """
    files = [f for ex in exercises for f in course.files_for(ex)]
    run = run_child(files, "solitaire_ds", limits, collect_only=True, code_files=course.with_tests(grader_files()))
    ids: list[str] = []
    errors: dict[int, str] = {}
    for event in run.events:
        if event["e"] == "collected":
            ids = list(event["ids"])
        elif event["e"] == "collect_error":
            number = plugin.exercise_number(event["file"].split("::")[0])
            if number is not None:
                errors[number] = f"its contract tests do not collect: {event['msg']}"
    if not run.ended:
        raise GradingError(f"collecting the contract tests failed: {run.output_tail()}")
    found: dict[int, tuple[str, ...] | str] = {}
    for ex in exercises:
        mine = tuple(i for i in ids if plugin.exercise_number(i.split("::")[0]) == ex.number)
        if ex.number in errors:
            found[ex.number] = errors[ex.number]
        elif not mine:
            found[ex.number] = f"{ex.test_file} holds no tests"
        else:
            found[ex.number] = mine
    return found


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
    """Grade one folder; return its result and the fingerprint of each exercise's graded code.

    Without a ``reference``, the reference collection runs beside the submission's own
    exercises (``check 1`` waits for one child, not two in a row); scores are counted once
    both are done.
    """
    started = time.monotonic()
    limits = limits or Limits()
    sandbox = sandbox_or_why(require_sandbox)
    try:
        folder = resolve_impl(str(path))
    except Exception as exc:
        raise GradingError(str(exc)) from None
    if exercises is None:
        exercises = available_exercises()
    available = {ex.number for ex in available_exercises()}
    runnable_ones = [ex for ex in exercises if ex.number in available]
    outcomes: dict[int, Run | str] = {}
    prints: dict[int, str | None] = {}
    notes: list[str] = []
    with ThreadPoolExecutor(max_workers=1) as pool, \
            tempfile.TemporaryDirectory(prefix="solitaire-ds-submission-") as tmp:
        pending = None if reference is not None else pool.submit(reference_tests, exercises, limits, course)
        copy, problems = (copy_submission(folder, runnable_ones, Path(tmp) / "submission")
                          if isinstance(folder, Path) else (None, {}))
        forged = 0
        cpu_used = 0.0  # the submission's budget is CPU time too: the same on a busy machine
        for ex in runnable_ones:
            if ex.number in problems:
                outcomes[ex.number] = problems[ex.number]
                continue
            left = limits.submission_seconds - cpu_used
            if left <= 0:
                outcomes[ex.number] = f"not run: the submission used up its {limits.submission_seconds:g} s of CPU time"
                continue
            if copy is not None:
                notes.extend(_suspicious(copy, ex))
                prints[ex.number] = fingerprint(_text(copy / ex.relpath), graded_names_of(ex))
                why = forbidden(_text(copy / ex.relpath), ex.relpath) if limits.screen else ""
                if why:
                    outcomes[ex.number] = why
                    continue
            code = course.with_tests(package_files(ex if copy is not None else None))
            for _attempt in range(2):  # once more when the grader's files changed under it
                run = run_child(
                    course.files_for(ex), str(folder), limits, seconds=min(left, limits.exercise_seconds),
                    code_files=code, submission=copy,
                    sandbox=sandbox if isinstance(sandbox, Sandbox) else None, graded=graded_names_of(ex),
                )
                forged += run.forged
                cpu_used += run.cpu
                if not run.tampered:
                    break
                left = limits.submission_seconds - cpu_used  # the retry has what is left
            outcomes[ex.number] = run
        if pending is not None:
            reference = pending.result()
    assert reference is not None
    notes[:0] = [f"exercise {n} not graded: {why}" for n, why in sorted(reference.problems.items())]
    if isinstance(sandbox, str):
        notes.insert(0, f"graded without a sandbox: {sandbox}")
    if forged:
        notes.append(f"ignored {forged} results lines not written by the grader")
    graded = [ex for ex in exercises if ex.number in reference.tests]
    results = []
    for ex in graded:
        ids = reference.tests[ex.number]
        outcome = outcomes[ex.number]
        if isinstance(outcome, str):
            results.append(ExerciseResult(course.exercise(ex), 0, len(ids), reason=outcome))
        else:
            scored = exercise_result(course, ex, ids, outcome, limits)
            results.append(dataclasses.replace(scored, cpu=round(outcome.cpu, 2)))
    name = Path(path).name or str(path)
    seconds = round(time.monotonic() - started, 2)
    return SubmissionResult(name, str(path), tuple(results), tuple(notes), seconds), prints


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
    :class:`~solitaire_ds.course.config.CourseError` before anything is graded.
    """
    limits = limits or Limits()
    course = course or Course()
    if exercises is None:
        exercises = available_exercises()
    sandbox_or_why(require_sandbox)
    reference = reference_tests(exercises, limits, course)
    course.check_groups({n: [plugin.test_name(i) for i in ids] for n, ids in reference.tests.items()})

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


def sandbox_or_why(required: bool = False) -> Sandbox | str:
    """Return the sandbox to grade in, or why there is none; raise if one is ``required``."""
    sandbox, why = find_sandbox()
    if sandbox is not None:
        return sandbox
    if required:
        raise GradingError(f"no sandbox, and --require-sandbox was given: {why}")
    return why


def graded_names_of(ex: Exercise) -> list[str]:
    """Return the classes and functions a submission must write itself for ``ex``."""
    rel = f"solitaire_ds/{ex.relpath}"
    return graded_names(grader_files()[rel].decode("utf-8"), rel)


def _reference_prints(exercises: Sequence[Exercise]) -> tuple[dict[int, str | None], dict[int, str | None]]:
    """Return the fingerprints of the reference's graded code and of the skeleton's, by exercise."""
    reference, skeleton = {}, {}
    for ex in exercises:
        rel = f"solitaire_ds/{ex.relpath}"
        source = grader_files()[rel].decode("utf-8")
        names = graded_names_of(ex)
        reference[ex.number] = fingerprint(solution_view(source, rel), names)
        skeleton[ex.number] = fingerprint(exercise_view(source, rel), names)
    return reference, skeleton


#: The largest submission file the grader copies (a textbook answer is a few kB).
MAX_FILE_BYTES = 1 << 20


def copy_submission(folder: Path, exercises: Sequence[Exercise], into: Path) -> tuple[Path, dict[int, str]]:
    """Copy each exercise's file of ``folder`` into ``into``; return it and why files were left out.

    Only regular files inside ``folder`` are copied (a link that leads out of it, to the
    reference or a classmate's work, is refused), at most :data:`MAX_FILE_BYTES` each; the
    original folder is only read. The copy is what the child sees, read-only.
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


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def exercise_result(course: Course, ex: Exercise, ids: tuple[str, ...], run: Run, limits: Limits) -> ExerciseResult:
    """Score exercise ``ex`` from its own child's run: tampered, never started, cut short or whole.

    ``ids`` are the reference run's test ids (the denominator).
    """
    ex = course.exercise(ex)
    if run.tampered:
        shown = ", ".join(run.tampered[:3]) + (" ..." if len(run.tampered) > 3 else "")
        reason = f"not graded: the grader's own files changed while this exercise ran ({shown})"
        return ExerciseResult(ex, 0, len(ids), reason=reason)
    reported = {e["id"] for e in run.events if e["e"] == "result"}
    crashed = not all(i in reported for i in ids)
    if ex.number not in run.begun() or (crashed and not run.last_test() and not reported):
        reason = run.crash_reason(limits, "before its tests started")
        return ExerciseResult(ex, 0, len(ids), reason=reason)
    return _tally(course, ex, ids, run, crashed, limits)


def _suspicious(folder: Path, ex: Exercise) -> list[str]:
    """Return a note when the submission's file for ``ex`` names the grader's machinery.

    Code runs inside the test process, so code written to reach into the grader's own
    objects could forge its results (as it could under any in-process test runner); such
    code has to name that machinery, and the note asks the instructor to read it.
    """
    found = suspicious(_text(folder / ex.relpath))
    if not found:
        return []
    return [f"exercise {ex.number}: {ex.relpath} mentions {', '.join(found)}: read it before trusting its score"]


def _tally(
    course: Course, ex: Exercise, ids: tuple[str, ...], run: Run, crashed: bool, limits: Limits
) -> ExerciseResult:
    """Score exercise ``ex`` from the events of ``run``.

    A run cut short (out of CPU time, killed, stopped by ``os._exit``) keeps the points of
    the tests that passed before it stopped; the test it stopped in fails with the reason,
    and the tests it never reached count as failed.
    """
    total = len(ids)
    for event in run.events:
        if event["e"] == "import_failed" and event["ex"] == ex.number:
            return ExerciseResult(ex, 0, total, reason=str(event["reason"]))
    outcome = {e["id"]: e for e in run.events if e["e"] == "result"}
    passed = sum(1 for i in ids if outcome.get(i, {}).get("ok") is True)
    failures = tuple(
        Failure(plugin.test_name(i), str(outcome[i]["msg"]) or "failed")
        for i in ids
        if i in outcome and not outcome[i]["ok"] and outcome[i].get("run", True)
    )
    if crashed:
        stopped = Failure(run.last_test() or "(the run)", run.crash_reason(limits))
        failures = (stopped, *(f for f in failures if f.test != stopped.test))
    if not failures and passed < total:
        failures = (Failure("(not run)", "some tests did not run"),)
    messages = {f.test: f.message for f in failures}
    tests = []
    for i in ids:
        name, ok = plugin.test_name(i), outcome.get(i, {}).get("ok") is True
        message = messages.get(name, "" if ok else str(outcome.get(i, {}).get("msg")
                                                    or "not run: the exercise stopped before it"))
        tests.append(TestOutcome(name, ok, message, course.weight_of(ex.number, name)))
    return ExerciseResult(ex, passed, total, failures=failures[:5], tests=tuple(tests))


