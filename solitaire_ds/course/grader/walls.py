"""The wall around a student's code: the strongest this machine allows, seen to hold at start-up.

Invariant: no worker starts before :func:`choose_wall` has chosen its :class:`Wall` and seen it
hold, and every result names the wall it was graded behind (:meth:`Wall.describe`). The
tiers, strongest first:

* ``bubblewrap``: namespaces (:class:`~solitaire_ds.course.grader.sandbox.Sandbox`): the worker
  sees only its own files, the package's skeletons and a Python, with no network and its own
  processes. When the grader is root, bubblewrap itself runs as a user id of its own too
  (:mod:`~solitaire_ds.course.grader.users`), so nothing inside it is root anywhere.
* ``user``: root without namespaces (Gradescope's Docker, whose seccomp profile refuses them):
  each exercise's worker runs as a user id of its own that owns nothing, under rlimits, and
  every process of that id is killed after each exercise. It is chosen only when a probe, run
  as such an id, finds that it can run the worker's Python and can read none of what must stay
  private (the reference code, the instructor's tests and course file, the classmates' folders)
  and write none of what the grader trusts (the folders the judge imports from, the outputs):
  :class:`Guarded` lists them.
* ``none``: no wall: only with ``--no-sandbox`` (or for ``check``, where a student is no
  adversary to themselves, on a machine without bubblewrap).

``check`` asks for the best wall there is (``"best"``): bubblewrap, as the student's own user,
where it works, else none; it never probes user ids and never refuses.

``grade`` and the Gradescope run ask for a wall (``"required"``): where neither of the first two
can be built, :func:`choose_wall` raises :class:`WallError`, whose one line says what is
missing and how to get it.

>>> Wall("none", why="--no-sandbox").label
'not sandboxed'
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from solitaire_ds.course.grader.sandbox import Sandbox, TreeLimit, find_sandbox, interpreter, python_executable
from solitaire_ds.course.grader.users import POOL, UserIds

__all__ = ["Guarded", "Policy", "Wall", "WallError", "choose_wall", "user_python"]

#: What the caller asks for: a wall or a refusal ("required"), the best there is ("best"),
#: or none at all ("none", ``--no-sandbox``).
Policy = Literal["required", "best", "none"]
#: How many entries of a guarded folder the probe looks at (a class of 200 holds about 2,400).
_PROBE_ENTRIES = 20_000


class WallError(Exception):
    """No wall can be built here: one line saying what is missing and how to get it."""


@dataclass(frozen=True)
class Guarded:
    """What a worker's user id must not reach, for the ``user`` tier's probe.

    ``private``: files and folders it must not read (the reference code, the instructor's
    tests, course file and secret, the classmates' folders); ``trusted``: folders it must not
    write (where the judge imports from, where results go).
    """

    private: tuple[Path, ...] = ()
    trusted: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Wall:
    """The wall chosen for a run (see the module): its tier and how workers are started in it."""

    kind: Literal["bubblewrap", "user", "none"]
    bwrap: str = ""  # bubblewrap's path (kind "bubblewrap")
    python: str = ""  # the interpreter workers run
    users: bool = False  # workers (and bubblewrap) run as user ids of their own
    cgroup: bool = False  # one cap holds for the memory and processes of a worker's whole tree
    why: str = ""  # why a stronger wall is not used
    notes: tuple[str, ...] = field(default=())

    @property
    def label(self) -> str:
        """A few words for a table or a CSV cell.

        >>> Wall("bubblewrap", users=True).label, Wall("user", users=True).label
        ('bubblewrap, a user id per exercise', 'a user id per exercise, no namespaces')
        """
        if self.kind == "bubblewrap":
            return "bubblewrap" + (", a user id per exercise" if self.users else "")
        if self.kind == "user":
            return "a user id per exercise, no namespaces"
        return "not sandboxed"

    def describe(self) -> str:
        """One sentence: the wall, what caps the worker's processes, and why nothing stronger.

        >>> print(Wall("user", users=True, why="bubblewrap: Creating new namespace failed").describe())
        sandbox: a user id per exercise, no namespaces (bubblewrap: Creating new namespace failed); no cgroup: \
each process is capped on its own, and the user id at 64 processes
        """
        if self.kind == "none":
            return f"not sandboxed ({self.why}): the student's code can reach whatever the grader's user can"
        text = f"sandbox: {self.label}"
        if self.why:
            text += f" ({self.why})"
        if self.cgroup:
            return text + "; a cgroup caps each worker's memory and processes"
        return text + "; no cgroup: each process is capped on its own, and " + (
            "the user id at 64 processes" if self.users else "the grader's user at 64 more processes")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "bwrap": self.bwrap, "python": self.python, "users": self.users,
                "cgroup": self.cgroup, "why": self.why}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Wall:
        kind = data.get("kind")
        if kind not in ("bubblewrap", "user", "none"):
            raise ValueError(f"not a wall: {kind!r}")
        return cls(kind, str(data.get("bwrap", "")), str(data.get("python", "")), data.get("users") is True,
                   data.get("cgroup") is True, str(data.get("why", "")))

    def sandbox(self) -> Sandbox | None:
        """Return the bubblewrap sandbox workers run in, or None."""
        return Sandbox(self.bwrap, self.python) if self.kind == "bubblewrap" else None


def choose_wall(policy: Policy, guarded: Guarded | None = None) -> Wall:
    """Return the strongest wall that holds here (see the module); raise :class:`WallError`.

    Runtime complexity: a few short child processes (bubblewrap's probe is made once a process).
    """
    cgroup = _cgroup_works()
    if policy == "none":
        return Wall("none", python=python_executable(), cgroup=cgroup, why="--no-sandbox")
    sandbox, why = find_sandbox()
    root = os.geteuid() == 0 and sys.platform == "linux"
    as_users = root and policy == "required"  # check ("best") keeps bubblewrap as it is: no adversary there
    python = user_python() if as_users else None
    closed = (f"no Python {sys.version_info[0]}.{sys.version_info[1]} that every user may run (this one, "
              f"{python_executable()}, lies in a folder closed to other users)")
    if sandbox is not None:  # namespaces: the strongest tier, whatever else holds
        if not as_users:
            return Wall("bubblewrap", sandbox.bwrap, python_executable(), cgroup=cgroup)
        failed = _bwrap_as_user(sandbox.bwrap, python) if python is not None else closed
        if not failed:
            assert python is not None
            return Wall("bubblewrap", sandbox.bwrap, python, users=True, cgroup=cgroup)
        return Wall("bubblewrap", sandbox.bwrap, python_executable(), cgroup=cgroup,
                    why=f"as root, not as a user id of its own: {_short(failed)}")
    if as_users:
        failed = _probe_user(python, guarded or Guarded()) if python is not None else closed
        if not failed:
            assert python is not None
            return Wall("user", python=python, users=True, cgroup=cgroup, why=_short(why))
        raise WallError(f"no sandbox here: {_short(why)}, and as root: {failed}. Fix that, or install bubblewrap, "
                        "or pass --no-sandbox to grade without a wall")
    if policy == "best":
        return Wall("none", python=python_executable(), cgroup=cgroup, why=_short(why))
    raise WallError(f"no sandbox here: {_short(why)}, and the grader is not root, so it cannot run each "
                    "student's code as a user id of its own. Install bubblewrap (Debian and Ubuntu: apt install "
                    "bubblewrap), or grade as root, or pass --no-sandbox to grade without a wall")


def _short(why: str) -> str:
    """bubblewrap's own words for why it failed, as a clause of our sentence.

    >>> _short("bubblewrap cannot make a sandbox here: bwrap: No permissions to create a new namespace.")
    'bubblewrap: No permissions to create a new namespace'
    """
    return why.replace("bubblewrap cannot make a sandbox here: ", "").replace("bwrap: ", "bubblewrap: ").rstrip(".")


@cache
def _cgroup_works() -> bool:
    tree = TreeLimit(64 << 20, 4)
    made = tree.open()
    tree.close()
    return made


@cache
def user_python() -> str | None:
    """Return an interpreter of this Python version that a user id of the pool can run, or None.

    This one, when every folder above it lets others in; else the same version where the
    system keeps its own (``/usr/local/bin``, ``/usr/bin``). Root only.
    """
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    candidates = [python_executable(), f"/usr/local/bin/python{version}", f"/usr/bin/python{version}"]
    try:
        with _pool_uid(python_executable()) as uid:
            for candidate in dict.fromkeys(os.path.realpath(c) for c in candidates):
                if not os.path.isfile(candidate):
                    continue
                done = _run_as(uid, [candidate, "-S", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
                if done is not None and done.returncode == 0 and done.stdout.strip() == version:
                    return candidate
    except OSError:  # no user id of the pool is free
        return None
    return None


@contextmanager
def _pool_uid(python: str) -> Iterator[int]:
    """Hold one user id of the pool for a start-up probe; OSError when none can be taken."""
    ids = UserIds(python)
    (uid,) = ids.take(1)
    try:
        yield uid
    finally:
        ids.give_back([uid])


def _run_as(uid: int, argv: list[str], stdin: str = "", cwd: str = "/") -> subprocess.CompletedProcess[str] | None:
    from solitaire_ds.course.grader.users import become

    try:
        return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=30, cwd=cwd,
                              env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
                              preexec_fn=lambda: become(uid), check=False)
    except (OSError, subprocess.SubprocessError):
        return None


@cache
def _bwrap_as_user(bwrap: str, python: str) -> str:
    """Return why bubblewrap cannot make a sandbox when started as a pool user id ('' when it can)."""
    argv = Sandbox(bwrap, python).command([python, "-S", "-c", "pass"], code=Path("/"), submission=None)
    try:
        with _pool_uid(python) as uid:
            done = _run_as(uid, argv)
    except OSError as exc:
        return str(exc)
    if done is None:
        return "bubblewrap did not start as a user id of its own"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return f"bubblewrap as a user id of its own: {lines[-1] if lines else done.returncode}"
    return ""


_PROBE = r"""
import json, os, stat, sys
todo = json.load(sys.stdin)
for path in todo["private"]:
    if os.access(path, os.R_OK):
        print(json.dumps(["read", path])); sys.exit()
for path in todo["trusted"]:
    try:
        info = os.stat(path)
    except OSError:
        continue
    sticky = stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX
    if os.access(path, os.W_OK) and not sticky:
        print(json.dumps(["write", path])); sys.exit()
print(json.dumps(["ok", ""]))
"""


def _probe_user(python: str, guarded: Guarded) -> str:
    """Return why the ``user`` tier does not hold here ('' when it does), tried as a pool user id."""
    private = [str(p) for p in _entries(_reference_places() + list(guarded.private))]
    trusted = [str(p) for p in _with_parents(_import_places() + list(guarded.trusted))]
    try:
        with _pool_uid(python) as uid:
            done = _run_as(uid, [python, "-S", "-c", _PROBE],
                           stdin=json.dumps({"private": private, "trusted": trusted}))
    except OSError as exc:
        return str(exc)
    if done is None or done.returncode != 0:
        return f"user {uid} cannot run {python}"
    try:
        what, path = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return f"user {uid} cannot run {python}"
    if what == "read":
        return (f"{path} can be read by every user, so a student's code could read it: make it private "
                f"(chmod -R go-rwx {_top_private(Path(path), guarded)})")
    if what == "write":
        return f"{path} can be written by every user, so a student's code could change it: chmod o-w {path}"
    return ""


def _top_private(path: Path, guarded: Guarded) -> Path:
    for root in [*_reference_places(), *guarded.private]:
        if path == root or path.is_relative_to(root):
            return root
    return path


def _reference_places() -> list[Path]:
    """Where the answer key lies: this package's own files, and a checkout's ``solutions/``."""
    from solitaire_ds.course.catalog import REPO_ROOT

    places = [REPO_ROOT / "solitaire_ds"]
    if (REPO_ROOT / "solutions").is_dir():
        places.append(REPO_ROOT / "solutions")
    for folder in interpreter(user_python() or python_executable()).hidden:
        if (folder / "solitaire_ds").is_dir() and folder / "solitaire_ds" != places[0]:
            places.append(folder / "solitaire_ds")
    return places


def _import_places() -> list[Path]:
    """The folders the judge imports from (its ``sys.path``), and the ``.pth`` files in them."""
    found: list[Path] = []
    for entry in sys.path:
        path = Path(entry or ".").resolve()
        if path.is_dir():
            found.append(path)
            found.extend(p for p in sorted(path.glob("*.pth"))[:200])
    return found


def _with_parents(paths: list[Path]) -> list[Path]:
    """``paths`` and every folder above each (a folder above may be renamed by whoever writes it)."""
    found: dict[Path, None] = {}
    for path in paths:
        found[path] = None
        found.update((parent, None) for parent in path.parents)
    return list(found)


def _entries(roots: list[Path]) -> list[Path]:
    """``roots`` and what they hold (at most :data:`_PROBE_ENTRIES` entries in all)."""
    found: list[Path] = []
    for root in roots:
        found.append(root)
        if root.is_dir() and not root.is_symlink():
            for folder, dirs, files in os.walk(root):
                dirs[:] = [d for d in dirs if d != "__pycache__"]
                found.extend(Path(folder, name) for name in (*dirs, *files))
                if len(found) > _PROBE_ENTRIES:
                    return found
    return found


#: For the docs and tests: the ids a run may use.
USER_IDS = f"{POOL.start}-{POOL.stop - 1}"
