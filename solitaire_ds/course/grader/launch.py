"""Starting a judge process, reading its report, and stopping every judge of a run.

Invariant: a judge runs in Python's isolated mode (``-I``: no user site folder, no ``PYTHON...``
variable, no current folder on its path) with an environment the runner writes whole, and
reports its events over a pipe that only it holds: never a file in a folder a worker could
name. The runner reads that pipe as the judge writes, at most :data:`_MAX_REPORT` bytes, and
never trusts a line of it to be well formed. Every judge of the process is known
(:data:`_LIVE`), so :func:`stop_all` (Ctrl-C, SIGTERM) ends them all; a judge that ends,
however it ends, has its workers' leftover cgroups removed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from solitaire_ds.course.catalog import REPO_ROOT
from solitaire_ds.course.grader.plan import JudgeConfig
from solitaire_ds.course.grader.sandbox import TreeLimit
from solitaire_ds.course.grader.scoring import JudgeRun, read_event_lines

__all__ = ["JUDGE_INI", "Interrupted", "judge_arguments", "run_judge", "stop_all", "stopping"]

#: The only variables of the grader's environment a judge gets (no token, no option meant for
#: another test run: the judge runs in isolated mode, which reads no PYTHON... variable either).
_JUDGE_KEEPS = ("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE")


def _judge_environment() -> dict[str, str]:
    """The judge's environment: a few of the grader's variables, and pytest's plugins turned off."""
    env = {k: os.environ[k] for k in _JUDGE_KEEPS if k in os.environ}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
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


#: The judges running now, by process id, and whether the run is being stopped (Ctrl-C, SIGTERM).
_LIVE: dict[int, subprocess.Popen[bytes]] = {}
_LIVE_LOCK = threading.Lock()
_STOPPING = threading.Event()
#: The most a judge may report (a run of every exercise reports well under a megabyte).
_MAX_REPORT = 64 << 20
#: Seconds a judge is given to stop its workers after SIGTERM before it is killed.
_GRACE = 5.0


def stopping(clear: bool = False) -> bool:
    """Return whether the run is being stopped; ``clear`` first (a new run begins)."""
    if clear:
        _STOPPING.clear()
    return _STOPPING.is_set()


class Interrupted(Exception):
    """The run was stopped (Ctrl-C or SIGTERM): every judge, worker and sandbox of it has ended."""


def stop_all() -> None:
    """Stop every judge of this process and everything they started; later runs stop at once.

    Each judge gets SIGTERM (it stops its workers, sweeps their user ids and removes their
    cgroups), then SIGKILL after a grace period; the thread that started it then removes what
    is left (:func:`_after_judge`).
    """
    _STOPPING.set()
    with _LIVE_LOCK:
        judges = list(_LIVE.values())
    for process in judges:
        with contextlib.suppress(OSError):
            process.send_signal(signal.SIGTERM)


def run_judge(files: Sequence[str], config: JudgeConfig, tmp: Path, wall: float,
               collect_only: bool = False) -> JudgeRun:
    """Run one judge process on ``files``; return what it reported over its pipe.

    ``tmp`` is the judge's own folder (nobody else's user may enter it). The events come over
    a pipe only the judge holds (never a file a worker could name); the runner reads them as
    they come, at most :data:`_MAX_REPORT` bytes.
    """
    if _STOPPING.is_set():
        raise Interrupted("the run was stopped")
    read_fd, write_fd = os.pipe()
    config = dataclasses.replace(config, events_fd=write_fd)
    path = tmp / "judge.json"
    config.write(path)
    ini = tmp / "judge.ini"
    ini.write_text(JUDGE_INI, encoding="utf-8")
    output = tmp / "judge-output.txt"
    # -I: isolated mode (no user site, no environment variable, no current folder on the path);
    # -B: no byte code written into the package
    command = [sys.executable, "-I", "-B", "-m", "pytest", *judge_arguments(files, path, ini, collect_only)]
    report = bytearray()
    timed_out = stopped = False
    try:
        with open(output, "wb") as out:
            process = subprocess.Popen(command, cwd=tmp, env=_judge_environment(), stdin=subprocess.DEVNULL,
                                       stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                       pass_fds=(write_fd,))
    finally:
        os.close(write_fd)
    with _LIVE_LOCK:
        _LIVE[process.pid] = process
    try:
        deadline = time.monotonic() + wall
        status, usage = None, None
        open_pipe = True
        while status is None:
            if open_pipe:
                ready, _, _ = select.select([read_fd], [], [], 0.05)
                if ready:
                    chunk = os.read(read_fd, 1 << 16)
                    if chunk and len(report) < _MAX_REPORT:
                        report += chunk
                    elif not chunk:
                        open_pipe = False
            else:
                time.sleep(0.02)
            pid, code, rusage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                status, usage = code, rusage
                break
            late = time.monotonic() > deadline
            if late or (_STOPPING.is_set() and not stopped):
                timed_out = timed_out or late
                stopped = True
                _end_judge(process)
        assert status is not None and usage is not None
        process.returncode = os.waitstatus_to_exitcode(status)
        os.set_blocking(read_fd, False)
        with contextlib.suppress(OSError):
            while len(report) < _MAX_REPORT and (chunk := os.read(read_fd, 1 << 16)):
                report += chunk
    finally:
        os.close(read_fd)
        if process.returncode is None:  # interrupted here (Ctrl-C in the thread that runs it)
            _end_judge(process)
            process.wait()
        with _LIVE_LOCK:
            _LIVE.pop(process.pid, None)
        _after_judge(process.pid)
    if _STOPPING.is_set():
        raise Interrupted("the run was stopped")
    events, unreadable = read_event_lines(bytes(report))
    # every process counted once: the judge's own CPU time (it says so at its end; where it never
    # got there, what wait4 saw of it) and its workers' (their cgroups or /proc; wait4 counts the
    # workers the judge waited for too, so it is not added to theirs)
    end = next((e for e in events if e.kind == "end"), None)
    cpu = end.cpu + sum(end.cpus.values()) if end is not None else usage.ru_utime + usage.ru_stime
    tail = output.read_bytes()[-3000:].decode("utf-8", "replace")
    return JudgeRun(events, process.returncode, cpu, tail, timed_out, unreadable)


def _end_judge(process: subprocess.Popen[bytes]) -> None:
    """Ask the judge to stop (it ends its workers), then kill its process group after a grace period."""
    with contextlib.suppress(OSError):
        process.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=_GRACE)
        return
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)


def _after_judge(pid: int) -> None:
    """Remove whatever a judge that has ended left: its workers' cgroups (their processes killed)."""
    TreeLimit.remove_leftovers(f"solitaire-ds-{pid}-")
