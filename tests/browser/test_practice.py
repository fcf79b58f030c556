"""The practice page of exercise 1 in Chromium, offline: type, check, stop a loop, play.

Every request to another host is aborted (the ``Problems`` guard), so the page must work
from the site alone. The page's runtime (Pyodide and the wheels) is added to the site by
``scripts/browser_bundle.py``; without it these tests skip, unless ``SOLITAIRE_DS_PRACTICE=1``
(as CI sets it) says the site must have it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import tomllib
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solitaire_ds.course import REPO_ROOT
from solitaire_ds.course.catalog import exercise
from tests.browser.conftest import AXE, SHOTS, SITE, Problems

PAGE = "practice/exercise-01-array-stack/"
SOLUTION = (REPO_ROOT / "solutions" / "structures" / "array_stack.py").read_text(encoding="utf-8")

if not (SITE / "practice" / "runtime" / "manifest.json").is_file():
    if os.environ.get("SOLITAIRE_DS_PRACTICE") == "1":
        raise AssertionError(f"{SITE} has no practice runtime (run scripts/browser_bundle.py)")
    pytest.skip("this site was built without the practice runtime", allow_module_level=True)


def _zoo(name: str) -> str:
    bug = tomllib.loads((REPO_ROOT / "tests" / "grading" / "bugzoo" / f"{name}.toml").read_text(encoding="utf-8"))
    source = SOLUTION
    for change in bug["replace"]:
        assert change["old"] in source
        source = source.replace(change["old"], change["new"])
    return source


def _open(browser: Any, base_url: str, path: str) -> tuple[Any, Problems]:
    """Open a practice page on a fresh local storage and wait until its buttons are ready."""
    page = browser.new_page()
    problems = Problems(page, base_url)
    page.add_init_script("window.localStorage.clear()")
    page.goto(base_url + path, wait_until="networkidle")
    page.locator("button[data-action=check]:enabled").wait_for(timeout=10_000)
    return page, problems


@pytest.fixture(scope="module")
def practice(browser: Any, base_url: str) -> Iterator[tuple[Any, Problems]]:
    page, problems = _open(browser, base_url, PAGE)
    yield page, problems
    page.close()


def _type(page: Any, source: str) -> None:
    """Replace the editor's text as a student would paste it, through the editor's own input."""
    page.locator(".ds-practice .cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(source)
    shown = page.evaluate("document.querySelector('.ds-practice').editor.state.doc.toString()")
    assert shown == source


def _run_checks(page: Any, timeout: float = 120) -> tuple[str, float]:
    started = time.monotonic()
    page.locator("button[data-action=check]").click()
    page.wait_for_function("!document.querySelector('[data-action=check]').disabled", timeout=timeout * 1000)
    return page.locator(".ds-practice__output").inner_text(), time.monotonic() - started


def test_a_typed_solution_passes_every_check(practice: tuple[Any, Problems]) -> None:
    page, problems = practice
    _type(page, SOLUTION)
    report, _ = _run_checks(page)
    page.screenshot(path=str(SHOTS / "practice-pass.png"), full_page=True)
    assert re.search(r"1  ArrayStack: a stack in a resizing array\s+PASS\s+(\d+)/\1\s+10/10", report), report
    assert "Exercise 1 passes every test. Well done!" in report
    assert not problems.items, "\n".join(problems.items)


def test_a_zoo_bug_fails_where_check_says_it_does(practice: tuple[Any, Problems], tmp_path: Path) -> None:
    page, problems = practice
    buggy = _zoo("02_stack_peek_pops")
    (tmp_path / "structures").mkdir()
    (tmp_path / "structures" / "array_stack.py").write_text(buggy, encoding="utf-8")
    check = subprocess.run([sys.executable, "-m", "solitaire_ds", "check", "1", "--impl", str(tmp_path)],
                           capture_output=True, text=True, check=False).stdout
    first = re.search(r"first failing test: (\S+)\n\s+(.*)", check)
    assert first is not None, check
    _type(page, buggy)
    report, _ = _run_checks(page)
    page.screenshot(path=str(SHOTS / "practice-fail.png"), full_page=True)
    shown = re.search(r"failing test: (\S+)\n\s+(.*)", report)
    assert shown is not None, report
    assert (shown[1], shown[2]) == (first[1], first[2])
    table = [line for line in check.splitlines() if line.startswith("   1  ")]
    assert table and table[0] in report  # the same score line, word for word
    assert not problems.items, "\n".join(problems.items)


def test_the_stop_button_ends_an_infinite_loop_and_the_page_stays_usable(practice: tuple[Any, Problems]) -> None:
    page, problems = practice
    looping = SOLUTION.replace("    def push(self, item: T) -> None:\n",
                               "    def push(self, item: T) -> None:\n        while True:\n            pass\n", 1)
    assert looping != SOLUTION
    _type(page, looping)
    page.locator("button[data-action=check]").click()
    page.locator("button[data-action=stop]:enabled").wait_for(timeout=5_000)
    time.sleep(4)  # long enough for Python to load and be stuck in the loop
    assert re.fullmatch(r"[1-9]\d* s so far", page.locator(".ds-practice__clock").inner_text())  # time shown
    started = time.monotonic()
    assert page.evaluate("1 + 1") == 2  # the page answers while the worker loops
    assert time.monotonic() - started < 2
    page.locator("button[data-action=stop]").click()
    page.wait_for_function("!document.querySelector('[data-action=check]').disabled", timeout=5_000)
    page.screenshot(path=str(SHOTS / "practice-stopped.png"), full_page=True)
    assert "Stopped" in page.locator(".ds-practice__output").inner_text()
    assert re.fullmatch(r"Stopped after \d+\.\d s\.", page.locator(".ds-practice__status").inner_text())
    _type(page, SOLUTION)  # a new worker: a later run works
    report, _ = _run_checks(page)
    assert "passes every test" in report
    assert not problems.items, "\n".join(problems.items)


def test_play_steps_a_game_on_the_typed_structure(practice: tuple[Any, Problems]) -> None:
    page, problems = practice
    _type(page, SOLUTION)
    page.locator("button[data-action=play]").click()
    page.locator(".ds-practice__game:not([hidden]) svg").wait_for(timeout=120_000)
    first = page.locator(".ds-practice__step").inner_text()
    assert first.startswith("Step 0 of ") and "your ArrayStack" in first
    page.locator("button[data-action=next]").click()
    page.locator("button[data-action=next]").click()
    assert page.locator(".ds-practice__step").inner_text().startswith("Step 2 of ")
    page.locator("button[data-action=prev]").click()
    assert page.locator(".ds-practice__step").inner_text().startswith("Step 1 of ")
    label = page.locator(".ds-practice__board svg").get_attribute("aria-label") or ""
    assert "pile 1 (Stack), bottom to top:" in label
    page.screenshot(path=str(SHOTS / "practice-play.png"), full_page=True)
    assert not problems.items, "\n".join(problems.items)


def test_the_first_run_says_each_step_of_loading_python(browser: Any, base_url: str) -> None:
    page, problems = _open(browser, base_url, PAGE)  # a page of its own: a worker that loads from the start
    page.evaluate("""() => {
        const status = document.querySelector('.ds-practice__status');
        window.said = [];
        new MutationObserver(() => window.said.push(status.textContent))
            .observe(status, {childList: true, characterData: true, subtree: true});
    }""")
    _type(page, SOLUTION)
    report, _ = _run_checks(page)
    said: list[str] = page.evaluate("window.said")
    page.close()
    assert "passes every test" in report
    steps = [line for line in said if re.match(r"\d/4 ", line)]
    assert [line[:3] for line in steps] == ["1/4", "2/4", "3/4", "4/4"], said
    assert steps[0].startswith("1/4 loading Python") and steps[1].startswith("2/4 installing packages")
    assert steps[2] == "3/4 loading the tests…" and steps[3] == "4/4 running the checks…"
    assert not problems.items, "\n".join(problems.items)


def test_a_passing_check_links_the_next_exercise(practice: tuple[Any, Problems], base_url: str) -> None:
    page, problems = practice
    onward = page.locator(".ds-practice__next")
    _type(page, SOLUTION)
    _run_checks(page)
    assert onward.is_visible()
    assert "Every check passes" in onward.inner_text()
    links = {a.inner_text(): a.get_attribute("href") for a in onward.locator("a").all()}
    assert links == {"its tutorial": "../../tutorials/exercise-02-linked-stack/",
                     "its practice page": "../exercise-02-linked-stack/"}
    for href in links.values():  # both pages are there
        assert page.request.get(urllib.parse.urljoin(page.url, href)).status == 200
    _type(page, _zoo("02_stack_peek_pops"))
    assert not onward.is_visible()  # the link was for the file that passed, not this edit of it
    report, _ = _run_checks(page)
    assert "FAIL" in report and not onward.is_visible()  # no link onward from a failing file
    assert not problems.items, "\n".join(problems.items)


def test_play_on_a_buggy_stack_says_the_terminals_one_line_and_clears_the_board(
        practice: tuple[Any, Problems], tmp_path: Path) -> None:
    page, problems = practice
    _type(page, SOLUTION)
    page.locator("button[data-action=play]").click()
    page.locator(".ds-practice__game:not([hidden]) svg").wait_for(timeout=120_000)  # a board is up
    buggy = SOLUTION.replace("self._resize(2 * len(self._slots))", "self._resize(len(self._slots))")
    assert buggy != SOLUTION  # a push that never grows: it writes past the last slot
    (tmp_path / "structures").mkdir()
    (tmp_path / "structures" / "array_stack.py").write_text(buggy, encoding="utf-8")
    terminal = subprocess.run([sys.executable, "-m", "solitaire_ds", "play", "perpetual-motion", "--seed", "1",
                               "--impl", str(tmp_path)], capture_output=True, text=True, check=False)
    said = terminal.stderr.splitlines()[0].removeprefix("solitaire-ds: ")
    assert said.startswith("the game stopped: ArrayStack.push raised IndexError"), terminal.stderr
    _type(page, buggy)
    page.locator("button[data-action=play]").click()
    page.wait_for_function("!document.querySelector('[data-action=play]').disabled", timeout=120_000)
    page.screenshot(path=str(SHOTS / "practice-play-stopped.png"), full_page=True)
    shown = page.locator(".ds-practice__output").inner_text()
    assert shown.strip() == said  # the terminal's line, word for word: the method, no path, no traceback
    assert page.locator(".ds-practice__game").is_hidden()
    assert page.locator(".ds-practice__board").inner_html() == ""
    assert "Run checks" in page.locator(".ds-practice__status").inner_text()
    assert not problems.items, "\n".join(problems.items)


def test_a_site_without_the_runtime_says_the_one_command_that_adds_it(browser: Any, base_url: str) -> None:
    from solitaire_ds.cli.docs import RUNTIME_COMMAND

    page = browser.new_page()
    page.route("**/practice/runtime/**", lambda route: route.fulfill(status=404, body="not found"))
    page.goto(base_url + PAGE, wait_until="networkidle")
    page.locator(".ds-practice__missing:not([hidden])").wait_for(timeout=10_000)
    status = page.locator(".ds-practice__status").inner_text()
    command = page.locator(".ds-practice__missing pre").inner_text()
    page.screenshot(path=str(SHOTS / "practice-no-runtime.png"), full_page=True)
    page.close()
    assert "no practice runtime" in status
    assert command.strip() == RUNTIME_COMMAND == "solitaire-ds docs runtime"


def test_download_saves_the_file_unchanged_and_check_grades_it(practice: tuple[Any, Problems],
                                                               tmp_path: Path) -> None:
    page, problems = practice
    source = SOLUTION.replace("class ArrayStack", "# typed in the browser: déjà vu ♠\nclass ArrayStack", 1)
    _type(page, source)
    with page.expect_download() as download:
        page.locator("button[data-action=download]").click()
    assert download.value.suggested_filename == "array_stack.py"
    saved = tmp_path / "structures" / "array_stack.py"
    saved.parent.mkdir()
    download.value.save_as(saved)
    assert saved.read_bytes() == source.encode("utf-8")  # byte for byte: what grade is handed
    check = subprocess.run([sys.executable, "-m", "solitaire_ds", "check", "1", "--impl", str(tmp_path)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout
    assert not problems.items, "\n".join(problems.items)


def test_the_file_stays_in_the_browser_until_reset(practice: tuple[Any, Problems], browser: Any,
                                                   base_url: str) -> None:
    page, _ = practice
    skeleton = page.locator(".ds-practice__skeleton").input_value()
    typed = SOLUTION.replace("class ArrayStack", "# kept in local storage\nclass ArrayStack", 1)
    _type(page, typed)
    again = browser.new_page()  # a later visit: the same browser, no clearing script
    problems = Problems(again, base_url)
    again.goto(base_url + PAGE, wait_until="networkidle")
    editor = "document.querySelector('.ds-practice').editor.state.doc.toString()"
    assert again.evaluate(editor) == typed
    again.once("dialog", lambda dialog: dialog.accept())  # "Put the skeleton back?"
    again.locator("button[data-action=reset]").click()
    assert again.evaluate(editor) == skeleton
    again.reload(wait_until="networkidle")
    assert again.evaluate(editor) == skeleton
    assert not problems.items, "\n".join(problems.items)
    again.close()


def test_the_practice_index_states_the_size_it_loads(browser: Any, base_url: str) -> None:
    manifest = json.loads((SITE / "practice" / "runtime" / "manifest.json").read_text(encoding="utf-8"))
    total = sum(manifest["bytes"].values()) / 1e6
    page = browser.new_page()
    page.goto(base_url + "practice/", wait_until="networkidle")
    stated = re.search(r"about (\d+) MB", page.locator("article").inner_text())
    page.close()
    assert stated is not None
    assert abs(int(stated[1]) - total) < 1.5, f"the page says about {stated[1]} MB; the runtime is {total:.1f} MB"


def _page_of(n: int) -> str:
    """Exercise ``n``'s practice page, under the site's root."""
    return f"practice/exercise-{n:02d}-{exercise(n).slug.replace('_', '-')}/"


@pytest.mark.parametrize("n", range(1, 13))
def test_each_page_holds_its_exercise_skeleton(browser: Any, base_url: str, n: int) -> None:
    ex = exercise(n)
    page, problems = _open(browser, base_url, _page_of(n))
    shown = page.evaluate("document.querySelector('.ds-practice').editor.state.doc.toString()")
    page.close()
    assert shown == (REPO_ROOT / "exercises" / ex.relpath).read_text(encoding="utf-8")
    assert not problems.items, "\n".join(problems.items)


def test_exercise_6_checks_and_plays_klondike_on_the_typed_linked_deque(browser: Any, base_url: str) -> None:
    ex = exercise(6)
    page, problems = _open(browser, base_url, _page_of(6))
    _type(page, (REPO_ROOT / "solutions" / ex.relpath).read_text(encoding="utf-8"))
    report, _ = _run_checks(page)
    assert "Exercise 6 passes every test. Well done!" in report, report
    page.locator("button[data-action=play]").click()
    page.locator(".ds-practice__game:not([hidden]) svg").wait_for(timeout=120_000)
    assert "your LinkedDeque" in page.locator(".ds-practice__step").inner_text()
    label = page.locator(".ds-practice__board svg").get_attribute("aria-label") or ""
    page.close()
    assert "waste (Stack)" in label
    assert not problems.items, "\n".join(problems.items)


def test_exercise_10_checks_and_plays_the_students_own_aces_up(browser: Any, base_url: str) -> None:
    ex = exercise(10)
    page, problems = _open(browser, base_url, _page_of(10))
    _type(page, (REPO_ROOT / "solutions" / ex.relpath).read_text(encoding="utf-8"))
    report, _ = _run_checks(page)
    assert "Exercise 10 passes every test. Well done!" in report, report
    page.locator("button[data-action=play]").click()
    page.locator(".ds-practice__game:not([hidden]) svg").wait_for(timeout=120_000)
    assert "your AcesUp (games/aces_up.py)" in page.locator(".ds-practice__step").inner_text()
    page.screenshot(path=str(SHOTS / "practice-play-aces-up.png"), full_page=True)
    page.close()
    assert not problems.items, "\n".join(problems.items)


@pytest.mark.parametrize("n", [7, 12])
def test_a_page_with_no_game_checks_but_offers_no_play(browser: Any, base_url: str, n: int) -> None:
    ex = exercise(n)
    page, problems = _open(browser, base_url, _page_of(n))
    assert page.locator("button[data-action=play]").count() == 0
    _type(page, (REPO_ROOT / "solutions" / ex.relpath).read_text(encoding="utf-8"))
    report, _ = _run_checks(page)
    page.close()
    assert f"Exercise {n} passes every test. Well done!" in report, report
    assert not problems.items, "\n".join(problems.items)


def test_the_practice_page_passes_axe_core(practice: tuple[Any, Problems]) -> None:
    page, _ = practice
    assert AXE and Path(AXE).is_file(), "SOLITAIRE_DS_AXE must name axe.min.js"
    page.add_script_tag(path=AXE)
    violations = page.evaluate("""async () => (await axe.run(document,
        {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa"]}})).violations.map(v => v.id)""")
    assert violations == []
