"""The places the grader really runs, built for the tests: each wall tier, as a user meets it.

* **bubblewrap**: this checkout's own install (the README's), bubblewrap on the ``PATH``
  (CI installs it); as root, bubblewrap itself runs as a user id of its own.
* **user ids** (Gradescope's Docker): root, a ``bwrap`` first on the ``PATH`` that fails exactly
  as bubblewrap fails under Docker's seccomp profile, and no cgroup (``/sys/fs/cgroup`` read-only
  and empty, in a mount namespace of the run's own, as a container sees it); the package
  installed from its wheel into a virtual environment root alone can read, as an instructor's
  (or Gradescope's) install is.
* **unprivileged, no bubblewrap** (a student's or an instructor's own machine): a user that is
  not root, with a ``bwrap`` that fails as it does where the kernel forbids it namespaces, and
  an install that user can run.

Each tier runs ``solitaire-ds`` as a command, in a process of its own, as the user would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from solitaire_ds.course.grader.sandbox import _own_cgroup
from solitaire_ds.course.gradescope import installed_wheel

__all__ = ["DOCKER_BWRAP", "NO_USERNS_BWRAP", "STUDENT_UID", "SYSTEM_PATH", "Tier", "fake_bwrap", "install",
           "leftover_cgroups", "need"]

def need(condition: bool, why: str) -> None:
    """Skip the test unless ``condition``, saying ``why``; in CI, which installs what every tier needs, fail."""
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(f"CI should have this: {why}")
        pytest.skip(why)


#: What bubblewrap says under Docker's default seccomp profile (Gradescope's containers).
DOCKER_BWRAP = "bwrap: Creating new namespace failed: Operation not permitted"
#: What it says where the kernel forbids unprivileged user namespaces (a locked-down desktop).
NO_USERNS_BWRAP = ("bwrap: No permissions to creating new namespace, likely because the kernel does not allow "
                   "non-privileged user namespaces.")
#: The unprivileged user of the third tier (not one of the grader's worker ids).
STUDENT_UID = 60599
#: Gradescope's PATH: the system's folders, no virtual environment, no pyenv.
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def fake_bwrap(folder: Path, message: str) -> Path:
    """Write ``folder/bwrap``, which fails as bubblewrap does with ``message``; return ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "bwrap"
    script.write_text(f"#!/bin/sh\necho '{message}' >&2\nexit 1\n", encoding="utf-8")
    script.chmod(0o755)
    folder.chmod(0o755)
    return folder


def install(folder: Path, python: str, owner: int | None = None) -> Path:
    """Install this package from its wheel (with the grading extra) into a new virtual environment
    ``folder/venv`` made by ``python``; return the environment's ``bin`` folder.

    With ``owner``, the environment belongs to that user (who runs it); else it is root's alone.
    """
    folder.mkdir(parents=True, exist_ok=True)
    wheel = installed_wheel(folder)
    venv = folder / "venv"
    subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True)
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                           "--quiet", "--disable-pip-version-check", f"{wheel}[grading]"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    if owner is not None:
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, owner, owner, follow_symlinks=False)
    return venv / "bin"


@dataclass
class Tier:
    """How to run ``solitaire-ds`` in one tier (see the module)."""

    name: str
    bin: Path  # the virtual environment's bin folder
    path: str  # the PATH it runs with
    uid: int | None = None  # run as this user (else as this process's)
    no_cgroup: bool = False
    env: dict[str, str] = field(default_factory=dict)

    def command(self, *args: str) -> list[str]:
        argv = [str(self.bin / "solitaire-ds"), *args]
        if self.no_cgroup:  # a mount namespace of its own, where /sys/fs/cgroup is read-only and empty
            argv = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                    'mount -t tmpfs -o ro,size=4k,mode=755 none /sys/fs/cgroup && exec "$@"', "sh", *argv]
        return argv

    def run(self, *args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        env = {"PATH": self.path, "HOME": str(cwd), "LANG": "C.UTF-8", **self.env}
        return subprocess.run(self.command(*args), cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=timeout, user=self.uid, group=self.uid,
                              extra_groups=[] if self.uid is not None else None, check=False)


def leftover_cgroups() -> list[str]:
    """Return the grader's cgroups whose judge has ended (``solitaire-ds-PID-...`` with PID gone),
    where the grader makes them (under this process's own cgroups)."""
    found = []
    for controller in ("", "memory", "pids", "cpuacct"):
        parent = _own_cgroup(controller)
        if parent is None:
            continue
        for entry in parent.iterdir():
            if entry.name.startswith("solitaire-ds-"):
                pid = entry.name.split("-")[2]
                if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                    found.append(str(entry))
    return found
