"""Compute the long statistics the docs site shows, once, and store them in ``docs/data/``.

The site never simulates at build time: it reads what this script wrote. Run it from
the repository root::

    python scripts/docs_figures.py --games 100000            # every available game
    python scripts/docs_figures.py --games 5000 --only perpetual-motion
    python scripts/docs_figures.py --bench                    # the structure timings too
    python scripts/docs_figures.py --games 20000 --solver-games 20000 --plan "aces-up --aces-only solver"

Each game's runs go through the real command line (``solitaire-ds simulate GAME
--games N --seed 1 --jsonl FILE``), so the figures are exactly what a reader who types
the command gets. For each run the script stores, in ``docs/data/stats-GAME.json``, the
number of deals and wins and a histogram of every numeric result key, split by won and
lost deals -- enough for every rate, interval, mean and plot on the site, and small.
A game that is not available yet (its module has not landed) is skipped and its old
data, if any, is kept.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / "data"

#: For each game: the runs to make, as (rule-option flags, player or None).
PLANS: dict[str, list[tuple[list[str], str | None]]] = {
    "perpetual-motion": [
        (["--gather", reading], None)
        for reading in ("right-face-down", "right-face-up", "left-face-down", "left-face-up")
    ],
    "idiots-delight": [
        ([], "greedy"),
        (["--deal-any-time"], "greedy"),
        ([], "solver"),
        (["--deal-any-time"], "solver"),
    ],
    "aces-up": [
        ([], "greedy"),
        (["--aces-only"], "greedy"),
        ([], "no-peek"),
        (["--aces-only"], "no-peek"),
        ([], "solver-no-lone"),
        ([], "solver"),
        (["--aces-only"], "solver"),
    ],
    "klondike": [([], None)],
}


def _available(game: str) -> bool:
    from solitaire_ds.games import UnknownGame, game_class

    try:
        game_class(game)
    except UnknownGame:
        return False
    return True


def _histograms(results: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, int]]]:
    """Return ``{"won"|"lost": {key: {value: count}}}`` for every numeric result key."""
    out: dict[str, dict[str, Counter[int]]] = {"won": {}, "lost": {}}
    for result in results:
        side = out["won" if result.get("won") else "lost"]
        for key, value in result.items():
            if key in ("deal", "seed", "won") or isinstance(value, bool) or not isinstance(value, int):
                continue
            side.setdefault(key, Counter())[value] += 1
    return {
        side: {key: {str(v): c for v, c in sorted(counter.items())} for key, counter in keys.items()}
        for side, keys in out.items()
    }


def run_one(game: str, flags: list[str], player: str | None, games: int, seed: int, workers: int) -> dict[str, Any]:
    """Simulate one (game, options, player) through the command line; return its summary."""
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "results.jsonl"
        command = [sys.executable, "-m", "solitaire_ds", "simulate", game, "--games", str(games),
                   "--seed", str(seed), "--workers", str(workers), "--jsonl", str(jsonl), *flags]
        if player is not None:
            command += ["--player", player]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command[2:])} failed: {done.stderr.strip()}")
        results = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    command_text = "solitaire-ds " + " ".join(command[3:]).replace(f" --jsonl {jsonl}", "")
    return {
        "command": command_text,
        "options": flags,
        "player": player,
        "seed": seed,
        "games": len(results),
        "won": sum(1 for r in results if r.get("won")),
        "histograms": _histograms(results),
        "seconds": round(elapsed, 2),
        "workers": workers,
    }


def plan_label(game: str, flags: list[str], player: str | None) -> str:
    """Return a plan's name, as ``--plan`` takes it: ``"aces-up --aces-only solver"``."""
    return " ".join([game, *flags, *([player] if player else [])])


