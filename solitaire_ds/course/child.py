"""One child process of the grader: a copy of the package, a sandbox, limits, signed events.

Invariant: a child never runs the checkout's own files. :func:`run_child` writes a fresh
copy of the package (the contract tests included) into a new temporary folder, runs
``python -m pytest <contract files> --impl <submission> -p solitaire_ds.course.plugin``
from it, in a sandbox when there is one (:mod:`solitaire_ds.course.sandbox`), in its own
session, with limits on memory (``RLIMIT_AS`` per process, and a cgroup for the whole
tree where the host allows one), on the size of every file it writes, stdout and stderr
included (``RLIMIT_FSIZE``), and on its wall-clock time (it is killed, with all it
started). What the child reports comes only from the signed events the plugin writes to
an already open file (never a path the child could find), read once the child has ended;
afterwards the grader compares the copy and the checkout with what they held before, so
a child that changed either is named.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solitaire_ds.course import plugin
from solitaire_ds.course.catalog import EXERCISES, REPO_ROOT, Exercise
from solitaire_ds.course.markers import exercise_view
from solitaire_ds.course.results import Limits
from solitaire_ds.course.sandbox import CODE_MOUNT, SUBMISSION_MOUNT, Sandbox, TreeLimit

__all__ = [
    "WALL_FACTOR", "Run", "differences", "grader_files", "package_files", "pytest_arguments", "read_events",
    "read_grader_files", "run_child",
]

_OUTPUT_SHOWN = 4000  # bytes kept from each end of the child's own output (diagnostics)
#: What a child runs besides the submission: the package, the contract tests inside it.
_GRADER_PARTS = ("solitaire_ds",)
#: How many times its CPU time a child may take on the wall clock (a busy machine, or
#: code that sleeps), as it is for a test in the plugin.
WALL_FACTOR = plugin.WALL_FACTOR
#: Processes (and threads) one child may have at once, all it starts included.
_MAX_PROCESSES = 64


@dataclass
class Run:
    """What one child process left behind: its verified events and how it ended."""

    events: list[dict[str, Any]]
    returncode: int | None
    timed_out: bool
    output: str
    forged: int
    seconds: float = 0.0  # the CPU time the child was allowed
    tampered: tuple[str, ...] = ()  # the grader's files that changed while it ran
    cpu: float = 0.0  # the CPU time the child and all it started used
    wall: float = 0.0  # the wall-clock backstop it had (code that sleeps uses no CPU)

    @property
    def ended(self) -> bool:
        return any(e["e"] == "end" for e in self.events) and not self.timed_out

    def begun(self) -> list[int]:
        return [int(e["ex"]) for e in self.events if e["e"] == "begin"]

    def last_test(self) -> str:
        tests = [str(e["id"]) for e in self.events if e["e"] == "test"]
        return plugin.test_name(tests[-1]) if tests else ""

    def output_tail(self) -> str:
        lines = [line for line in self.output.strip().splitlines() if line.strip()]
        return lines[-1][:300] if lines else f"exit status {self.returncode}"

    def crash_reason(self, limits: Limits, where: str = "") -> str:
        """Say in one line why the child stopped before its tests were done, and where."""
        test = self.last_test()
        where = f" during {test}" if test else (f" {where}" if where else "")
        code = self.returncode
        if code is not None and code > 128 and code - 128 in set(signal.Signals):
            code = 128 - code  # bubblewrap reports a child killed by signal N as exit status 128 + N
        if code == -signal.SIGXCPU or (code == -signal.SIGKILL and self.cpu >= self.seconds):
            if self.seconds < limits.exercise_seconds:
                return f"ran out of CPU time{where}: the submission used up its {limits.submission_seconds:g} s"
            return f"ran out of its {limits.exercise_seconds:g} s of CPU time{where}"
        if self.timed_out:
            return f"stopped after {self.wall:g} s of wall-clock time{where} (does the code sleep or wait?)"
        if "MemoryError" in self.output:
            limit = limits.memory_bytes / (1 << 30)
            return f"the test process ran out of memory (the limit is {limit:g} GB){where}"
        if self.ended:
            return f"the test run stopped early{where}: {self.output_tail()}"
        if code is not None and code < 0:
            name = signal.Signals(-code).name
            hint = " (out of memory?)" if name == "SIGKILL" else ""
            return f"the test process was killed by {name}{where}{hint}"
        return (
            f"the test process stopped with exit status {code}{where}; "
            "does the code call os._exit() or sys.exit()?"
        )


def read_grader_files(root: Path) -> dict[str, bytes]:
    """Return the grader's own files under ``root`` (the package and the contract tests)."""
    files: dict[str, bytes] = {}
    for part in _GRADER_PARTS:
        path = root / part
        for each in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if each.is_file() and "__pycache__" not in each.parts:
                files[each.relative_to(root).as_posix()] = each.read_bytes()
    return files


