"""The runner: a submission's contract tests, in separate and limited processes.

Invariant: the grader never imports a submission, and no exercise's code can touch
another exercise's grade. Each exercise of each submission runs in a child process of its
own (``python -m pytest <contract file> --impl <folder> -p <plugin>``) in a fresh empty
directory, its own process group, and with limits on memory (``RLIMIT_AS``), on the size
of every file it writes, stdout and stderr included (``RLIMIT_FSIZE``), on the CPU time of
each test (an alarm in the plugin) and on the wall-clock time of the exercise (the whole
process group is killed); a submission's exercises together get at most
``Limits.submission_seconds``. Scores come only from the signed results file the plugin
writes (:mod:`solitaire_ds.course.plugin`). When the child dies or is killed, its
exercise scores 0 with a one-line reason; memory a runaway exercise kept, a signal handler
it changed or a loop it left running dies with its process, so grading one exercise alone
(``--exercise N``) gives the same score as grading all of them.

The child never runs the checkout's own code: the package and the contract tests are read
once per grading process and written afresh into each child's directory, which is first on
its ``PYTHONPATH``. After each child the grader compares that copy with what it read, and
the checkout with what it held when the child started: an exercise during which either
changed is run once more, and scores 0 with the changed files named if they change again.
So a submission that rewrites a contract test cannot change its own grade, nor anybody
else's, unnoticed.

The denominators come from the reference run: the tests collected with
``--impl solitaire_ds``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solitaire_ds.course import plugin
from solitaire_ds.course.catalog import EXERCISES, REPO_ROOT, Exercise, resolve_impl
from solitaire_ds.course.results import ExerciseResult, Failure, Limits, SubmissionResult

__all__ = [
    "GradingError",
    "Limits",
    "Reference",
    "available_exercises",
    "contracts_dir",
    "grade_many",
    "grade_submission",
    "reference_tests",
]

_OUTPUT_SHOWN = 4000  # bytes kept from each end of the child's own output (diagnostics)
#: What a child runs besides the submission: the package and the contract tests.
_GRADER_PARTS = ("solitaire_ds", "tests/__init__.py", "tests/conftest.py", "solitaire_ds/course/contracts")


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


_REFERENCE_CACHE: dict[tuple[Any, ...], Reference] = {}


def reference_tests(exercises: Sequence[Exercise], limits: Limits | None = None) -> Reference:
    """Collect the contract tests of ``exercises`` on the reference implementation.

    One collection covers every available exercise and is cached for the life of the
    process (until a contract file changes), so grading many submissions, or a few
    exercises at a time, collects once. An exercise whose contract file does not
    collect, or collects no test, is left out of :attr:`Reference.tests` and explained
    in :attr:`Reference.problems`.
    """
    every = _collect_reference(available_exercises(), limits or Limits())
    wanted = {ex.number for ex in exercises}
    tests = {n: ids for n, ids in every.tests.items() if n in wanted}
    problems = {n: why for n, why in every.problems.items() if n in wanted}
    for ex in exercises:
        if ex.number not in tests and ex.number not in problems:
            problems[ex.number] = f"{ex.test_file} is missing"
    return Reference(tests, problems)


def _collect_reference(exercises: Sequence[Exercise], limits: Limits) -> Reference:
    """Collect the contract files of ``exercises`` with ``--impl solitaire_ds`` (cached)."""
    files = [ex.test_file for ex in exercises]
    cache_key = tuple(files)
    if cache_key in _REFERENCE_CACHE:
        return _REFERENCE_CACHE[cache_key]
    run = _run_child(files, "solitaire_ds", limits, collect_only=True)
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
    tests: dict[int, tuple[str, ...]] = {}
    problems: dict[int, str] = {}
    for ex in exercises:
        mine = tuple(i for i in ids if plugin.exercise_number(i.split("::")[0]) == ex.number)
        if ex.number in errors:
            problems[ex.number] = errors[ex.number]
        elif not mine:
            problems[ex.number] = f"{ex.test_file} holds no tests"
        else:
            tests[ex.number] = mine
    reference = Reference(tests, problems)
    _REFERENCE_CACHE[cache_key] = reference
    return reference


def grade_submission(
    path: str | Path,
    exercises: Sequence[Exercise] | None = None,
    limits: Limits | None = None,
    reference: Reference | None = None,
) -> SubmissionResult:
    """Grade the folder ``path`` on ``exercises`` (every available one when omitted).

    Raise :class:`GradingError` when the folder does not exist or the grader cannot run.
    """
    started = time.monotonic()
    limits = limits or Limits()
    try:
        folder = resolve_impl(str(path))
    except Exception as exc:
        raise GradingError(str(exc)) from None
    if exercises is None:
        exercises = available_exercises()
    reference = reference or reference_tests(exercises, limits)
    notes = [f"exercise {n} not graded: {why}" for n, why in sorted(reference.problems.items())]
    graded = [ex for ex in exercises if ex.number in reference.tests]
    results: dict[int, ExerciseResult] = {}
    runnable = []
    for ex in graded:
        if isinstance(folder, Path) and not (folder / ex.relpath).is_file():
            results[ex.number] = ExerciseResult(
                ex, 0, len(reference.tests[ex.number]), reason=f"{ex.relpath} is missing"
            )
        else:
            runnable.append(ex)
    forged = 0
    for ex in runnable:
        ids = reference.tests[ex.number]
        left = limits.submission_seconds - (time.monotonic() - started)
        if left <= 0:
            reason = f"not run: the submission used up its {limits.submission_seconds:g} s"
            results[ex.number] = ExerciseResult(ex, 0, len(ids), reason=reason)
            continue
        notes.extend(_suspicious(folder, ex))
        for _attempt in range(2):  # once more when the grader's files changed under it
            run = _run_child([ex.test_file], str(folder), limits, seconds=min(left, limits.exercise_seconds))
            forged += run.forged
            if not run.tampered:
                break
            left = limits.submission_seconds - (time.monotonic() - started)  # the retry has what is left
        results[ex.number] = _result(ex, ids, run, limits)
    if forged:
        notes.append(f"ignored {forged} results lines not written by the grader")
    ordered = tuple(results[ex.number] for ex in graded)
    name = Path(path).name or str(path)
    seconds = round(time.monotonic() - started, 2)
    return SubmissionResult(name, str(path), ordered, tuple(notes), seconds)


def grade_many(
    paths: Sequence[str | Path],
    exercises: Sequence[Exercise] | None = None,
    limits: Limits | None = None,
    jobs: int = 1,
    progress: Callable[[SubmissionResult], None] | None = None,
) -> list[SubmissionResult]:
    """Grade each folder of ``paths`` with up to ``jobs`` running at once; keep their order."""
    limits = limits or Limits()
    if exercises is None:
        exercises = available_exercises()
    reference = reference_tests(exercises, limits)

    def one(path: str | Path) -> SubmissionResult:
        result = grade_submission(path, exercises, limits, reference)
        if progress is not None:
            progress(result)
        return result

    if jobs <= 1 or len(paths) <= 1:
        return [one(p) for p in paths]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, paths))


# -- one child process -------------------------------------------------------------


@dataclass
class _Run:
    """What one child process left behind: its verified events and how it ended."""

    events: list[dict[str, Any]]
    returncode: int | None
    timed_out: bool
    output: str
    forged: int
    seconds: float = 0.0  # the wall-clock limit the child had
    tampered: tuple[str, ...] = ()  # the grader's files that changed while it ran

    @property
    def ended(self) -> bool:
        return any(e["e"] == "end" for e in self.events) and not self.timed_out

    def begun(self) -> list[int]:
        return [int(e["ex"]) for e in self.events if e["e"] == "begin"]

    def last_test(self) -> str:
        tests = [str(e["id"]) for e in self.events if e["e"] == "test"]
        return tests[-1].split("::", 1)[-1] if tests else ""

    def output_tail(self) -> str:
        lines = [line for line in self.output.strip().splitlines() if line.strip()]
        return lines[-1][:300] if lines else f"exit status {self.returncode}"

    def crash_reason(self, limits: Limits, where: str = "") -> str:
        test = self.last_test()
        where = f" during {test}" if test else (f" {where}" if where else "")
        if self.timed_out and self.seconds < limits.exercise_seconds:
            return f"timed out{where}: the submission used up its {limits.submission_seconds:g} s"
        if self.timed_out:
            return f"timed out after {limits.exercise_seconds:g} s{where}"
        if "MemoryError" in self.output:
            limit = limits.memory_bytes / (1 << 30)
            return f"the test process ran out of memory (the limit is {limit:g} GB){where}"
        if self.ended:
            return f"the test run stopped early{where}: {self.output_tail()}"
        code = self.returncode
        if code is not None and code < 0:
            name = signal.Signals(-code).name
            hint = " (out of memory?)" if name == "SIGKILL" else ""
            return f"the test process was killed by {name}{where}{hint}"
        return (
            f"the test process stopped with exit status {code}{where}; "
            "does the code call os._exit() or sys.exit()?"
        )


def _result(ex: Exercise, ids: tuple[str, ...], run: _Run, limits: Limits) -> ExerciseResult:
    """Score exercise ``ex`` from its own child's run: tampered, never started, cut short or whole."""
    if run.tampered:
        shown = ", ".join(run.tampered[:3]) + (" ..." if len(run.tampered) > 3 else "")
        reason = f"not graded: the grader's own files changed while this exercise ran ({shown})"
        return ExerciseResult(ex, 0, len(ids), reason=reason)
    if ex.number not in run.begun():
        reason = run.crash_reason(limits, "before its tests started")
        return ExerciseResult(ex, 0, len(ids), reason=reason)
    reported = {e["id"] for e in run.events if e["e"] == "result"}
    return _tally(ex, ids, run, not all(i in reported for i in ids), limits)


