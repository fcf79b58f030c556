"""The statistics study: measured figures, comparisons with published ones, plots."""

from __future__ import annotations

import math
from typing import Any

from docgen.common import ROOT, _load
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
# One entry per figure someone else published: what it says, where (a link), which version of
# the source, the rules it was measured under, who or what played, and which of our runs it is
# set beside. The statistics page renders these; its test checks every field is there.

PUBLISHED: list[dict[str, Any]] = [
    {
        "game": "perpetual-motion",
        "figure": "45.45% of deals cycle (54.55% ± 0.89% complete), over 10,000 deals",
        "value": 0.4545, "side": "lost",
        "source": 'M. C. Clarke, "On the Chances of Completing the Game of \'Perpetual Motion\'"',
        "url": "https://arxiv.org/abs/0907.1955",
        "version": "arXiv:0907.1955, 2009",
        "rules": "the piles are collected left to right; how they are turned, and what counts as a repeated "
                 "sequence, the paper words in its own way",
        "player": "none: the game has no decisions, so every program plays a deal the same way under the "
                  "same reading",
        "ours": [("", "--gather left-face-down"), ("", "--gather left-face-up")],
        "why": "The gather reading decides the game: on the same deals our cycle rate differs widely "
               "across the four readings (the table above). Where neither reading that collects left to "
               "right holds his figure in its interval (the verdicts just above), his turning of the "
               "piles or his test for a repeated sequence differs from both of ours.",
    },
    {
        "game": "perpetual-motion",
        "figure": '"an average of 128 rounds" when the game is won',
        "value": 128.0, "side": "won", "key": "rounds",
        "source": "Wikipedia, Perpetual Motion (solitaire)",
        "url": "https://en.wikipedia.org/wiki/Perpetual_Motion_(solitaire)",
        "version": "the article's text as quoted on [the rule texts](rule-texts.md) page; it gives no "
                   "source for the figure",
        "rules": "not stated",
        "player": "not stated",
        "ours": [("", "--gather right-face-down"), ("", "--gather left-face-down")],
        "why": "Nothing says what a \"round\" is there. Ours counts passes through the stock; if a round "
               "there is one deal of four cards, the figure counts something else altogether (the "
               "`deals` key in the full table counts deals of four).",
    },
    {
        "game": "aces-up",
        "figure": "11.57% of deals winnable",
        "value": 0.1157, "side": "won",
        "source": "Solitaire win rates: Aces Up",
        "url": "http://www.solitairewinrates.com/AcesUp.html",
        "version": "undated page",
        "rules": "any card may fill an empty pile, but the site's solver refuses some moves; the page "
                 "itself says the game \"can actually be won more often\"",
        "player": "the site's own solver, with the moves it refuses: a lower bound on perfect play, "
                  "not perfect play",
        "ours": [("greedy", ""), ("solver", "")],
        "why": "Our solver knows the whole order of the stock (perfect information) and refuses no move, "
               "so it finds every win there is: its rate is an upper bound that no player who cannot see "
               "the stock reaches. Our greedy player sees only the table, as a person does, and never "
               "plans ahead: a lower bound. A good player who cannot see the stock, or a solver that "
               "refuses some moves, should land between the two, which is where the verdicts above "
               "place the published figure if it is below the solver's interval and above the greedy "
               "player's.",
    },
    {
        "game": "aces-up",
        "figure": 'with aces only to empty piles, won "roughly once in every 270 games" (0.37%)',
        "value": 1 / 270, "side": "won",
        "source": "Wikipedia, Aces Up, citing a playing program by R. Light",
        "url": "https://en.wikipedia.org/wiki/Aces_Up",
        "version": "the article's text as quoted on [the rule texts](rule-texts.md) page",
        "rules": "only an ace may be moved to an empty pile",
        "player": "a playing program (R. Light's), which sees what a player sees; not perfect play",
        "ours": [("greedy", "--aces-only"), ("solver", "--aces-only")],
        "why": "A program that plays as a person does should be set beside our greedy player, not our "
               "solver: the solver knows the stock and wins far more often. Our greedy player is simple "
               "(it never plans ahead), so a figure a little below or above its rate is no surprise.",
    },
    {
        "game": "klondike",
        "figure": "2.4% of games won",
        "value": 0.024, "side": "won",
        "source": "B. Turnbull, Klondike solitaire figures",
        "url": "http://www.roziturnbull.com/bill/Solitaire/",
        "version": "undated page; at least 100,000 games",
        "rules": 'Windows\' "Vegas" rules: draw one, a single pass through the stock, $52 to play and $5 '
                 "back for each card played to the foundations: the same rules as ours",
        "player": "his own strategy, which chooses its moves with more care than a fixed priority",
        "ours": [("", "")],
        "why": "The rules are the same; the players are not. Ours follows the rule text's fixed order of "
               "moves and never looks ahead, so the gap between the figures measures the strategy.",
    },
    {
        "game": "klondike",
        "figure": "$43.15 back per $52 staked (a net of −$8.85 a game)",
        "value": -8.85, "side": "all", "key": "net", "unit": "$",
        "source": "B. Turnbull, Klondike solitaire figures",
        "url": "http://www.roziturnbull.com/bill/Solitaire/",
        "version": "undated page; at least 100,000 games",
        "rules": "as above: Vegas, draw one, single pass",
        "player": "his own strategy",
        "ours": [("", "")],
        "why": "As above: the same rules, a different player.",
    },
    {
        "game": "klondike",
        "figure": "about 8.6 cards to the foundations a game ($43.15 ÷ $5)",
        "value": 8.63, "side": "all", "key": "to_foundation",
        "source": "B. Turnbull, Klondike solitaire figures",
        "url": "http://www.roziturnbull.com/bill/Solitaire/",
        "version": "undated page; at least 100,000 games",
        "rules": "as above: Vegas, draw one, single pass",
        "player": "his own strategy",
        "ours": [("", "")],
        "why": "As above: the same rules, a different player.",
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
    """Every published figure for ``game``: source (linked), version, rules, player, ours beside it, why."""
    out = []
    for entry in (e for e in PUBLISHED if e["game"] == game):
        out += [f"**{entry['figure']}**: [{entry['source']}]({entry['url']}) ({entry['version']}).", "",
                f"- **Rules:** {entry['rules']}.",
                f"- **Player:** {entry['player']}.",
                "- **Ours:**", *(f"    - {_ours(entry, player, options)}." for player, options in entry["ours"]),
                f"- **Why they differ:** {entry['why']}", ""]
    if not out:
        return "*No published figure is known for this game.*\n"
    return "\n".join(out)
