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
