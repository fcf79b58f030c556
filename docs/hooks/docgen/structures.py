"""Structure pages: invariants, complexity tables, state diagrams, the shuffle, the benchmark."""

from __future__ import annotations

import inspect
import itertools
import re
from collections.abc import Iterator
from typing import Any

from rest_markdown import roles_to_code, to_markdown

from docgen.common import _docstring_head, _esc, _esc_cell, _item_text, _load
from docgen.svg import _ARROW_DEFS, _CELL_H, _CELL_W, _svg, state_svg


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

    The real ``solitaire_ds.shuffle.fisher_yates`` runs on ``items`` with an rng drawing
    from ``random.Random(seed)`` that offers ``randrange`` alone (as the exercise's contract
    says) and notes the list and the ``j`` drawn at each ``randrange(i + 1)`` call, so the
    picture is what the function did, not a retelling.
    """
    import random

    from solitaire_ds.shuffle import fisher_yates

    cards = items.split()
    steps: list[tuple[list[str], int, int]] = []  # (the list before the swap, i, j)

    class Recording:
        def __init__(self, seed: int) -> None:
            self._rng = random.Random(seed)

        def randrange(self, stop: int, /) -> int:
            j = self._rng.randrange(stop)
            steps.append((list(cards), stop - 1, j))
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


_NOT_MEASURED = ('!!! note "Not measured yet"\n    Run `python scripts/docs_figures.py --bench-only` '
                 "to store the timings.\n")


def _growth(a: dict[str, Any], b: dict[str, Any]) -> float:
    return (b["ns_per_op"] * b["ops"]) / (a["ns_per_op"] * a["ops"])


def _bench_table(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| class | operations | ns per operation | built-in | built-in ns/op | ratio | time growth (10× ops) |",
           "| --- | ---: | ---: | --- | ---: | ---: | ---: |"]
    previous: dict[str, Any] | None = None
    for r in rows:
        growth = ""
        if previous is not None and previous["name"] == r["name"]:
            growth = f"{_growth(previous, r):.1f}×"
        out.append(f"| `{r['name']}` | {r['ops']:,} | {r['ns_per_op']:.0f} | `{r['baseline']}` | "
                   f"{r['baseline_ns_per_op']:.0f} | {r['ratio']:.2f}× | {growth} |")
        previous = r
    return out


def bench(cls: str = "") -> str:
    """The measured ns/op table (the six classes, or one) from ``docs/data/benchmarks.json``."""
    data = _load("benchmarks.json")
    if data is None:
        return _NOT_MEASURED
    rows = [r for r in data["rows"] if r["kind"] != "peer" and (not cls or r["name"] == cls)]
    out = [*_bench_table(rows), "", *_bench_verdicts(rows)]
    out += ["", f"Measured with `{data.get('command', 'python -m benchmarks.structures')}` "
            f"(Python {data.get('python', '?')}, best of {data.get('repeats', '?')} runs, CPU time). "
            "O(1) amortized predicts that 10× the operations take about 10× the time; the verdict "
            "allows 12× for noise, caches and memory allocation. The ratio to the built-in has no "
            "target: it is the price of writing each operation in Python.", ""]
    if not cls:
        largest = max(r["ops"] for r in rows)
        bars = [(r["name"], r["ns_per_op"], r["baseline"], r["baseline_ns_per_op"])
                for r in rows if r["ops"] == largest]
        out += [_bench_chart(bars, largest), ""]
    return "\n".join(out)


def bench_peers() -> str:
    """The queue workload on ArrayQueue and on the two queues a student would otherwise copy."""
    data = _load("benchmarks.json")
    if data is None or not any(r["kind"] == "peer" for r in data["rows"]):
        return _NOT_MEASURED
    names = ("ArrayQueue", "InsertQueue", "CircularQueue")
    rows = [r for name in names for r in data["rows"] if r["name"] == name]
    by = {(r["name"], r["ops"]): r for r in rows}
    largest = max(r["ops"] for r in rows if r["name"] == "ArrayQueue")
    smallest = min(r["ops"] for r in rows if r["name"] == "ArrayQueue")
    ours, insert = by[("ArrayQueue", largest)], by.get(("InsertQueue", largest))
    small_ours, small_insert = by[("ArrayQueue", smallest)], by.get(("InsertQueue", smallest))
    textbook = by.get(("CircularQueue", largest))
    text = [*_bench_table(rows), ""]
    if insert is not None and small_insert is not None:
        text.append(
            f"At {smallest:,} operations the `list.insert(0, x)` queue takes "
            f"{small_insert['ns_per_op']:.0f} ns an operation against our circular buffer's "
            f"{small_ours['ns_per_op']:.0f}; at {largest:,}, {insert['ns_per_op']:,.0f} against "
            f"{ours['ns_per_op']:.0f} ({insert['ns_per_op'] / ours['ns_per_op']:,.0f}×). Each of its "
            "enqueues shifts every item in the list, so it is O(n) and its cost per operation grows "
            "with the queue, while ours stays flat. That is what O(1) buys.")
    if textbook is not None:
        text.append("")
        text.append(
            f"The textbook circular queue (a list, a front index, a size, `%` to wrap) is the same "
            f"design as ours: at {largest:,} operations it takes {textbook['ns_per_op']:.0f} ns an "
            f"operation, ours {ours['ns_per_op']:.0f}: {textbook['ratio']:.0f}× and "
            f"{ours['ratio']:.0f}× `collections.deque`, which does each operation in one call "
            "to C. That factor is what a Python method call costs, not a flaw of the design.")
    return "\n".join(text) + "\n"


def bench_summary() -> str:
    """What the stored benchmark run measured, in words: the range of ratios and growths, the verdicts."""
    data = _load("benchmarks.json")
    if data is None or not data.get("rows"):
        return "*No timings are stored yet, so there is nothing to summarise.*\n"
    rows = [r for r in data["rows"] if r["kind"] != "peer"]
    ratios = [(r["ratio"], r["name"]) for r in rows]
    growths = [(_growth(a, b), b["name"]) for a, b in itertools.pairwise(rows) if a["name"] == b["name"]]
    verdicts = _bench_verdicts(rows)
    met = sum(" is O(1) amortized " in line for line in verdicts)
    lo, hi = min(ratios), max(ratios)
    text = (f"In the stored run, each class took from {lo[0]:.1f}× (`{lo[1]}`) to {hi[0]:.1f}× (`{hi[1]}`) "
            "the time of its built-in per operation")
    if growths:
        glo, ghi = min(growths), max(growths)
        text += (f"; 10× the operations took from {glo[0]:.1f}× (`{glo[1]}`) to {ghi[0]:.1f}× "
                 f"(`{ghi[1]}`) the time")
    names = list(dict.fromkeys(r["name"] for r in rows))
    text += f"; {met} of the {len(names)} classes grew no faster than 12× for 10× the operations.\n"
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
    """One line per class: its worst growth for 10× the operations, against O(1)'s 10×."""
    lines = []
    for name in dict.fromkeys(r["name"] for r in rows):
        mine = [r for r in rows if r["name"] == name]
        growth = max((_growth(a, b) for a, b in itertools.pairwise(mine)), default=0.0)
        verdict = "is O(1) amortized" if growth <= 12 else "grows faster than O(1) allows"
        lines.append(f"- `{name}` {verdict} in this run: 10× the operations took at most "
                     f"{growth:.1f}× the time (up to {mine[-1]['ops']:,} operations).")
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
