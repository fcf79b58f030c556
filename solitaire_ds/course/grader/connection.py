"""The judge's end of a worker process: pipes, limits per test, and a new worker after a stop.

Invariant: the judge never waits on a worker without a limit. A request is written and
its reply read through pipes the judge polls; while it waits, the CPU time of the worker
and of everything it started is counted (the worker's cgroup, or ``/proc`` where there
is none), and the wall clock too, so that:

* a test whose worker uses more than ``Limits.test_seconds`` of CPU time fails (an
  infinite loop);
* a wait during which the worker uses no CPU at all for ``Limits.stall_seconds`` fails
  (code that sleeps, or a thread that never ends) -- on a busy machine a worker that
  computes still advances, so this never stops honest code;
* a call that takes more than ``Limits.call_wall_seconds`` on the wall clock fails (code
  that drips a little CPU time now and then, never long enough idle to stall);
* an exercise whose workers used ``Limits.exercise_seconds`` of CPU time or kept the judge
  waiting ``Limits.exercise_wall_seconds`` in all, or a submission whose exercises used
  ``Limits.submission_seconds`` or ``Limits.submission_wall_seconds``, stops there: the rest
  of its tests are not run, with a one-line reason;
* a worker that dies, answers too much, or answers something that is not the reply in
  flight is stopped too (a batch's reply must answer each of its requests: see
  :class:`~solitaire_ds.course.grader.messages.Reply`).

While it waits, the judge also answers the worker's callbacks (a draw from a random
source it holds: :meth:`~solitaire_ds.course.grader.proxy.Connection.answer`).

Each stop raises :class:`~solitaire_ds.course.grader.proxy.WorkerStopped` into the test
in progress, which fails with its message; the next test starts a new worker (the
objects of the old one are gone with it). The CPU limits decide for code that computes,
the same on a busy machine as on an idle one; each wall limit is three times its CPU
limit, so only code that waits ever meets one.
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

from solitaire_ds.course.grader.messages import (
    MAX_LINE_BYTES,
    Callback,
    ProtocolError,
    Reply,
    Request,
    loads,
    plain_line,
)
from solitaire_ds.course.grader.proxy import Connection, WorkerStopped
from solitaire_ds.course.grader.sandbox import CODE_MOUNT, SUBMISSION_MOUNT, Sandbox, TreeLimit, tree_cpu
from solitaire_ds.course.grader.users import become, processes_of, sweep
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
#: Files a worker process may have open at once.
_MAX_FILES = 256
_OUTPUT_SHOWN = 2000


@dataclass(frozen=True)
class WorkerSpec:
    """How to start a worker: the interpreter, its copy of the package, the student's files, its wall."""

    python: str
    code: Path  # holds solitaire_ds/, the graded modules as skeletons
    submission: Path  # the grader's read-only copy of the student's files, as this worker is shown it
    scratch: Path  # the worker's working folder (behind a wall of user ids: that id's own)
    sandbox: Sandbox | None = None
    uid: int | None = None  # the user id it runs as (the grader is root), or None: the grader's own
    logs: Path | None = None  # where what it prints is kept (the judge's own folder); scratch when None
    cgroup: bool = True  # put it in a cgroup of its own (where the wall found that one holds)

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

    def environment(self) -> dict[str, str]:
        """The worker's whole environment (:data:`WORKER_ENVIRONMENT`; without a sandbox, its
        home and temporary folder are its working folder)."""
        env = dict(WORKER_ENVIRONMENT)
        if self.sandbox is None and self.uid is not None:
            env.update(HOME=str(self.scratch), TMPDIR=str(self.scratch))
        return env


@dataclass
class Budget:
    """CPU time and wall-clock waits shared by the exercises of one submission
    (``Limits.submission_seconds`` and ``Limits.submission_wall_seconds``)."""

    seconds: float
    connections: list[WorkerConnection] = field(default_factory=list)
    wall: float = float("inf")

    def used(self) -> float:
        """The CPU seconds the submission's workers used."""
        return sum(c.cpu() for c in self.connections)

    def waited(self) -> float:
        """The wall seconds the judge waited for the submission's workers, calls in flight included."""
        return sum(c.waited() for c in self.connections)

    def exhausted(self) -> str:
        """Why the submission cannot go on (its CPU time or its waiting used up), or ''."""
        if self.used() >= self.seconds:
            return f"the submission used up its {self.seconds:g} s of CPU time"
        if self.waited() >= self.wall:
            return f"the submission kept the grader waiting {self.wall:g} s (wall clock) in all"
        return ""