_GRADER_FILES: dict[str, bytes] | None = None


def grader_files() -> dict[str, bytes]:
    """Return the checkout's grader files as they were when this process first graded."""
    global _GRADER_FILES
    if _GRADER_FILES is None:
        _GRADER_FILES = read_grader_files(REPO_ROOT)
    return _GRADER_FILES


def differences(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    """Return the files changed, added or removed between two readings."""
    return sorted(rel for rel in before.keys() | after.keys() if before.get(rel) != after.get(rel))


def run_child(
    files: Sequence[str],
    impl: str,
    limits: Limits,
    collect_only: bool = False,
    seconds: float | None = None,
    *,
    code_files: dict[str, bytes] | None = None,
    submission: Path | None = None,
    sandbox: Sandbox | None = None,
    graded: Sequence[str] = (),
) -> Run:
    """Run pytest on the contract ``files`` in a limited child; return its verified events.

    ``files`` are relative to the folder holding the package. The child runs them from its
    own fresh copy of ``code_files`` (the grader's files by default), with ``--impl impl``,
    for at most ``seconds`` of CPU time (the exercise limit by default), and at most
    :data:`WALL_FACTOR` times that, plus half a minute, of wall-clock time (a backstop for
    code that sleeps). With a
    ``submission`` folder (the grader's copy of one), ``impl`` is ignored: the child tests
    that folder. With a ``sandbox``, the child runs inside it and sees only the package
    copy and the submission; ``graded`` names the classes and functions the submission
    must define itself.
    """
    seconds = limits.exercise_seconds if seconds is None else seconds
    wall = WALL_FACTOR * seconds + 30
    code_files = grader_files() if code_files is None else code_files
    with tempfile.TemporaryDirectory(prefix="solitaire-ds-grade-") as tmp:
        base = Path(tmp)
        secret_dir = base / secrets.token_hex(8)
        secret_dir.mkdir(mode=0o700)
        results = secret_dir / "events.jsonl"
        key = secrets.token_hex(32)
        workdir = base / "work"
        workdir.mkdir()
        code = base / "grader"
        checkout = read_grader_files(REPO_ROOT)
        for rel, data in code_files.items():
            target = code / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        seen_code = CODE_MOUNT if sandbox is not None else code
        if submission is not None:
            impl = str(SUBMISSION_MOUNT if sandbox is not None else submission)
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYTEST_", "HYPOTHESIS", "SOLITAIRE_DS")) and k != "PYTHONPATH"
        }
        env.update(
            {
                plugin.ENV_FLAG: "1",
                plugin.ENV_FAIL_FAST: "1" if limits.fail_fast else "0",
                plugin.ENV_TEST_SECONDS: f"{limits.test_seconds:g}",
                plugin.ENV_GRADED: ",".join(graded),
                "PYTHONPATH": str(seen_code),
                "PYTHONHASHSEED": "0",
                "PYTHONDONTWRITEBYTECODE": "1",
                # Only the plugins named below: an auto-loaded plugin makes pytest rewrite the
                # asserts of its whole distribution (all of Hypothesis) in every child, half
                # of a child's start-up time.
                "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
                "TMPDIR": "/tmp" if sandbox is not None else str(workdir),
            }
        )
        command = [sys.executable, "-m", "pytest",
                   *pytest_arguments([str(seen_code / f) for f in files], impl, seen_code, collect_only)]
        if sandbox is not None:
            command = sandbox.command(command, code=code, submission=submission)
        output_path = base / "output.txt"
        output_path.touch()
        # The results reach the child as an open file, never as a path: in a sandbox the
        # folder is not there at all, and without one other users cannot list it.
        results_fd = os.open(results, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        base.chmod(0o100)
        # The key goes through a pipe that only the child holds: no file or variable shows it.
        key_in, key_out = os.pipe()
        os.write(key_out, key.encode("ascii"))
        os.close(key_out)
        env[plugin.ENV_KEY] = str(key_in)
        env[plugin.ENV_RESULTS] = str(results_fd)
        try:
            returncode, timed_out, cpu = _supervise(command, workdir, env, output_path, seconds, wall, limits,
                                                    (key_in, results_fd))
        finally:
            os.close(key_in)
            os.close(results_fd)
            base.chmod(0o700)  # so that the folder can be cleaned up
        events, forged = read_events(results, bytes.fromhex(key))
        # In a sandbox the test process is not the grader's own child, so its CPU time does
        # not reach wait4(): the plugin reports it with each result; a process stopped at
        # its CPU limit used all of it.
        reported = [float(e["cpu"]) for e in events if isinstance(e.get("cpu"), (int, float))]
        if returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
            reported.append(seconds)
        cpu = max([cpu, *reported])
        tampered = [f"{rel} (its copy)" for rel in differences(code_files, read_grader_files(code))]
        tampered += [f"{rel} (in {REPO_ROOT})" for rel in differences(checkout, read_grader_files(REPO_ROOT))]
        with open(output_path, "rb") as output:
            head = output.read(_OUTPUT_SHOWN)
            output.seek(max(len(head), output.seek(0, os.SEEK_END) - _OUTPUT_SHOWN))
            shown = (head + b"\n" + output.read()).decode("utf-8", "replace")
        return Run(events, returncode, timed_out, shown, forged, seconds, tuple(tampered), cpu, wall)


def pytest_arguments(files: Sequence[str], impl: str, rootdir: Path, collect_only: bool = False) -> list[str]:
    """Return pytest's arguments for a graded run of the contract ``files`` on ``impl``.

    The same for a child (``python -m pytest ...``) and for a run in the grader's own
    process (``pytest.main``, the practice pages): the course's plugin, Hypothesis' own,
    and no other output than the plugin's events.
    """
    return [
        *files,
        "--impl", impl,
        "-p", "solitaire_ds.course.plugin",
        "-p", "_hypothesis_pytestplugin",  # Hypothesis' own reporting and options
        "-p", "no:cacheprovider",
        "-p", "no:terminal",  # the results file is the only report
        "-p", "no:timeout",  # the plugin keeps its own per-test alarm
        "--rootdir", str(rootdir),
        "-o", "addopts=",
        "--continue-on-collection-errors",
        *(["--collect-only"] if collect_only else []),
    ]  # fmt: skip


def _supervise(
    command: list[str],
    workdir: Path,
    env: dict[str, str],
    output_path: Path,
    seconds: float,
    wall: float,
    limits: Limits,
    fds: tuple[int, ...],
) -> tuple[int, bool, float]:
    """Run ``command`` and wait; return its exit status, whether it was killed, and its CPU time.

    The child runs one exercise (or the reference collection) with ``seconds`` of CPU time
    (``RLIMIT_CPU``: the same on an idle and a busy machine); it is killed, with its whole
    process group, when it outlasts ``wall`` seconds of wall-clock time. Where a
    :class:`~solitaire_ds.course.sandbox.TreeLimit` can be made, the child and all it
    starts share one memory and process cap, and whatever is left of them is killed.
    """
    timed_out = False
    tree = TreeLimit(limits.memory_bytes, _MAX_PROCESSES)
    capped = tree.open()
    deadline = time.monotonic() + wall
    with open(output_path, "wb") as output:
        child = subprocess.Popen(
            command,
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            pass_fds=fds,
            preexec_fn=_child_limits(limits, seconds, tree if capped else None),
        )
        status, usage = 0, None
        try:
            while True:
                pid, status, usage = os.wait4(child.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    timed_out = True
                    break
                time.sleep(0.02)
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
            if usage is None or timed_out:
                _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            tree.close()
    return child.returncode, timed_out, usage.ru_utime + usage.ru_stime


def _child_limits(limits: Limits, seconds: float, tree: TreeLimit | None) -> Callable[[], None]:
    """Return the function the child runs before ``exec``: its cgroup and resource limits."""
    import resource  # POSIX only: imported here (in the parent, before the fork) so that the
    # module also loads where there are no processes to limit (Pyodide, for the practice pages)

    cpu = max(1, math.ceil(seconds))

    def apply() -> None:
        if tree is not None:
            tree.join()
        # SIGXCPU at the limit (it ends the process), SIGKILL a second later if it is caught.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.output_bytes, limits.output_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        # Writing past RLIMIT_FSIZE then fails with an OSError instead of killing the child.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    return apply


def read_events(path: Path, key: bytes) -> tuple[list[dict[str, Any]], int]:
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


def package_files(ex: Exercise | None) -> dict[str, bytes]:
    """Return the package copy a child grading ``ex`` gets: no answer key within reach.

    The module ``ex`` grades is its skeleton (the exercise view), not the reference; for a
    structure exercise (1-6) all six structure modules are, so one structure cannot be
    built by wrapping another's reference class. ``None``: the reference, unchanged (the
    reference collection).

    Runtime complexity: O(size of the package), once per exercise (cached).
    """
    if ex is None:
        return grader_files()
    if ex.number not in _PACKAGE_CACHE:
        files = dict(grader_files())
        family = ex.module.split(".")[0] + "." if ex.module.startswith("structures.") else ex.module
        for other in EXERCISES:
            if other.module == ex.module or (other.module.startswith(family) and family.endswith(".")):
                rel = f"solitaire_ds/{other.relpath}"
                files[rel] = exercise_view(files[rel].decode("utf-8"), rel).encode("utf-8")
        _PACKAGE_CACHE[ex.number] = files
    return _PACKAGE_CACHE[ex.number]


_PACKAGE_CACHE: dict[int, dict[str, bytes]] = {}
