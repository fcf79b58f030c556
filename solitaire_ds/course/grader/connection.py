"""The judge's end of a worker process: pipes, limits per test, and a new worker after a stop.

Invariant: the judge never waits on a worker without a limit. A request is written and
its reply read through pipes the judge polls; while it waits, the CPU time of the worker
and of everything it started is counted (the worker's cgroup, or ``/proc`` where there
is none), so that:

* a test whose worker uses more than ``Limits.test_seconds`` of CPU time fails (an
  infinite loop);
* a wait during which the worker uses no CPU at all for ``Limits.stall_seconds`` fails
  (code that sleeps, or a thread that never ends) -- on a busy machine a worker that
  computes still advances, so this never stops honest code;
* an exercise whose workers used ``Limits.exercise_seconds`` in all, or a submission
  whose exercises used ``Limits.submission_seconds``, stops there;
* a worker that dies, answers too much, or answers something that is not the reply in
  flight is stopped too.

Each stop raises :class:`~solitaire_ds.course.grader.proxy.WorkerStopped` into the test
in progress, which fails with its message; the next test starts a new worker (the
objects of the old one are gone with it). CPU time is what decides, never the wall
clock, so a busy machine gives the same grade as an idle one.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from solitaire_ds.course.grader.messages import MAX_LINE_BYTES, ProtocolError, Reply, Request
from solitaire_ds.course.grader.proxy import Connection, WorkerStopped
from solitaire_ds.course.grader.sandbox import CODE_MOUNT, SUBMISSION_MOUNT, Sandbox, TreeLimit, tree_cpu
from solitaire_ds.course.results import Limits

__all__ = ["WORKER_ENVIRONMENT", "Budget", "WorkerConnection", "WorkerSpec"]

#: The whole environment of a worker: a fixed PATH and locale, and Python's own settings.
#: Nothing of the grader's environment (its tokens, its paths) ever reaches it.
WORKER_ENVIRONMENT = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "PYTHONHASHSEED": "0",  # the same set order, so the same answers, on every run
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONIOENCODING": "utf-8",
}
#: What the worker runs: its own copy of the package first on the path, then the worker.
_BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); "
         "from solitaire_ds.course.grader.worker import main; main(sys.argv[2:])")
#: Seconds between two readings of the worker's CPU time while a reply is awaited.
_TICK = 0.05
#: Exchanges between two readings when every reply comes at once (a test of many fast calls).
_EVERY = 256
#: Processes (and threads) a worker and what it starts may have at once.
_MAX_PROCESSES = 64
_OUTPUT_SHOWN = 2000


@dataclass(frozen=True)
class WorkerSpec:
    """How to start a worker: the interpreter, its copy of the package, the student's files."""

    python: str
    code: Path  # holds solitaire_ds/, the graded modules as skeletons
    submission: Path  # the grader's read-only copy of the student's files
    scratch: Path  # a private folder for the worker's output file and working folder
    sandbox: Sandbox | None = None

    def command(self) -> tuple[list[str], int, int, int, int]:
        """Return the worker's command, and the pipes: (requests read, requests write,
        replies read, replies write)."""
        requests_read, requests_write = os.pipe()
        replies_read, replies_write = os.pipe()
        code = CODE_MOUNT if self.sandbox is not None else self.code
        impl = SUBMISSION_MOUNT if self.sandbox is not None else self.submission
        argv = [self.python, "-S", "-s", "-c", _BOOT, str(code), str(impl), str(requests_read), str(replies_write)]
        if self.sandbox is not None:
            argv = self.sandbox.command(argv, code=self.code, submission=self.submission)
        return argv, requests_read, requests_write, replies_read, replies_write


@dataclass
class Budget:
    """CPU time shared by the exercises of one submission (``Limits.submission_seconds``)."""

    seconds: float
    connections: list[WorkerConnection] = field(default_factory=list)

    def used(self) -> float:
        return sum(c.cpu() for c in self.connections)


