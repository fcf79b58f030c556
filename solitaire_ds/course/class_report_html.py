"""The class report as one HTML page: static, offline, readable in dark and light, keyboard reachable.

Invariant: :func:`report_html` is a pure function of a
:class:`~solitaire_ds.course.class_report.ClassReport`. The page loads nothing (no script,
no font, no stylesheet, no image: its style is inline and its plots are inline SVG whose
text and axes take the page's colour), follows the reader's colour scheme
(``prefers-color-scheme``) with WCAG AA contrast in both, and every table that may scroll
sideways is a focusable, named region. Every text from the results (students' names, test
names, messages) is escaped where it is written.

>>> from solitaire_ds.course.class_report import ClassReport, Entry, StudentResults
>>> page = report_html(ClassReport.of([StudentResults("ann", (Entry(1, "t", True, 10, 10),))]))
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.replace("http://www.w3.org/2000/svg", "")
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from solitaire_ds.course.class_report import BINS, ClassReport, ExerciseSummary, TestItem, distribution

__all__ = ["histogram_svg", "report_html"]

#: The bars' colour: 4.5:1 on white and more than 3:1 on the dark background, as WCAG asks of graphics.
BAR = "#3b78c4"

_STYLE = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #4f4f4f; --line: #767676;
  --link: #0b57d0; --code: #f1f3f4; --focus: #0b57d0; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181d; --fg: #e8e8e8; --muted: #b8b8b8; --line: #8c8c8c; --link: #8ab4f8; --code: #262a31;
    --focus: #8ab4f8; }
}
body { background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, sans-serif; margin: 0 auto;
  max-width: 64rem; padding: 1rem 1.5rem 3rem; }
a { color: var(--link); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
h1 { font-size: 1.8rem; margin-bottom: .2rem; }
h2 { border-top: 1px solid var(--line); margin-top: 2.5rem; padding-top: 1rem; }
.muted { color: var(--muted); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code, pre { background: var(--code); border-radius: 4px; font-family: ui-monospace, monospace; font-size: .9rem; }
code { padding: 0 .2rem; overflow-wrap: anywhere; }
pre { padding: .6rem; overflow-x: auto; white-space: pre-wrap; }
details { margin: .3rem 0 .8rem; }
summary { cursor: pointer; }
svg.chart { max-width: 100%; height: auto; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
ol.failures > li { margin-bottom: .8rem; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _num(value: float) -> str:
    """A score as people write it: ``7.5``, ``10``."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _share(count: int, of: int) -> str:
    return f"{round(100 * count / of)}% ({count}/{of})" if of else "—"


def _undefined() -> str:
    return '<span aria-hidden="true">—</span><span class="visually-hidden">undefined</span>'