#: Names a stack or a game rule never needs, but code that reaches into the grader does.
_SUSPICIOUS = re.compile(
    r"\b(?:_RECORDER|solitaire_ds\.course|_pytest|pytest|hypothesis|sys\.modules|gc\.get_objects|"
    r"sys\._getframe|ctypes|os\.environ|/proc/|setitimer|signal\.signal)\b"
)


def _suspicious(folder: str | Path, ex: Exercise) -> list[str]:
    """Return a note when the submission's file for ``ex`` names the grader's machinery.

    Code runs inside the test process, so code written to reach into the grader's own
    objects could forge its results (as it could under any in-process test runner); such
    code has to name that machinery, and the note asks the instructor to read it.
    """
    if not isinstance(folder, Path):
        return []
    try:
        text = (folder / ex.relpath).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = sorted(set(_SUSPICIOUS.findall(text)))
    if not found:
        return []
    return [f"exercise {ex.number}: {ex.relpath} mentions {', '.join(found)}: read it before trusting its score"]


def _tally(
    ex: Exercise, ids: tuple[str, ...], run: _Run, crashed: bool, limits: Limits
) -> ExerciseResult:
    """Score exercise ``ex`` from the events of ``run``."""
    total = len(ids)
    if crashed:
        return ExerciseResult(ex, 0, total, reason=run.crash_reason(limits))
    for event in run.events:
        if event["e"] == "import_failed" and event["ex"] == ex.number:
            return ExerciseResult(ex, 0, total, reason=str(event["reason"]))
    outcome = {e["id"]: e for e in run.events if e["e"] == "result"}
    passed = sum(1 for i in ids if outcome.get(i, {}).get("ok") is True)
    failures = tuple(
        Failure(i.split("::", 1)[-1], str(outcome[i]["msg"]) or "failed")
        for i in ids
        if i in outcome and not outcome[i]["ok"] and outcome[i].get("run", True)
    )
    if not failures and passed < total:
        failures = (Failure("(not run)", "some tests did not run"),)
    return ExerciseResult(ex, passed, total, failures=failures[:5])


