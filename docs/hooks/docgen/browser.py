"""The practice pages: an exercise's editor, buttons and output, run by the page's runtime.

The runtime (Pyodide, the wheels, the page script) is built into ``practice/runtime/`` by the
site's build step; ``javascripts/practice.js``, on every page, starts it where a widget is.
The page works on any static host, loading nothing from another origin.
"""

from __future__ import annotations

from docgen.common import ROOT, _esc

_BUTTONS = [("check", "Run checks"), ("stop", "Stop"), ("play", "Play a game"), ("reset", "Reset to the skeleton"),
            ("download", "Download the file")]


def browser_exercise(n: str) -> str:
    """The practice widget for exercise ``n``: its skeleton in an editor, with run/stop/play/reset/download."""
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
JavaScript; if this stays, this build of the site has no practice runtime.)</span>
<span class="ds-practice__clock" aria-hidden="true"></span></p>
<pre class="ds-practice__output" aria-live="polite" aria-label="What the checks say" tabindex="0"></pre>
{game if ex.number in PLAYABLE else ""}</div>
"""
