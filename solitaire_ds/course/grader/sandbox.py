"""The wall around each worker: an OS sandbox, one cap on its whole process tree, its CPU time.

Invariant: where :func:`find_sandbox` finds a working bubblewrap (``bwrap``, the sandbox
Flatpak uses), every worker the judge starts runs inside one of its own, built by
:meth:`Sandbox.command`:

* its own user (uid and gid 65534, "nobody", never root), no capabilities;
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
CPU time; :func:`tree_cpu` counts it from ``/proc`` where there is no cgroup. Where the
sandbox or the cgroup is missing, grading goes on with the per-process limits only, and
the runner says so.

>>> Sandbox("/usr/bin/bwrap").command(["python3", "-V"], code=Path("/g"), submission=Path("/s"))[:3]
['/usr/bin/bwrap', '--unshare-all', '--unshare-user']
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import site
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = [
    "CODE_MOUNT",
    "SUBMISSION_MOUNT",
    "Sandbox",
    "TreeLimit",
    "find_sandbox",
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


def python_dirs() -> tuple[list[Path], list[Path]]:
    """Return the folders the worker's Python needs, and the package folders under them to hide.

    The first list holds the base installation's prefixes and the folder of its
    executable (never a virtual environment, never ``/``); the second every
    ``site-packages`` (or Debian ``dist-packages``) folder of that installation that
    exists: the sandbox shows them empty.

    Runtime complexity: O(number of folders).
    """
    base = [sys.base_prefix, sys.base_exec_prefix, os.path.dirname(python_executable())]
    found: list[Path] = []
    for entry in base:
        path = Path(entry).resolve()
        if path.is_dir() and path != Path("/") and path not in found:
            found.append(path)
    prefixes = [sys.base_prefix, sys.base_exec_prefix]
    candidates = list(site.getsitepackages(prefixes))
    for prefix in prefixes:
        paths = sysconfig.get_paths(vars={"base": prefix, "platbase": prefix})
        candidates += [paths["purelib"], paths["platlib"]]
    hidden: list[Path] = []
    for entry in candidates:
        path = Path(entry).resolve()
        if path.is_dir() and path not in hidden and any(path.is_relative_to(f) or f == Path("/usr") for f in found):
            hidden.append(path)
    return found, hidden


@dataclass(frozen=True)
class Sandbox:
    """A working bubblewrap: where it is, and how a worker's command is wrapped in it."""

    bwrap: str

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
        folders, hidden = python_dirs()
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
        for _attempt in range(50):
            alive = False
            for folder in self._dirs:
                with contextlib.suppress(OSError):
                    for pid in (folder / "cgroup.procs").read_text().split():
                        alive = True
                        with contextlib.suppress(OSError):
                            os.kill(int(pid), signal.SIGKILL)
            if not alive:
                break
            time.sleep(0.02)
        self.cpu()  # the last reading stays available after the cgroup is gone
        for folder in reversed(self._dirs):
            for _attempt in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
        self._dirs = []
        self._procs = []
        self._cpu_file = None


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
