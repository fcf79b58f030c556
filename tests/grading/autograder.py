"""Gradescope's machine, as Gradescope documents it, on this one: ``/autograder``, as root, in Docker.

Gradescope unzips the bundle into ``/autograder/source`` and runs ``setup.sh`` there once, as
root; then, for each submission, it puts the upload in ``/autograder/submission``, runs a *copy*
of ``run_autograder`` at ``/autograder/run_autograder`` from ``/autograder``, as root, and reads
``/autograder/results/results.json``. Its containers run Docker's default seccomp profile, under
which bubblewrap fails (``bwrap: Creating new namespace failed: Operation not permitted``), and see
no cgroup they may write. :class:`Autograder` builds exactly that: the real ``/autograder`` (one
test at a time, on a machine where no real autograder lives), the system's ``PATH`` (so
``setup.sh`` picks the system's Python, as on Gradescope's Ubuntu image), a ``bwrap`` first on
that ``PATH`` that fails as Docker makes it fail, and each run in a mount namespace of its own
where ``/sys/fs/cgroup`` is read-only and empty.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.grading.tiers import DOCKER_BWRAP, SYSTEM_PATH, fake_bwrap

__all__ = ["ROOT", "Autograder", "autograder"]

ROOT = Path("/autograder")
_OURS = ROOT / ".made-by-solitaire-ds-tests"
_LOCK = Path("/run/solitaire-ds-autograder-tests.lock")


class Autograder:
    """``/autograder`` with a bundle unpacked and set up (see the module)."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.bin = fake_bwrap(scratch / "docker-bin", DOCKER_BWRAP)
        self.tmp = scratch / "tmp"  # TMPDIR of the runs: a folder of their own, so that what is left shows
        self.tmp.mkdir(mode=0o755)
        self.env = {"PATH": f"{self.bin}:{SYSTEM_PATH}", "HOME": "/root", "LANG": "C.UTF-8", "TMPDIR": str(self.tmp)}

    def install(self, bundle: Path) -> str:
        """Unzip ``bundle`` into ``source/`` and run ``setup.sh`` there; return what it printed."""
        source = ROOT / "source"
        with zipfile.ZipFile(bundle) as archive:
            names = set(archive.namelist())
            assert {"setup.sh", "run_autograder", "course.json", "course.toml"} <= names
            assert all("/" not in name or name.startswith("tests/") for name in names)  # at the zip's root
            archive.extractall(source)
        for name in ("setup.sh", "run_autograder"):
            (source / name).chmod(0o755)  # zipfile does not restore modes; Gradescope's unzip does
        done = subprocess.run(_in_docker(["bash", "./setup.sh"]), cwd=source, env=self.env, capture_output=True,
                              text=True, timeout=900, check=False)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        shutil.copy2(source / "run_autograder", ROOT / "run_autograder")  # Gradescope runs this copy
        return done.stdout

    def grade(self, upload: Path) -> tuple[dict[str, Any], str, float]:
        """Grade ``upload`` as Gradescope does; return results.json, what the run printed, and when it ended."""
        for name in ("submission", "results"):
            shutil.rmtree(ROOT / name, ignore_errors=True)
        shutil.copytree(upload, ROOT / "submission")
        (ROOT / "results").mkdir()
        done = subprocess.run(_in_docker([str(ROOT / "run_autograder")]), cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=900, check=False)
        ended = time.monotonic()
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        results = json.loads((ROOT / "results" / "results.json").read_text(encoding="utf-8"))
        return results, done.stdout, ended


def _in_docker(argv: list[str]) -> list[str]:
    """``argv`` run where the cgroups are out of reach, as in a Docker container: a mount namespace
    of its own in which ``/sys/fs/cgroup`` is read-only and empty."""
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c",
            'mount -t tmpfs -o ro,size=4k,mode=755 none /sys/fs/cgroup && exec "$@"', "sh", *argv]


@contextlib.contextmanager
def autograder() -> Iterator[Autograder]:
    """The real ``/autograder``, made for one test and removed after it (root only; one test at a time)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        why = "Gradescope's layout needs root (as Gradescope runs it) and unshare (util-linux)"
        if os.environ.get("CI"):
            pytest.fail(f"CI runs as root: {why}")
        pytest.skip(why)
    with open(_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ROOT.exists() and not _OURS.exists():
            pytest.fail(f"{ROOT} holds a real autograder (not one these tests made): not touching it")
        shutil.rmtree(ROOT, ignore_errors=True)
        ROOT.mkdir(mode=0o755)
        _OURS.touch()
        scratch = Path(tempfile.mkdtemp(prefix="solitaire-ds-gradescope-", dir="/tmp"))
        scratch.chmod(0o755)
        try:
            yield Autograder(scratch)
        finally:
            shutil.rmtree(ROOT, ignore_errors=True)
            shutil.rmtree(scratch, ignore_errors=True)
