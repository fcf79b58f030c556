"""bubblewrap's sandbox around a worker, one cap on its whole process tree, its CPU time.

Invariant: where the wall chosen for a run is bubblewrap's (``bwrap``, the sandbox Flatpak
uses; :mod:`~solitaire_ds.course.grader.walls` chooses it when :func:`find_sandbox` finds one
that works), every worker the judge starts runs inside one of its own, built by
:meth:`Sandbox.command`:

* its own user (uid and gid 65534, "nobody", inside; outside, when the grader is root, a
  user id of its own that bubblewrap itself runs as), no capabilities;
* no network, and its own PID, IPC and UTS namespaces: when the worker ends (or the
  judge does) every process it started ends too;
* a private, empty ``/tmp`` and working folder, gone with the sandbox;
* a read-only view of exactly what the worker needs: the system's ``/usr`` and
  libraries, the Python installation with every ``site-packages`` folder hidden (the
  worker needs no installed package: no test tool, no installed copy of this package),
  the worker's copy of the package at ``/grader`` (the graded modules as skeletons; no
  test, no judge) and the copy of one submission at ``/submission``. Nothing else of the
  machine is there: no checkout, no virtual environment, no ``solutions/``, no classmate,
  no instructor test, no results file.

A :class:`TreeLimit` (a cgroup, where the grader may make one) caps the memory and the
number of processes of the worker and everything it starts, together, and counts their
CPU time; :func:`tree_cpu` counts it from ``/proc`` where there is no cgroup. Where there is
none, the per-process limits and ``RLIMIT_NPROC`` still bound the tree, and every result
says so (:meth:`~solitaire_ds.course.grader.walls.Wall.describe`). A judge that ends however
it ends has its workers' cgroups removed (:meth:`TreeLimit.remove_leftovers`), and each run
first removes those of judges no longer running (:meth:`TreeLimit.remove_orphans`).

>>> Sandbox("/usr/bin/bwrap").command(["python3", "-V"], code=Path("/g"), submission=Path("/s"))[:3]
['/usr/bin/bwrap', '--unshare-all', '--unshare-user']
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = [
    "CODE_MOUNT",
    "SUBMISSION_MOUNT",
    "Interpreter",
    "Sandbox",
    "TreeLimit",
    "find_sandbox",
    "interpreter",
    "python_dirs",
    "python_executable",
    "tree_cpu",
]

#: Where the worker's copy of the package appears inside the sandbox.
CODE_MOUNT = Path("/grader")
#: Where the copy of the submission appears inside the sandbox.
SUBMISSION_MOUNT = Path("/submission")
#: The user and group the worker runs as inside the sandbox ("nobody").
_NOBODY = "65534"


def python_executable() -> str:
    """Return the real Python interpreter behind this one (a virtual environment's link resolved).

    The worker runs it with ``-S``: no ``site``, so no ``site-packages`` and no virtual
    environment -- the standard library and the worker's own copy of the package only.
    """
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


@dataclass(frozen=True)
class Interpreter:
    """A Python installation as a sandbox must show it: its folders, and the package folders under them."""

    #: The installation's prefixes and the folder of its executable (never a virtual environment, never ``/``).
    folders: tuple[Path, ...]
    #: Every ``site-packages`` (or Debian ``dist-packages``) folder of it that exists: shown empty.
    hidden: tuple[Path, ...]


_WHERE = """import json, os, site, sys, sysconfig
prefixes = [sys.base_prefix, sys.base_exec_prefix]
sites = list(site.getsitepackages(prefixes))
for prefix in prefixes:
    paths = sysconfig.get_paths(vars={"base": prefix, "platbase": prefix})
    sites += [paths["purelib"], paths["platlib"]]
print(json.dumps([[*prefixes, os.path.dirname(os.path.realpath(sys.executable))], sites]))
"""


@cache
def interpreter(python: str | None = None) -> Interpreter:
    """Return the folders of the interpreter ``python`` (this one by default) and the package
    folders to hide under them; another interpreter is asked once, the answer cached.

    Runtime complexity: one short child process for another interpreter, O(folders) for this one.
    """
    if python is None or os.path.realpath(python) == python_executable():
        namespace: dict[str, object] = {}
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(_WHERE, namespace)  # the same code, in this process
        base, candidates = json.loads(out.getvalue())
    else:
        done = subprocess.run([python, "-S", "-c", _WHERE], capture_output=True, text=True, timeout=60, check=True,
                              env={"PATH": "/usr/bin:/bin"})
        base, candidates = json.loads(done.stdout)
    found: list[Path] = []
    for entry in base:
        path = Path(entry).resolve()
        if path.is_dir() and path != Path("/") and path not in found:
            found.append(path)
    hidden: list[Path] = []
    for entry in candidates:
        path = Path(entry).resolve()
        if path.is_dir() and path not in hidden and any(path.is_relative_to(f) or f == Path("/usr") for f in found):
            hidden.append(path)
    return Interpreter(tuple(found), tuple(hidden))


def python_dirs() -> tuple[list[Path], list[Path]]:
    """Return this interpreter's folders and the package folders under them (see :class:`Interpreter`).

    Runtime complexity: O(number of folders).
    """
    found = interpreter()
    return list(found.folders), list(found.hidden)


@dataclass(frozen=True)
class Sandbox:
    """A working bubblewrap: where it is, the interpreter it shows, and how a worker's command is wrapped in it."""

    bwrap: str
    python: str = ""  # the worker's interpreter (this one when empty): its installation is shown read-only

    def command(self, argv: list[str], *, code: Path, submission: Path | None) -> list[str]:
        """Return ``argv`` wrapped so that it runs in a fresh sandbox (see the module's invariant).

        ``code`` (the folder holding the worker's copy of ``solitaire_ds``) appears at
        :data:`CODE_MOUNT`; ``submission`` (a folder, or None) at :data:`SUBMISSION_MOUNT`.
        File descriptors the caller passes on stay open in the worker.

        Runtime complexity: O(number of Python folders).
        """
        wrapped = [
            self.bwrap,
            "--unshare-all", "--unshare-user", "--uid", _NOBODY, "--gid", _NOBODY,
            "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--hostname", "grader",
            "--ro-bind", "/usr", "/usr",
        ]  # fmt: skip
        for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
            if os.path.islink(top):
                wrapped += ["--symlink", os.readlink(top), top]
            elif os.path.isdir(top):
                wrapped += ["--ro-bind", top, top]
        for file in ("/etc/ld.so.cache", "/etc/localtime"):
            wrapped += ["--ro-bind-try", file, file]
        wrapped += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        found = interpreter(self.python or None)
        folders, hidden = found.folders, found.hidden
        for folder in folders:
            if not folder.is_relative_to("/usr"):
                wrapped += ["--ro-bind", str(folder), str(folder)]
        for path in hidden:
            wrapped += ["--tmpfs", str(path), "--remount-ro", str(path)]
        wrapped += ["--ro-bind", str(code), str(CODE_MOUNT)]
        if submission is not None:
            wrapped += ["--ro-bind", str(submission), str(SUBMISSION_MOUNT)]
        wrapped += ["--dir", "/work", "--chdir", "/work", "--setenv", "HOME", "/tmp", "--"]
        return wrapped + argv


@cache
def find_sandbox(bwrap: str | None = None) -> tuple[Sandbox | None, str]:
    """Return a working sandbox, or None and why there is none (cached per process).

    bubblewrap is looked for on ``PATH`` (or at ``bwrap``) and tried once: a host may
    have it and still forbid the namespaces it needs (a locked-down container).

    Runtime complexity: one short child process, the first time.
    """
    if sys.platform != "linux":
        return None, f"bubblewrap needs Linux (this is {sys.platform})"
    path = shutil.which(bwrap or "bwrap")
    if path is None:
        return None, "bubblewrap (bwrap) is not installed (Debian and Ubuntu: apt install bubblewrap)"
    sandbox = Sandbox(path)
    probe = sandbox.command([python_executable(), "-S", "-c", "pass"], code=Path("/"), submission=None)
    try:
        done = subprocess.run(probe, capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"bubblewrap did not start: {exc}"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, f"bubblewrap cannot make a sandbox here: {why[-1] if why else done.returncode}"
    return sandbox, ""


class TreeLimit:
    """A cgroup that caps the memory and process count of a worker and all it starts, and
    counts their CPU time.

    :meth:`open` makes it (cgroup v2, or the v1 ``memory``, ``pids`` and ``cpuacct``
    hierarchies) under the grader's own cgroup and returns False when it may not;
    :meth:`join` is called in the child before ``exec``; :meth:`cpu` reads the CPU time
    used in it so far; :meth:`close` kills whatever is left in it and removes it.
    """

    def __init__(self, memory_bytes: int, processes: int) -> None:
        self.memory_bytes = memory_bytes
        self.processes = processes
        self._dirs: list[Path] = []
        self._procs: list[str] = []
        self._cpu_file: Path | None = None
        self._cpu_scale = 1e-9
        self._last_cpu = 0.0

    def open(self) -> bool:
        """Make the cgroup; return False (and leave nothing behind) when this host forbids it."""
        name = f"solitaire-ds-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            unified = _own_cgroup("")
            if unified is not None and _has_controllers(unified, {"memory", "pids"}):
                folder = unified / name
                folder.mkdir()
                self._dirs.append(folder)
                _write(folder / "memory.max", str(self.memory_bytes))
                _write(folder / "memory.swap.max", "0", required=False)
                _write(folder / "pids.max", str(self.processes))
                self._cpu_file, self._cpu_scale = folder / "cpu.stat", 1e-6
            else:
                memory, pids = _own_cgroup("memory"), _own_cgroup("pids")
                if memory is None or pids is None:
                    return False
                for base in (memory, pids):
                    (base / name).mkdir()
                    self._dirs.append(base / name)
                _write(memory / name / "memory.limit_in_bytes", str(self.memory_bytes))
                _write(memory / name / "memory.memsw.limit_in_bytes", str(self.memory_bytes), required=False)
                _write(pids / name / "pids.max", str(self.processes))
                cpuacct = _own_cgroup("cpuacct")
                if cpuacct is not None:
                    with contextlib.suppress(OSError):
                        (cpuacct / name).mkdir()
                        self._dirs.append(cpuacct / name)
                        self._cpu_file = cpuacct / name / "cpuacct.usage"
        except OSError:
            self.close()
            return False
        self._procs = [str(folder / "cgroup.procs") for folder in self._dirs]
        return True

    @property
    def counts_cpu(self) -> bool:
        """Whether :meth:`cpu` reads the cgroup's own count."""
        return self._cpu_file is not None

    def join(self) -> None:
        """Move the calling process into the cgroup (in the child, before ``exec``)."""
        for procs in self._procs:
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)

    def cpu(self) -> float:
        """Return the CPU seconds used in the cgroup so far (0.0 where it does not count them)."""
        if self._cpu_file is None:
            return self._last_cpu
        try:
            text = self._cpu_file.read_text()
        except OSError:
            return self._last_cpu
        if self._cpu_file.name == "cpu.stat":
            fields = dict(line.split() for line in text.splitlines() if len(line.split()) == 2)
            used = int(fields.get("usage_usec", "0")) * self._cpu_scale
        else:
            used = int(text.strip() or 0) * self._cpu_scale
        self._last_cpu = max(self._last_cpu, used)
        return self._last_cpu

    def close(self) -> None:
        """Kill every process still in the cgroup, read its CPU time a last time, and remove it."""
        _empty(self._dirs)
        self.cpu()  # the last reading stays available after the cgroup is gone
        _remove(self._dirs)
        self._dirs = []
        self._procs = []
        self._cpu_file = None

    @staticmethod
    def remove_orphans() -> None:
        """Remove the cgroups of judges that are no longer running (``solitaire-ds-PID-...`` whose
        process is gone): what a judge killed with its runner, by a machine's OOM killer say, left."""
        for controller in ("", "memory", "pids", "cpuacct"):
            parent = _own_cgroup(controller)
            if parent is None:
                continue
            with contextlib.suppress(OSError):
                for entry in parent.iterdir():
                    pid = entry.name.split("-")[2] if entry.name.startswith("solitaire-ds-") else ""
                    if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                        TreeLimit.remove_leftovers(f"solitaire-ds-{pid}-")

    @staticmethod
    def remove_leftovers(prefix: str) -> None:
        """Kill the processes of, and remove, every cgroup of this process's parents whose name starts
        with ``prefix`` (``solitaire-ds-PID-``: those a judge that has ended made for its workers)."""
        found: list[Path] = []
        for controller in ("", "memory", "pids", "cpuacct"):
            parent = _own_cgroup(controller)
            if parent is None:
                continue
            with contextlib.suppress(OSError):
                found += [entry for entry in parent.iterdir() if entry.name.startswith(prefix) and entry.is_dir()]
        if found:
            _empty(found)
            _remove(found)


def _empty(folders: list[Path]) -> None:
    """Kill every process in the cgroups ``folders``, until none is left (about a second at most)."""
    for _attempt in range(50):
        alive = False
        for folder in folders:
            with contextlib.suppress(OSError):
                for pid in (folder / "cgroup.procs").read_text().split():
                    alive = True
                    with contextlib.suppress(OSError):
                        os.kill(int(pid), signal.SIGKILL)
        if not alive:
            break
        time.sleep(0.02)


def _remove(folders: list[Path]) -> None:
    for folder in reversed(folders):
        for _attempt in range(50):
            try:
                folder.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.02)


