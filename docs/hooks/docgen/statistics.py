"""The statistics study: measured figures, comparisons with published ones, plots."""

from __future__ import annotations

import math
from typing import Any

from docgen.common import ROOT, _esc_cell, _load
from docgen.svg import _clip, bar_chart, line_chart


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
        return (f'!!! note "Not computed yet"\n    Run `python scripts/docs_figures.py --only {game}` '
                "to store them.\n")
    keys = sorted({k for run in data["runs"] for side in run["histograms"].values() for k in side})
    # three columns, whatever the number of result keys: a phone shows the whole table
    out = ['<div class="ds-stats" markdown>', "",
           "| rules and player | deals and wins | mean of each result key (95% CI) |", "| --- | --- | --- |"]
    for run in data["runs"]:
        n, won = run["games"], run["won"]
        lo, hi = wilson_interval(won, n)
        means = []
        for key in keys:
            hist = _merge(*(side.get(key, {}) for side in run["histograms"].values()))
            m, mean, mlo, mhi = _hist_stats(hist)
            fmt = _dollars if key == "net" else (lambda v: f"{v:.2f}")
            means.append(f"`{key}` {fmt(mean)} ({fmt(mlo)} to {fmt(mhi)})" if m else f"`{key}` —")
        out.append(f"| `{_run_label(run)}` | {n:,} deals, {won / n:.2%} won ({lo:.2%}–{hi:.2%}) | "
                   + "<br>".join(means) + " |")
    out += ["", "</div>"]
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
    out = ['<div class="ds-stats" markdown>', "",
           "| `--gather` | deals, cycled and won (95% CI) | rounds when won; cycle length |",
           "| --- | --- | --- |"]
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
        out.append(f"| `{run['options'][-1]}` | {n:,} deals<br>cycled {lost / n:.2%} ({clo:.2%}–{chi:.2%})<br>"
                   f"won {won / n:.2%} ({wlo:.2%}–{whi:.2%}) | rounds when won: mean {rmean:.1f} "
                   f"({rlo:.1f}–{rhi:.1f}), median {median}<br>cycle length: mean {cmean:.2f} "
                   f"({clo2:.2f}–{chi2:.2f}) |")
    out += ["", "</div>", ""]
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


# --- Published figures ------------------------------------------------------------------------
# One entry per figure someone else published, the one source of the page's tables: the figure,
# the source's own words (quoted exactly), its title and link, which version of it was read, the
# rules it was measured under, who or what played, which of our runs it is set beside, and why
# they differ. ``tests/test_docs_statistics.py`` checks every field is there.

#: When the sources below were read (stored copies of the pages).
READ_ON = "24 November 2026"

_SWR_ACES = "https://solitairewinrates.com/AcesUp.html"
_TURNBULL = "http://www.roziturnbull.com/bill/Solitaire/solitaire.htm"
_TURNBULL_PROGRAM = "http://www.billturnbull.com/Solitaire/Program.html"
_TURNBULL_PLAYER = (
    f"his program, Bill's Solitaire Tester ([its page]({_TURNBULL_PROGRAM}), for a later version): "
    "\"At each step in the game all possible legal moves are determined. Each of these moves are categorized and then "
    "prioritized according to a logic table. The best move is then made\"; it does not \"remember\" "
    "dealt cards nor \"peek\": a fixed priority, like ours, but his own")
_TURNBULL_RULES = (
    "Windows Solitaire's, draw one, once through the stock: \"I used the rules and options that are "
    "built in to the Windows Solitaire game where each game cost $52, and you get back $5 for each card "
    "you move to the top. Results for A and B are with the “Vegas” scoring option where you can only go "
    "through the deck a specified number of times.\" The money and the single pass are ours; the moves "
    "may not be: the rule text moves \"All face-up cards on a pile ... as a unit\", and the page does "
    "not say whether his program does")
_TURNBULL_WHY = (
    "Both players follow a fixed order of moves and neither looks at hidden cards, so the gap is the "
    "order itself (ours is the rule text's, which plays the waste before moving piles and takes the "
    "leftmost pile first) and any rule Windows reads otherwise; it is not measured here.")