class WorkerConnection(Connection):
    """One exercise's workers, one at a time: started on the first request, replaced after a stop.

    ``on_stop`` is told each stop's message (the judge notes the exercise's budget).
    """

    def __init__(self, spec: WorkerSpec, limits: Limits, budget: Budget | None = None,
                 name: str = "worker") -> None:
        super().__init__()
        self.spec = spec
        self.limits = limits
        self.budget = budget or Budget(limits.submission_seconds, wall=limits.submission_wall_seconds)
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
        self._waited = 0.0  # wall seconds spent in finished calls
        self._call_start = -1.0  # when the call in flight began (monotonic), or -1
        #: The longest call of the test in progress, in wall seconds.
        self.longest_call = 0.0
        self._output: Path | None = None
        #: Why the exercise cannot go on (its CPU time or its waiting used up), once it cannot.
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
        """Start counting a new test's CPU time (and its longest call)."""
        self._test_start = self.cpu()
        self.longest_call = 0.0

    def waited(self) -> float:
        """Return the wall seconds the judge has waited for this exercise's workers."""
        if self._call_start < 0:
            return self._waited
        return self._waited + time.monotonic() - self._call_start

    def test_cpu(self) -> float:
        """Return the CPU seconds the workers used since :meth:`begin_test`."""
        return max(0.0, self.cpu() - self._test_start)

    # -- the process ----------------------------------------------------------------------

    def prestart(self) -> None:
        """Start the worker now, before its first request (it boots while the judge works)."""
        if self._process is None and not self.exhausted:
            self._start()

    def _start(self) -> None:
        spec = self.spec
        if spec.uid is not None:
            sweep(spec.uid, spec.python)  # nothing of an earlier worker of this id is left
        argv, requests_read, requests_write, replies_read, replies_write = spec.command()
        spec.scratch.mkdir(parents=True, exist_ok=True)
        self._output = (spec.logs or spec.scratch) / f"{self.name}-output.txt"
        tree = TreeLimit(self.limits.memory_bytes, _MAX_PROCESSES)
        capped = spec.cgroup and tree.open()
        cpu_cap = max(1, int(self.limits.exercise_seconds) + 5)
        limits = self.limits
        # Without a cgroup, RLIMIT_NPROC bounds the tree: it counts the processes of the user the
        # worker runs as, which is its own id behind a wall of user ids, else the grader's user.
        processes = _MAX_PROCESSES if spec.uid is not None else _MAX_PROCESSES + len(processes_of(os.getuid()))
        uid = spec.uid

        def apply() -> None:
            import resource

            if capped:
                tree.join()
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_cap, cpu_cap + 1))  # a backstop only
            resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
            resource.setrlimit(resource.RLIMIT_FSIZE, (limits.output_bytes, limits.output_bytes))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_NOFILE, (_MAX_FILES, _MAX_FILES))
            resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
            if uid is not None:
                os.umask(0o077)
                become(uid)  # last: every step above needs root

        with open(self._output, "wb") as output:
            try:
                self._process = subprocess.Popen(
                    argv, cwd=spec.scratch, env=spec.environment(), stdin=subprocess.DEVNULL,
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
        """Stop the worker and everything it started; return its exit status (None if none ran).

        Its process group is killed, then its cgroup's processes, then (behind a wall of user
        ids) every process of its id, wherever it went (a ``setsid`` daemon included), and what
        that id left in the shared temporary folders.
        """
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
        if self.spec.uid is not None:
            sweep(self.spec.uid, self.spec.python)
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
        # the submission's waiting is checked while a call waits, and as each exercise begins
        if not self.exhausted and self._waited >= self.limits.exercise_wall_seconds:
            self.exhausted = self._wall_exhausted()
        if self.exhausted:
            raise WorkerStopped(self.exhausted)
        self._call_start = time.monotonic()
        try:
            if self._process is None:
                self._start()
            self._exchanges += 1
            if self._exchanges % _EVERY == 0:
                self._check_limits(time.monotonic(), [self.cpu()])
            self._send(request.to_line())
            while True:  # the reply, after any callbacks the worker asks first
                line = self._receive()
                data = loads(line)
                if not (isinstance(data, dict) and "callback" in data):
                    return Reply.from_json(data, request.id, request.batch, is_batch=request.op == "batch",
                                           plain=plain_line(line))
                self._send(self.answer(Callback.from_json(data)).to_line())
        except ProtocolError as exc:
            self.stop()
            raise WorkerStopped(str(exc)) from None
        except WorkerStopped:
            if self._process is not None:
                self.stop()
            raise
        finally:
            took = time.monotonic() - self._call_start
            self._waited += took
            self.longest_call = max(self.longest_call, took)
            self._call_start = -1.0

    def _wall_exhausted(self) -> str:
        return f"kept the grader waiting {self.limits.exercise_wall_seconds:g} s (wall clock) in all"

    def _budget_wall_exhausted(self) -> str:
        return f"ran out of time: the submission kept the grader waiting {self.budget.wall:g} s (wall clock) in all"

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
            since = self._check_limits(since, last)

    def _receive(self) -> bytes:
        last = [self.cpu()] if self._exchanges % _EVERY == 0 else [-1.0]
        since = time.monotonic()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self._replies], [], [], _TICK)
            if not ready:
                if last[0] < 0:
                    last[0] = self.cpu()
                since = self._check_limits(since, last)
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

    def _check_limits(self, since: float, last: list[float]) -> float:
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
        if self.waited() >= limits.exercise_wall_seconds:
            self.exhausted = self._wall_exhausted()
            self.stop()
            raise WorkerStopped(self.exhausted)
        if self.budget.waited() >= self.budget.wall:
            self.exhausted = self._budget_wall_exhausted()
            self.stop()
            raise WorkerStopped(self.exhausted)
        if self._call_start >= 0 and now - self._call_start > limits.call_wall_seconds:
            self.stop()
            raise WorkerStopped(f"the call took more than {limits.call_wall_seconds:g} s on the wall clock "
                                f"(the code used {used - self._test_start:.1f} s of CPU time in the test: "
                                "does it wait, or sleep now and then?)")
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

