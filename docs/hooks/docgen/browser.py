"""The practice pages: an exercise's editor, buttons and output, run by the page's runtime.

The runtime (Pyodide, the wheels, the page script) is built into ``practice/runtime/`` by the
site's build step (or, for the site ``solitaire-ds docs`` serves, by ``solitaire-ds docs
runtime``); ``javascripts/practice.js``, on every page, starts it where a widget is. A site
without it says, on each practice page, the one command that adds it. The page works on any
static host, loading nothing from another origin. When every check passes, the page shows a
link to the next exercise's page and tutorial (Markdown, so the builder checks the links).
"""

from __future__ import annotations

from docgen.common import ROOT, _esc

_BUTTONS = [("check", "Run checks"), ("stop", "Stop"), ("play", "Play a game"), ("reset", "Reset to the skeleton"),
            ("download", "Download the file")]


def _next_page(n: int) -> str:
    """What a page shows once exercise ``n`` passes every check: the next exercise's page and tutorial."""
    from solitaire_ds.course.catalog import EXERCISES

    if n == len(EXERCISES):
        return "**Every check passes**, and that was the course's last exercise: [all the practice pages](index.md)."
    ex = EXERCISES[n]  # the next one: numbers start at 1
    name = f"exercise-{ex.number:02d}-{ex.slug.replace('_', '-')}.md"
    return (f"**Every check passes.** Next, exercise {ex.number}, {ex.title.split(':')[0]}: "
            f"[its tutorial](../tutorials/{name}), then [its practice page]({name}).")


def browser_exercise(n: str) -> str:
    """The practice widget for exercise ``n``: its skeleton in an editor, with run/stop/play/reset/download."""
    from solitaire_ds.cli.docs import RUNTIME_COMMAND
    from solitaire_ds.course.browser import PLAYABLE
    from solitaire_ds.course.catalog import exercise

    ex = exercise(int(n))
    skeleton = (ROOT / "exercises" / ex.relpath).read_text(encoding="utf-8")
    buttons = "".join(f'<button type="button" data-action="{action}" disabled>{label}</button>'
                      for action, label in _BUTTONS if action != "play" or ex.number in PLAYABLE)
    steps = "".join(f'<button type="button" data-action="{action}">{label}</button>'
                    for action, label in (("prev", "Previous step"), ("next", "Next step"), ("auto", "Play through")))
    game = f"""<div class="ds-practice__game" hidden>
<div class="ds-practice__buttons">{steps}</div>
<p class="ds-practice__step" aria-live="polite"></p>
<div class="ds-practice__board"></div>
</div>
"""
    return f"""<div class="ds-practice" data-exercise="{ex.number}" data-file="{_esc(ex.relpath)}" markdown="0">
<textarea class="ds-practice__skeleton" hidden aria-hidden="true">{_esc(skeleton)}</textarea>
<div class="ds-practice__editor"></div>
<div class="ds-practice__buttons">{buttons}</div>
<p class="ds-practice__line"><span class="ds-practice__status" role="status">Loading the editor… (this page needs
JavaScript.)</span>
<span class="ds-practice__clock" aria-hidden="true"></span></p>
<div class="ds-practice__missing" hidden>
<p>To add it, run this in your clone of solitaire-ds (once: a few minutes; it needs Node.js, npm and the
network), then reload this page (a site made with <code>solitaire-ds docs --build</code>: build it again):</p>
<pre><code>{_esc(RUNTIME_COMMAND)}</code></pre>
</div>
<pre class="ds-practice__output" aria-live="polite" aria-label="What the checks say" tabindex="0"></pre>
{game if ex.number in PLAYABLE else ""}</div>
<div class="ds-practice__next" data-exercise="{ex.number}" hidden markdown="1">
{_next_page(ex.number)}
</div>
"""
