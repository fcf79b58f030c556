"""Many deals of one game, in parallel, with results in deal order.

Where the deals come from:

* a master seed ``S``: deal ``i`` (counted from 1) is ``Deck.shuffled(deal_seed(S, i))``,
  so every deal can be played again alone with ``play --seed <its seed>``;
* a file of decks: one deck per line (blank lines and ``#`` comments skipped), all read
  and checked before anything is played.

Results come back in deal order whatever the number of worker processes, so the same
seed gives the same results with ``--workers 1`` or ``--workers 8``.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from solitaire_ds.cards import Deck, DeckError
from solitaire_ds.games import game_class
from solitaire_ds.games.base import Game

__all__ = [
    "DealSource",
    "DeckFileError",
    "Progress",
    "ProgressBar",
    "SimulationRun",
    "deal_seed",
    "read_decks",
    "run_deals",
    "seeded_deals",
]


@dataclass(frozen=True)
class DealSource:
    """Where one deal comes from: a seed, or a line of a decks file."""

    deal: int
    seed: int | None = None
    line: int | None = None
    deck: str | None = None

    def make_deck(self) -> Deck:
        """Return the deck this source stands for."""
        if self.deck is not None:
            return Deck.parse(self.deck)
        assert self.seed is not None
        return Deck.shuffled(self.seed)

    def label(self) -> dict[str, int]:
        """Return the keys that say where the deal came from (for JSON lines)."""
        where = {"seed": self.seed} if self.seed is not None else {"line": self.line}
        return {"deal": self.deal, **{k: v for k, v in where.items() if v is not None}}


class DeckFileError(ValueError):
    """A decks file with a bad line; the message names the file and the line."""


def deal_seed(master: int, deal: int) -> int:
    """Return the seed of deal number ``deal`` (from 1) of a run with master seed ``master``.

    A hash, so that runs with nearby master seeds share no deals; stable on every machine.

    >>> deal_seed(1, 1)
    8031388300216795445
    """
    digest = hashlib.sha256(f"solitaire-ds:{master}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seeded_deals(master: int, games: int) -> list[DealSource]:
    """Return ``games`` deal sources drawn from the master seed."""
    return [DealSource(n, seed=deal_seed(master, n)) for n in range(1, games + 1)]


def read_decks(path: Path) -> list[DealSource]:
    """Read and check a decks file; raise :class:`DeckFileError` at the first bad line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckFileError(f"cannot read {path}: {exc}") from None
    sources: list[DealSource] = []
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        try:
            deck = Deck.parse(content)
        except DeckError as exc:
            raise DeckFileError(f"{path}, line {number}: {exc}") from None
        sources.append(DealSource(len(sources) + 1, line=number, deck=str(deck)))
    if not sources:
        raise DeckFileError(f"{path} holds no decks")
    return sources


#: Makes a player's choose function for a game class (None for games without decisions).
PlayerFactory = Callable[[type[Game]], Callable[[Game], Any]]


@dataclass(frozen=True)
class SimulationRun:
    """What every deal of a run shares: the game, its options and the player."""

    game: str
    options: dict[str, Any]
    player: str | None = None

    def play(self, source: DealSource) -> dict[str, Any]:
        """Play one deal without recording events; return its labelled result."""
        cls = game_class(self.game)
        game = cls(source.make_deck(), cls.options_type.from_json(self.options), record=False)
        if cls.has_decisions:
            from solitaire_ds.players import make_player

            choose = make_player(self.player or "greedy", cls)
            while not game.is_over():
                if game.needs_decision():
                    game.play(choose(game))
                else:
                    game.advance()
        else:
            game.run()
        return {**source.label(), **game.result()}

    def play_chunk(self, chunk: Sequence[DealSource]) -> list[dict[str, Any]]:
        """Play several deals (the unit of work a worker process takes)."""
        return [self.play(source) for source in chunk]


Progress = Callable[[int, int], None]


def run_deals(
    run: SimulationRun,
    sources: Sequence[DealSource],
    workers: int = 1,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Play every deal and return the results in deal order.

    ``workers`` processes share the deals in chunks; the order of the results, and so
    every figure computed from them, does not depend on ``workers``.
    """
    total = len(sources)
    chunk_size = max(1, min(200, total // (workers * 8) or 1))
    chunks = [sources[i:i + chunk_size] for i in range(0, total, chunk_size)]
    results: list[dict[str, Any]] = []
    for part in _map(run.play_chunk, chunks, workers):
        results += part
        if progress is not None:
            progress(len(results), total)
    return results


def _map(
    func: Callable[[Sequence[DealSource]], list[dict[str, Any]]],
    chunks: list[Sequence[DealSource]],
    workers: int,
) -> Iterator[list[dict[str, Any]]]:
    if workers <= 1 or len(chunks) <= 1:
        yield from map(func, chunks)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(workers) as pool:
        yield from pool.imap(func, chunks)


class ProgressBar:
    """A one-line progress bar on a terminal (silent when the stream is not a terminal)."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream = stream if stream is not None else sys.stderr
        self.enabled = stream.isatty() and os.environ.get("TERM") != "dumb"
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        width = 30
        filled = width * done // max(total, 1)
        elapsed = time.perf_counter() - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} deals, {rate:,.0f}/s ")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()

