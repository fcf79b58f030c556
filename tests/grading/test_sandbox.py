"""The sandbox and the tree limit on their own: what a child sees, and what it may use.

CI runs as root with bubblewrap installed, so there these tests fail, rather than skip,
when the sandbox or the cgroup cannot be made.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from solitaire_ds.course.grader.sandbox import Sandbox, TreeLimit, find_sandbox, python_dirs, python_executable
from tests.grading.tiers import need


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    found, why = find_sandbox()
    need(found is not None, why)
    assert found is not None
    return found


def _inside(sandbox: Sandbox, code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "code").mkdir(exist_ok=True)
    (tmp_path / "sub").mkdir(exist_ok=True)
    # the worker's Python: the base installation, with -S (no site-packages, no virtual environment)
    command = sandbox.command([python_executable(), "-S", "-c", textwrap.dedent(code)], code=tmp_path / "code",
                              submission=tmp_path / "sub")
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_the_child_sees_only_what_it_needs(sandbox: Sandbox, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the answer key")
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / "mine.txt").write_text("grader's copy")
    done = _inside(sandbox, f"""
        import os, socket
        print(os.getuid(), os.getgid())
        print(os.path.exists({str(secret)!r}), os.path.exists({str(Path.cwd())!r}))
        print(open("/grader/mine.txt").read())
        try:
            open("/grader/mine.txt", "w")
        except OSError as exc:
            print("read-only:", exc.strerror)
        try:
            socket.create_connection(("127.0.0.1", 22), timeout=2)
        except OSError:
            print("no network")
        print(sorted(os.listdir("/tmp")), len([p for p in os.listdir("/proc") if p.isdigit()]))
        """, tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "65534 65534"  # nobody, never root
    assert lines[1] == "False False"  # nothing of the machine's files, not the checkout either
    assert lines[2] == "grader's copy"
    assert lines[3] == "read-only: Read-only file system"
    assert lines[4] == "no network"
    # /tmp is empty but for the way to a Python installed under it; the processes are
    # bubblewrap's init and the child itself
    folders, _ = python_dirs()
    under_tmp = sorted({p.relative_to("/tmp").parts[0] for p in folders if p.is_relative_to("/tmp")})
    assert lines[5] == f"{under_tmp} 2"


def test_an_installed_copy_of_the_package_is_hidden(sandbox: Sandbox, tmp_path: Path) -> None:
    _, hidden = python_dirs()
    shown = [str(folder) for folder in hidden if folder.is_dir()]
    done = _inside(sandbox, f"import os; print([os.listdir(p) for p in {shown!r}])", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str([[] for _ in shown])  # every site-packages shows empty


def test_the_memory_cap_holds_for_the_whole_tree() -> None:
    tree = TreeLimit(300 << 20, 32)
    need(tree.open(), "no cgroup may be made here (the grader runs without root, or without cgroups)")
    code = textwrap.dedent("""
        import os, time
        children = []
        for _ in range(3):
            pid = os.fork()
            if pid == 0:
                hold = b"x" * (200 << 20)  # each alone is under the cap; the three together are not
                time.sleep(3)
                os._exit(0)
            children.append(pid)
        print(sum(os.WIFSIGNALED(os.waitpid(pid, 0)[1]) for pid in children))
        """)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              preexec_fn=tree.join)
    finally:
        tree.close()
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 1  # at least one child was killed: the tree shares 300 MB


def test_the_process_cap_holds_for_the_whole_tree() -> None:
    tree = TreeLimit(1 << 30, 8)
    need(tree.open(), "no cgroup may be made here (the grader runs without root, or without cgroups)")
    code = textwrap.dedent("""
        import os, time
        started = 0
        for _ in range(20):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                time.sleep(2)
                os._exit(0)
            started += 1
        print(started)
        """)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              preexec_fn=tree.join)
    finally:
        tree.close()
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 8


def test_as_root_bubblewrap_that_cannot_run_as_a_user_id_of_its_own_is_kept_and_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # namespaces stay the strongest wall: never left for a user id without them, and never silently
    from solitaire_ds.course.grader import walls

    monkeypatch.setattr(walls, "find_sandbox", lambda: (Sandbox("/usr/bin/bwrap"), ""))
    monkeypatch.setattr(walls.os, "geteuid", lambda: 0)
    monkeypatch.setattr(walls, "user_python", lambda: "/usr/bin/python3")
    monkeypatch.setattr(walls, "_bwrap_as_user", lambda bwrap, python: "bwrap: setting up uid map: Permission denied")
    probed: list[object] = []
    monkeypatch.setattr(walls, "_probe_user", lambda *args: probed.append(args) or "")
    wall = walls.choose_wall("required")
    assert (wall.kind, wall.users, probed) == ("bubblewrap", False, [])
    assert wall.describe().startswith("sandbox: bubblewrap (as root, not as a user id of its own: bubblewrap: "
                                      "setting up uid map: Permission denied)")
