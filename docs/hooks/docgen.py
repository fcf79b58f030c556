"""Generated parts of the docs site: every figure, table and record comes from the real code.

A page asks for generated content with a directive on a line of its own::

    <!-- gen: record game=perpetual-motion seed=7 -->

:func:`expand` replaces each directive by the Markdown (and inline SVG) its generator
returns. The mkdocs hook (``generate.py``) calls it for every page, and the docs tests
call the generators directly. Generators never simulate many deals: long statistics are
read from ``docs/data/*.json``, written once by ``scripts/docs_figures.py``.

Invariant: a generator is a pure function of the package's code, the directive's
arguments and the stored data; for a game whose module has not landed yet it returns
an admonition saying so, never an error.
"""

from __future__ import annotations

import argparse
import html
import inspect
import itertools
import json
import math
import os
import re
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rest_markdown import roles_to_code, to_markdown

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "docs" / "data"

__all__ = ["GENERATORS", "DirectiveError", "expand"]

#: Issue that brings each game (for the "coming with issue N" notes).
GAME_ISSUES = {"perpetual-motion": 3, "idiots-delight": 4, "aces-up": 4, "klondike": 5}


class DirectiveError(ValueError):
    """A directive that names no generator or gives it bad arguments."""


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


# -- small helpers ------------------------------------------------------------------------------


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _game_class(name: str) -> Any | None:
    from solitaire_ds.games import UnknownGame, game_class

    try:
        return game_class(name)
    except UnknownGame:
        return None
    except Exception:  # a game module half-way through being written: treat it as not landed
        return None


def _coming(game: str, what: str) -> str:
    issue = GAME_ISSUES.get(game, "?")
    return (f'!!! note "Coming with issue {issue}"\n'
            f"    {what} appears here, generated from the code, as soon as "
            f"`solitaire_ds.games` offers `{game}` (issue {issue} is building it).\n")


def _docstring_head(obj: Any) -> str:
    return inspect.cleandoc(obj.__doc__ or "")


# -- the command-line reference ------------------------------------------------------------------


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


def _anchor(title: str) -> str:
    """The id mkdocs' toc extension gives a heading such as ``solitaire-ds play``."""
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", title).strip().lower())


# -- the API reference ---------------------------------------------------------------------------