PUBLISHED: list[dict[str, Any]] = [
    {
        "game": "perpetual-motion",
        "figure": "54.55% ± 0.89% of deals complete; 45.45% cycle (10,000 deals)",
        "quote": "The key result is that 54.55% +/- 0.89% of games can be completed (by a patient "
                 "player!) but that the remaining 45.45% result in non-terminating cycles.",
        "value": 0.4545, "side": "lost",
        "source": "M. C. Clarke, “On the Chances of Completing the Game of ‘Perpetual Motion’”",
        "url": "https://arxiv.org/abs/0907.1955",
        "version": "arXiv:0907.1955 (2009), its abstract",
        "rules": "piles collected left to right between rounds, as [solitairewinrates.com's page on "
                 "the game](https://solitairewinrates.com/PerpetualMotion.html) reports of his rules; "
                 "the abstract does not say whether they are turned face up "
                 "or face down, nor what counts as a repeated sequence",
        "player": "none is needed: the game has no decisions, so his program plays each deal as any "
                  "program does under the same reading",
        "ours": [("", "--gather left-face-down"), ("", "--gather left-face-up")],
        "why": "On the same deals our cycle rate changes widely from one gather reading to another "
               "(the table above). Where neither left-to-right reading holds his figure in its "
               "interval, his turning of the piles, or his test for a repeated sequence, differs from "
               "both of ours.",
    },
    {
        "game": "perpetual-motion",
        "figure": "about 45% of deals cycle",
        "quote": "This is not always possible, however, since in about 45% of cases a cycle occurs: that "
                 "is, the cards return to exactly the same sequence as one that has been seen previously.",
        "value": 0.45, "side": "lost",
        "source": "Wikipedia, “Perpetual Motion (solitaire)”",
        "url": "https://en.wikipedia.org/wiki/Perpetual_Motion_(solitaire)",
        "version": "the version quoted on [the rule texts](rule-texts.md) page; it cites no source",
        "rules": "\"the piles are picked up, starting from the rightmost pile, and put over one another "
                 "either faced down or face up\": two of our four readings",
        "player": "not stated (no decisions are needed)",
        "ours": [("", "--gather right-face-down"), ("", "--gather right-face-up"),
                 ("", "--gather left-face-down"), ("", "--gather left-face-up")],
        "why": "The article allows two readings, and on the same deals they give the different rates "
               "beside it (the left-to-right readings are shown too); it names no source and no count of "
               "deals, so its \"about\" carries no interval.",
    },
    {
        "game": "perpetual-motion",
        "figure": "\"an average of 128 rounds\" when the game is won",
        "quote": "When the game can be won, it still takes an average of 128 rounds before completion, "
                 "hence the name.",
        "value": 128.0, "side": "won", "key": "rounds",
        "source": "Wikipedia, “Perpetual Motion (solitaire)”",
        "url": "https://en.wikipedia.org/wiki/Perpetual_Motion_(solitaire)",
        "version": "the version quoted on [the rule texts](rule-texts.md) page; it cites no source",
        "rules": "as above: collected from the right, face down or face up",
        "player": "not stated",
        "ours": [("", "--gather right-face-down"), ("", "--gather right-face-up")],
        "why": "The article does not say what a \"round\" is. Ours counts passes through the stock; if a "
               "round there is one deal of four cards, the figure counts something else (the `deals` "
               "key in the full table counts deals of four).",
    },
    {
        "game": "aces-up",
        "figure": "11.57% of deals winnable, by a solver that refuses some moves",
        "quote": "According to my solver, Aces Up is winnable 11.57% of the time. It can actually be won "
                 "more often than that, but my solver refuses to play certain nonsensical moves such as "
                 "filling an empty column using a card from a column consisting of only that one card. "
                 "However, 11.57% is an unrealistically high rate, because some of these wins require "
                 "making odd choices which happen to work out well given the remaining cards.",
        "value": 0.1157, "side": "won",
        "source": "solitairewinrates.com, “Aces Up”",
        "url": _SWR_ACES,
        "version": f"undated page, as read on {READ_ON}",
        "rules": "the standard game: any top card may fill an empty column (the page links its rules "
                 "elsewhere)",
        "player": "the site's solver: it chooses \"given the remaining cards\" (it knows the stock, as "
                  "ours does) but refuses \"certain nonsensical moves\", naming one: filling an empty "
                  "column with the only card of another column. A lower bound on what can be won, as the "
                  "page says, not perfect play",
        "ours": [("solver", ""), ("solver-no-lone", "")],
        "why": "Both solvers know the order of the stock. Ours refuses no move and wins far more often. "
               "Refusing the one move the page names (`solver-no-lone`) costs about half of those wins: "
               "moving a card that is alone in its pile chooses which card of the next deal covers it, "
               "and a player who knows the stock uses that. The rest of the gap is the other moves the "
               "page's solver refuses (\"such as\": it does not list them) or a rule read otherwise; "
               "we cannot tell which.",
    },
    {
        "game": "aces-up",
        "figure": "about 1 in 35 (2.9%), playing \"as a human might\"",
        "quote": "To obtain a more realistic win rate, I wrote a simulator mode to play the game similarly "
                 "as a human might. [...] As a rule of thumb, it appears that you should be willing to "
                 "sacrifice up to three discards (net) in order to place an Ace. [...] your win rate will "
                 "be about 1-in-35 regardless.",
        "value": 1 / 35, "side": "won",
        "source": "solitairewinrates.com, “Aces Up”",
        "url": _SWR_ACES,
        "version": f"undated page, as read on {READ_ON}",
        "rules": "as above: any top card may fill an empty column",
        "player": "the site's simulator, which does not look ahead at the stock: it chooses the card for "
                  "an empty column by the discards it brings and by placing aces, trying several weights",
        "ours": [("greedy", ""), ("no-peek", "")],
        "why": "This is the figure to set beside a player who cannot see the stock. Our `no-peek` player "
               "searches every move it can make before the next deal and values an ace at the bottom of "
               "a pile at three discards, the page's own rule of thumb; our `greedy` player never "
               "searches. The page gives no deal count, so its figure has no interval to compare.",
    },
    {
        "game": "aces-up",
        "figure": "\"around 3 percent\"",
        "quote": "The win rate of the standard game of Aces Up is only around 3 percent, and there are "
                 "relatively few decisions for the player to make.",
        "value": 0.03, "side": "won",
        "source": "Solitaire Laboratory, “Aces Up and its Variations”",
        "url": "http://www.solitairelaboratory.com/acesup.html",
        "version": f"undated page, as read on {READ_ON}",
        "rules": "\"When every card has been discarded from a column, any uncovered card from another "
                 "column can be played there\": our default rules",
        "player": "not stated (the author's own program, Solitaire Virtuoso, deals the example)",
        "ours": [("greedy", ""), ("no-peek", "")],
        "why": "Without knowing who played, the figure can only be set beside players who cannot see "
               "the stock; it falls near our `no-peek` player.",
    },
    {
        "game": "aces-up",
        "figure": "\"about 4%\" for the average player",
        "quote": "Aces Up is an easy game to play, but it is not easy to win. As you can see from the Aces "
                 "Up statistics, the average player wins only about 4% of the time. A good player can "
                 "increase this rate.",
        "value": 0.04, "side": "won",
        "source": "T. Warfield, Solitaire Game of the Week #26, “Aces Up”",
        "url": "http://www.solitairegames.com/week/020413.html",
        "version": "13 April 2002",
        "rules": "\"If one of the four piles should become empty, you can move any top card from any of "
                 "the other piles into the empty space\": our default rules",
        "player": "people playing Pretty Good Solitaire (\"the average player\"), who see only the table",
        "ours": [("greedy", ""), ("no-peek", "")],
        "why": "People who cannot see the stock, so again the players to compare are ours that cannot "
               "either. The page gives no count of games, so the figure carries no interval.",
    },
    {
        "game": "aces-up",
        "figure": "aces only to empty piles: won \"roughly once in every 270 games\" (0.37%)",
        "quote": "A much more challenging variation on Aces Up allows only the aces to be moved onto an "
                 "empty pile. This makes game play much more restrictive and consequently the game can "
                 "only be completed roughly once in every 270 games.",
        "value": 1 / 270, "side": "won",
        "source": "Wikipedia, “Aces Up”",
        "url": "https://en.wikipedia.org/wiki/Aces_Up",
        "version": "the version quoted on [the rule texts](rule-texts.md) page; an older version cites "
                   "for it \"An Aces Up variant playing program\" (atchoo.org/src/aces_up.tar.gz)",
        "rules": "only an ace may be moved to an empty pile (our `--aces-only`)",
        "player": "a playing program whose author and strategy the article does not give; whether it "
                  "sees the stock is not said",
        "ours": [("greedy", "--aces-only"), ("no-peek", "--aces-only"), ("solver", "--aces-only")],
        "why": "A program that plays as a person does belongs beside our players that cannot see the "
               "stock, not beside the solver, which knows the stock and wins several times as often.",
    },
    {
        "game": "klondike",
        "figure": "2.4% of games won (\"1 in 43 games\"), draw one, once through",
        "quote": "Draw 1 card, 1 time around deck [...] 2.4% 1 in 43 games [...] $43.15 [...] "
                 "These numbers are based on at least 100,000 games played, each starting with a new "
                 "randomly shuffled deck.",
        "value": 0.024, "side": "won",
        "source": "B. Turnbull, “Solitaire (Klondike) – What are the Odds of Winning?”",
        "url": _TURNBULL,
        "version": "an earlier version of the page (\"at least 100,000 games\"); the later version has "
                   "other figures (below)",
        "rules": _TURNBULL_RULES,
        "player": _TURNBULL_PLAYER,
        "ours": [("", "")],
        "why": _TURNBULL_WHY,
    },
    {
        "game": "klondike",
        "figure": "$43.15 back for each $52 game (a net of −$8.85; about 8.6 cards to the foundations)",
        "quote": "For each $52 game you are on average likely to win back [...] $43.15",
        "value": -8.85, "side": "all", "key": "net", "unit": "$",
        "source": "B. Turnbull, “Solitaire (Klondike) – What are the Odds of Winning?”",
        "url": _TURNBULL,
        "version": "the same earlier version of the page",
        "rules": "as above: Windows Solitaire, draw one, once through, $52 a game and $5 a card",
        "player": "as above: his program's fixed priority",
        "ours": [("", "")],
        "why": _TURNBULL_WHY,
    },
    {
        "game": "klondike",
        "figure": "4.7% won (\"1 in 21.2 games\"), $49.03 back (a net of −$2.97), with his program's "
                  "version 3.2",
        "quote": "Draw 1 card, 1 time around deck [...] 4.7% 1 in 21.2 games [...] $49.03 (lose $2.97) [...] "
                 "These numbers are based on 10,000 games played; each type of game using the same default "
                 "sequence of randomly shuffled decks; and the optimum move choice logic as listed below",
        "value": 0.047, "side": "won",
        "source": "B. Turnbull, “Solitaire (Klondike) – What are the Odds of Winning?”",
        "url": _TURNBULL,
        "version": f"the later version of the page (\"Results (using V3.2)\"), as read on {READ_ON}",
        "rules": "as above: Windows Solitaire, draw one, once through",
        "player": "his program's version 3.2 and its \"optimum move choice logic\"",
        "ours": [("", "")],
        "why": "The same author, under the same rules, reports about twice the win rate after changing "
               "his program's \"optimum move choice logic\": the order of a fixed priority matters that "
               "much. Ours is the rule text's order, not a tuned one.",
    },
]