class WorkerConnection(Connection):
    """One exercise's workers, one at a time: started on the first request, replaced after a stop.

    ``on_stop`` is told each stop's message (the judge notes the exercise's budget).
    """

    def __init__(self, spec: WorkerSpec, limits: Limits, budget: Budget | None = None,
                 name: str = "worker") -> None:
        super().__init__()
        self.spec = spec
        self.limits = limits
        self.budget = budget or Budget(limits.submission_seconds)
        self.budget.connections.append(self)
        self.name = name
        self._process: subprocess.Popen[bytes] | None = None
        self._tree: TreeLimit | None = None
        self._requests = -1
        self._replies = -1
        self._buffer = b""
        self._finished_cpu = 0.0  # CPU time of the workers that have stopped
        self._test_start = 0.0
        self._exchanges = 0
        self._output: Path | None = None
        #: Why the exercise cannot go on (its CPU time used up), once it cannot.
        self.exhausted = ""

    # -- accounting -----------------------------------------------------------------------

    def cpu(self) -> float:
        """Return the CPU seconds this exercise's workers have used so far."""
        return self._finished_cpu + self._current_cpu()

    def _current_cpu(self) -> float:
        if self._process is None:
            return 0.0
        if self._tree is not None and self._tree.counts_cpu:
            return self._tree.cpu()
        return tree_cpu(self._process.pid)

    def begin_test(self) -> None:
        """Start counting a new test's CPU time."""
        self._test_start = self.cpu()

    def test_cpu(self) -> float:
        """Return the CPU seconds the workers used since :meth:`begin_test`."""
        return max(0.0, self.cpu() - self._test_start)

    # -- the process ----------------------------------------------------------------------

    def prestart(self) -> None:
        """Start the worker now, before its first request (it boots while the judge works)."""
        if self._process is None and not self.exhausted:
            self._start()

    def _start(self) -> None:
        argv, requests_read, requests_write, replies_read, replies_write = self.spec.command()
        self.spec.scratch.mkdir(parents=True, exist_ok=True)
        self._output = self.spec.scratch / f"{self.name}-output.txt"
        tree = TreeLimit(self.limits.memory_bytes, _MAX_PROCESSES)
        capped = tree.open()
        cpu_cap = max(1, int(self.limits.exercise_seconds) + 5)
        limits = self.limits

        def apply() -> None:
            import resource

            if capped:
                tree.join()
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_cap, cpu_cap + 1))  # a backstop only
            resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
            resource.setrlimit(resource.RLIMIT_FSIZE, (limits.output_bytes, limits.output_bytes))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG

        with open(self._output, "wb") as output:
            try:
                self._process = subprocess.Popen(
                    argv, cwd=self.spec.scratch, env=dict(WORKER_ENVIRONMENT), stdin=subprocess.DEVNULL,
                    stdout=output, stderr=subprocess.STDOUT, pass_fds=(requests_read, replies_write),
                    start_new_session=True, preexec_fn=apply,
                )
            finally:
                os.close(requests_read)
                os.close(replies_write)
        self._tree = tree if capped else None
        if not capped:
            tree.close()
        self._requests, self._replies, self._buffer = requests_write, replies_read, b""
        os.set_blocking(self._requests, False)
        self.generation += 1
        self.methods.clear()

    def stop(self) -> int | None:
        """Stop the worker and everything it started; return its exit status (None if none ran)."""
        process = self._process
        if process is None:
            return None
        counted = self._tree is not None and self._tree.counts_cpu
        before = 0.0 if counted else tree_cpu(process.pid)  # /proc forgets a process once it is gone
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            process.kill()
        status = process.wait()
        if self._tree is not None:
            self._tree.close()  # kills what is left; its count is read on the way
            if counted:
                before = self._tree.cpu()
        self._finished_cpu += before
        for fd in (self._requests, self._replies):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._process, self._tree, self._requests, self._replies = None, None, -1, -1
        return status

    def close(self) -> None:
        """Stop the worker for good (the end of the exercise)."""
        self.stop()

    def forget(self) -> None:
        if self._process is not None:  # a stopped worker has nothing to forget
            super().forget()

    def output_tail(self) -> str:
        """Return the last lines the worker printed (diagnostics), or ''."""
        if self._output is None:
            return ""
        try:
            with open(self._output, "rb") as out:
                out.seek(max(0, out.seek(0, os.SEEK_END) - _OUTPUT_SHOWN))
                return out.read().decode("utf-8", "replace")
        except OSError:
            return ""

    # -- one exchange ---------------------------------------------------------------------

    def exchange(self, request: Request) -> Reply:
        if self.exhausted:
            raise WorkerStopped(self.exhausted)
        if self._process is None:
            self._start()
        self._exchanges += 1
        if self._exchanges % _EVERY == 0:
            self._check_cpu(time.monotonic(), [self.cpu()])
        line = request.to_line()
        self._send(line)
        reply = self._receive()
        try:
            return Reply.from_line(reply, request.id, [r.id for r in request.batch])
        except ProtocolError as exc:
            self.stop()
            raise WorkerStopped(str(exc)) from None

    def _send(self, data: bytes) -> None:
        view = memoryview(data)
        last = [-1.0]  # read only if the pipe is full
        since = time.monotonic()
        while view:
            try:
                written = os.write(self._requests, view)
                view = view[written:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                self._died()
            select.select([], [self._requests], [], _TICK)
            if last[0] < 0:
                last[0] = self.cpu()
            since = self._check_cpu(since, last)

    def _receive(self) -> bytes:
        last = [self.cpu()] if self._exchanges % _EVERY == 0 else [-1.0]
        since = time.monotonic()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self._replies], [], [], _TICK)
            if not ready:
                if last[0] < 0:
                    last[0] = self.cpu()
                since = self._check_cpu(since, last)
                continue
            try:
                chunk = os.read(self._replies, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                self._died()
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE_BYTES:
                self.stop()
                raise WorkerStopped(f"the code's answer was more than {MAX_LINE_BYTES >> 20} MB")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _check_cpu(self, since: float, last: list[float]) -> float:
        """Stop the worker if it broke a limit; return when its CPU time last advanced."""
        now = time.monotonic()
        used = self.cpu()
        limits = self.limits
        if used >= limits.exercise_seconds:
            self.exhausted = f"ran out of its {limits.exercise_seconds:g} s of CPU time"
            self.stop()
            raise WorkerStopped(self.exhausted)
        if self.budget.used() >= self.budget.seconds:
            self.exhausted = f"ran out of CPU time: the submission used up its {self.budget.seconds:g} s"
            self.stop()
            raise WorkerStopped(self.exhausted)
        if used - self._test_start > limits.test_seconds:
            self.stop()
            raise WorkerStopped(f"the test took more than {limits.test_seconds:g} s of CPU time (an infinite loop?)")
        if used > last[0] + 1e-3:
            last[0] = used
            return now
        if now - since > limits.stall_seconds:
            self.stop()
            raise WorkerStopped(f"the test waited {limits.stall_seconds:g} s with no CPU time used "
                                "(does the code sleep or wait?)")
        return since

    def _died(self) -> None:
        """The worker closed its pipe: say why, and stop it."""
        process = self._process
        with contextlib.suppress(subprocess.TimeoutExpired):
            if process is not None:
                process.wait(timeout=2)
        tail = self.output_tail()
        status = self.stop()
        raise WorkerStopped(crash_reason(status, tail, self.limits))


def crash_reason(status: int | None, output: str, limits: Limits) -> str:
    """Say in one line why a worker ended while a test waited for it.

    >>> crash_reason(7, "", Limits())
    'the code ended its process with exit status 7 (does it call os._exit()?)'
    """
    code = status
    if code is not None and code > 128 and code - 128 in set(signal.Signals):
        code = 128 - code  # bubblewrap reports a child killed by signal N as exit status 128 + N
    if code in (-signal.SIGXCPU,):
        return f"ran out of its {limits.exercise_seconds:g} s of CPU time"
    if "MemoryError" in output:
        return f"the code ran out of memory (the limit is {limits.memory_bytes / (1 << 30):g} GB)"
    if code is not None and code < 0:
        name = signal.Signals(-code).name
        hint = f" (out of memory? the limit is {limits.memory_bytes / (1 << 30):g} GB)" if name == "SIGKILL" else ""
        return f"the code's process was killed by {name}{hint}"
    return f"the code ended its process with exit status {code} (does it call os._exit()?)"

