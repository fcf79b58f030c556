"""Klondike played for money: the report of many games (``solitaire-ds klondike``).

The rule text has the player pay $52 a game and win $5 for each card played to the
foundations. The report is a function of the deals alone: a heading (how many games, where
the deals come from, the stakes); the complete record of each of the first ``show`` games
(the layout after the deal, every move with the number of the rule that chose it, the
final board and that game's dollars); the totals (games won, cards played, the net
winnings in all and per game, with a 95% interval for the per-game mean, kept within the
dollars a game can bring).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solitaire_ds.games.klondike import PAYOUT, STAKE, Klondike, dollars
from solitaire_ds.records import play_record, render_text
from solitaire_ds.simulate import DealSource

__all__ = ["DEFAULT_SHOW", "origin", "report"]

#: Games whose whole record is shown when ``--show`` is not given (the rule text asks for 2).
DEFAULT_SHOW = 2


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def origin(source: DealSource, game: str = "klondike") -> str:
    """Where a deal comes from, and how to play it alone."""
    if source.seed is not None:
        return f"seed {source.seed}; alone: solitaire-ds play {game} --seed {source.seed}"
    return f"line {source.line} of the decks file"


def report(
    sources: Sequence[DealSource],
    results: Sequence[dict[str, Any]],
    show: int = DEFAULT_SHOW,
    where: str = "",
) -> str:
    """Return the whole report for ``results`` (one per source, in deal order).

    The first ``show`` deals are played again with their records. Nothing here depends
    on how the results were computed, so the text is the same for any number of workers.

    >>> from solitaire_ds.simulate import seeded_deals
    >>> deals = seeded_deals(1, 3)
    >>> results = [Klondike(d.make_deck(), record=False).run() for d in deals]
    >>> print(report(deals, results, show=0, where="seed 1"))  # doctest: +ELLIPSIS
    Klondike for money: 3 games (seed 1); the player pays $52 a game and wins $5 a card ...
    <BLANKLINE>
    All 3 games:
      games played: 3
      won: 0.00% (95% CI 0.00%-56.15%, 0 of 3)
    ...
    """
    n = len(results)
    lines = [f"Klondike for money: {_plural(n, 'game')}"
             + (f" ({where})" if where else "")
             + f"; the player pays ${STAKE} a game and wins ${PAYOUT} a card played to the "
             "foundations", ""]
    for number, source in enumerate(sources[:show], start=1):
        record = play_record(Klondike(source.make_deck()))
        res = record.result
        lines += [f"=== Game {number} of {n} ({origin(source)}) ===", ""]
        lines += render_text(record).splitlines()
        lines += ["", f"Game {number}: {res['to_foundation']} cards to the foundations; "
                  f"paid ${STAKE}, won ${PAYOUT * res['to_foundation']}: "
                  f"net {dollars(res['net'])}", ""]
    lines.append(f"All {_plural(n, 'game')}:")
    lines += ["  " + line for line in Klondike.summarize(results)]
    return "\n".join(lines)
