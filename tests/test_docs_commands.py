"""The course commands' sample outputs on the site: run for real as it is built, never written by hand.

A page shows what ``check``, ``exercises list`` or ``play --impl .`` print with a ``run``
directive (``docs/hooks/docgen/commands.py``): the command runs in a folder that
``exercises init`` has just written, as a student's would. These tests run the same
commands on their own and compare, and hold every page to directives instead of pasted
output, and to one spelling of ``--impl``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import docgen  # docs/hooks, put on the path by tests/conftest.py
import pytest

from solitaire_ds.course import exercise
from solitaire_ds.course.generate import expected_files
from tests.grading.zoo import ZOO, Bug, load_bugs, make_buggy_submission
from tests.test_docs import DOCS, ROOT, _shim, _site_pages


def _by_hand(tmp_path: Path, command: str, done: tuple[int, ...] = ()) -> tuple[int, str]:
    """Do what a student does: init a folder, copy in finished files, run the command there."""
    env = _shim(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = {**env, "HOME": str(home.resolve()), "COLUMNS": "80"}  # a student's 80-column terminal, at home
    subprocess.run(["sh", "-c", "solitaire-ds exercises init my-exercises"], cwd=home, env=env, check=True,
                   capture_output=True)
    folder = home / "my-exercises"
    for number in done:
        shutil.copyfile(ROOT / "solutions" / exercise(number).relpath, folder / exercise(number).relpath)
    ran = subprocess.run(["sh", "-c", f"solitaire-ds {command} 2>&1"], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=300, check=False)
    return ran.returncode, ran.stdout.replace(str(home.resolve()), "~")


def _block_lines(text: str) -> list[str]:
    """The lines of the one console block ``text`` holds, fences dropped."""
    lines = text.rstrip("\n").splitlines()
    assert lines[0] == "```console" and lines[-1] == "```", text
    return lines[1:-1]


@pytest.mark.parametrize(("command", "done", "status"), [
    ("check 1", (), 1),  # the skeleton: its first failing test
    ("play perpetual-motion --seed 1 --impl .", (1,), 0),  # the student's ArrayStack in a real game
])
def test_a_sample_is_what_the_command_prints_in_a_fresh_exercises_folder(
        tmp_path: Path, command: str, done: tuple[int, ...], status: int) -> None:
    done_arg = ",".join(map(str, done))
    shown = _block_lines(docgen.run(command, done=done_arg, status=str(status)))
    code, output = _by_hand(tmp_path, command, done)
    assert code == status
    assert shown == [f"$ solitaire-ds {command}", *output.rstrip("\n").splitlines()]
    assert "~/my-exercises" in output and str(tmp_path) not in "\n".join(shown)


def test_a_sample_whose_command_exits_otherwise_stops_the_build() -> None:
    with pytest.raises(docgen.DirectiveError, match=r"`solitaire-ds check 1` exited 1, not 0"):
        docgen.run("check 1")  # the skeleton fails its checks: a page cannot show it passing


def test_lines_keeps_the_first_lines_and_says_how_many_are_left() -> None:
    command = "play perpetual-motion --seed 1 --impl ."
    _, output = docgen.session(command, (1,))
    everything = output.rstrip("\n").splitlines()
    shown = _block_lines(docgen.run(command, done="1", lines="2"))
    assert shown == [f"$ solitaire-ds {command}", *everything[:2], f"… ({len(everything) - 2} more lines)"]
    assert shown[1].startswith("Deal: seed 1; structures from ~/my-exercises: your ArrayStack")


def test_a_zoo_bug_is_copied_in_as_the_graders_meta_tests_apply_it(tmp_path: Path) -> None:
    bug = next(b for b in load_bugs() if b.name == "02_stack_peek_pops")
    relpath, text = docgen.commands._with_bug(bug.name)
    make_buggy_submission(bug, tmp_path)
    assert relpath == exercise(bug.exercise).relpath and text == (tmp_path / relpath).read_text(encoding="utf-8")
    with pytest.raises(docgen.DirectiveError, match="no bug 'no_such_bug' in the bug zoo"):
        docgen.commands._with_bug("no_such_bug")
    assert isinstance(bug, Bug) and docgen.commands.ZOO == ZOO


# -- no pasted output, one spelling of --impl -------------------------------------------------------------

_FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                    re.MULTILINE | re.DOTALL)
#: The commands whose output a page shows only through a ``run`` directive.
_COURSE_COMMAND = re.compile(r"^\$ solitaire-ds (?:check|exercises|play|replay|simulate)\b")
#: First words of those commands' output, as a page would paste it into a text block.
_PASTED = re.compile(r"^\s*(?:Checking .* on \d+ exercise|Your exercises in |Deal: seed |first failing test: |"
                     r"#\s+exercise\s+(?:result|file))", re.MULTILINE)
_QUOTED = re.compile(r"`[^`\n]*(?:; structures from |Checking .* on \d+ exercise|first failing test: )[^`\n]*`")


def pasted_outputs(markdown: str) -> list[str]:
    """Return each fenced block of ``markdown`` that holds output of a course command written by hand."""
    found = []
    for match in _FENCE.finditer(markdown):
        lines = [line.strip() for line in match.group("body").splitlines() if line.strip()]
        commands = [line for line in lines if line.startswith("$ ")]
        output = [line for k, line in enumerate(lines)
                  if not line.startswith("$ ") and not (k and lines[k - 1].endswith("\\"))]
        if (any(_COURSE_COMMAND.match(c) for c in commands) and output) or _PASTED.search(match.group("body")):
            found.append(match.group(0)[:200])
    prose = _FENCE.sub("", markdown)  # a line of output quoted in a sentence
    found += _QUOTED.findall(prose)
    return found


def test_the_pasted_output_finder_catches_each_kind() -> None:
    old_getting_started = ("```text\n   #  exercise                                      result  tests  points\n"
                           "   1  ArrayStack: a stack in a resizing array       FAIL     0/17    0/10\n```\n")
    old_tutorial = ("```console\n$ solitaire-ds play klondike --seed 1 --impl .\n"
                    "Deal: seed 1; structures from /home/sam/my-exercises: your ArrayStack\n```\n")
    teach = "```console\n$ solitaire-ds exercises list\nYour exercises in /home/sam/my-exercises:\n```\n"
    how_to = "The record starts with: `Deal: seed 1; structures from /home/sam/my-exercises: your ArrayStack`."
    assert [len(pasted_outputs(text)) for text in (old_getting_started, old_tutorial, teach, how_to)] == [1, 1, 1, 1]
    assert pasted_outputs("1. `Deal: seed 1`: where the deck came from") == []  # naming a line is not pasting it
    commands_only = "```console\n$ solitaire-ds grade a b \\\n      --csv g.csv\n$ solitaire-ds check 1\n```\n"
    assert pasted_outputs(commands_only) == []
    assert pasted_outputs(docgen.run("check 1", status="1")) != []  # what the directive writes is output


@pytest.mark.parametrize("page", [p.relative_to(DOCS).as_posix() for p in _site_pages()])
def test_no_page_pastes_the_output_of_a_course_command(page: str) -> None:
    assert pasted_outputs((DOCS / page).read_text(encoding="utf-8")) == [], (
        f"{page}: show a command's output with <!-- gen: run command=\"...\" --> instead of pasting it")


def _impl_values(text: str) -> list[str]:
    return re.findall(r"--impl[ =]+[\"'`]?([^\s\"'`);,]+)", text)


def test_the_docs_spell_impl_one_way_and_never_show_solutions() -> None:
    texts = {p.relative_to(DOCS).as_posix(): p.read_text(encoding="utf-8") for p in _site_pages()}
    texts["README.md"] = (ROOT / "README.md").read_text(encoding="utf-8")
    texts["the student's README"] = expected_files()["exercises/README.md"]
    values = {where: _impl_values(text) for where, text in texts.items()}
    # the student's folder is always `.`: run inside the folder `exercises init` wrote, where check finds it
    spelled_by_name = {where: [v for v in found if v.strip("./") in ("exercises", "solutions")]
                       for where, found in values.items()}
    assert {where: found for where, found in spelled_by_name.items() if found} == {}
    for where in ("tutorials/getting-started.md", "README.md", "the student's README"):
        assert "." in values[where], where
    shown = {where for where, text in texts.items() if re.search(r"load_toolkit\(\s*[\"']solutions", text)}
    assert shown == set()
    assert _impl_values("play x --impl exercises; play y --impl=./solutions; `--impl .`") == [
        "exercises", "./solutions", "."]
