"""Reference pages: the command line, the API, the README's quick start, the course's exercises."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator
from pathlib import Path

from docgen.common import ROOT, DirectiveError, _anchor


def cli() -> str:
    """Every command, sub-command and option, from ``solitaire_ds.cli.build_parser()``."""
    from solitaire_ds.cli import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "78"
    try:
        parser = build_parser()
        out = ["Generated from `solitaire_ds.cli.build_parser()` when the site is built.", ""]
        out += _parser_section(parser, "solitaire-ds", level=2, top=True)
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(out)


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name, ""), sub


def _parser_section(parser: argparse.ArgumentParser, prog: str, level: int, top: bool = False) -> list[str]:
    out: list[str] = []
    subs = list(_subparsers(parser))
    if not top:
        out += [f"{'#' * level} `{prog}`", ""]
    if parser.description:
        out += [parser.description.replace("%%", "%"), ""]
    out += ["```text", parser.format_usage().strip(), "```", ""]
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.option_strings:
            flag = ", ".join(f"`{s}`" for s in action.option_strings)
            if action.nargs != 0:
                flag += f" `{action.metavar or action.dest.upper()}`"
        else:
            flag = f"`{action.metavar or action.dest}`"
        default = action.default
        shown = "" if default in (None, False, argparse.SUPPRESS) else f"`{default}`"
        help_text = (action.help or "").replace("%%", "%").replace("|", "\\|")
        rows.append(f"| {flag} | {help_text} | {shown} |")
    if rows:
        out += ["| argument | what it does | default |", "| --- | --- | --- |", *rows, ""]
    if subs:
        out += ["| command | what it does |", "| --- | --- |"]
        out += [f"| [`{name}`](#{_anchor(prog + ' ' + name)}) | {help_text} |" for name, help_text, _ in subs]
        out.append("")
        for name, _, sub in subs:
            out += _parser_section(sub, f"{prog} {name}", level if top else level + 1)
    return out


#: The API reference's sections and the modules (or objects) each documents, in reading order.
#: Each name has its own page, ``docs/reference/api/<name>.md`` (one ``api-module`` directive),
#: listed under its section in mkdocs.yml's nav. A public module missing here is still shown,
#: under "Other modules" on the overview (see ``api``), and a docs test names it.
API_SECTIONS: list[tuple[str, list[str]]] = [
    ("The package", ["solitaire_ds", "solitaire_ds.text", "solitaire_ds.blame"]),
    ("Structures", ["solitaire_ds.structures.base", "solitaire_ds.structures.ArrayStack",
                    "solitaire_ds.structures.LinkedStack", "solitaire_ds.structures.ArrayQueue",
                    "solitaire_ds.structures.LinkedQueue", "solitaire_ds.structures.ArrayDeque",
                    "solitaire_ds.structures.LinkedDeque", "solitaire_ds.structures.toolkit"]),
    ("Cards", ["solitaire_ds.cards", "solitaire_ds.shuffle"]),
    ("Games", ["solitaire_ds.games", "solitaire_ds.games.base"]),
    ("The four games", ["solitaire_ds.games.perpetual_motion", "solitaire_ds.games.idiots_delight",
                        "solitaire_ds.games.aces_up", "solitaire_ds.games.klondike"]),
    ("Players and the solver", ["solitaire_ds.players", "solitaire_ds.interactive", "solitaire_ds.solver",
                                "solitaire_ds.solver_models", "solitaire_ds.no_peek"]),
    ("Records and boards", ["solitaire_ds.records", "solitaire_ds.story", "solitaire_ds.boards"]),
    ("Simulations and statistics", ["solitaire_ds.simulate", "solitaire_ds.stats", "solitaire_ds.money"]),
    ("The course", ["solitaire_ds.course", "solitaire_ds.course.catalog", "solitaire_ds.course.config",
                    "solitaire_ds.course.status", "solitaire_ds.course.markers", "solitaire_ds.course.generate"]),
    ("Running the checks", ["solitaire_ds.course.grader", *(f"solitaire_ds.course.grader.{name}" for name in (
        "runner", "submission", "launch", "plan", "scoring", "judge", "events", "worker", "proxy", "remote_error",
        "random_source", "messages", "connection", "walls", "sandbox", "users")),
        "solitaire_ds.course.secret", "solitaire_ds.course.browser"]),
    ("Scores and reports", ["solitaire_ds.course.results", "solitaire_ds.course.report", "solitaire_ds.course.honesty",
                            "solitaire_ds.course.similarity", "solitaire_ds.course.gradescope",
                            "solitaire_ds.course.uploads", "solitaire_ds.course.gradebook",
                            "solitaire_ds.course.class_report", "solitaire_ds.course.class_report_html"]),
    ("The contract tests", ["solitaire_ds.course.contracts.plain", "solitaire_ds.course.contracts.operations",
                            "solitaire_ds.course.contracts.snapshot",
                            "solitaire_ds.course.contracts.structure_contracts",
                            "solitaire_ds.course.contracts.structure_machines",
                            "solitaire_ds.course.contracts.pinned", "solitaire_ds.course.contracts.drawn"]),
    ("The command line", ["solitaire_ds.cli", "solitaire_ds.cli.args", "solitaire_ds.cli.games",
                          "solitaire_ds.cli.course", "solitaire_ds.cli.grading", "solitaire_ds.cli.report",
                          "solitaire_ds.cli.docs",
                          "solitaire_ds.cli.completion"]),
]


PACKAGE = ROOT / "solitaire_ds"


def _module_all(path: Path) -> tuple[list[str], dict[str, str]] | None:
    """Read a module file's ``__all__`` and where each imported name comes from, without importing it.

    Return None for a module with no ``__all__`` (it declares no public API).
    """
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] | None = None
    origins: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            origins.update({alias.asname or alias.name: node.module for alias in node.names})
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
            names = [str(v) for v in ast.literal_eval(node.value)]
    return None if names is None else (names, origins)


def public_modules() -> dict[str, tuple[list[str], dict[str, str]]]:
    """Every public module of the package that declares ``__all__``: its names and their origins."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if any(part.startswith("_") for part in parts):
            continue  # __main__ and private helpers
        declared = _module_all(path)
        if declared is not None:
            found[".".join(parts)] = declared
    return found


