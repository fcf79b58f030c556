"""The wall around each graded exercise: an OS sandbox, and one cap on its whole process tree.

Invariant: where :func:`find_sandbox` finds a working bubblewrap (``bwrap``, the sandbox
Flatpak uses), every child the grader starts runs inside one of its own, built by
:meth:`Sandbox.command`:

* its own user (uid and gid 65534, "nobody", never root), no capabilities;
* no network, and its own PID, IPC and UTS namespaces: the child is process 1's only
  child there, and when it ends (or the grader does) every process it started ends too;
* a private, empty ``/tmp`` and working folder, gone with the sandbox;
* a read-only view of exactly what the test run needs: the system's ``/usr``, the Python
  installation and its installed packages (with any installed copy of ``solitaire_ds``
  hidden under an empty folder), the grader's copy of the package at ``/grader``, and
  the copy of one submission at ``/submission``. Nothing else of the machine is there:
  no checkout, no ``solutions/``, no classmate, no results file.

A :class:`TreeLimit` (a cgroup, where the grader may make one) caps the memory and the
number of processes of the child and everything it starts, together. Where either is
missing, grading goes on with the per-process limits only, and the runner says so.

>>> Sandbox("/usr/bin/bwrap").command(["python3", "-V"], code=Path("/g"), submission=Path("/s"))[:3]
['/usr/bin/bwrap', '--unshare-all', '--unshare-user']
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
import shutil
import signal
import site
import subprocess
import sys
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
]

#: Where the grader's copy of the package appears inside the sandbox (on ``PYTHONPATH``).
CODE_MOUNT = Path("/grader")
#: Where the copy of the submission appears inside the sandbox.
SUBMISSION_MOUNT = Path("/submission")
#: The user and group the child runs as inside the sandbox ("nobody").
_NOBODY = "65534"


def python_dirs() -> list[Path]:
    """Return the folders the child's Python needs: its installation and its packages.

    The installation's prefixes, its site-packages folders, and the folders the test tools
    (pytest, Hypothesis and what they import) were installed into -- not every folder on
    ``sys.path``, which may hold a checkout or the instructor's own files. A source
    checkout of solitaire-ds (a folder with ``pyproject.toml``) is never among them.

    Runtime complexity: O(number of folders).
    """
    candidates = [sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))]
    candidates += [*site.getsitepackages(), site.getusersitepackages()]
    for name in _TEST_TOOLS:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            origin = Path(spec.origin)
            candidates.append(str(origin.parent.parent if origin.name == "__init__.py" else origin.parent))
    found: list[Path] = []
    for entry in candidates:
        path = Path(entry).resolve()
        if not path.is_dir() or (path / "pyproject.toml").is_file() or path == Path("/"):
            continue
        if path not in found:
            found.append(path)
    return found


#: What the child imports besides the package: the test tools and their dependencies.
_TEST_TOOLS = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "hypothesis", "attr", "sortedcontainers")


@dataclass(frozen=True)
class Sandbox:
    """A working bubblewrap: where it is, and how a child's command is wrapped in it."""

    bwrap: str

    def command(self, argv: list[str], *, code: Path, submission: Path | None) -> list[str]:
        """Return ``argv`` wrapped so that it runs in a fresh sandbox (see the module's invariant).

        ``code`` (the folder holding the grader's copy of ``solitaire_ds``) appears at
        :data:`CODE_MOUNT`; ``submission`` (a folder, or None) at :data:`SUBMISSION_MOUNT`.
        File descriptors the caller passes on stay open in the child.

        Runtime complexity: O(len(sys.path)).
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
        hidden: list[str] = []
        for folder in python_dirs():
            wrapped += ["--ro-bind", str(folder), str(folder)]
            if (folder / "solitaire_ds").is_dir():  # an installed copy: the answer key
                hidden.append(str(folder / "solitaire_ds"))
        for path in hidden:
            wrapped += ["--tmpfs", path, "--remount-ro", path]
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
    probe = sandbox.command(["/bin/true" if os.path.exists("/bin/true") else "/usr/bin/true"],
                            code=Path("/"), submission=None)
    try:
        done = subprocess.run(probe, capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"bubblewrap did not start: {exc}"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, f"bubblewrap cannot make a sandbox here: {why[-1] if why else done.returncode}"
    return sandbox, ""


class TreeLimit:
    """A cgroup that caps the memory and the process count of a child and all it starts.

    :meth:`open` makes it (cgroup v2, or the v1 ``memory`` and ``pids`` hierarchies) under
    the grader's own cgroup and returns False when it may not; :meth:`join` is called in
    the child before ``exec``; :meth:`close` kills whatever is left in it and removes it.
    """

    def __init__(self, memory_bytes: int, processes: int) -> None:
        self.memory_bytes = memory_bytes
        self.processes = processes
        self._dirs: list[Path] = []
        self._procs: list[str] = []

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
        except OSError:
            self.close()
            return False
        self._procs = [str(folder / "cgroup.procs") for folder in self._dirs]
        return True

    def join(self) -> None:
        """Move the calling process into the cgroup (in the child, before ``exec``)."""
        for procs in self._procs:
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)

    def close(self) -> None:
        """Kill every process still in the cgroup and remove it."""
        for folder in reversed(self._dirs):
            for _attempt in range(50):
                with contextlib.suppress(OSError):
                    for pid in (folder / "cgroup.procs").read_text().split():
                        with contextlib.suppress(OSError):
                            os.kill(int(pid), signal.SIGKILL)
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
        self._dirs = []
        self._procs = []


def _own_cgroup(controller: str) -> Path | None:
    """Return the writable folder of this process's cgroup for ``controller`` ("" for v2)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if names.split(",") == [controller] or (not controller and names == ""):
            for root in ((Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")) if not controller
                         else (Path("/sys/fs/cgroup") / controller,)):
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
