"""User ids of their own: how a worker runs as nobody in particular, and how it is swept away.

Invariant: a worker that runs as a user id of this pool (:data:`POOL`) runs as an id that has no
entry in the password database, owns no file outside the folders the grader gives it, and
shares it with no other running worker: each id is held by one grader process at a time
(an exclusive ``flock`` on a file in :data:`LOCKS`, root's own folder, released by the kernel
when that process ends however it ends). Before an id is used and after each use,
:func:`sweep` kills every process that runs as it (``kill(-1, SIGKILL)`` sent *as* that id
reaches each one, a ``setsid`` daemon included, and ``/proc`` is read until none is left)
and removes what it left in the machine's shared temporary folders.

Only root can do any of this; :func:`become` is what the worker's process does between
``fork`` and ``exec`` (and what bubblewrap's does, when the grader is root).

>>> 60600 in POOL
True
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path

__all__ = ["LOCKS", "POOL", "UserIds", "become", "passable_temp", "processes_of", "shared_folders", "sweep"]

#: The user ids workers run as: unused by Debian's and systemd's allocations (systemd's
#: dynamic users start at 61184), and below 65536, which any container maps.
POOL = range(60600, 61100)
#: Where the locks that hand out ids live: root's own folder, on a tmpfs that a reboot empties.
LOCKS = Path("/run/solitaire-ds")
_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38


class UserIds:
    """Hands out ids of :data:`POOL` to this process, each held by one process of the machine.

    :meth:`take` returns ``count`` ids, each swept clean and locked for this process;
    :meth:`give_back` sweeps them and unlocks them. Thread-safe.
    """

    def __init__(self, python: str) -> None:
        self.python = python  # an interpreter every user can run (the sweep runs it as the id)
        self._held: dict[int, int] = {}  # uid -> the file descriptor holding its lock
        self._lock = threading.Lock()

    def take(self, count: int) -> list[int]:
        """Return ``count`` ids no other process holds, swept clean; raise OSError if the pool is used up."""
        import fcntl  # here: the browser's Python, which grades nothing, has none

        folder = _lock_folder()
        taken: list[int] = []
        with self._lock:
            for uid in POOL:
                if len(taken) == count:
                    break
                if uid in self._held or _has_entry(uid):
                    continue
                fd = os.open(folder / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    os.close(fd)
                    continue
                self._held[uid] = fd
                taken.append(uid)
        if len(taken) < count:
            self.give_back(taken)
            raise OSError(f"all {len(POOL)} worker user ids ({POOL.start}-{POOL.stop - 1}) are in use")
        for uid in taken:
            sweep(uid, self.python)
        return taken

    def give_back(self, uids: Iterable[int]) -> None:
        """Sweep ``uids`` and unlock them."""
        for uid in list(uids):
            with contextlib.suppress(OSError):
                sweep(uid, self.python)
            with self._lock:
                fd = self._held.pop(uid, None)
            if fd is not None:
                os.close(fd)  # the lock goes with the last descriptor

    def held(self) -> list[int]:
        """Return the ids this process holds now."""
        with self._lock:
            return sorted(self._held)


def _lock_folder() -> Path:
    """Return :data:`LOCKS`, made root's own if it is missing (others may pass through it, and
    read or write nothing in it); refuse one anybody else could change."""
    try:
        LOCKS.mkdir(mode=0o711, exist_ok=True)
        info = os.lstat(LOCKS)
    except OSError:
        folder = Path(tempfile.gettempdir()) / "solitaire-ds-uid-locks"
        folder.mkdir(mode=0o711, exist_ok=True)
        info = os.lstat(folder)
    else:
        folder = LOCKS
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0 or info.st_mode & 0o066:
        raise OSError(f"{folder} should be a folder of root's alone (mode 711)")
    if stat.S_IMODE(info.st_mode) != 0o711:
        os.chmod(folder, 0o711)
    return folder


def passable_temp() -> str:
    """Return a folder for the grader's own temporary folders that a worker's id can pass through.

    The usual temporary folder (``TMPDIR``, else ``/tmp``) when every folder above it lets other
    users pass; else (a ``TMPDIR`` inside root's home, say) ``/run/solitaire-ds/work``, root's own,
    which they may pass through and not list. What the grader makes there it removes.
    """
    base = Path(tempfile.gettempdir()).resolve()
    try:
        if all(os.stat(folder).st_mode & 0o001 for folder in (base, *base.parents)):
            return str(base)
        work = _lock_folder() / "work"
        work.mkdir(mode=0o711, exist_ok=True)
        if all(os.stat(folder).st_mode & 0o001 for folder in (work, *work.parents)):
            return str(work)
    except OSError:
        pass
    return str(base)


def _has_entry(uid: int) -> bool:
    import pwd

    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def become(uid: int) -> None:
    """Turn the calling process into user ``uid`` for good: no groups, no way back, no new
    privileges (a set-user-id program cannot raise them), and killed when its parent ends.

    Called in the child between ``fork`` and ``exec``: it only makes system calls.
    """
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # after setuid, which clears it


def processes_of(uid: int) -> list[int]:
    """Return the processes (not yet reaped zombies aside) with ``uid`` among their user ids.

    Runtime complexity: O(processes on the machine).
    """
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as status:
                text = status.read(4096)
        except OSError:
            continue
        state = uids = b""
        for line in text.split(b"\n"):
            if line.startswith(b"State:"):
                state = line
            elif line.startswith(b"Uid:"):
                uids = line
                break
        if b"\tZ" in state or b" Z" in state:
            continue
        if str(uid).encode() in uids.split()[1:]:
            found.append(int(entry))
    return found


def sweep(uid: int, python: str) -> None:
    """Kill every process of ``uid`` and remove what it left in the shared temporary folders.

    The kill is ``kill(-1, SIGKILL)`` sent by a process that has become ``uid`` (it reaches every
    process of that id and nothing else), repeated until ``/proc`` shows none. Raise OSError if
    one is still there after two seconds (a process stuck in the kernel).
    """
    deadline = time.monotonic() + 2.0
    while processes_of(uid):
        if time.monotonic() > deadline:
            raise OSError(f"processes of user {uid} survived SIGKILL: {processes_of(uid)[:5]}")
        _kill_everything_of(uid, python)
        time.sleep(0.005)
    for folder in shared_folders():
        _remove_owned(folder, uid, depth=0, budget=[20_000])


def _kill_everything_of(uid: int, python: str) -> None:
    if threading.active_count() == 1:  # fork is safe: no other thread holds a lock the child needs
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            try:
                become(uid)
                os.kill(-1, signal.SIGKILL)
            except BaseException:
                pass
            os._exit(0)
        os.waitpid(pid, 0)
        return
    subprocess.run([python, "-S", "-c", "import os\ntry: os.kill(-1, 9)\nexcept OSError: pass"],
                   user=uid, group=uid, extra_groups=[], env={}, cwd="/", stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def shared_folders() -> list[Path]:
    """Return the machine's folders every user may write in (``/tmp`` and its kin) that exist."""
    found: list[Path] = []
    for name in (tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm"):
        try:
            path = Path(name).resolve()
            if path not in found and os.stat(path).st_mode & 0o002:
                found.append(path)
        except OSError:
            continue
    return found


def _remove_owned(folder: Path, uid: int, depth: int, budget: list[int]) -> None:
    """Remove what ``uid`` owns in ``folder``, and in the folders in it that anybody may write."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        budget[0] -= 1
        if budget[0] < 0:
            return
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if info.st_uid == uid:
            if stat.S_ISDIR(info.st_mode):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        elif stat.S_ISDIR(info.st_mode) and info.st_mode & 0o002 and depth < 4:
            _remove_owned(Path(entry.path), uid, depth + 1, budget)

