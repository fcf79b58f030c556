"""Benchmark and closing figures: 100,000 games of Klondike for money with 2 workers.

Run from the repository root::

    python -m benchmarks.klondike                      # 100,000 games, 2 workers
    python -m benchmarks.klondike --games 10000        # a quicker look
    python -m benchmarks.klondike --figures benchmarks/results/issue5_figures.txt

Prints the machine, the wall time of ``klondike --games N --workers W`` (the same deals,
the same code path: :func:`solitaire_ds.simulate.run_deals` on games played without
records), whether the issue's target was met (100,000 games in under 2 minutes), the CPU
time per game in one process for each structure toolkit, split into making the deck and
playing it, and the figures: the win rate and the mean cards per game with 95% intervals
and the net per game, next to B. Turnbull's published figures for his own (smarter)
strategy. Figures are printed, never asserted: machines are shared.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solitaire_ds.cards import Deck
from solitaire_ds.games.klondike import PAYOUT, STAKE, Klondike, dollars
from solitaire_ds.simulate import SimulationRun, deal_seed, run_deals, seeded_deals
from solitaire_ds.stats import format_rate, mean_interval
from solitaire_ds.structures import ArrayQueue, ArrayStack, LinkedQueue, LinkedStack, Toolkit

__all__ = ["TARGET_SECONDS", "TURNBULL", "figures", "main"]

#: The issue's target: 100,000 games with 2 workers in under 2 minutes.
TARGET_SECONDS = 120.0
TARGET_GAMES = 100_000
#: B. Turnbull, roziturnbull.com/bill/Solitaire: draw one, single pass, his own strategy.
TURNBULL = {"won": 0.024, "returned": 43.15, "cards": 43.15 / PAYOUT}


def figures(results: Sequence[dict[str, Any]]) -> list[str]:
    """Return the closing figures for ``results``, next to Turnbull's."""
    n = len(results)
    cards = [r["to_foundation"] for r in results]
    nets = [r["net"] for r in results]
    wins = sum(1 for r in results if r["won"])
    mean_cards, lo_cards, hi_cards = mean_interval(cards)
    mean_net, lo_net, hi_net = mean_interval(nets)
    return [
        f"games: {n:,}",
        f"won: {format_rate(wins, n)}   (Turnbull: {TURNBULL['won']:.1%})",
        f"cards to the foundations per game: {mean_cards:.3f} (95% CI {lo_cards:.3f} to "
        f"{hi_cards:.3f})   (Turnbull: about {TURNBULL['cards']:.1f})",
        f"returned per ${STAKE} paid: ${PAYOUT * mean_cards:.2f} (95% CI ${PAYOUT * lo_cards:.2f} "
        f"to ${PAYOUT * hi_cards:.2f})   (Turnbull: ${TURNBULL['returned']:.2f})",
        f"net per game: {dollars(mean_net, 2)} (95% CI {dollars(lo_net, 2)} to "
        f"{dollars(hi_net, 2)})   (Turnbull: {dollars(TURNBULL['returned'] - STAKE, 2)})",
        f"net in all: {dollars(sum(nets))} over {n:,} games",
        f"most cards in a lost game: {max((c for c in cards if c < 52), default=0)}; "
        f"games with no card up: {format_rate(cards.count(0), n)}",
    ]


def _cpu_per_game(seed: int, count: int = 1000) -> list[str]:
    """Return lines with the CPU time per game in one process: deck, then play per toolkit."""
    cpu = time.process_time()
    decks = [Deck.shuffled(deal_seed(seed, n)) for n in range(1, count + 1)]
    deck_ms = (time.process_time() - cpu) / count * 1000
    lines = [f"  making a deck (Deck.shuffled): {deck_ms:.3f} ms CPU per game"]
    for toolkit in (Toolkit(), Toolkit(ArrayStack, LinkedQueue), Toolkit(LinkedStack, ArrayQueue),
                    Toolkit(LinkedStack, LinkedQueue)):
        cpu = time.process_time()
        for deck in decks:
            Klondike(deck, toolkit=toolkit, record=False).run()
        play_ms = (time.process_time() - cpu) / count * 1000
        lines.append(f"  playing, {toolkit.stack.__name__:11} + {toolkit.queue.__name__:11}: "
                     f"{play_ms:.3f} ms CPU per game")
    cpu = time.process_time()
    for deck in decks[:200]:
        Klondike(deck).run()
    lines.append(f"  playing with the record kept (ArrayStack + ArrayQueue): "
                 f"{(time.process_time() - cpu) / 200 * 1000:.3f} ms CPU per game")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print (and optionally write) the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--figures", type=Path, metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)

    lines = [f"machine: {platform.python_implementation()} {platform.python_version()}, "
             f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start"]
    run = SimulationRun(Klondike.name, {})
    sources = seeded_deals(args.seed, args.games)
    started = time.perf_counter()
    results = run_deals(run, sources, args.workers)
    wall = time.perf_counter() - started
    verdict = "MET" if wall < TARGET_SECONDS * args.games / TARGET_GAMES else "MISSED"
    lines.append(f"klondike --games {args.games} --seed {args.seed} --workers {args.workers}: "
                 f"{wall:.1f} s wall, {len(results) / wall:,.0f} games/s "
                 f"(target: {TARGET_GAMES:,} games in {TARGET_SECONDS:.0f} s: {verdict}); "
                 f"load average {os.getloadavg()[0]:.2f} at the end")
    lines += _cpu_per_game(args.seed)
    lines += ["", f"Figures (seed {args.seed}, the priority strategy of rule text 004):"]
    lines += ["  " + line for line in figures(results)]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.figures is not None:
        args.figures.parent.mkdir(parents=True, exist_ok=True)
        args.figures.write_text(text, encoding="utf-8")
        print(f"written to {args.figures}")


if __name__ == "__main__":
    main()