def _read_grader_files(root: Path) -> dict[str, bytes]:
    """Return the grader's own files under ``root`` (the package and the contract tests)."""
    files: dict[str, bytes] = {}
    for part in _GRADER_PARTS:
        path = root / part
        for each in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if each.is_file() and "__pycache__" not in each.parts:
                files[each.relative_to(root).as_posix()] = each.read_bytes()
    return files


_GRADER_FILES: dict[str, bytes] | None = None


def _grader_files() -> dict[str, bytes]:
    """Return the checkout's grader files as they were when this process first graded."""
    global _GRADER_FILES
    if _GRADER_FILES is None:
        _GRADER_FILES = _read_grader_files(REPO_ROOT)
    return _GRADER_FILES


def _differences(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    """Return the files changed, added or removed between two readings."""
    return sorted(rel for rel in before.keys() | after.keys() if before.get(rel) != after.get(rel))


def _run_child(
    files: Sequence[str],
    impl: str,
    limits: Limits,
    collect_only: bool = False,
    seconds: float | None = None,
) -> _Run:
    """Run pytest on the contract ``files`` in a limited child; return its verified events.

    ``files`` are relative to the checkout; the child runs them from its own fresh copy of
    the grader's files, for at most ``seconds`` (the exercise limit by default).
    """
    seconds = limits.exercise_seconds if seconds is None else seconds
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-grade-") as tmp:
        base = Path(tmp)
        secret_dir = base / secrets.token_hex(8)
        secret_dir.mkdir(mode=0o700)
        results = secret_dir / "events.jsonl"
        results.touch()
        key = secrets.token_hex(32)
        workdir = base / "work"
        workdir.mkdir()
        code = base / "grader"
        checkout = _read_grader_files(REPO_ROOT)
        for rel, data in _grader_files().items():
            target = code / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYTEST_", "HYPOTHESIS")) and k != "PYTHONPATH"
        }
        env.update(
            {
                plugin.ENV_FLAG: "1",
                plugin.ENV_RESULTS: str(results),
                plugin.ENV_FAIL_FAST: "1" if limits.fail_fast else "0",
                plugin.ENV_TEST_SECONDS: f"{limits.test_seconds:g}",
                "PYTHONPATH": str(code),
                "PYTHONHASHSEED": "0",
                "PYTHONDONTWRITEBYTECODE": "1",
            }
        )
        command = [
            sys.executable, "-m", "pytest", *(str(code / f) for f in files),
            "--impl", impl,
            "-p", "solitaire_ds.course.plugin",
            "-p", "no:cacheprovider",
            "-p", "no:terminal",  # the results file is the only report
            "-p", "no:timeout",  # the plugin keeps its own per-test alarm
            "--rootdir", str(code),
            "-o", "addopts=",
            "--continue-on-collection-errors",
        ]  # fmt: skip
        if collect_only:
            command.append("--collect-only")
        output_path = base / "output.txt"
        output_path.touch()
        # Other users cannot list the folder, so they cannot find the results file by name.
        base.chmod(0o100)
        # The key goes through a pipe that only the child holds: no file or variable shows it.
        key_in, key_out = os.pipe()
        os.write(key_out, key.encode("ascii"))
        os.close(key_out)
        env[plugin.ENV_KEY] = str(key_in)
        try:
            returncode, timed_out = _supervise(command, workdir, env, output_path, seconds, limits, key_in)
        finally:
            os.close(key_in)
            base.chmod(0o700)  # so that the folder can be cleaned up
        events, forged = _read_events(results, bytes.fromhex(key))
        tampered = [f"{rel} (its copy)" for rel in _differences(_grader_files(), _read_grader_files(code))]
        tampered += [f"{rel} (in {REPO_ROOT})" for rel in _differences(checkout, _read_grader_files(REPO_ROOT))]
        with open(output_path, "rb") as output:
            head = output.read(_OUTPUT_SHOWN)
            output.seek(max(len(head), output.seek(0, os.SEEK_END) - _OUTPUT_SHOWN))
            shown = (head + b"\n" + output.read()).decode("utf-8", "replace")
        return _Run(events, returncode, timed_out, shown, forged, seconds, tuple(tampered))