def run_game(
    game: str, games: int, solver_games: int, seed: int, workers: int, solver: bool = True,
    plans: list[str] | None = None,
) -> None:
    """Run the plans of ``game`` (all, or those named in ``plans``); write ``docs/data/stats-GAME.json``."""
    path = DATA / f"stats-{game}.json"
    old = json.loads(path.read_text(encoding="utf-8"))["runs"] if path.is_file() else []
    runs = []
    for flags, player in PLANS[game]:
        if player is not None and player.startswith("solver") and not solver:
            continue
        if plans and plan_label(game, flags, player) not in plans:
            continue
        n = solver_games if player is not None and player.startswith("solver") else games
        print(f"{game} {' '.join(flags)} {player or ''}: {n} deals ...", flush=True)
        try:
            runs.append(run_one(game, flags, player, n, seed, workers))
        except RuntimeError as exc:
            print(f"  skipped: {exc}", flush=True)
            continue
        # Written after every run, so an interrupted script keeps what it measured; runs
        # not yet redone keep their old figures.
        done = {(json.dumps(r["options"]), r["player"]) for r in runs}
        kept = [r for r in old if (json.dumps(r["options"]), r["player"]) not in done]
        order = {(json.dumps(f), p): i for i, (f, p) in enumerate(PLANS[game])}
        merged = sorted(runs + kept, key=lambda r: order.get((json.dumps(r["options"]), r["player"]), 99))
        path.write_text(json.dumps({"game": game, "runs": merged}, indent=1) + "\n", encoding="utf-8")
        print(f"  wrote {path.relative_to(ROOT)}", flush=True)


def run_bench(quick: bool) -> None:
    """Time the six structures against list/deque and write ``docs/data/benchmarks.json``."""
    sys.path.insert(0, str(ROOT))
    import benchmarks.structures as bench

    bench._clock = time.process_time  # as --cpu: other processes on a shared machine do not count
    sizes = [10**3, 10**4, 10**5] if quick else [10**4, 10**5, 10**6]
    repeats = 1 if quick else 3
    rows = bench.measure(sizes, repeats)
    floor, floor_builtin = bench._call_floor(sizes[-1], repeats)
    data = {
        "python": sys.version.split()[0],
        "repeats": repeats,
        "command": "python -m benchmarks.structures --cpu" + (" --quick" if quick else ""),
        "call_floor": {"ops": sizes[-1], "ns_per_op": round(floor, 1),
                       "baseline_ns_per_op": round(floor_builtin, 1)},
        "rows": [
            {"name": r.name, "kind": r.kind, "baseline": r.baseline, "ops": r.ops,
             "ns_per_op": round(r.ns_per_op, 1), "baseline_ns_per_op": round(r.baseline_ns_per_op, 1),
             "ratio": round(r.ratio, 3)}
            for r in rows
        ],
    }
    path = DATA / "benchmarks.json"
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Parse the options and compute what was asked for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="deals per run (default 5000)")
    parser.add_argument("--solver-games", type=int, default=None,
                        help="deals per solver run (default: the smaller of --games and 1000)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--only", action="append", choices=sorted(PLANS), help="only this game (repeatable)")
    parser.add_argument("--no-solver", action="store_true", help="skip the solver runs (keep their old data)")
    parser.add_argument("--plan", action="append", metavar="LABEL",
                        help='only this run, e.g. "aces-up --aces-only solver" (repeatable; others keep their data)')
    parser.add_argument("--bench", action="store_true", help="also time the structures")
    parser.add_argument("--bench-only", action="store_true", help="only time the structures")
    parser.add_argument("--quick-bench", action="store_true", help="smaller benchmark sizes")
    args = parser.parse_args(argv)
    DATA.mkdir(parents=True, exist_ok=True)
    if not args.bench_only:
        solver_games = args.solver_games if args.solver_games is not None else min(args.games, 1000)
        for game in args.only or list(PLANS):
            if _available(game):
                run_game(game, args.games, solver_games, args.seed, args.workers, not args.no_solver, args.plan)
            else:
                print(f"{game}: not available yet, kept its old data", flush=True)
    if args.bench or args.bench_only:
        run_bench(args.quick_bench)
    return 0


if __name__ == "__main__":
    sys.exit(main())
