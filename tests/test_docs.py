"""The docs site: its generators, its page list, and every code sample on it runs.

Code samples are the fenced blocks of ``docs/**/*.md``:

* a ```` ```python ```` block runs; the blocks of one page share one namespace, in order;
* a ```` ```console ```` block runs every line that starts with ``$ `` (a line ending in
  ``\\`` goes on with the next), through ``sh`` with ``solitaire-ds`` meaning this checkout's
  ``python -m solitaire_ds``, all lines of one page in one fresh working directory, with
  no input (a game waiting for a person reads the end of input and quits), and expects
  exit status 0. A command line in a ```` ```bash ```` or ```` ```sh ```` block is refused:
  write it as ``console`` so it runs;
* a block right after the line ``<!-- docs-test: skip (reason) -->`` does not run (say why:
  it makes a virtual environment, it takes minutes, it waits for a person at the keyboard);
  ``<!-- docs-test: exit=N -->`` expects exit status N instead of 0.

The site build itself (``mkdocs build --strict``) and the real-browser test run in CI
(``.ci/run``), where the docs extra is installed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import docgen  # docs/hooks, put on the path by tests/conftest.py
import pytest

from solitaire_ds.cli.docs import INSTALL_HINT, docs_command
from solitaire_ds.course import EXERCISES
from solitaire_ds.structures import ArrayQueue, LinkedDeque

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _site_pages() -> list[Path]:
    """The site's Markdown pages: every ``.md`` under docs/ but the folders mkdocs.yml excludes
    (the generators, the stored data, and the practice pages' front-end sources with their
    node_modules)."""
    excluded = ("hooks", "data", "browser")
    return sorted(p for p in DOCS.rglob("*.md") if p.relative_to(DOCS).parts[0] not in excluded)


_FENCE = re.compile(
    r"(?P<marker><!--\s*docs-test:\s*(?P<what>[^>]*?)\s*-->\s*\n)?"
    r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```\s*$",
    re.MULTILINE | re.DOTALL,
)


@dataclass
class Sample:
    page: str
    lang: str
    body: str
    skip: str | None
    exit_status: int


def _samples() -> dict[str, list[Sample]]:
    pages: dict[str, list[Sample]] = {}
    for path in _site_pages():
        rel = path.relative_to(DOCS).as_posix()
        for match in _FENCE.finditer(path.read_text(encoding="utf-8")):
            lang = match.group("lang")
            if lang not in ("python", "console", "bash", "sh", "shell", "zsh"):
                continue
            what = match.group("what") or ""
            skip = what if what.startswith("skip") else None
            exit_match = re.match(r"exit=(\d+)", what)
            body = textwrap.dedent(match.group("body"))  # a block inside an admonition or a list item
            sample = Sample(rel, lang, body, skip, int(exit_match.group(1)) if exit_match else 0)
            pages.setdefault(rel, []).append(sample)
    return pages


SAMPLES = _samples()


@pytest.mark.parametrize("page", sorted(p for p, s in SAMPLES.items() if any(x.lang == "python" for x in s)))
def test_every_python_sample_on_the_page_runs(page: str) -> None:
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for number, sample in enumerate(SAMPLES[page], start=1):
        if sample.lang != "python" or sample.skip:
            continue
        try:
            exec(compile(sample.body, f"{page} (python block {number})", "exec"), namespace)
        except Exception as exc:
            pytest.fail(f"{page}, python block {number} raised {type(exc).__name__}: {exc}")


def _commands(body: str) -> list[str]:
    """The command lines of a console block: every ``$ `` line, joined with its ``\\`` continuations."""
    commands: list[str] = []
    going_on = False
    for line in body.splitlines():
        if going_on:
            commands[-1] = commands[-1][:-1] + line
        elif line.startswith("$ "):
            commands.append(line[2:])
        else:
            continue
        going_on = commands[-1].endswith("\\")
    return commands


def _shim(where: Path) -> dict[str, str]:
    """An environment in which ``solitaire-ds`` and ``python`` are this checkout's, as a reader's venv."""
    bin_dir = where / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "solitaire-ds"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m solitaire_ds "$@"\n')
    shim.chmod(0o755)
    path = os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return {**os.environ, "COLUMNS": "100", "PATH": path, "PYTHONPATH": str(ROOT)}


@pytest.mark.parametrize("page", sorted(p for p, s in SAMPLES.items() if any(x.lang == "console" for x in s)))
def test_every_command_on_the_page_runs(page: str, tmp_path: Path) -> None:
    env = _shim(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    for sample in SAMPLES[page]:
        if sample.lang != "console" or sample.skip:
            continue
        for command in _commands(sample.body):
            done = subprocess.run(["sh", "-c", command], cwd=work, env=env, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=240, check=False)
            assert done.returncode == sample.exit_status, (
                f"{page}: `{command}` exited {done.returncode}, expected {sample.exit_status} "
                f"(mark the block <!-- docs-test: skip (why) --> if it cannot run here)\n{done.stderr[-2000:]}")


def test_every_line_of_a_console_block_that_starts_with_a_dollar_is_a_command() -> None:
    body = "$ solitaire-ds --help\nusage: ...\n$ printf 'q\\n' | \\\n  solitaire-ds play aces-up\n$ python -V\n"
    assert _commands(body) == ["solitaire-ds --help", "printf 'q\\n' |   solitaire-ds play aces-up", "python -V"]


def test_a_command_line_in_a_shell_block_that_would_not_run_is_refused() -> None:
    stray = [f"{s.page} ({s.lang})" for page in SAMPLES.values() for s in page
             if s.lang in ("bash", "sh", "shell", "zsh") and _commands(s.body)]
    assert not stray, f"command lines outside a console block (they would never run): {stray}"


def test_the_samples_are_found() -> None:
    assert any(s.lang == "python" for page in SAMPLES.values() for s in page)
    assert any(s.lang == "console" for page in SAMPLES.values() for s in page)


def test_every_skipped_sample_says_why() -> None:
    unexplained = [s.page for page in SAMPLES.values() for s in page if s.skip is not None and "(" not in s.skip]
    assert not unexplained, f"skipped without a reason in brackets: {unexplained}"


# -- pages and nav ---------------------------------------------------------------------------------


def _nav_pages() -> list[str]:
    # "- Title: page.md", or a bare "- page.md" (a section's index page)
    return re.findall(r"^\s*- (?:[^:\n]+:\s+)?(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
                      re.MULTILINE)


def test_every_page_in_the_nav_exists_and_every_page_is_in_the_nav() -> None:
    nav = _nav_pages()
    on_disk = [p.relative_to(DOCS).as_posix() for p in _site_pages()]
    assert sorted(nav) == on_disk


def test_the_tutorials_have_one_page_per_exercise_in_course_order() -> None:
    expected = [f"tutorials/exercise-{ex.number:02d}-{ex.slug.replace('_', '-')}.md" for ex in EXERCISES]
    assert [p for p in _nav_pages() if p.startswith("tutorials/exercise-")] == expected


def test_every_exercise_page_shows_its_generated_facts_box() -> None:
    for ex in EXERCISES:
        text = (DOCS / f"tutorials/exercise-{ex.number:02d}-{ex.slug.replace('_', '-')}.md").read_text()
        assert f"<!-- gen: exercise n={ex.number} -->" in text, ex.slug


# -- generators --------------------------------------------------------------------------------------


def test_an_unknown_generator_is_refused_with_its_name_and_page() -> None:
    with pytest.raises(docgen.DirectiveError, match=r"x\.md: unknown generator 'nope'"):
        docgen.expand("<!-- gen: nope -->", where="x.md")


def test_a_directive_argument_without_equals_is_refused() -> None:
    with pytest.raises(docgen.DirectiveError, match="argument 'seed' of 'record' is not key=value"):
        docgen.expand("<!-- gen: record seed -->", where="x.md")


def test_the_cli_reference_lists_every_command_from_the_parser() -> None:
    from solitaire_ds.cli import build_parser

    text = docgen.cli()
    commands = [name for name, _, _ in docgen._subparsers(build_parser())]
    assert {"play", "simulate", "replay", "docs"} <= set(commands)
    for name in commands:
        assert f"## `solitaire-ds {name}`" in text
    assert "`--gather` `GATHER`" in text


def test_a_structure_diagram_is_drawn_from_the_real_fields() -> None:
    text = docgen.diagram("ArrayQueue", "enqueue a; enqueue b; dequeue")
    assert text.count("<svg") == 6  # before and after, three operations
    assert "returns `a`" in text
    queue = ArrayQueue("abcd")
    queue.dequeue()
    queue.enqueue("e")  # wraps around into slot 0
    svg = docgen.state_svg(queue)
    assert "front = 1" in svg and "capacity = 4" in svg


def test_a_linked_deque_is_drawn_as_a_ring_with_its_sentinel() -> None:
    svg = docgen.state_svg(LinkedDeque("xy"))
    assert ">S<" in svg and "sentinel" in svg and ">x<" in svg and ">y<" in svg


def test_the_complexity_table_reads_every_runtime_line() -> None:
    table = docgen.complexity("ArrayStack")
    assert "| `push(item)` |" in table and "O(1) amortized" in table


@pytest.mark.parametrize("cls", ["ArrayStack", "LinkedStack", "ArrayQueue", "LinkedQueue", "ArrayDeque", "LinkedDeque"])
def test_the_complexity_table_shows_the_inherited_methods_and_protocols(cls: str) -> None:
    table = docgen.complexity(cls)
    for label in ("`is_empty()`", "`bool(s)`", "`s == other`", "`repr(s)`", "`len(s)`", "`iter(s)`"):
        row = next((line for line in table.splitlines() if line.startswith(f"| {label} |")), None)
        assert row is not None, f"{cls}: no row for {label}"
        assert row.rstrip(" |").endswith(("O(1)", "O(n)", "the docstring*", "iteration")), row


def test_a_method_without_a_complexity_line_gets_a_row_that_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    class Odd(ArrayQueue[str]):
        def rotate(self) -> None:
            """Move the front item to the back."""
            self.enqueue(self.dequeue())

    monkeypatch.setattr(docgen.structures, "_structure", lambda name: Odd)
    table = docgen.complexity("Odd")
    assert "| `rotate()` | Move the front item to the back. | *not stated in the docstring* |" in table
    assert "| `enqueue(item)` |" in table and "*(inherited)*" in table


def test_the_sample_record_is_the_one_the_play_command_prints() -> None:
    from solitaire_ds.cards import Deck
    from solitaire_ds.games.perpetual_motion import PerpetualMotion
    from solitaire_ds.records import play_record, render_text

    text = docgen.record("perpetual-motion", seed="1", max_lines="100000")
    full = render_text(play_record(PerpetualMotion(Deck.shuffled(1))))
    assert "\n".join("    " + line for line in full.splitlines()) in text
    assert "**deal**" in text and "**gather**" in text


def test_the_stored_statistics_render_with_intervals() -> None:
    text = docgen.pm_study()
    assert "right-face-down" in text and re.search(r"cycled \d+\.\d\d% \(\d+\.\d\d%–\d+\.\d\d%\)", text)


def test_the_docs_command_names_the_docs_extra_when_mkdocs_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from solitaire_ds.cli import UsageError

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UsageError, match=re.escape(f"mkdocs is not installed: {INSTALL_HINT}")):
        docs_command(["serve"])


def test_the_docs_command_without_mkdocs_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "mkdocs.py"
    blocker.write_text("raise ImportError('blocked')\n")
    code = ("import importlib.util, sys\n"
            "real = importlib.util.find_spec\n"
            "importlib.util.find_spec = lambda n, *a: None if n in ('mkdocs', 'material') else real(n, *a)\n"
            "from solitaire_ds.cli import main\n"
            "sys.exit(main(['docs']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == (f"solitaire-ds docs: error: mkdocs is not installed: {INSTALL_HINT} "
                           "(see solitaire-ds docs --help)\n")


def test_the_home_page_quick_start_is_the_readmes() -> None:
    text = docgen.quickstart()
    assert "python3 -m venv .venv" in text and "pytest" in text
    assert "<!-- gen: quickstart -->" in (DOCS / "index.md").read_text(encoding="utf-8")


def test_the_figures_script_keeps_histograms_of_numeric_keys_split_by_outcome() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "scripts" / "docs_figures.py")
    assert spec is not None and spec.loader is not None
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    results = [
        {"deal": 1, "seed": 9, "won": True, "rounds": 3, "cycle_length": None},
        {"deal": 2, "seed": 8, "won": False, "rounds": 5, "cycle_length": 4},
        {"deal": 3, "seed": 7, "won": False, "rounds": 5, "cycle_length": 4},
    ]
    assert figures._histograms(results) == {
        "won": {"rounds": {"3": 1}},
        "lost": {"rounds": {"5": 2}, "cycle_length": {"4": 2}},
    }


def test_the_figures_script_runs_only_the_named_plans_and_keeps_the_others(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "scripts" / "docs_figures.py")
    assert spec is not None and spec.loader is not None
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    monkeypatch.setattr(figures, "DATA", tmp_path)
    monkeypatch.setattr(figures, "ROOT", tmp_path)
    kept = {"options": [], "player": "greedy", "games": 7}
    (tmp_path / "stats-aces-up.json").write_text(json.dumps({"game": "aces-up", "runs": [kept]}))
    calls = []

    def fake_run(game: str, flags: list[str], player: str | None, games: int, *rest: int) -> dict[str, object]:
        calls.append((game, flags, player, games))
        return {"options": flags, "player": player, "games": games}

    monkeypatch.setattr(figures, "run_one", fake_run)
    figures.main(["--games", "50", "--solver-games", "9", "--only", "aces-up", "--plan", "aces-up --aces-only solver"])
    assert calls == [("aces-up", ["--aces-only"], "solver", 9)]
    runs = json.loads((tmp_path / "stats-aces-up.json").read_text())["runs"]
    assert runs == [kept, {"options": ["--aces-only"], "player": "solver", "games": 9}]


def test_the_docs_command_names_the_missing_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import importlib.util

    from solitaire_ds.cli import UsageError

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())
    with pytest.raises(UsageError, match=r"no mkdocs\.yml in .*: the docs are served from a source checkout"):
        docs_command(["serve"], tmp_path / "mkdocs.yml")


# -- docstrings as Markdown (game pages and the API page) ------------------------------------------


def test_the_docstring_converter_examples_hold() -> None:
    import doctest

    import rest_markdown

    failures, tried = doctest.testmod(rest_markdown)
    assert tried >= 4 and failures == 0


def _rendered_lists(markdown_text: str) -> str:
    """The rendered HTML with every tag but the list ones dropped (needs the docs extra)."""
    markdown = pytest.importorskip("markdown")
    html = markdown.markdown(markdown_text, extensions=["tables", "attr_list", "md_in_html"])
    return re.sub(r"\n\s*\n+", "\n", re.sub(r"<(?!/?(?:ol|ul|li)\b)[^>]+>", "", html))


@pytest.mark.parametrize("game", ["perpetual-motion", "idiots-delight", "aces-up", "klondike"])
def test_the_game_rules_show_no_rest_roles(game: str) -> None:
    text = docgen.game_rules(game)
    assert not re.search(r":(?:data|meth|class|func|mod|attr):`", text), text


def test_a_nested_list_in_the_rules_stays_inside_its_item() -> None:
    text = docgen.game_rules("aces-up")
    assert ">     * ``move i j`` -- pile j is empty" in text  # four spaces per level, inside the quote
    rendered = _rendered_lists(text)
    outer = rendered[rendered.index("<ol>"):rendered.rindex("</ol>")]
    top_level = re.sub(r"<ul>.*?</ul>", "", outer, flags=re.DOTALL)
    assert top_level.count("<li>") == 4  # rule 4 ("The game waits") is the fourth, not the eighth
    assert "The game waits for a move only" in top_level.split("<li>")[4]


def test_klondikes_priority_list_is_numbered_and_the_guard_is_an_item() -> None:
    rendered = _rendered_lists(docgen.game_rules("klondike"))
    priorities = rendered[rendered.index("<ol>"):rendered.index("</ol>")]
    assert priorities.count("<li>") == 4 and "a top card to its foundation" in priorities
    assert "* Guard" not in rendered and re.search(r"<li>\s*Guard: a run", rendered)


# -- playing at the terminal -------------------------------------------------------------------------


def test_the_terminal_session_is_the_real_command_with_each_answer_after_its_prompt() -> None:
    text = docgen.terminal("idiots-delight", seed="3", typed="1;u;q")
    session = text[text.index("```text"):text.index("```\n", text.index("```text") + 3)]
    assert "Your move: 1\n" in session and "Your move: q" in session
    assert session.index("Your move: u\nUndone") > session.index("Your move: 1\n")
    assert "Result: lost: 52 cards left" in text.split("Your move: q")[1]  # the game told, after the session


def test_the_terminal_page_is_linked_from_the_games_that_take_decisions() -> None:
    for page in ("explanation/games/idiots-delight.md", "explanation/games/aces-up.md", "explanation/games/index.md"):
        assert "how-to/play-at-the-terminal.md" in (DOCS / page).read_text(encoding="utf-8"), page
    text = (DOCS / "how-to/play-at-the-terminal.md").read_text(encoding="utf-8")
    for command in ("`h`", "`u`", "`q`", "Ctrl-D", "--json", "<!-- gen: terminal"):
        assert command in text


def test_the_shuffle_picture_is_the_real_fisher_yates_row_by_row() -> None:
    import random

    from solitaire_ds.shuffle import fisher_yates

    cards = ["A♠", "2♠", "3♠", "4♠", "5♠", "6♠"]
    text = docgen.shuffle(" ".join(cards), seed="1")
    assert [f"i = {i}" in text for i in range(1, 6)] == [True] * 5 and "i = 0" not in text
    fisher_yates(cards, random.Random(1))
    last_row = re.findall(r">([^<]+)</text>", text.split(">shuffled<")[1])
    assert last_row[:6] == cards


# -- statistics: every comparison computed from the stored data ----------------------------------------


def _run(options: list[str], player: str | None, games: int, won: int, **hists: dict[str, int]) -> dict[str, object]:
    return {"command": "solitaire-ds simulate ...", "options": options, "player": player, "seed": 1,
            "games": games, "won": won, "histograms": {"won": {}, "lost": dict(hists)}}


def _stored(monkeypatch: pytest.MonkeyPatch, game: str, runs: list[dict[str, object]]) -> None:
    monkeypatch.setattr(docgen.statistics, "_load", lambda name: {"game": game, "runs": runs} if game in name else None)


def test_a_planned_run_missing_from_the_data_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    _stored(monkeypatch, "idiots-delight", [_run([], "greedy", 100, 1, cards_left={"10": 99, "0": 1})])
    text = docgen.stats("idiots-delight")
    assert '!!! warning "Not in the stored data"' in text
    assert "`--deal-any-time, player solver`" in text and "`default rules, player solver`" in text
    assert "`default rules, player greedy`" not in text.split("Not in the stored data")[1]
    entry = {"game": "idiots-delight", "value": 0.1, "side": "won"}
    assert "not in the stored data" in docgen.statistics._ours(entry, "solver", "")


@pytest.mark.parametrize(("games", "verdict", "width"), [(100_000, "inside", "narrower than"),
                                                          (1_000, "inside", "wider than"),
                                                          (100_000, "above", "narrower than")])
def test_the_comparison_with_clarke_is_computed(monkeypatch: pytest.MonkeyPatch, games: int, verdict: str,
                                                width: str) -> None:
    cycled = round(games * (0.4545 if verdict == "inside" else 0.40))
    _stored(monkeypatch, "perpetual-motion", [_run(["--gather", "left-face-down"], None, games, games - cycled)])
    text = docgen.pm_clarke()
    assert f"{games:,} deals" in text
    assert f"his figure is **{verdict}** this interval, which is {width} his" in text


def test_the_comparison_with_clarke_says_when_no_reading_is_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    _stored(monkeypatch, "perpetual-motion", [_run(["--gather", "right-face-down"], None, 10, 5)])
    assert "no comparison with Clarke is made" in docgen.pm_clarke()


def test_two_runs_that_must_agree_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    same = [_run([], "greedy", 50, 1, cards_left={"8": 49}), _run(["--deal-any-time"], "greedy", 50, 1,
                                                                  cards_left={"8": 49})]
    _stored(monkeypatch, "idiots-delight", same)
    assert "the check holds" in docgen.runs_agree("idiots-delight", "greedy", "", "--deal-any-time")
    same[1]["won"] = 2
    assert "The check fails" in docgen.runs_agree("idiots-delight", "greedy", "", "--deal-any-time")
    _stored(monkeypatch, "idiots-delight", same[:1])
    assert "not in the stored data" in docgen.runs_agree("idiots-delight", "greedy", "", "--deal-any-time")


def test_a_published_mean_is_placed_against_our_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    _stored(monkeypatch, "klondike", [_run([], None, 4, 0, net={"-47": 2, "-37": 2})])
    entry = {"game": "klondike", "value": -8.85, "side": "all", "key": "net", "unit": "$"}
    text = docgen.statistics._ours(entry, "", "")
    assert "mean −$42.00" in text and "4 deals" in text and "**above** this interval" in text


def test_every_plot_series_carries_its_deal_count(monkeypatch: pytest.MonkeyPatch) -> None:
    _stored(monkeypatch, "klondike", [_run([], None, 3, 0, to_foundation={"5": 2, "9": 1})])
    assert "default rules (3 deals)" in docgen.plot("klondike", "to_foundation")
    assert "default rules (3 lost deals)" in docgen.plot("klondike", "to_foundation", side="lost")


def test_the_benchmark_summary_is_computed_from_the_stored_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{"name": "ArrayStack", "kind": "array", "baseline": "list", "ops": ops, "ns_per_op": ns,
             "baseline_ns_per_op": 20.0, "ratio": ns / 20.0} for ops, ns in ((1000, 60.0), (10000, 90.0))]
    monkeypatch.setattr(docgen.structures, "_load", lambda name: {"rows": rows})
    text = docgen.bench_summary()
    assert "from 3.0× (`ArrayStack`) to 4.5× (`ArrayStack`)" in text
    assert "took from 15.0×" in text
    assert "0 of the 1 classes grew no faster than 12× for 10× the operations" in text


def test_no_page_claims_a_measured_comparison_in_fixed_words() -> None:
    statistics = (DOCS / "explanation/statistics.md").read_text(encoding="utf-8")
    structures = (DOCS / "explanation/structures/index.md").read_text(encoding="utf-8")
    assert "ours is narrower" not in statistics and "as in the figures stored now" not in statistics
    assert "<!-- gen: pm-clarke -->" in statistics and "<!-- gen: bench-summary -->" in structures


# -- the README ----------------------------------------------------------------------------------------


def _readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\s*\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert found is not None, f"README.md has no '## {title}' section"
    return found.group(1)


def test_the_readme_quick_start_is_exactly_two_commands() -> None:
    blocks = re.findall(r"^```console\n(.*?)^```", _readme_section("Quick start"), re.MULTILINE | re.DOTALL)
    assert [len(block.strip().splitlines()) for block in blocks] == [1, 1]


def test_every_readme_command_parses_and_the_games_and_docs_are_there() -> None:
    from solitaire_ds.cli import build_parser

    text = _readme_section("Commands")
    lines = [line.split("  #")[0].split() for line in text.splitlines() if line.startswith("solitaire-ds ")]
    for argv in lines:
        try:
            build_parser().parse_args(argv[1:])
        except SystemExit as exc:  # --version prints and exits 0: that is its parse
            if exc.code != 0:
                pytest.fail(f"README.md: `{' '.join(argv)}` does not parse")
    commands = {" ".join(argv[1:3]) for argv in lines}
    assert {"play idiots-delight", "play aces-up", "klondike --games", "docs", "exercises list",
            "check 1"} <= commands
    assert {"grade", "play"} <= {argv[1] for argv in lines if "--impl" in argv or "--csv" in argv}
    assert any("--player" in argv for argv in lines)
    where = _readme_section("Where to go next")
    assert "solitaire-ds docs" in where and ".[docs,grading]" in where


#: What readers do not know: the project's issue numbers, the seed files' names, shared/ paths.
_MACHINERY = re.compile(
    r"\bissues? #?\d+\b|\bshared/|\b\d{3}_[0-9a-f]{16}\b|\b00\d_…|\bTargets \(issue", re.IGNORECASE)


def machinery(text: str) -> list[str]:
    """Return each mention of project machinery in ``text``, with a little context."""
    return [text[max(0, m.start() - 30):m.end() + 10].replace("\n", " ")
            for m in _MACHINERY.finditer(text)]


def test_the_machinery_finder_catches_each_kind_of_mention() -> None:
    found = machinery("As issue 4 words them; see ../shared/rules/000_0e341175f886c16a.txt "
                      "and `004_…`. Targets (issue 2). Issues like #12 are fine in prose.")
    assert len(found) == 5, found
    assert machinery("an issue of the magazine; 45% of cases; 3 piles") == []


@pytest.mark.parametrize("page", [p.relative_to(DOCS).as_posix() for p in _site_pages()])
def test_a_reader_page_names_no_issue_seed_file_or_shared_path(page: str) -> None:
    # the page as readers get it: its own text and everything generated into it
    expanded = docgen.expand((DOCS / page).read_text(encoding="utf-8"), where=page)
    assert machinery(expanded) == [], f"{page} speaks of project machinery"


def test_the_licence_page_quotes_the_license_file_whole() -> None:
    page = docgen.expand("<!-- gen: license -->", where="about/license.md")
    lines = (ROOT / "LICENSE").read_text(encoding="utf-8").strip().splitlines()
    assert page.splitlines() == [f"> {line}" if line else ">" for line in lines]
    assert lines[0] == "MIT License"


def test_the_docs_command_names_the_grading_extra_when_the_test_tools_are_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The pages show real `check` sessions: without pytest the build would stop on the first one.
    import importlib.util

    from solitaire_ds.cli import UsageError

    # mkdocs "found" too, so that the test runs without the docs extra
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pytest" else object())
    with pytest.raises(UsageError, match=re.escape(f"pytest is not installed (the pages show real `check` "
                                                   f"sessions, which run the tests): {INSTALL_HINT}")):
        docs_command(["serve"])
    assert "grading" in INSTALL_HINT
