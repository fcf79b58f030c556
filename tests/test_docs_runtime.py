"""The practice pages' runtime on a reader's machine: the one command that adds it, said where it is missing.

The pages themselves (progress, Play's one line, the link onward) are tested in a real browser
in ``tests/browser/test_practice.py``; this file checks what needs no browser.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import docgen  # docs/hooks, put on the path by tests/conftest.py
import pytest

from solitaire_ds.cli import docs as docs_cli
from solitaire_ds.cli import main
from solitaire_ds.cli.docs import RUNTIME_COMMAND
from solitaire_ds.course import EXERCISES, REPO_ROOT

PRACTICE = REPO_ROOT / "docs" / "practice"


def test_the_runtime_command_without_npm_says_what_to_install_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no node, no npm
    done = subprocess.run([sys.executable, "-m", "solitaire_ds", *RUNTIME_COMMAND.split()[1:]],
                          capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Node.js and npm" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "runtime").exists()


def test_serving_without_the_runtime_says_the_command_that_adds_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(docs_cli, "docs_command", lambda argv: ["true"])
    monkeypatch.setattr(docs_cli.subprocess, "call", lambda command, **kwargs: 0)
    monkeypatch.setattr(docs_cli, "PRACTICE_RUNTIME", tmp_path / "runtime")
    assert main(["docs"]) == 0
    assert f"The practice pages need their runtime, once: {RUNTIME_COMMAND}\n" in capsys.readouterr().out
    (tmp_path / "runtime").mkdir()
    (tmp_path / "runtime" / "manifest.json").write_text("{}", encoding="utf-8")
    assert main(["docs"]) == 0
    assert "runtime" not in capsys.readouterr().out  # there: nothing to say


@pytest.mark.parametrize("n", [ex.number for ex in EXERCISES])
def test_each_practice_page_says_the_command_and_links_the_next_exercise(n: int) -> None:
    widget = docgen.browser_exercise(str(n))
    assert f"<pre><code>{RUNTIME_COMMAND}</code></pre>" in widget
    onward = re.search(r'<div class="ds-practice__next" data-exercise="(\d+)" hidden markdown="1">\n(.*)\n</div>',
                       widget)
    assert onward is not None and onward[1] == str(n)
    links = re.findall(r"\]\(([^)]+)\)", onward[2])
    if n == len(EXERCISES):
        assert links == ["index.md"]
        return
    name = next(p.name for p in PRACTICE.glob(f"exercise-{n + 1:02d}-*.md"))
    assert links == [f"../tutorials/{name}", name]
    assert all((PRACTICE / link).resolve().is_file() for link in links)