def undocumented(listed: list[str]) -> list[str]:
    """The public modules ``listed`` leaves out, in the package's order.

    A module counts as documented when it is listed itself, or when every name in its
    ``__all__`` is listed under it or a package above it (``solitaire_ds.structures.ArrayStack``
    documents ``solitaire_ds.structures.array_stack``), or comes from a documented module.
    """
    modules = public_modules()
    done: dict[str, bool] = {}

    def covered(module: str) -> bool:
        if module not in done:
            done[module] = True  # a cycle of re-exports counts as covered once
            names, origins = modules[module]
            parts = module.split(".")
            owners = [".".join(parts[:end]) for end in range(len(parts), 0, -1)]
            done[module] = module in listed or all(
                any(f"{owner}.{name}" in listed for owner in owners)
                or (origins.get(name) in modules and covered(origins[name]))
                for name in names)
        return done[module]

    return [module for module in modules if not covered(module)]


def api_names() -> list[str]:
    """Every name ``API_SECTIONS`` documents, in reading order: each has a page of its own."""
    return [name for _, names in API_SECTIONS for name in names]


def api_page_path(name: str) -> str:
    """The page of API entry ``name``, relative to the API overview: ``"solitaire_ds.cards.md"``."""
    return f"{name}.md"


def api_nav_title(name: str) -> str:
    """The name the navigation shows for ``name``: without the package's own prefix."""
    return name.removeprefix("solitaire_ds.")


def _summary(dotted: str) -> str:
    """The first line of the docstring of the module or object ``dotted`` (or "")."""
    import inspect
    import pydoc

    found = pydoc.locate(dotted)
    doc = inspect.getdoc(found) if found is not None else None
    return _plain_roles(doc.strip().splitlines()[0]) if doc else ""