#: The API page's sections and the modules (or objects) each documents, in reading order.
#: A public module missing here is still documented, under "Other modules" (see ``api``),
#: and a docs test names it so it can be given its place.
API_SECTIONS: list[tuple[str, list[str]]] = [
    ("The package", ["solitaire_ds"]),
    ("Structures", ["solitaire_ds.structures.base", "solitaire_ds.structures.ArrayStack",
                    "solitaire_ds.structures.LinkedStack", "solitaire_ds.structures.ArrayQueue",
                    "solitaire_ds.structures.LinkedQueue", "solitaire_ds.structures.ArrayDeque",
                    "solitaire_ds.structures.LinkedDeque", "solitaire_ds.structures.toolkit"]),
    ("Cards", ["solitaire_ds.cards"]),
    ("Games", ["solitaire_ds.games", "solitaire_ds.games.base", "solitaire_ds.games.perpetual_motion",
               "solitaire_ds.games.idiots_delight", "solitaire_ds.games.aces_up", "solitaire_ds.games.klondike"]),
    ("Players and the solver", ["solitaire_ds.players", "solitaire_ds.interactive", "solitaire_ds.solver"]),
    ("Records", ["solitaire_ds.records"]),
    ("Simulations and statistics", ["solitaire_ds.simulate", "solitaire_ds.stats",
                                    "solitaire_ds.klondike_report"]),
    ("The course and grading", ["solitaire_ds.course", "solitaire_ds.grading.runner",
                                "solitaire_ds.grading.results", "solitaire_ds.grading.report",
                                "solitaire_ds.grading.plugin", "solitaire_ds.grading.markers",
                                "solitaire_ds.grading.generate", "solitaire_ds.grading.commands"]),
    ("The command line", ["solitaire_ds.cli", "solitaire_ds.commands", "solitaire_ds.docs_command"]),
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


def api() -> str:
    """The ``::: module`` lines for mkdocstrings: every section, then any module they leave out."""
    listed = [name for _, names in API_SECTIONS for name in names]
    sections = [*API_SECTIONS]
    missing = undocumented(listed)
    if missing:
        sections.append(("Other modules", missing))
    out: list[str] = []
    for title, names in sections:
        out += [f"## {title}", ""]
        for name in names:
            if name.split(".")[0] == "solitaire_ds" and _module_file(name):
                out += [f"::: {name}", ""]
            else:
                out += [f"*`{name}` is not in this build yet.*", ""]
    return "\n".join(out)


def _module_file(dotted: str) -> bool:
    """Say whether ``dotted`` names a module file (or an object in one) in the checkout."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return True
    return False


# -- the README ---------------------------------------------------------------------------------


def quickstart() -> str:
    """The README's "Quick start" section, word for word (the README is its single source)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## Quick start\s*\n(?P<body>.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    if found is None:
        raise DirectiveError("README.md has no '## Quick start' section")
    return found.group("body").strip() + "\n"


# -- the course ----------------------------------------------------------------------------------


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


# -- structures: invariant, complexity, diagrams --------------------------------------------------


def _structure(name: str) -> type[Any]:
    import solitaire_ds.structures as structures

    cls: type[Any] = getattr(structures, name)
    return cls


def invariant(cls: str) -> str:
    """The class's module docstring (it states the invariant first), as a quote."""
    module = inspect.getmodule(_structure(cls))
    return f"From the top of `{module.__name__ if module else cls}`:\n\n{_quote_docstring(module)}\n"


def _quote_docstring(module: Any) -> str:
    """A module docstring after its first line, as Markdown (see ``rest_markdown``) in a quote."""
    text = _docstring_head(module)
    body = text.split("\n", 1)[1].strip() if "\n" in text else text
    return "\n".join(f"> {line}" if line else ">" for line in to_markdown(body).splitlines())


_COMPLEXITY = re.compile(r"Runtime complexity:\s*(?P<text>.+?)(?:\n\s*\n|$)", re.DOTALL)

#: The Python protocols a structure offers, and how a reader calls each.
_PROTOCOLS = {"__init__": "`{cls}(items)`", "__len__": "`len(s)`", "__iter__": "`iter(s)`",
              "__bool__": "`bool(s)`", "__eq__": "`s == other`", "__repr__": "`repr(s)`",
              "__contains__": "`x in s`", "__reversed__": "`reversed(s)`"}


def _operations(klass: type[Any]) -> Iterator[tuple[str, Any, type[Any]]]:
    """Yield ``(name, function, defining class)`` for every public method and protocol of ``klass``.

    Inherited ones count too (``is_empty``, ``__bool__`` come from the abstract base): the
    class's own first, in source order, then each base's, nearest first. ``object``'s own
    methods (a default ``__repr__``) are not the structure's and are left out.
    """
    seen: set[str] = set()
    for owner in klass.__mro__:
        if owner is object or owner.__module__ in ("abc", "typing", "builtins"):
            continue
        for name, member in vars(owner).items():
            if name in seen or not (name in _PROTOCOLS or not name.startswith("_")):
                continue
            function = member.__func__ if isinstance(member, classmethod | staticmethod) else member
            if not callable(function):
                continue
            seen.add(name)
            if getattr(klass, name, None) is None:
                continue  # switched off in a subclass (``__hash__ = None`` style)
            yield name, function, owner


def complexity(cls: str) -> str:
    """A table of every public method's and protocol's ``Runtime complexity:`` line.

    The line is read from the docstring of the method the class really runs (its own or
    an inherited one); when that docstring has none, from the abstract method it
    implements; and when no docstring states one, the row says so.
    """
    klass = _structure(cls)
    rows = ["| operation | what it does | cost |", "| --- | --- | --- |"]
    for name, function, owner in _operations(klass):
        doc = inspect.getdoc(function) or ""
        found = _COMPLEXITY.search(doc) or next(
            (m for base in klass.__mro__ if name in vars(base)
             for m in [_COMPLEXITY.search(inspect.getdoc(vars(base)[name]) or "")] if m), None)
        cost = " ".join(found.group("text").split()).rstrip(".") if found else "*not stated in the docstring*"
        summary = re.split(r"\s*Runtime complexity:", doc.split("\n\n")[0])[0]
        summary = " ".join(roles_to_code(summary).split()) or "—"
        try:
            params = ", ".join(p for p in inspect.signature(function).parameters if p != "self")
        except (TypeError, ValueError):
            params = "…"
        label = _PROTOCOLS.get(name, f"`{name}({params})`").format(cls=cls)
        if owner is not klass:
            summary += " *(inherited)*"
        rows.append(f"| {label} | {_esc_cell(summary)} | {cost} |")
    return "\n".join(rows) + "\n"


def _esc_cell(text: str) -> str:
    return text.replace("|", "\\|")


_CELL_W, _CELL_H = 46, 34


def _item_text(item: Any) -> str:
    return getattr(item, "label", str(item))


def _svg(width: float, height: float, body: list[str], title: str) -> str:
    return (f'<svg class="ds-diagram" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
            f'aria-label="{_esc(title)}" font-family="sans-serif" font-size="14">'
            f"<title>{_esc(title)}</title>" + "".join(body) + "</svg>")


_ARROW_DEFS = ('<defs><marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
               'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
               'fill="#37474f"/></marker></defs>')


def _array_svg(obj: Any, title: str) -> str:
    slots = obj._slots
    size = obj._size
    front = getattr(obj, "_front", 0)
    cap = len(slots)
    used = {(front + k) % cap for k in range(size)}
    x0, y0 = 10, 34
    body = [_ARROW_DEFS]
    for i, item in enumerate(slots):
        x = x0 + i * _CELL_W
        fill = "#c8e6c9" if i in used else "#f5f5f5"
        body.append(f'<rect x="{x}" y="{y0}" width="{_CELL_W}" height="{_CELL_H}" fill="{fill}" '
                    'stroke="#37474f"/>')
        text = _item_text(item) if i in used else "·"
        body.append(f'<text x="{x + _CELL_W / 2}" y="{y0 + 22}" text-anchor="middle">{_esc(text)}</text>')
        body.append(f'<text x="{x + _CELL_W / 2}" y="{y0 + _CELL_H + 15}" text-anchor="middle" '
                    f'font-size="11" fill="#607d8b">{i}</text>')
    marks: dict[int, list[str]] = {}
    if hasattr(obj, "_front"):
        marks.setdefault(front, []).append("front")
        if size:
            marks.setdefault((front + size - 1) % cap, []).append("rear" if hasattr(obj, "add_front") else "back")
    elif size:
        marks.setdefault(size - 1, []).append("top")
    for i, names in marks.items():
        x = x0 + i * _CELL_W + _CELL_W / 2
        body.append(f'<text x="{x}" y="12" text-anchor="middle" font-size="12" fill="#bf360c">'
                    f'{_esc(" / ".join(names))}</text>')
        body.append(f'<line x1="{x}" y1="16" x2="{x}" y2="{y0 - 2}" stroke="#bf360c" marker-end="url(#ah)"/>')
    info = f"size = {size}, capacity = {cap}" + (f", front = {front}" if hasattr(obj, "_front") else "")
    body.append(f'<text x="{x0}" y="{y0 + _CELL_H + 34}" font-size="12" fill="#37474f">{_esc(info)}</text>')
    width = max(x0 * 2 + cap * _CELL_W, 220)
    return _svg(width, y0 + _CELL_H + 42, body, title)


def _node_box(x: float, y: float, text: str, fill: str = "#bbdefb") -> str:
    return (f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" rx="6" fill="{fill}" '
            f'stroke="#37474f"/><text x="{x + _CELL_W / 2}" y="{y + 22}" text-anchor="middle">'
            f"{_esc(text)}</text>")


def _linked_svg(obj: Any, title: str) -> str:
    gap = 30
    x0, y0 = 10, 34
    body = [_ARROW_DEFS]
    if hasattr(obj, "_sentinel"):  # a ring: sentinel, front ... rear, back to the sentinel
        nodes = [obj._sentinel]
        node = obj._sentinel.next
        while node is not obj._sentinel:
            nodes.append(node)
            node = node.next
        labels = ["S"] + [_item_text(n.item) for n in nodes[1:]]
        for i, text in enumerate(labels):
            x = x0 + i * (_CELL_W + gap)
            body.append(_node_box(x, y0, text, "#eeeeee" if i == 0 else "#bbdefb"))
            if i:
                xa = x - gap
                body.append(f'<line x1="{xa}" y1="{y0 + 11}" x2="{x - 1}" y2="{y0 + 11}" stroke="#37474f" '
                            'marker-end="url(#ah)"/>')
                body.append(f'<line x1="{x}" y1="{y0 + 24}" x2="{xa + 1}" y2="{y0 + 24}" stroke="#37474f" '
                            'marker-end="url(#ah)"/>')
        last = x0 + (len(labels) - 1) * (_CELL_W + gap) + _CELL_W / 2
        first = x0 + _CELL_W / 2
        yb = y0 + _CELL_H
        body.append(f'<path d="M{last},{yb} C{last},{yb + 30} {first},{yb + 30} {first},{yb + 1}" fill="none" '
                    'stroke="#78909c" stroke-dasharray="4 3" marker-end="url(#ah)"/>')
        body.append(f'<text x="{x0}" y="{y0 - 12}" font-size="12" fill="#bf360c">sentinel</text>')
        if len(labels) > 1:
            body.append(f'<text x="{x0 + _CELL_W + gap}" y="{y0 - 12}" font-size="12" fill="#bf360c">front</text>')
            body.append(f'<text x="{x0 + (len(labels) - 1) * (_CELL_W + gap)}" y="{y0 + _CELL_H + 44}" '
                        'font-size="12" fill="#bf360c">rear (sentinel.prev)</text>')
        width = x0 * 2 + len(labels) * (_CELL_W + gap) + 60
        return _svg(max(width, 240), y0 + _CELL_H + 52, body, title)
    head = obj._top if hasattr(obj, "_top") else obj._head
    items = []
    node = head
    while node is not None:
        items.append(_item_text(node.item))
        node = node.next
    for i, text in enumerate(items):
        x = x0 + i * (_CELL_W + gap)
        body.append(_node_box(x, y0, text))
        body.append(f'<line x1="{x + _CELL_W}" y1="{y0 + _CELL_H / 2}" x2="{x + _CELL_W + gap - 1}" '
                    f'y2="{y0 + _CELL_H / 2}" stroke="#37474f" marker-end="url(#ah)"/>')
    xn = x0 + len(items) * (_CELL_W + gap)
    body.append(f'<text x="{xn}" y="{y0 + 22}" font-size="12" fill="#607d8b">None</text>')
    if items:
        label = "top" if hasattr(obj, "_top") else "head (front)"
        body.append(f'<text x="{x0}" y="{y0 - 12}" font-size="12" fill="#bf360c">{label}</text>')
        if hasattr(obj, "_tail"):
            xt = x0 + (len(items) - 1) * (_CELL_W + gap)
            body.append(f'<text x="{xt}" y="{y0 + _CELL_H + 18}" font-size="12" fill="#bf360c">'
                        "tail (back)</text>")
    else:
        body.append(f'<text x="{x0}" y="{y0 - 12}" font-size="12" fill="#bf360c">'
                    f'{"top" if hasattr(obj, "_top") else "head, tail"} = None</text>')
    body.append(f'<text x="{x0}" y="{y0 + _CELL_H + 36}" font-size="12" fill="#37474f">size = {obj._size}</text>')
    return _svg(max(xn + 50, 220), y0 + _CELL_H + 44, body, title)


def state_svg(obj: Any, title: str = "state") -> str:
    """Draw a structure's real internal state: array slots, or linked nodes."""
    return _array_svg(obj, title) if hasattr(obj, "_slots") else _linked_svg(obj, title)


def diagram(cls: str, ops: str, start: str = "") -> str:
    """Before/after pictures of a real instance of ``cls`` for each operation in ``ops``.

    ``ops`` is ``"push 3♣; push 7♦; pop"``; ``start`` is the items to build it from.
    Each operation runs on the real class, and each picture is drawn from its fields.
    """
    klass = _structure(cls)
    obj = klass(start.split()) if start else klass()
    out = [f"Each picture is drawn from the fields of a real `{cls}` as the site is built.", ""]
    for step in (s.strip() for s in ops.split(";")):
        if not step:
            continue
        method, *arg = step.split()
        before = state_svg(obj, f"{cls} before {step}")
        returned = getattr(obj, method)(*arg)
        obj._check()
        after = state_svg(obj, f"{cls} after {step}")
        shown = "" if returned is None else f" → returns `{_item_text(returned)}`"
        out += ['<div class="ds-step" markdown>', "",
                f"**`{step}`**{shown}", "",
                f'<div class="ds-pair"><figure><figcaption>before</figcaption>{before}</figure>'
                f'<figure><figcaption>after</figcaption>{after}</figure></div>', "", "</div>", ""]
    return "\n".join(out)


def shuffle(items: str = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠", seed: str = "1") -> str:
    """The package's Fisher–Yates shuffle at work: the list before each swap, then the result.

    The real ``solitaire_ds.cards.fisher_yates`` runs on ``items`` with
    ``random.Random(seed)``; a recording generator notes the list and the ``j`` drawn at
    each ``randrange(i + 1)`` call, so the picture is what the function did, not a retelling.
    """
    import random

    from solitaire_ds.cards import fisher_yates

    cards = items.split()
    steps: list[tuple[list[str], int, int]] = []  # (the list before the swap, i, j)

    class Recording(random.Random):
        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
            j = super().randrange(start, stop, step)
            steps.append((list(cards), (start if stop is None else stop) - 1, j))
            return j

    fisher_yates(cards, Recording(int(seed)))
    rows = [*steps, (list(cards), -1, -1)]
    left, top, gap_y = 150, 34, _CELL_H + 16
    body = [_ARROW_DEFS, f'<text x="{left}" y="16" font-size="12" fill="#37474f">index</text>']
    for k in range(len(cards)):
        body.append(f'<text x="{left + k * _CELL_W + _CELL_W / 2}" y="28" font-size="11" fill="#607d8b" '
                    f'text-anchor="middle">{k}</text>')
    for r, (row, i, j) in enumerate(rows):
        y = top + r * gap_y
        label = f"i = {i}, j = {j}" if i >= 0 else "shuffled"
        body.append(f'<text x="{left - 10}" y="{y + 22}" font-size="13" text-anchor="end" '
                    f'fill="#37474f">{label}</text>')
        for k, card in enumerate(row):
            fill = ("#ffe0b2" if k == i else "#bbdefb" if k == j else
                    "#e0e0e0" if i >= 0 and k > i else "#fff")
            if i < 0:
                fill = "#c8e6c9"
            x = left + k * _CELL_W
            colour = "#c62828" if card[-1] in "♥♦" else "#212121"
            body.append(f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" fill="{fill}" '
                        f'stroke="#546e7a"/><text x="{x + _CELL_W / 2}" y="{y + 22}" text-anchor="middle" '
                        f'fill="{colour}">{_esc(card)}</text>')
        if i >= 0 and i != j:
            xi, xj = left + i * _CELL_W + _CELL_W / 2, left + j * _CELL_W + _CELL_W / 2
            body.append(f'<path d="M{xj},{y + _CELL_H} C{xj},{y + gap_y - 2} {xi},{y + gap_y - 2} '
                        f'{xi},{y + _CELL_H}" fill="none" stroke="#ef6c00" stroke-width="1.5" '
                        'marker-start="url(#ah)" marker-end="url(#ah)"/>')
    width = left + len(cards) * _CELL_W + 20
    height = top + len(rows) * gap_y
    title = f"fisher_yates on {len(cards)} cards with random.Random({seed})"
    legend = ("Each row is the list just before one swap: orange is slot `i`, blue is slot "
              "`j = rng.randrange(i + 1)` (when `j` equals `i` the card stays put), grey slots are "
              "final. The last row is the result.")
    return (f'<figure class="ds-shuffle">{_svg(width, height, body, title)}'
            f"<figcaption>{_esc(title)}: drawn from the real function as the site is built.</figcaption>"
            f"</figure>\n\n{legend}\n")


# -- the benchmark ---------------------------------------------------------------------------------


def _load(name: str) -> dict[str, Any] | None:
    path = DATA / name
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def bench(cls: str = "") -> str:
    """The measured ns/op table (all classes, or one) from ``docs/data/benchmarks.json``."""
    data = _load("benchmarks.json")
    if data is None:
        return ('!!! note "Not measured yet"\n    Run `python scripts/docs_figures.py --bench-only` '
                "to store the timings.\n")
    rows = [r for r in data["rows"] if not cls or r["name"] == cls]
    out = ["| class | operations | ns per operation | built-in | built-in ns/op | ratio | time growth (10× ops) |",
           "| --- | ---: | ---: | --- | ---: | ---: | ---: |"]
    previous: dict[str, Any] | None = None
    for r in rows:
        growth = ""
        if previous is not None and previous["name"] == r["name"]:
            growth = f"{(r['ns_per_op'] * r['ops']) / (previous['ns_per_op'] * previous['ops']):.1f}×"
        out.append(f"| `{r['name']}` | {r['ops']:,} | {r['ns_per_op']:.0f} | `{r['baseline']}` | "
                   f"{r['baseline_ns_per_op']:.0f} | {r['ratio']:.2f}× | {growth} |")
        previous = r
    out += ["", *_bench_verdicts(rows)]
    out += ["", f"Measured with `{data.get('command', 'python -m benchmarks.structures')}` "
            f"(Python {data.get('python', '?')}, best of {data.get('repeats', '?')}), "
            "stored in `docs/data/benchmarks.json` by `scripts/docs_figures.py --bench-only`. "
            "Targets (issue 2): array classes within 6× of the built-in, linked ones within 10×; "
            "10× the operations in at most 12× the time.", ""]
    if not cls:
        largest = max(r["ops"] for r in rows)
        bars = [(r["name"], r["ns_per_op"], r["baseline"], r["baseline_ns_per_op"])
                for r in rows if r["ops"] == largest]
        out += [_bench_chart(bars, largest), ""]
    return "\n".join(out)


def bench_summary() -> str:
    """What the stored benchmark run measured, in words: the range of ratios and growths, the verdicts."""
    data = _load("benchmarks.json")
    if data is None or not data.get("rows"):
        return "*No timings are stored yet, so there is nothing to summarise.*\n"
    rows = data["rows"]
    ratios = [(r["ratio"], r["name"]) for r in rows]
    growths = [((b["ns_per_op"] * b["ops"]) / (a["ns_per_op"] * a["ops"]), b["name"])
               for a, b in itertools.pairwise(rows) if a["name"] == b["name"]]
    verdicts = _bench_verdicts(rows)
    met = sum(" meets " in line for line in verdicts)
    lo, hi = min(ratios), max(ratios)
    text = (f"In the stored run, each class took from {lo[0]:.1f}× (`{lo[1]}`) to {hi[0]:.1f}× (`{hi[1]}`) "
            "the time of its built-in per operation")
    if growths:
        glo, ghi = min(growths), max(growths)
        text += (f"; 10× the operations took from {glo[0]:.1f}× (`{glo[1]}`) to {ghi[0]:.1f}× "
                 f"(`{ghi[1]}`) the time")
    names = list(dict.fromkeys(r["name"] for r in rows))
    text += f"; {met} of the {len(names)} classes met both targets.\n"
    floor = data.get("call_floor")
    if floor:
        text += (f"\nFor scale, in the same run: a Python class whose `push` and `pop` do nothing at all "
                 f"took {floor['ns_per_op']:.0f} ns per operation against `list`'s "
                 f"{floor['baseline_ns_per_op']:.0f} ({floor['ns_per_op'] / floor['baseline_ns_per_op']:.1f}×). "
                 "That much of every ratio is the price of calling a Python method at all; the rest "
                 "is the work inside it, a handful of attribute reads and writes, comparisons and index "
                 "operations, each a step of the interpreter, where `list` and `collections.deque` do "
                 "the whole operation in one call to C.\n")
    return text


def _bench_verdicts(rows: list[dict[str, Any]]) -> list[str]:
    """One line per class: its worst ratio and worst growth against the issue's targets."""
    lines = []
    for name in dict.fromkeys(r["name"] for r in rows):
        mine = [r for r in rows if r["name"] == name]
        target = {"array": 6.0, "linked": 10.0}[mine[0]["kind"]]
        ratio = max(r["ratio"] for r in mine)
        growths = [(b["ns_per_op"] * b["ops"]) / (a["ns_per_op"] * a["ops"]) for a, b in itertools.pairwise(mine)]
        growth = max(growths, default=0.0)
        verdict = "meets" if ratio <= target and growth <= 12 else "misses"
        lines.append(f"- `{name}` {verdict} the targets in this run: worst ratio {ratio:.1f}× "
                     f"(target {target:g}×), worst growth {growth:.1f}× (target 12×).")
    return lines


def _bench_chart(bars: list[tuple[str, float, str, float]], ops: int) -> str:
    scale_max = max(max(b[1], b[3]) for b in bars) * 1.1
    width, left, bar_h = 640, 110, 14
    body = []
    y = 30
    body.append(f'<text x="{left}" y="16" font-size="12" fill="#37474f">ns per operation at {ops:,} '
                "operations (green: ours, grey: built-in)</text>")
    for name, ns, base, base_ns in bars:
        w = (width - left - 70) * ns / scale_max
        wb = (width - left - 70) * base_ns / scale_max
        body.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end" font-size="12">{name}</text>')
        body.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="#66bb6a"/>')
        body.append(f'<text x="{left + w + 4:.1f}" y="{y + 11}" font-size="11">{ns:.0f}</text>')
        body.append(f'<rect x="{left}" y="{y + bar_h + 2}" width="{wb:.1f}" height="{bar_h - 4}" fill="#b0bec5"/>')
        body.append(f'<text x="{left + wb + 4:.1f}" y="{y + bar_h + 11}" font-size="10" fill="#607d8b">'
                    f"{base} {base_ns:.0f}</text>")
        y += 2 * bar_h + 12
    return _svg(width, y + 4, body, "time per operation, ours against the built-ins")


# -- games: rules, records, pictures ---------------------------------------------------------------


def game_rules(game: str) -> str:
    """The rules as the game's module states them (its docstring), or a 'coming' note."""
    cls = _game_class(game)
    if cls is None:
        return _coming(game, "The rules as the code states them (the module's docstring)")
    quoted = _quote_docstring(inspect.getmodule(cls))
    return f"From the top of `{cls.__module__}`, the module that plays the game:\n\n{quoted}\n"


def game_options(game: str) -> str:
    """The game's rule options (fields of its options class) and their defaults."""
    import dataclasses

    cls = _game_class(game)
    if cls is None:
        return _coming(game, "The table of rule options")
    fields = dataclasses.fields(cls.options_type)
    if not fields:
        return "This game has no rule options.\n"
    rows = ["| option | flag | default |", "| --- | --- | --- |"]
    for f in fields:
        flag = "--" + f.name.replace("_", "-")
        rows.append(f"| `{f.name}` | `{flag}` | `{f.default}` |")
    return "\n".join(rows) + "\n"


def gather_readings() -> str:
    """Perpetual Motion's gather readings, from ``GATHER_READINGS``."""
    from solitaire_ds.games.perpetual_motion import GATHER_READINGS, PerpetualMotionOptions

    default = PerpetualMotionOptions().gather
    rows = ["| `--gather` | the next stock deals | structure that does it |", "| --- | --- | --- |"]
    for name, order in GATHER_READINGS.items():
        how = ("pop every pile onto one `Stack`, then pop that Stack into the stock `Queue` "
               "(turning the pack over reverses it)" if name.endswith("face-down")
               else "pop every pile straight into the stock `Queue` (top card first)")
        rows.append(f"| `{name}`{' (default)' if name == default else ''} | {order} | {how} |")
    return "\n".join(rows) + "\n"


#: For each game, what each kind of event means and which structure operation makes it.
EVENT_NOTES: dict[str, dict[str, str]] = {
    "perpetual-motion": {
        "deal": "Rule 1: four `stock.dequeue()` calls, then `piles[i].push(card)` for each pile, left to right.",
        "move": "Rule 3: the leftmost pile whose top card (`peek()`) matches a top card to its left "
                "gives it up: `card = piles[source].pop()`, then `piles[target].push(card)`.",
        "discard": "Rule 2: the four cards just dealt share a rank, so each pile is popped once.",
        "round_end": "Rule 4: the stock `Queue` is empty (`stock.is_empty()`), so the round ends.",
        "gather": "Rule 5: the piles are popped into the next stock, in the order the `--gather` reading says; "
                  "rule 6 then looks the new stock's order up among the orders that started earlier rounds.",
        "result": "The game ends: won when no card is left, lost when a stock order repeats (a cycle).",
    },
    "idiots-delight": {
        "deal": "Four `stock.dequeue()` calls, each card pushed on a pile (`push`).",
        "pair": "Two top cards (`peek`) of the same rank: both piles are popped.",
        "suit": "Two top cards of the same suit: the lower one's pile is popped.",
        "result": "The stock is empty and no removal is possible.",
    },
    "aces-up": {
        "deal": "Four `stock.dequeue()` calls, one `push` per pile.",
        "discard": "Top cards (`peek`) of one suit: every one but the highest is popped.",
        "move": "A top card is popped from one pile and pushed on an empty one.",
        "result": "Score = cards discarded.",
    },
    "klondike": {
        "deal": "28 cards into 7 piles: each pile is a face-down `Stack` under a face-up run; "
                "the other 24 cards are the stock, dealt from its front.",
        "move": "A run or a card moves between Stacks, with the rule number that chose it.",
        "turn_up": "A face-down card left on top is turned up: `pop` from the face-down Stack, "
                   "`push` onto the face-up run.",
        "turn": "The stock gives its next card to the waste Stack.",
        "result": "Cards on the foundations, and the dollars.",
    },
}


def _walk(record: Any) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    """Re-play ``record`` step by step (as ``solitaire-ds replay`` does); yield each step's events."""
    from solitaire_ds.games import game_class

    cls = game_class(record.game)
    game = cls(record.deck, cls.options_type.from_json(record.options))
    yield game, list(game.events)
    while not game.is_over():
        start = len(game.events)
        if game.needs_decision():
            game.play(game.decision(record.events[start]))
        else:
            game.advance()
        yield game, game.events[start:]


def record(game: str, seed: str = "1", player: str = "", max_lines: str = "400", **options: str) -> str:
    """An annotated sample record of ``game``, played by the real code as the site is built.

    The record is split after the first event of each kind, with a note saying which rule
    made it and which structure operation carried it out; the whole record follows in a
    collapsed block, exactly as ``solitaire-ds play`` prints it.
    """
    cls = _game_class(game)
    if cls is None:
        return _coming(game, "An annotated sample game, played by the real code")
    from solitaire_ds.cards import Deck
    from solitaire_ds.records import play_record, render_text

    opts = cls.options_type.from_json({k.replace("-", "_"): _option_value(v) for k, v in options.items()})
    choose = None
    if cls.has_decisions:
        from solitaire_ds.players import make_player

        try:
            choose = make_player(player or "greedy", cls)
        except KeyError:  # the players have not landed yet
            return _coming(game, "An annotated sample game, played by the greedy player")
    rec = play_record(cls(Deck.shuffled(int(seed)), opts), choose, (player or "greedy") if choose else None)
    flags = "".join(f" --{k.replace('_', '-')} {v}" for k, v in options.items())
    flags += f" --player {player or 'greedy'}" if choose else ""
    command = f"solitaire-ds play {game} --seed {seed}{flags}"
    notes = EVENT_NOTES.get(game, {})
    shown: set[str] = set()
    out = [f"The game below is played by the real code each time the site is built; "
           f"`{command}` prints the same record.", ""]
    block: list[str] = []
    shown_lines = 0
    first = True
    for state, new in _walk(rec):
        if first:
            block += [state.title, f"Options: {', '.join(f'{k} = {v}' for k, v in rec.options.items()) or 'none'}",
                      "Deck (first card dealt first): " + " ".join(c.label for c in rec.deck), ""]
            first = False
        block += [f"  {state.describe(e)}" for e in new]
        if new and state.show_board_after(new) and not state.is_over():
            block += ["    " + row for row in state.board().splitlines()]
        fresh = [e["type"] for e in new if e["type"] in notes and e["type"] not in shown]
        if fresh:
            shown_lines += len(block)
            out += ["```text", *block, "```", ""]
            for kind in dict.fromkeys(fresh):
                out += [f"- **{kind}** — {notes[kind]}"]
                shown.add(kind)
            out.append("")
            block = []
            if len(shown) == len(notes):
                break
        elif shown_lines + len(block) > 160:
            out += ["```text", *block, "```", "", "The rest of the game is in the whole record below.", ""]
            block = []
            break
    out += ["Final board and result:", "", "```text", *state_board_and_result(rec), "```", ""]
    later = [k for k in dict.fromkeys(e["type"] for e in rec.events) if k in notes and k not in shown]
    out += [f"- **{kind}** — {notes[kind]}" for kind in later] + ([""] if later else [])
    full = render_text(rec).splitlines()
    limit = int(max_lines)
    out += [f'??? example "The whole record ({len(full)} lines)"', ""]
    body = full if len(full) <= limit else [*full[: limit // 2], f"… {len(full) - limit} lines left out …",
                                           *full[-limit // 2:]]
    out += ["    ```text", *("    " + line for line in body), "    ```", ""]
    return "\n".join(out)


def _option_value(text: str) -> Any:
    return {"true": True, "false": False}.get(text.lower(), text)


def state_board_and_result(rec: Any) -> list[str]:
    """The final board and result lines of a record, as ``render_text`` ends it."""
    from solitaire_ds.records import render_text

    lines = render_text(rec).splitlines()
    start = lines.index("Final board:")
    return lines[start:]


def _card_svg(x: float, y: float, card: Any) -> str:
    colour = "#c62828" if card.color.value == "red" else "#212121"
    return (f'<rect x="{x}" y="{y}" width="56" height="78" rx="6" fill="#fff" stroke="#546e7a"/>'
            f'<text x="{x + 6}" y="{y + 18}" fill="{colour}" font-size="15" font-weight="bold">'
            f"{_esc(card.label)}</text>"
            f'<text x="{x + 28}" y="{y + 56}" fill="{colour}" font-size="26" text-anchor="middle">'
            f"{_esc(card.suit.symbol)}</text>")


def _back_svg(x: float, y: float) -> str:
    return f'<rect x="{x}" y="{y}" width="56" height="78" rx="6" fill="#1565c0" stroke="#e3f2fd"/>'


def board_picture(seed: str = "1", deals: str = "6", game: str = "perpetual-motion") -> str:
    """A real game's table after a few steps (the greedy player decides): piles and stock.

    Piles are drawn bottom card first, fanned downwards, so the lowest card is the top of
    the Stack, the one in play; face-down cards are drawn as blue backs.
    """
    cls = _game_class(game)
    if cls is None:
        return _coming(game, "A picture of the game")
    from solitaire_ds.cards import Deck

    state = cls(Deck.shuffled(int(seed)))
    choose = None
    if cls.has_decisions:
        from solitaire_ds.players import make_player

        choose = make_player("greedy", cls)
    steps = 0
    while steps < int(deals) and not state.is_over():
        if state.needs_decision() and choose is not None:
            state.play(choose(state))
        else:
            state.advance()
        steps += 1
    if hasattr(state, "face_up"):  # Klondike: a face-down Stack under a face-up run
        piles = [(len(down), list(up)[::-1]) for down, up in zip(state.face_down, state.face_up, strict=True)]
    else:
        piles = [(0, list(pile)[::-1]) for pile in state.piles]
    gap = 110 if len(piles) <= 4 else 80
    width = max(560, 24 + len(piles) * gap + 110)
    body = [f'<rect x="0" y="0" width="{width}" height="300" rx="14" fill="#2e7d32"/>']
    for i, (down, cards) in enumerate(piles):
        x = 24 + i * gap
        label = f"pile {i + 1}" + (" (Stack)" if len(piles) <= 4 else "")
        body.append(f'<text x="{x}" y="26" fill="#e8f5e9" font-size="13">{label}</text>')
        y = 38
        for _ in range(min(down, 6)):
            body.append(_back_svg(x, y))
            y += 12
        for card in cards[-(7 if not down else 5):]:
            body.append(_card_svg(x, y, card))
            y += 24
    sx = width - 90
    body.append(_back_svg(sx, 200))
    body.append(f'<text x="{sx + 28}" y="244" fill="#e3f2fd" font-size="13" text-anchor="middle">'
                f"{len(state.stock)}</text>")
    body.append(f'<text x="{sx - 4}" y="192" fill="#e8f5e9" font-size="13">stock (Queue)</text>')
    title = f"{cls.title}, seed {seed}, after {steps} steps"
    return (f'<figure class="ds-board">{_svg(width, 300, body, title)}'
            f"<figcaption>{_esc(title)}: the real game state, drawn when the site is built.</figcaption></figure>\n")


def game_status(game: str) -> str:
    """Say whether the game is available in this build (and where it comes from)."""
    cls = _game_class(game)
    if cls is None:
        return _coming(game, "This game's generated parts (rules, options, a sample record, statistics)")
    return (f'!!! success "Available"\n    `solitaire-ds play {game}` plays it; the code is '
            f"`{cls.__module__}`.\n")


def terminal(game: str, seed: str = "3", typed: str = "1;q", **options: str) -> str:
    """A real session with the interactive player: the command run with ``typed`` as its input.

    ``typed`` is the lines a person types, separated by ``;``. The command's own output is
    shown with each answer after its ``Your move:`` prompt, as a terminal shows it; the
    record the command prints at the end follows in a collapsed block.
    """
    import subprocess
    import sys

    if _game_class(game) is None:
        return _coming(game, "A session at the terminal")
    answers = [answer.strip() for answer in typed.split(";")]
    flags = [part for k, v in options.items() for part in (f"--{k.replace('_', '-')}", v) if part != "true"]
    argv = ["play", game, "--player", "interactive", "--seed", seed, *flags]
    done = subprocess.run([sys.executable, "-m", "solitaire_ds", *argv], input="\n".join(answers) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
                          env={**os.environ, "COLUMNS": "100"})
    if done.returncode != 0:
        raise DirectiveError(f"terminal: `solitaire-ds {' '.join(argv)}` exited {done.returncode}: "
                             f"{done.stderr.strip()[-300:]}")
    prompt = "Your move: "
    parts = done.stdout.split(prompt)
    used = len(parts) - 1
    shown = [*answers, *["(end of input: Ctrl-D)"] * used][:used]  # the player reads EOF as q
    session = parts[0]
    for k in range(1, used + 1):
        session += f"{prompt}{shown[k - 1]}\n" + (parts[k] if k < used else "")
    record_text = parts[-1] if used else ""
    typed_shown = " ".join(f"`{a}`" for a in answers)
    out = [f"Generated when the site is built: `solitaire-ds {' '.join(argv)}`, typing {typed_shown} "
           "(one answer a line).", "", "```text", *session.rstrip("\n").splitlines(), "```", ""]
    if record_text.strip():
        out += ['??? example "What it prints when the game ends: the record"', "", "    ```text",
                *("    " + line if line else "" for line in record_text.strip("\n").splitlines()),
                "    ```", ""]
    return "\n".join(out)


# -- statistics ------------------------------------------------------------------------------------


def _hist_stats(hist: dict[str, int]) -> tuple[int, float, float, float]:
    """Return ``(n, mean, low, high)`` of a histogram (Student's t 95% interval, as ``simulate`` prints)."""
    n = sum(hist.values())
    if n == 0:
        return 0, math.nan, math.nan, math.nan
    mean = sum(int(v) * c for v, c in hist.items()) / n
    if n == 1:
        return n, mean, mean, mean
    var = sum(c * (int(v) - mean) ** 2 for v, c in hist.items()) / (n - 1)
    from solitaire_ds.stats import t95

    half = t95(n - 1) * math.sqrt(var / n)
    return n, mean, mean - half, mean + half


def _merge(*hists: dict[str, int]) -> dict[str, int]:
    merged: dict[str, int] = {}
    for hist in hists:
        for v, c in hist.items():
            merged[v] = merged.get(v, 0) + c
    return merged


def _dollars(value: float) -> str:
    """Return ``+$1.50`` or ``−$11.64``: money with its sign, as the Klondike report prints it."""
    return f"{'+' if value >= 0 else '−'}${abs(value):,.2f}"


def _run_label(run: dict[str, Any]) -> str:
    flags = " ".join(run["options"]) or "default rules"
    return flags + (f", player {run['player']}" if run.get("player") else "")


def _plans() -> dict[str, list[tuple[list[str], str | None]]]:
    """The runs ``scripts/docs_figures.py`` makes for each game (its ``PLANS``), or none if it is missing."""
    import importlib.util

    path = ROOT / "scripts" / "docs_figures.py"
    spec = importlib.util.spec_from_file_location("_docs_figures", path)
    if not path.is_file() or spec is None or spec.loader is None:
        return {}
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    plans: dict[str, list[tuple[list[str], str | None]]] = getattr(module, "PLANS", {})
    return plans


def _missing_runs(game: str, data: dict[str, Any] | None) -> str:
    """A note naming the planned runs of ``game`` that the stored data does not hold (or "")."""
    have = {(tuple(r["options"]), r.get("player") or None) for r in (data or {}).get("runs", [])}
    missing = [(flags, player) for flags, player in _plans().get(game, [])
               if (tuple(flags), player) not in have]
    if not missing:
        return ""
    names = ", ".join(f"`{_run_label({'options': flags, 'player': player})}`" for flags, player in missing)
    return (f'!!! warning "Not in the stored data"\n    {names}: '
            f"{'this run has' if len(missing) == 1 else 'these runs have'} not been measured yet, so "
            f"no figure is shown for {'it' if len(missing) == 1 else 'them'}. "
            f"`python scripts/docs_figures.py --only {game}` measures {'it' if len(missing) == 1 else 'them'}.\n")


def _find_run(game: str, player: str = "", options: str = "") -> dict[str, Any] | None:
    flags = options.split()
    runs = [r for r in (_load(f"stats-{game}.json") or {}).get("runs", [])
            if r["options"] == flags and (r.get("player") or "") == player]
    return runs[0] if runs else None


def stats(game: str) -> str:
    """The measured figures of ``game`` (rates with Wilson intervals, means with intervals)."""
    from solitaire_ds.stats import wilson_interval

    data = _load(f"stats-{game}.json")
    if data is None:
        if _game_class(game) is None:
            return _coming(game, "The measured figures")
        return (f'!!! note "Not computed yet"\n    Run `python scripts/docs_figures.py --only {game}` '
                "to store them.\n")
    keys = sorted({k for run in data["runs"] for side in run["histograms"].values() for k in side})
    head = "| rules and player | deals | won (95% CI) |" + "".join(f" mean {k} (95% CI) |" for k in keys)
    out = [head, "|" + " --- |" * (3 + len(keys))]
    for run in data["runs"]:
        n, won = run["games"], run["won"]
        lo, hi = wilson_interval(won, n)
        row = f"| `{_run_label(run)}` | {n:,} | {won / n:.2%} ({lo:.2%}–{hi:.2%}) |"
        for key in keys:
            hist = _merge(*(side.get(key, {}) for side in run["histograms"].values()))
            m, mean, mlo, mhi = _hist_stats(hist)
            fmt = _dollars if key == "net" else (lambda v: f"{v:.2f}")
            row += f" {fmt(mean)} ({fmt(mlo)} to {fmt(mhi)}) |" if m else " — |"
        out.append(row)
    out.append("")
    missing = _missing_runs(game, data)
    if missing:
        out += [missing]
    out += ["Commands (each also takes `--workers`, which changes nothing but the time):", ""]
    out += [f"- `{run['command']}`" for run in data["runs"]]
    out.append("")
    return "\n".join(out)


def _verdict(target: float, lo: float, hi: float) -> str:
    return "inside" if lo <= target <= hi else ("above" if target > hi else "below")


def compare(game: str, published: str, label: str, player: str = "", options: str = "") -> str:
    """One measured win rate next to a published one: is the published figure inside our interval?"""
    from solitaire_ds.stats import wilson_interval

    run = _find_run(game, player, options)
    if run is None:
        return (f"*{label}: not in the stored data, so no comparison is made "
                f"(`python scripts/docs_figures.py --only {game}` measures it).*\n")
    n, won = run["games"], run["won"]
    lo, hi = wilson_interval(won, n)
    target = float(published)
    return (f"**{label}**: measured {won / n:.2%} (95% CI {lo:.2%}–{hi:.2%}, {n:,} deals) against "
            f"the published {target:.2%}: the published figure is **{_verdict(target, lo, hi)}** our interval.\n")


def compare_mean(game: str, key: str, published: str, label: str, player: str = "", options: str = "",
                 unit: str = "") -> str:
    """One measured mean (of result ``key``, over all deals) next to a published one."""
    run = _find_run(game, player, options)
    if run is None:
        return f"*{label}: not in the stored data, so no comparison is made.*\n"
    n, mean, lo, hi = _hist_stats(_merge(*(side.get(key, {}) for side in run["histograms"].values())))
    if not n:
        return f"*{label}: the stored data holds no `{key}` values.*\n"
    fmt = _dollars if unit == "$" else (lambda v: f"{v:.2f}")
    target = float(published)
    return (f"**{label}**: measured mean {fmt(mean)} (95% CI {fmt(lo)} to {fmt(hi)}, {n:,} deals) against "
            f"the published {fmt(target)}: the published figure is **{_verdict(target, lo, hi)}** our interval.\n")


def runs_agree(game: str, player: str, a: str = "", b: str = "") -> str:
    """Say whether two stored runs (options ``a`` and ``b``, same player) gave identical results."""
    first, second = _find_run(game, player, a), _find_run(game, player, b)
    names = f"`{_run_label({'options': a.split(), 'player': player})}` and " \
            f"`{_run_label({'options': b.split(), 'player': player})}`"
    if first is None or second is None:
        return f"*{names}: one of the two runs is not in the stored data, so this check is not made.*\n"
    if (first["games"], first.get("seed")) != (second["games"], second.get("seed")):
        return f"*{names} were run on different deals, so this check is not made.*\n"
    same = first["won"] == second["won"] and first["histograms"] == second["histograms"]
    n = first["games"]
    if same:
        return (f"In the stored data, {names} agree exactly (the same {n:,} deals, the same wins, the same "
                "histogram of every result key): the check holds.\n")
    return (f'!!! failure "The check fails"\n    In the stored data, {names} differ on the same {n:,} '
            "deals: a bug in a player, a game or the simulation.\n")


def pm_study() -> str:
    """Perpetual Motion's figures per gather reading: cycle rate, rounds when won, cycle lengths."""
    from solitaire_ds.stats import wilson_interval

    data = _load("stats-perpetual-motion.json")
    if data is None:
        return '!!! note "Not computed yet"\n    Run `python scripts/docs_figures.py --only perpetual-motion`.\n'
    out = ["| `--gather` | deals | cycled (95% CI) | won (95% CI) | mean rounds when won (95% CI) | "
           "median | mean cycle length (95% CI) | 45.45% inside the interval? |",
           "| --- | ---: | --- | --- | --- | ---: | --- | --- |"]
    rates = []
    for run in data["runs"]:
        n, won = run["games"], run["won"]
        lost = n - won
        clo, chi = wilson_interval(lost, n)
        wlo, whi = wilson_interval(won, n)
        rates.append((lost / n, run["options"][-1], n))
        rounds = run["histograms"]["won"].get("rounds", {})
        _, rmean, rlo, rhi = _hist_stats(rounds)
        median = _median(rounds)
        cyc = run["histograms"]["lost"].get("cycle_length", {})
        _, cmean, clo2, chi2 = _hist_stats(cyc)
        out.append(f"| `{run['options'][-1]}` | {n:,} | {lost / n:.2%} ({clo:.2%}–{chi:.2%}) | "
                   f"{won / n:.2%} ({wlo:.2%}–{whi:.2%}) | {rmean:.1f} ({rlo:.1f}–{rhi:.1f}) | {median} | "
                   f"{cmean:.2f} ({clo2:.2f}–{chi2:.2f}) | {'yes' if clo <= 0.4545 <= chi else 'no'} |")
    out += ["", "Published: **45.45%** of deals cycle, 54.55% ± 0.89% complete (Clarke, 10,000 deals, "
            "piles collected left to right); \"an average of **128 rounds**\" when won (Wikipedia, "
            "source unknown).", ""]
    if len(rates) > 1:
        low, high = min(rates), max(rates)
        same = len({(r["games"], r.get("seed")) for r in data["runs"]}) == 1
        out += [f"Across the readings stored here the cycle rate runs from {low[0]:.2%} (`{low[1]}`, "
                f"{low[2]:,} deals) to {high[0]:.2%} (`{high[1]}`, {high[2]:,} deals)"
                + (", on the same deals." if same else "."), ""]
    missing = _missing_runs("perpetual-motion", data)
    return "\n".join(out + ([missing] if missing else []))


#: Clarke's published figure: 45.45% of 10,000 deals cycle, ± 0.89 points (left-to-right gathering).
CLARKE = (0.4545, 0.0089, 10_000)


def pm_clarke() -> str:
    """Clarke's figure against ours for each left-to-right reading: inside or not, whose interval is narrower."""
    from solitaire_ds.stats import wilson_interval

    rate, half, deals = CLARKE
    lines = []
    for run in (_load("stats-perpetual-motion.json") or {}).get("runs", []):
        reading = run["options"][-1]
        if not reading.startswith("left"):
            continue
        n, lost = run["games"], run["games"] - run["won"]
        lo, hi = wilson_interval(lost, n)
        ours = (hi - lo) / 2
        width = "narrower than" if ours < half else "wider than" if ours > half else "as wide as"
        lines.append(f"`{reading}`: {lost / n:.2%} cycle (95% CI {lo:.2%}–{hi:.2%}, about ±{ours * 100:.2f} "
                     f"points, {n:,} deals); his figure is **{_verdict(rate, lo, hi)}** this interval, which is "
                     f"{width} his")
    if not lines:
        return "*No left-to-right reading is in the stored data, so no comparison with Clarke is made.*\n"
    return (f"His figure carries about ±{half * 100:.2f} points ({deals:,} deals). Ours, for the "
            "readings that collect left to right: " + "; ".join(lines) + ".\n")


def _median(hist: dict[str, int]) -> str:
    n = sum(hist.values())
    if not n:
        return "—"
    seen = 0
    for v, c in sorted(hist.items(), key=lambda kv: int(kv[0])):
        seen += c
        if seen * 2 >= n:
            return v
    return "—"


_SERIES_COLOURS = ["#2e7d32", "#1565c0", "#ef6c00", "#6a1b9a", "#c62828", "#00838f"]


def plot(game: str, key: str, side: str = "all", bins: str = "0", xlabel: str = "", title: str = "",
         kind: str = "line") -> str:
    """A plot of the share of deals at each value of ``key``, one series per stored run.

    ``kind=line`` draws lines (the far tail, past 99.5% of every series, is left out);
    ``kind=bars`` draws grouped bars for the twelve most common values.
    """
    data = _load(f"stats-{game}.json")
    if data is None:
        return ""
    series = []
    for run in data["runs"]:
        hists = run["histograms"]
        hist = hists[side].get(key, {}) if side in hists else _merge(*(h.get(key, {}) for h in hists.values()))
        total = sum(hist.values())
        if total:
            which = f"{side} " if side in ("won", "lost") else ""
            series.append((f"{_run_label(run)} ({total:,} {which}deals)", {int(v): c / total for v, c in hist.items()}))
    if not series:
        return ""
    title = title or f"{key} ({side} deals)"
    if kind == "bars":
        return bar_chart(series, xlabel or key, title) + "\n"
    return line_chart([(label, _clip(points)) for label, points in series], xlabel or key, int(bins),
                      title) + "\n"


def _clip(points: dict[int, float], keep: float = 0.995) -> dict[int, float]:
    """Drop the far right tail: the values past the first ``keep`` of the share."""
    out: dict[int, float] = {}
    seen = 0.0
    for x, y in sorted(points.items()):
        out[x] = y
        seen += y
        if seen >= keep:
            break
    return out


def bar_chart(series: list[tuple[str, dict[int, float]]], xlabel: str, title: str = "") -> str:
    """Grouped bars: the twelve values most common over all series, one bar per series."""
    totals: dict[int, float] = {}
    for _, pts in series:
        for x, y in pts.items():
            totals[x] = totals.get(x, 0.0) + y
    xs = sorted(sorted(totals, key=lambda x: -totals[x])[:12])
    y_max = max(pts.get(x, 0.0) for _, pts in series for x in xs) * 1.1 or 1.0
    width, left, top, ph = 680, 56, 30, 200
    group = (width - left - 16) / len(xs)
    bar = group * 0.8 / len(series)
    body = [f'<text x="{left}" y="18" font-size="13" fill="#37474f">{_esc(title)}</text>',
            f'<line x1="{left}" y1="{top + ph}" x2="{width - 16}" y2="{top + ph}" stroke="#37474f"/>']
    for k in range(5):
        y = y_max * k / 4
        yy = top + ph - ph * y / y_max
        body.append(f'<text x="{left - 4}" y="{yy + 4:.1f}" text-anchor="end" font-size="10">{y:.0%}</text>')
        body.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{width - 16}" y2="{yy:.1f}" stroke="#eceff1"/>')
    for g, x in enumerate(xs):
        gx = left + g * group + group * 0.1
        for i, (_, pts) in enumerate(series):
            h = ph * pts.get(x, 0.0) / y_max
            colour = _SERIES_COLOURS[i % len(_SERIES_COLOURS)]
            body.append(f'<rect x="{gx + i * bar:.1f}" y="{top + ph - h:.1f}" width="{bar:.1f}" '
                        f'height="{h:.1f}" fill="{colour}"/>')
        body.append(f'<text x="{gx + group * 0.4:.1f}" y="{top + ph + 14}" text-anchor="middle" '
                    f'font-size="10">{x}</text>')
    body.append(f'<text x="{left + (width - left) / 2}" y="{top + ph + 30}" text-anchor="middle" '
                f'font-size="12">{_esc(xlabel)} (the twelve most common values)</text>')
    for i, (label, _) in enumerate(series):
        colour = _SERIES_COLOURS[i % len(_SERIES_COLOURS)]
        lx = left + (i % 2) * 320
        ly = top + ph + 46 + (i // 2) * 14
        body.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="8" fill="{colour}"/>')
        body.append(f'<text x="{lx + 16}" y="{ly - 2}" font-size="11">{_esc(label)}</text>')
    height = top + ph + 46 + ((len(series) + 1) // 2) * 14
    return _svg(width, height, body, title)


def line_chart(series: list[tuple[str, dict[int, float]]], xlabel: str, bins: int = 0, title: str = "") -> str:
    """Draw ``series`` (label, {x: share}) as lines on shared axes; ``bins`` > 1 groups x values."""
    if bins > 1:
        series = [(label, _binned(points, bins)) for label, points in series]
    xs = [x for _, pts in series for x in pts]
    x_min, x_max = min(xs), max(xs)
    y_max = max(y for _, pts in series for y in pts.values()) * 1.1 or 1.0
    width, height, left, right, top, bottom = 680, 300, 56, 16, 30, 70
    pw, ph = width - left - right, height - top - bottom

    def px(x: float) -> float:
        return left + (pw * (x - x_min) / (x_max - x_min) if x_max > x_min else pw / 2)

    def py(y: float) -> float:
        return top + ph - ph * y / y_max

    body = [f'<text x="{left}" y="18" font-size="13" fill="#37474f">{_esc(title)}</text>',
            f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="#37474f"/>',
            f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#37474f"/>']
    for k in range(5):
        y = y_max * k / 4
        body.append(f'<text x="{left - 4}" y="{py(y) + 4:.1f}" text-anchor="end" font-size="10">{y:.0%}</text>')
        body.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{left + pw}" y2="{py(y):.1f}" stroke="#eceff1"/>')
    for k in range(6):
        x = x_min + (x_max - x_min) * k / 5
        body.append(f'<text x="{px(x):.1f}" y="{top + ph + 14}" text-anchor="middle" font-size="10">{x:.0f}</text>')
    body.append(f'<text x="{left + pw / 2}" y="{top + ph + 30}" text-anchor="middle" font-size="12">'
                f"{_esc(xlabel)}{f' (groups of {bins})' if bins > 1 else ''}</text>")
    for i, (label, pts) in enumerate(series):
        colour = _SERIES_COLOURS[i % len(_SERIES_COLOURS)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in sorted(pts.items()))
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.8"/>')
        lx = left + (i % 2) * 320
        ly = top + ph + 46 + (i // 2) * 14
        body.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="4" fill="{colour}"/>')
        body.append(f'<text x="{lx + 16}" y="{ly - 4}" font-size="11">{_esc(label)}</text>')
    height = top + ph + 46 + ((len(series) + 1) // 2) * 14
    return _svg(width, height, body, title or xlabel)


def _binned(points: dict[int, float], bins: int) -> dict[int, float]:
    out: dict[int, float] = {}
    for x, y in points.items():
        key = (x // bins) * bins
        out[key] = out.get(key, 0.0) + y
    return out


GENERATORS: dict[str, Callable[..., str]] = {
    "cli": cli,
    "api": api,
    "quickstart": quickstart,
    "exercise": exercise,
    "course": course,
    "invariant": invariant,
    "complexity": complexity,
    "diagram": diagram,
    "shuffle": shuffle,
    "bench": bench,
    "bench-summary": bench_summary,
    "game-rules": game_rules,
    "game-options": game_options,
    "game-status": game_status,
    "terminal": terminal,
    "gather-readings": gather_readings,
    "record": record,
    "board": board_picture,
    "stats": stats,
    "pm-study": pm_study,
    "compare": compare,
    "compare-mean": compare_mean,
    "runs-agree": runs_agree,
    "pm-clarke": pm_clarke,
    "plot": plot,
}