def _supervise(
    command: list[str],
    workdir: Path,
    env: dict[str, str],
    output_path: Path,
    seconds: float,
    limits: Limits,
    key_fd: int,
) -> tuple[int, bool]:
    """Run ``command`` and wait; return its exit status and whether it was killed.

    The child runs one exercise (or the reference collection): it is killed, with its
    whole process group, when it outlasts ``seconds`` of wall-clock time.
    """
    timed_out = False
    with open(output_path, "wb") as output:
        child = subprocess.Popen(
            command,
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            pass_fds=(key_fd,),
            preexec_fn=_child_limits(limits),
        )
        try:
            child.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    return child.returncode, timed_out


def _child_limits(limits: Limits) -> Callable[[], None]:
    """Return the function the child runs before ``exec``: its resource limits."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.output_bytes, limits.output_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        # Writing past RLIMIT_FSIZE then fails with an OSError instead of killing the child.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    return apply


def _read_events(path: Path, key: bytes) -> tuple[list[dict[str, Any]], int]:
    """Return the correctly signed events of a results file, and how many lines were not."""
    try:
        data = path.read_bytes()
    except OSError:
        return [], 0
    events: list[dict[str, Any]] = []
    forged = 0
    for line in data.split(b"\n")[:-1]:  # a last line without its newline was cut short
        event = _verify(line, key)
        if event is None:
            forged += 1
        else:
            events.append(event)
    return events, forged


def _verify(line: bytes, key: bytes) -> dict[str, Any] | None:
    """Return the event a signed line holds, or None when it is forged or malformed."""
    try:
        wrapper = json.loads(line)
        payload = wrapper["p"]
        if not isinstance(payload, str) or plugin.sign(key, payload) != wrapper["mac"]:
            return None
        event = json.loads(payload)
    except (ValueError, KeyError, TypeError):
        return None
    return event if isinstance(event, dict) and "e" in event else None