def _plain_roles(line: str) -> str:
    """``line`` with its reST roles as Markdown code: :class:`~a.b.Event` becomes `Event`."""
    import re

    def code(match: re.Match[str]) -> str:
        target = match.group(2)
        return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"

    return re.sub(r":(?:py:)?[a-z]+:`(~?)([^`]+)`", code, line)


#: mkdocstrings' options for every API block: each signature on a line of its own, under its
#: heading, with its types shown and linked to the page that documents them.
_SIGNATURES = ["separate_signature: true", "show_signature_annotations: true", "signature_crossrefs: true"]


def _rendered(name: str, heading_level: int) -> list[str]:
    """The mkdocstrings block for ``name``, or one line naming it when it has not landed yet.

    The block's heading shows ``name`` whole: on a page of its own it is the page's title.
    """
    if name.split(".")[0] == "solitaire_ds" and _module_file(name):
        options = [f"heading_level: {heading_level}", "show_root_full_path: true", *_SIGNATURES]
        return [f"::: {name}", "    options:", *(f"      {option}" for option in options), ""]
    return [f"*`{name}` is not in this build yet.*", ""]


def api() -> str:
    """The API overview: each section, each of its names linked to its page with its docstring's first line.

    A public module the sections leave out is rendered right here, under "Other modules",
    so it is on the site before it has a page (a docs test names it meanwhile).
    """
    out: list[str] = []
    for title, names in API_SECTIONS:
        out += [f"## {title}", ""]
        for name in names:
            summary = _summary(name)
            out.append(f"- [`{name}`]({api_page_path(name)})" + (f": {summary}" if summary else ""))
        out.append("")
    missing = undocumented(api_names())
    if missing:
        out += ["## Other modules", "",
                "*These modules have no page of their own yet: they are missing from the sections above.*", ""]
        for name in missing:
            out += _rendered(name, heading_level=3)
    return "\n".join(out)


def api_module(name: str) -> str:
    """The page of one API entry ``name`` (a module, or a class its package re-exports)."""
    if name not in api_names():
        raise DirectiveError(f"api-module: {name!r} is not in API_SECTIONS (docs/hooks/docgen/reference.py)")
    return "\n".join(_rendered(name, heading_level=1))


def _module_file(dotted: str) -> bool:
    """Say whether ``dotted`` names a module file (or an object in one) in the checkout."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return True
    return False


def quickstart() -> str:
    """The README's "Quick start" section, word for word (the README is its single source)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## Quick start\s*\n(?P<body>.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    if found is None:
        raise DirectiveError("README.md has no '## Quick start' section")
    return found.group("body").strip() + "\n"


def license_text() -> str:
    """The LICENSE file, word for word (it is the single source), as a quoted block."""
    text = (ROOT / "LICENSE").read_text(encoding="utf-8").strip()
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines()) + "\n"


def exercise(n: str) -> str:
    """The facts box of exercise ``n``, from ``solitaire_ds.course.EXERCISES``."""
    from solitaire_ds.course import exercise as find

    ex = find(int(n))
    return "\n".join([
        '!!! abstract "Exercise at a glance"',
        f"    - **Exercise {ex.number}: {ex.title}** ({ex.points} points)",
        f"    - You write: `exercises/{ex.relpath}` (the reference is `solitaire_ds/{ex.relpath}`)",
        f"    - Its checks: `{ex.test_file}`",
        f"    - Run them: `solitaire-ds check {ex.number}`",
        "",
    ])


def course() -> str:
    """The table of all exercises in course order."""
    from solitaire_ds.course import EXERCISES

    rows = ["| # | exercise | file you write | points |", "| --- | --- | --- | --- |"]
    for ex in EXERCISES:
        page = f"exercise-{ex.number:02d}-{ex.slug.replace('_', '-')}.md"
        rows.append(f"| {ex.number} | [{ex.title}]({page}) | `exercises/{ex.relpath}` | {ex.points} |")
    return "\n".join(rows) + "\n"