def histogram_svg(values: Sequence[float], points: float, title: str, ident: str, bins: int = BINS) -> str:
    """Return an inline SVG bar chart of how many ``values`` fall in each tenth of 0 to ``points``.

    Its text and axes are ``currentColor`` (the page's text colour, dark or light); ``ident``
    makes the ids of its title unique on the page.

    Runtime complexity: O(len(values) + bins).

    >>> svg = histogram_svg([1, 9, 10], 10, "Totals", "t")
    >>> svg.count("<rect"), 'aria-labelledby="t-title t-desc"' in svg
    (10, True)
    """
    counts = [int(b["count"]) for b in distribution(values, points, bins)]
    top = max(max(counts), 1)
    left, right, upper, lower, width, height = 44, 12, 24, 46, 520, 220
    plot_w, plot_h = width - left - right, height - upper - lower
    bar_w = plot_w / bins
    body = [f'<title id="{ident}-title">{_e(title)}</title>',
            f'<desc id="{ident}-desc">{_e(_counts_sentence(counts, points, bins))}</desc>']
    for k, count in enumerate(counts):
        h = plot_h * count / top
        x, y = left + k * bar_w, upper + plot_h - h
        body.append(f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{bar_w - 4:.1f}" height="{h:.1f}" fill="{BAR}"/>')
        if count:
            body.append(f'<text x="{x + bar_w / 2:.1f}" y="{y - 5:.1f}" text-anchor="middle">{count}</text>')
    base = upper + plot_h
    body.append(f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="currentColor"/>')
    body.append(f'<line x1="{left}" y1="{upper}" x2="{left}" y2="{base}" stroke="currentColor"/>')
    for k in range(bins + 1):
        if k % 2 == 0 or bins <= 10:
            x = left + k * bar_w
            body.append(f'<text x="{x:.1f}" y="{base + 16}" text-anchor="middle">{_num(points * k / bins)}</text>')
    body.append(f'<text x="{left - 6}" y="{base}" text-anchor="end">0</text>')
    body.append(f'<text x="{left - 6}" y="{upper + 4}" text-anchor="end">{top}</text>')
    body.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">points</text>')
    body.append(f'<text x="12" y="{upper + plot_h / 2:.1f}" text-anchor="middle" '
                f'transform="rotate(-90 12 {upper + plot_h / 2:.1f})">students</text>')
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="{ident}-title {ident}-desc" '
            f'font-family="sans-serif" font-size="12" fill="currentColor">' + "".join(body) + "</svg>")


def _counts_sentence(counts: Sequence[int], points: float, bins: int) -> str:
    """The chart in words, for a screen reader: each range that holds a student."""
    parts = []
    for k, count in enumerate(counts):
        if count:
            low, high = points * k / bins, points * (k + 1) / bins
            last = "]" if k == bins - 1 else ")"
            parts.append(f"{count} from {_num(low)} to {_num(high)}{last}")
    return "Students per range of points: " + ("; ".join(parts) if parts else "none") + "."


def _counts_table(values: Sequence[float], points: float, label: str) -> str:
    rows = "".join(
        f'<tr><td class="num">{_num(b["low"])}–{_num(b["high"])}</td><td class="num">{b["count"]}</td></tr>'
        for b in distribution(values, points))
    return (f"<details><summary>The counts of {_e(label)}</summary><table><thead><tr>"
            '<th scope="col" class="num">points</th><th scope="col" class="num">students</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></details>")


def _region(label: str, table: str) -> str:
    return f'<div class="scroll" role="region" aria-label="{_e(label)}" tabindex="0">{table}</div>'


def _discrimination(t: TestItem) -> str:
    return _undefined() if t.discrimination is None else f"{t.discrimination:.2f}"


def _most_failed_table(report: ClassReport) -> str:
    tests = report.most_failed()
    if not tests:
        return "<p>Every student who started an exercise passed every one of its tests.</p>"
    rows = []
    for t in tests:
        group = t.message
        said = (f"<code>{_e(group.pattern)}</code> ({len(group.students)})<details><summary>Who, and the first "
                f"one's message</summary><p>{_e(', '.join(group.students))}</p><pre>{_e(group.example)}</pre>"
                "</details>" if group else "")
        rows.append(f'<tr><td class="num">{t.exercise}</td><td><code>{_e(t.test)}</code></td>'
                    f'<td class="num">{t.failed_started} of {t.started}</td>'
                    f'<td class="num">{_discrimination(t)}</td><td>{said}</td></tr>')
    head = ('<tr><th scope="col" class="num">exercise</th><th scope="col">test</th>'
            '<th scope="col" class="num">failed, of those who started</th><th scope="col" class="num">'
            'discrimination</th><th scope="col">its most common message (students)</th></tr>')
    return _region("The most failed tests", f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>")


def _exercise_section(ex: ExerciseSummary, students: int) -> str:
    ident = f"ex{ex.number}"
    full = sum(1 for s in ex.scores if s >= ex.points - 0.005)
    mean = sum(ex.scores) / len(ex.scores) if ex.scores else 0.0
    parts = [f'<section aria-labelledby="{ident}"><h2 id="{ident}">Exercise {ex.number}: {_e(ex.title)}</h2>',
             f"<p>{_num(ex.points)} points, {len(ex.tests)} tests. Mean {_num(mean)}; full marks: "
             f"{_share(full, students)}; not started: {_share(len(ex.not_started), students)}.</p>",
             histogram_svg(ex.scores, ex.points, f"Exercise {ex.number}: students per range of points", ident),
             _counts_table(ex.scores, ex.points, f"exercise {ex.number}"),
             f"<h3>Not started ({len(ex.not_started)})</h3>"]
    if ex.not_started:
        parts.append(f"<p>{_e(', '.join(ex.not_started))}</p>")
    else:
        parts.append("<p>Every student started it.</p>")
    parts.append("<h3>Its tests</h3>")
    rows = "".join(
        f'<tr><td><code>{_e(t.test)}</code></td><td class="num">{_num(t.points)}</td>'
        f'<td class="num">{_share(t.passed, t.students)}</td><td class="num">{_share(t.passed_started, t.started)}</td>'
        f'<td class="num">{_discrimination(t)}</td></tr>' for t in ex.tests)
    head = ('<tr><th scope="col">test</th><th scope="col" class="num">points</th><th scope="col" class="num">'
            'passed</th><th scope="col" class="num">passed, of those who started</th>'
            '<th scope="col" class="num">discrimination</th></tr>')
    parts.append(_region(f"Exercise {ex.number}'s tests",
                         f"<table><thead>{head}</thead><tbody>{rows}</tbody></table>") if ex.tests else
                 "<p>No test of it ran for anyone.</p>")
    parts.append("<h3>Most common first failures</h3>")
    if not ex.first_failures:
        parts.append("<p>No student who started it failed a test.</p>")
    else:
        items = []
        for g in ex.first_failures:
            where = f"<code>{_e(g.test)}</code>" if g.test else "the exercise did not run"
            items.append(
                f"<li><strong>{len(g.students)} student{'s' if len(g.students) != 1 else ''}</strong>, {where}: "
                f"<code>{_e(g.pattern)}</code><details><summary>Who, and the first one's message</summary>"
                f"<p>{_e(', '.join(g.students))}</p><pre>{_e(g.example)}</pre></details></li>")
        parts.append(f'<ol class="failures">{"".join(items)}</ol>')
    parts.append("</section>")
    return "".join(parts)


def report_html(report: ClassReport) -> str:
    """Return the whole report as one HTML page that needs nothing else.

    Runtime complexity: O(students x exercises + tests + messages).
    """
    n = len(report.students)
    mean = sum(report.totals) / n if n else 0.0
    nav = "".join(f'<li><a href="#ex{ex.number}">Exercise {ex.number}: {_e(ex.title)}</a></li>'
                  for ex in report.exercises)
    body = [
        "<header><h1>Class report</h1>",
        f'<p class="muted">{n} students, {len(report.exercises)} exercises, {_num(report.points)} points.</p>',
        f'<nav aria-label="Exercises"><ul><li><a href="#totals">Totals</a></li>'
        f'<li><a href="#most-failed">Most failed tests</a></li>{nav}'
        f'<li><a href="#reading">How to read it</a></li></ul></nav></header><main>',
        '<section aria-labelledby="totals"><h2 id="totals">Totals</h2>',
        f"<p>Mean {_num(mean)} of {_num(report.points)}.</p>",
        histogram_svg(report.totals, report.points, "Totals: students per range of points", "totals"),
        _counts_table(report.totals, report.points, "the totals"), "</section>",
        '<section aria-labelledby="most-failed"><h2 id="most-failed">Most failed tests</h2>',
        "<p>The tests failed by the most students who started their exercise, with the message most of "
        "them failed it with (card codes and numbers shown as <code>&lt;card&gt;</code> and "
        "<code>&lt;n&gt;</code>).</p>",
        _most_failed_table(report), "</section>",
        *(_exercise_section(ex, n) for ex in report.exercises),
        '<section aria-labelledby="reading"><h2 id="reading">How to read it</h2>',
        "<p><strong>Passed</strong> is the share of the whole class; <strong>of those who started</strong> leaves "
        "out the students whose file was missing or still the skeleton (every test failing with "
        "<code>NotImplementedError</code>).</p>",
        "<p><strong>Discrimination</strong> is the point-biserial correlation, over the class, of passing the test "
        "with the rest of the score (the total less that test's points). Near 1: the students who pass it are "
        "those who do well elsewhere. Near 0: passing it says nothing of the rest. Below 0: the stronger "
        "students fail it more often, which is worth a look at the test. It is undefined (—) when every "
        "student passes the test, or none does, or the rest of the score is the same for all.</p>",
        "<p><strong>First failures</strong> are each student's first failing test of the exercise, grouped when "
        "their first lines read the same once card codes and numbers are replaced.</p>",
        "</section></main>",
    ]
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light dark">'
            f"<title>Class report: {n} students</title><style>{_STYLE}</style></head>\n<body>"
            + "\n".join(body) + "\n</body></html>\n")