def tree_cpu(root: int) -> float:
    """Return the CPU seconds used so far by process ``root`` and its living descendants.

    Read from ``/proc`` (user and system time of every thread of every process of the
    tree): where there is no cgroup, this is how the judge counts a sandboxed worker,
    which the parent's ``getrusage`` never sees.

    Runtime complexity: O(processes on the machine) when the kernel does not list children.
    """
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    pending, seen = [root], set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        pending.extend(_children(pid))
    return total / ticks


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            return _children_by_scan(pid)
    return found


def _children_by_scan(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rfind(")") + 2:].split()[1]) == pid:
                found.append(int(entry))
    return found


def _own_cgroup(controller: str) -> Path | None:
    """Return the writable folder of this process's cgroup for ``controller`` ("" for v2)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if controller in names.split(",") or (not controller and names == ""):
            for root in ((Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")) if not controller
                         else (Path("/sys/fs/cgroup") / controller,
                               Path("/sys/fs/cgroup") / names)):
                folder = root / path.lstrip("/")
                if (folder / "cgroup.procs").is_file() and os.access(folder, os.W_OK):
                    if not controller and not (root / "cgroup.controllers").is_file():
                        continue
                    return folder
    return None


def _has_controllers(folder: Path, wanted: set[str]) -> bool:
    """Say whether cgroup v2 ``folder``'s children get ``wanted`` (enabling them if it may)."""
    try:
        enabled = set((folder / "cgroup.subtree_control").read_text().split())
        if wanted <= enabled:
            return True
        available = set((folder / "cgroup.controllers").read_text().split())
        if not wanted <= available:
            return False
        _write(folder / "cgroup.subtree_control", " ".join(f"+{c}" for c in sorted(wanted - enabled)))
        return True
    except OSError:
        return False


def _write(path: Path, text: str, required: bool = True) -> None:
    try:
        path.write_text(text)
    except OSError:
        if required:
            raise