def _ours(entry: dict[str, Any], player: str, options: str) -> str:
    """One of our runs beside a published figure: the same measure, with its interval and verdict."""
    from solitaire_ds.stats import wilson_interval

    run = _find_run(entry["game"], player, options)
    name = f"`{_run_label({'options': options.split(), 'player': player})}`"
    if run is None:
        return f"{name}: not in the stored data yet, so no comparison is made"
    n, target = run["games"], float(entry["value"])
    if "key" in entry:
        hists = run["histograms"]
        hist = hists[entry["side"]].get(entry["key"], {}) if entry["side"] in hists else \
            _merge(*(side.get(entry["key"], {}) for side in hists.values()))
        m, mean, lo, hi = _hist_stats(hist)
        fmt = _dollars if entry.get("unit") == "$" else (lambda v: f"{v:.2f}")
        which = f"{m:,} won deals" if entry["side"] == "won" else f"{m:,} deals"
        return (f"{name}: mean {fmt(mean)} (95% CI {fmt(lo)} to {fmt(hi)}, {which}); the published "
                f"figure is **{_verdict(target, lo, hi)}** this interval")
    count = run["won"] if entry["side"] == "won" else n - run["won"]
    lo, hi = wilson_interval(count, n)
    what = "won" if entry["side"] == "won" else "cycled"
    return (f"{name}: {count / n:.2%} {what} (95% CI {lo:.2%}–{hi:.2%}, {n:,} deals); the published "
            f"figure is **{_verdict(target, lo, hi)}** this interval")


def published(game: str) -> str:
    """The published figures for ``game``, one table row each: source, rules and player, ours and why.

    Three columns that wrap (a phone stacks them, see the site's stylesheet): the figure with the
    source's words and link, the rules and the player it belongs to, our runs beside it and why
    they differ.
    """
    entries = [e for e in PUBLISHED if e["game"] == game]
    if not entries:
        return "*No published figure is known for this game.*\n"
    out = ['<div class="ds-stats ds-published" markdown>', "",
           "| published figure and source | rules and player | ours, and why they differ |",
           "| --- | --- | --- |"]
    for e in entries:
        ours = "".join(f"<br>– {_ours(e, player, options)}" for player, options in e["ours"])
        cells = [f"**{e['figure']}**<br>“{e['quote']}”<br>[{e['source']}]({e['url']}), {e['version']}",
                 f"**Rules:** {e['rules']}.<br>**Player:** {e['player']}.",
                 f"**Ours:**{ours}.<br>**Why they differ:** {e['why']}"]
        out.append("| " + " | ".join(_esc_cell(c) for c in cells) + " |")
    return "\n".join([*out, "", "</div>", ""])
