"""Generated parts of the docs site: every figure, table and record comes from the real code.

A page asks for generated content with a directive on a line of its own::

    <!-- gen: record game=perpetual-motion seed=7 -->

:func:`expand` replaces each directive by the Markdown (and inline SVG) its generator
returns. The mkdocs hook (``generate.py``) calls it for every page, and the docs tests
call the generators directly. Generators never simulate many deals: long statistics are
read from ``docs/data/*.json``, written once by ``scripts/docs_figures.py``.

Invariant: a generator is a pure function of the package's code, the directive's
arguments and the stored data.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from docgen.boards import MOMENTS, find_moment, moment_boards, rule_boards  # noqa: F401
from docgen.browser import browser_exercise
from docgen.class_report import CLASS, class_report, synthetic_class, synthetic_report  # noqa: F401
from docgen.commands import FOLDER, SHOWN_HOME, run, session  # noqa: F401 (one namespace for the hook and the tests)
from docgen.common import (  # noqa: F401 (one namespace for the hook and the tests)
    DATA,
    ROOT,
    DirectiveError,
    _anchor,
    _docstring_head,
    _esc,
    _esc_cell,
    _game_class,
    _item_text,
    _load,
)
from docgen.games import (  # noqa: F401 (one namespace for the hook and the tests)
    EVENT_NOTES,
    _option_value,
    _walk,
    board_picture,
    game_options,
    game_rules,
    game_status,
    gather_readings,
    record,
    state_board_and_result,
    terminal,
)
from docgen.reference import (  # noqa: F401 (one namespace for the hook and the tests)
    API_SECTIONS,
    PACKAGE,
    _module_all,
    _module_file,
    _parser_section,
    _subparsers,
    api,
    api_module,
    api_names,
    api_nav_title,
    api_page_path,
    cli,
    course,
    exercise,
    license_text,
    public_modules,
    quickstart,
    undocumented,
)
from docgen.statistics import (  # noqa: F401 (one namespace for the hook and the tests)
    CLARKE,
    PUBLISHED,
    _dollars,
    _find_run,
    _hist_stats,
    _median,
    _merge,
    _missing_runs,
    _plans,
    _run_label,
    _verdict,
    plot,
    pm_clarke,
    pm_study,
    published,
    runs_agree,
    stats,
)
from docgen.structures import (  # noqa: F401 (one namespace for the hook and the tests)
    _COMPLEXITY,
    _PROTOCOLS,
    _bench_chart,
    _bench_verdicts,
    _operations,
    _quote_docstring,
    _structure,
    bench,
    bench_peers,
    bench_summary,
    complexity,
    diagram,
    invariant,
    shuffle,
)
from docgen.svg import (  # noqa: F401 (one namespace for the hook and the tests)
    _ARROW_DEFS,
    _CELL_H,
    _CELL_W,
    _SERIES_COLOURS,
    _array_svg,
    _binned,
    _clip,
    _linked_svg,
    _node_box,
    _svg,
    bar_chart,
    line_chart,
    state_svg,
)

__all__ = ["GENERATORS", "DirectiveError", "expand"]


_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)<!--\s*gen:\s*(?P<name>[\w-]+)(?P<args>.*?)-->[ \t]*$", re.MULTILINE)


def expand(markdown: str, where: str = "page") -> str:
    """Replace every ``<!-- gen: NAME key=value ... -->`` line by its generated Markdown."""

    def one(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in GENERATORS:
            raise DirectiveError(f"{where}: unknown generator {name!r} (known: {', '.join(sorted(GENERATORS))})")
        args: dict[str, str] = {}
        for token in shlex.split(match.group("args")):
            key, sep, value = token.partition("=")
            if not sep:
                raise DirectiveError(f"{where}: argument {token!r} of {name!r} is not key=value")
            args[key] = value
        try:
            text = GENERATORS[name](**args).rstrip("\n")
        except TypeError as exc:
            raise DirectiveError(f"{where}: {name}: {exc}") from None
        indent = match.group("indent")
        return "\n".join(indent + line if line else line for line in text.split("\n"))

    return _DIRECTIVE.sub(one, markdown)


GENERATORS: dict[str, Callable[..., str]] = {
    "cli": cli,
    "api": api,
    "api-module": api_module,
    "quickstart": quickstart,
    "license": license_text,
    "exercise": exercise,
    "course": course,
    "invariant": invariant,
    "complexity": complexity,
    "diagram": diagram,
    "shuffle": shuffle,
    "bench": bench,
    "bench-summary": bench_summary,
    "bench-peers": bench_peers,
    "game-rules": game_rules,
    "game-options": game_options,
    "game-status": game_status,
    "terminal": terminal,
    "run": run,
    "gather-readings": gather_readings,
    "record": record,
    "board": board_picture,
    "rule-boards": rule_boards,
    "stats": stats,
    "pm-study": pm_study,
    "browser-exercise": browser_exercise,
    "published": published,
    "runs-agree": runs_agree,
    "pm-clarke": pm_clarke,
    "plot": plot,
    "class-report": class_report,
}
