"""The games as the solver sees them: states, the moves each allows, and pruning.

A :class:`Model` turns one deal of Idiot's Delight or Aces Up into plain data the search
can hash: a *state* is ``(pile 1, pile 2, pile 3, pile 4, position)``, each pile a tuple of
card indexes (bottom first), the position the index of the next card to deal. Forced
steps (deals, discards) are folded into each move. :func:`game_state` and
:func:`model_for` read a live game into these terms.

Pruning (``prune=True``; ``prune=False`` is the plain search the tests compare it with):

1. **Stop at the best possible value.** No end state beats 0 cards left (Idiot's Delight)
   or "only the four aces left" (Aces Up: the highest card of each suit can never be
   discarded, as a discard needs a higher card of its suit showing); once found, nothing
   can improve on it.
2. **Piles are interchangeable once the stock is empty.** Deals are the only step that
   tells the piles apart (card k of a deal goes onto pile k). With the stock empty, the
   rules (pairs, suits; discards, moves into an empty pile) treat the piles alike, so
   permuting the piles permutes the reachable states and keeps their values: such a state
   is keyed by the *sorted* piles. (Before the last deal this is false: the next deal puts
   a different card on each pile. ``tests/test_solver.py`` shows a deal where keying every
   state by its sorted piles loses the best score.) Only Aces Up uses it: in Idiot's
   Delight a card never leaves the pile it was dealt to, so two different piles never
   hold the same cards and no two reachable states are permutations of each other.
3. **Stuck cards (branch and bound).** In Idiot's Delight no card ever moves to another
   pile, and in Aces Up with ``aces_only`` no card but an ace does: a card leaves its pile
   only by being discarded. That needs one of its *removers* showing on another pile at
   the same time (Idiot's Delight: a card of its rank, or a higher card of its suit; Aces
   Up: a higher card of its suit). If every remover not yet discarded lies *beneath* it
   in its own pile, none can show while it is there: it stays to the end, and so does
   every card beneath it. So the cards left at the end are at least these (plus, in Aces
   Up, the aces), and a state whose bound is no better than the best end found is not
   searched. The bound of a state only grows along a line, never shrinks.
4. **A removal that can never hurt (Idiot's Delight with ``deal_any_time``).** Call a
   removal *safe* when no card still in play (on the piles or in the stock) other than
   the ones it discards could ever be removed by one of them: for ``suit`` discarding x,
   no other card of x's rank and no lower card of x's suit is left; for ``pair`` x y, no
   other card of their rank and no lower card of either suit. When a safe removal
   exists, it is the only move searched. Proof: let S' be the state after it and L any
   line from S. Cards never come back, so every later move of L that touches a discarded
   card discards only discarded cards (a card it would discard along with them would
   have one of them as a remover). Play L from S' skipping exactly those moves. The piles
   of S' are those of S minus the discarded cards, so every card showing in S shows in
   S' too: every other removal of L is legal from S', and every deal of L is too (with
   ``deal_any_time`` a deal needs only a non-empty stock). At L's end S' holds the same
   cards minus the discarded ones; if a removal is still possible there, make it (it
   only lowers the count). So S' reaches an end no worse than L's. (Under the default
   rules this fails: a card S' shows may forbid a deal that L makes, so the pruning is
   not used there.)

Tried and rejected for Aces Up, because they are false (``tests/test_solver_dominance.py``
shows a small deck where each loses the best score): "when an ace tops a pile of two or
more cards and a pile is empty, only moving that ace needs searching", and "never move
an ace that is alone in its pile" (before a deal, *which* column holds a card decides
which card of the next deal covers it). Keying the state by the cards' ranks relative
to the cards of their suit still in play is exact (only those comparisons matter) but
merges only about 7% of the states, for a key that costs more to build than it saves.

Not pruned, on purpose: the order of removals in Idiot's Delight. Two removals on four
different piles commute (each touches only its own piles' top cards), so both orders
reach the same state, which the visited set already searches once; removals that share a
pile do not commute, and which to make first is the player's real choice.

Each pruning is checked against the plain search on many small decks, all together in
``tests/test_solver.py`` and one at a time in ``tests/test_solver_dominance.py``.

Speed (Aces Up, the hot path): the forced discards look up the four top cards in a memo
(:data:`_DROPS`) of which tops go, and the moves are built once, not per state: with end
states kept out of the frontier, about 2.5 times less CPU per deal than a plain
transcription (300 deals with --workers 2: 39 s of CPU before, 16 s after; the same
results deal by deal on 1,000 deals of each variant).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol

from solitaire_ds.cards import Deck
from solitaire_ds.games.aces_up import AcesUp, AcesUpOptions
from solitaire_ds.games.base import Game, Move
from solitaire_ds.games.idiots_delight import IdiotsDelight, IdiotsDelightOptions

__all__ = ["AcesUpModel", "IdiotsDelightModel", "LoggedModel", "Model", "State", "game_state", "model_for"]

Piles = tuple[tuple[int, ...], ...]
#: Four piles of card indexes (bottom first) and the position of the next card to deal.
State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int]

_MOVES = [[Move("move", (i + 1, j + 1)) for j in range(4)] for i in range(4)]
_DEAL, _END = Move("deal"), Move("end")
_RANK = [i % 13 + 1 for i in range(52)]  # ace = 1 (Card.index is suit * 13 + rank - 1)
_HIGH = [14 if r == 1 else r for r in _RANK]  # aces high
_SUIT = [i // 13 for i in range(52)]


class Model(Protocol):
    """What the search needs to know about a game."""

    best_possible: int

    def children(self, state: State) -> list[tuple[Move, State]]:
        """Return each decision allowed in ``state`` with the state it leads to."""
        ...

    def is_end(self, state: State) -> bool:
        """Return True when ``state`` allows no decision (it has no children)."""
        ...

    def dominant(
        self, state: State, children: list[tuple[Move, State]]
    ) -> list[tuple[Move, State]]:
        """Return the children of ``state`` worth searching: one at least as good as any other."""
        ...

    def value(self, state: State) -> int:
        """Return the value of an end state (one with no children); higher is better."""
        ...

    def key(self, state: State, prune: bool) -> object:
        """Return the visited-set key of ``state``."""
        ...

    def bound(self, state: State) -> int:
        """Return a value no end state reachable from ``state`` can beat."""
        ...


def _sorted_key(state: State) -> object:
    # Pruning 2: with the stock empty, the piles are interchangeable.
    return (tuple(sorted(state[:4])), state[4])


@dataclass
class IdiotsDelightModel:
    """Idiot's Delight as the search sees it; value = minus the cards left.

    A state is always a decision state (some pair or suit move exists) or an end state
    (stock empty, no removal): forced deals are taken inside :meth:`children`.

    >>> model = IdiotsDelightModel(Deck.standard())
    >>> start = model.settle(((), (), (), ()), 0)
    >>> start[:4]
    ((0,), (1,), (2,), (3,))
    """

    deck: Deck
    deal_any_time: bool = False
    kinds: ClassVar[tuple[str, str]] = ("pair", "suit")

    def __post_init__(self) -> None:
        self.cards = [card.index for card in self.deck]
        self.best_possible = 0
        # A card's removers: the other cards of its rank, and the higher cards of its suit.
        self.removers = [sum(1 << d for d in range(52) if d != c and (
            _RANK[d] == _RANK[c] or (_SUIT[d] == _SUIT[c] and _RANK[d] > _RANK[c])))
            for c in range(52)]
        self.stock_masks = _suffix_masks(self.cards)
        # The cards each card can remove: the other cards of its rank, lower of its suit.
        self.removes = [sum(1 << d for d in range(52) if self.removers[d] >> c & 1)
                        for c in range(52)]

    def settle(self, piles: Piles, pos: int) -> State:
        """Take the forced deals: return the next decision or end state."""
        cards, n = self.cards, len(self.cards)
        while not _removal_exists(piles) and pos < n:
            piles = tuple((*p, cards[pos + k]) for k, p in enumerate(piles))
            pos += 4
        return (piles[0], piles[1], piles[2], piles[3], pos)

    def children(self, state: State) -> list[tuple[Move, State]]:
        """Return each pair, suit (and with the option, deal) move and its state."""
        piles, pos = state[:4], state[4]
        out = []
        for i in range(4):
            a = piles[i]
            if not a:
                continue
            ca = a[-1]
            for j in range(i + 1, 4):
                b = piles[j]
                if not b:
                    continue
                cb = b[-1]
                if _RANK[ca] == _RANK[cb]:
                    kind, drop = "pair", (i, j)
                elif _SUIT[ca] == _SUIT[cb]:
                    kind, drop = "suit", ((i, i) if _RANK[ca] < _RANK[cb] else (j, j))
                else:
                    continue
                new = tuple(p[:-1] if k in drop else p for k, p in enumerate(piles))
                out.append((Move(kind, (i + 1, j + 1)), self.settle(new, pos)))
        # Pairs first, as the greedy player: the search's first line is the greedy line,
        # so even a search cut short by a state budget does at least as well as greedy.
        out.sort(key=lambda child: child[0].kind != "pair")
        if self.deal_any_time and out and pos < len(self.cards):
            cards = self.cards
            dealt = tuple((*p, cards[pos + k]) for k, p in enumerate(piles))
            out.append((Move("deal"), self.settle(dealt, pos + 4)))
        return out

    def dominant(
        self, state: State, children: list[tuple[Move, State]]
    ) -> list[tuple[Move, State]]:
        """Return the children worth searching: a safe removal alone, if one exists (pruning 4).

        Only with ``deal_any_time``; a removal is *safe* when no card left outside it
        (on the piles or in the stock) could be removed by a card it discards.
        """
        if not self.deal_any_time:
            return children
        piles = state[:4]
        present = self.stock_masks[state[4]]
        for pile in piles:
            for card in pile:
                present |= 1 << card
        removes = self.removes
        for child in children:
            move = child[0]
            if move.kind == "deal":
                continue
            i, j = move.piles
            a, b = piles[i - 1][-1], piles[j - 1][-1]
            if move.kind == "pair":
                gone = (1 << a) | (1 << b)
                reach = removes[a] | removes[b]
            else:
                low = a if _RANK[a] < _RANK[b] else b
                gone, reach = 1 << low, removes[low]
            if reach & present & ~gone == 0:
                return [child]
        return children

    def is_end(self, state: State) -> bool:
        """Return True when no pair or suit move exists (a settled state: stock empty)."""
        return not _removal_exists(state[:4])

    def value(self, state: State) -> int:
        """Return minus the cards left on the piles (the stock is empty at the end)."""
        return -sum(len(p) for p in state[:4])

    def key(self, state: State, prune: bool) -> object:
        """Return the state itself: pruning 2 could merge nothing here (see the module)."""
        return state

    def bound(self, state: State) -> int:
        """Return minus the cards that can never leave the piles (pruning 3)."""
        return -_stuck_cards(state, self.removers, self.stock_masks).bit_count()


def _suffix_masks(cards: list[int]) -> list[int]:
    """Return, for each position, the bit mask of the cards from there to the end."""
    masks = [0] * (len(cards) + 1)
    for pos in range(len(cards) - 1, -1, -1):
        masks[pos] = masks[pos + 1] | (1 << cards[pos])
    return masks


def _stuck_cards(state: State, removers: list[int], stock_masks: list[int]) -> int:
    """Return the bit mask of the cards that can never leave the piles (pruning 3).

    A card is stuck when every card that could remove it, and is not yet discarded, lies
    beneath it in its own pile; it and every card beneath it then stay to the end.
    """
    pos = state[4]
    present = stock_masks[pos] if 0 <= pos < len(stock_masks) else 0
    for pile in state[:4]:
        for card in pile:
            present |= 1 << card
    stuck = 0
    for pile in state[:4]:
        below = 0
        region = 0
        for card in pile:
            if removers[card] & present & ~below == 0:
                region = below | (1 << card)
            below |= 1 << card
        stuck |= region
    return stuck


def _removal_exists(piles: Piles) -> bool:
    tops = [p[-1] for p in piles if p]
    for i, a in enumerate(tops):
        for b in tops[i + 1:]:
            if _RANK[a] == _RANK[b] or _SUIT[a] == _SUIT[b]:
                return True
    return False


@dataclass
class AcesUpModel:
    """Aces Up as the search sees it; value = the score (cards discarded).

    States are settled: discards are done, and a state either allows a card move (a
    decision state) or is an end state. Position ``-1`` marks a game the player ended.

    >>> model = AcesUpModel(Deck.parse("2C 5C 9D KS " + " ".join(
    ...     c for c in Deck.standard().codes() if c not in ("2C", "5C", "9D", "KS"))))
    >>> model.settle(((), (), (), ()), 0)[:4]
    ((), (4,), (21,), (51,))
    """

    deck: Deck
    aces_only: bool = False
    #: False: never move a card that is alone in its pile (a restricted player, not a rule:
    #: the game allows it, and the full search needs it -- see the module docstring).
    lone_moves: bool = True

    def __post_init__(self) -> None:
        self.cards = [card.index for card in self.deck]
        self.best_possible = len(self.cards) - 4
        # A card's removers: the higher cards of its suit (aces high). An ace has none,
        # but it never counts as stuck: it is never discarded and best_possible keeps it.
        self.removers = [sum(1 << d for d in range(52) if _SUIT[d] == _SUIT[c]
                             and _HIGH[d] > _HIGH[c]) if _RANK[c] != 1 else -1
                         for c in range(52)]
        self.stock_masks = _suffix_masks(self.cards)
        self.aces = sum(1 << c for c in self.cards if _RANK[c] == 1)

        # The four one-card tuples each deal adds, by stock position (built once).
        self.deals = {pos: tuple((c,) for c in self.cards[pos:pos + 4])
                      for pos in range(0, len(self.cards), 4)}
        self.top_ok = [not self.aces_only or _RANK[c] == 1 for c in range(52)]  # may fill a pile

    def settle(self, piles: Piles, pos: int) -> State:
        """Discard, then deal while no card move exists: return the next decision or end."""
        n, deals = len(self.cards), self.deals
        a, b, c, d = _discard(piles)
        while pos < n and not self._movable((a, b, c, d)):
            da, db, dc, dd = deals[pos]
            a, b, c, d = _discard((a + da, b + db, c + dc, d + dd))
            pos += 4
        return (a, b, c, d, pos)

    def _movable(self, piles: Piles) -> bool:
        """Return True when some pile is empty and some top card may fill it."""
        a, b, c, d = piles
        if a and b and c and d:
            return False
        if not self.aces_only:
            return bool(a or b or c or d)
        ok = self.top_ok
        return any(p and ok[p[-1]] for p in piles)

    def children(self, state: State) -> list[tuple[Move, State]]:
        """Return each card move, then deal (or end), with its settled state."""
        piles, pos = state[:4], state[4]
        if pos < 0 or not self._movable(piles):
            return []
        out = []
        empty = [j for j in range(4) if not piles[j]]
        ok = self.top_ok
        for i in range(4):
            p = piles[i]
            if not p or not ok[p[-1]] or (len(p) == 1 and not self.lone_moves):
                continue
            for j in empty:
                new = list(piles)
                new[i], new[j] = p[:-1], p[-1:]
                out.append((_MOVES[i][j], self.settle(tuple(new), pos)))
        if pos < len(self.cards):
            da, db, dc, dd = self.deals[pos]
            a, b, c, d = piles
            out.append((_DEAL, self.settle((a + da, b + db, c + dc, d + dd), pos + 4)))
        else:
            out.append((_END, (piles[0], piles[1], piles[2], piles[3], -1)))
        return out

    def is_end(self, state: State) -> bool:
        """Return True when the player ended the game or no card move exists (stock empty)."""
        pos = state[4]  # a settled state before the last deal always has a card move
        return pos < 0 or (pos >= len(self.cards) and not self._movable(state[:4]))

    def dominant(
        self, state: State, children: list[tuple[Move, State]]
    ) -> list[tuple[Move, State]]:
        """Return the children worth searching: all of them (no dominance is known)."""
        return children

    def value(self, state: State) -> int:
        """Return the score: the cards neither on the piles nor in the stock."""
        return len(self.cards) - sum(len(p) for p in state[:4])

    def key(self, state: State, prune: bool) -> object:
        """Return the state, or its sorted piles once the stock is empty (pruning 2)."""
        if prune and (state[4] < 0 or state[4] >= len(self.cards)):
            return _sorted_key(state)
        return state

    def bound(self, state: State) -> int:
        """Return the best score still possible (pruning 1, and 3 with ``aces_only``)."""
        if not self.aces_only or not self.aces:
            return self.best_possible
        stuck = _stuck_cards(state, self.removers, self.stock_masks)
        # The cards left at the end include the stuck ones and the four aces.
        return len(self.cards) - (stuck | self.aces).bit_count()


_CARD_BIT = [1 << c for c in range(52)] + [0]  # index -1 (an empty pile's "top") gives 0
#: Aces Up: the bit mask of the cards that discard each card (higher, same suit, aces high).
_BEATERS = [sum(1 << d for d in range(52) if _SUIT[d] == _SUIT[c] and _HIGH[d] > _HIGH[c])
            for c in range(52)] + [0]


def _discard(piles: Piles) -> Piles:
    """Aces Up's forced discards on tuple piles: repeat until no two tops share a suit."""
    drops = _DROPS
    while True:
        a, b, c, d = piles
        tops = (a[-1] if a else -1, b[-1] if b else -1, c[-1] if c else -1, d[-1] if d else -1)
        drop = drops.get(tops)
        if drop is None:
            if len(drops) >= _DROPS_LIMIT:  # bound the memory: about 100 MB at the limit
                drops.clear()
            drop = drops[tops] = _drop(tops)
        if not drop:
            return piles
        piles = (a[:-1] if drop & 1 else a, b[:-1] if drop & 2 else b,
                 c[:-1] if drop & 4 else c, d[:-1] if drop & 8 else d)


#: Memo of :func:`_drop`, keyed by the four tops (60,000 entries after 100 deals).
_DROPS: dict[tuple[int, int, int, int], int] = {}
_DROPS_LIMIT = 500_000


def _drop(tops: tuple[int, int, int, int]) -> int:
    """Return the bit mask of the piles whose top is discarded (bit k: pile k + 1)."""
    bit, beaters = _CARD_BIT, _BEATERS
    showing = bit[tops[0]] | bit[tops[1]] | bit[tops[2]] | bit[tops[3]]
    return sum(1 << k for k, top in enumerate(tops) if beaters[top] & showing)


class LoggedModel:
    """A model that answers as ``model`` does and logs what a search asked of it, in order.

    The log holds ``("children", state)`` for each state the search expands,
    ``("dominant", state)`` for each call of :meth:`dominant`, and ``("value", state)`` for
    each end state it scores: enough to count the expansions of a search and to see what it
    knew when it made each (the exercise's checks read it). It stops growing at
    :attr:`LIMIT` entries, and ``dropped`` counts the ones it did not keep.

    >>> model = LoggedModel(IdiotsDelightModel(Deck.standard()))
    >>> start = model.settle(((), (), (), ()), 0)
    >>> _ = model.children(start)
    >>> [kind for kind, _ in model.log], model.dropped
    (['children'], 0)
    """

    #: The most entries kept (a log is read back whole: keep it a few hundred kilobytes).
    LIMIT: ClassVar[int] = 20_000

    def __init__(self, model: IdiotsDelightModel | AcesUpModel) -> None:
        self.model = model
        self.best_possible = model.best_possible
        self.log: list[tuple[str, State]] = []
        self.dropped = 0

    def _note(self, kind: str, state: State) -> None:
        if len(self.log) < self.LIMIT:
            self.log.append((kind, state))
        else:
            self.dropped += 1

    def settle(self, piles: Piles, pos: int) -> State:
        return self.model.settle(piles, pos)

    def children(self, state: State) -> list[tuple[Move, State]]:
        self._note("children", state)
        return self.model.children(state)

    def dominant(self, state: State, children: list[tuple[Move, State]]) -> list[tuple[Move, State]]:
        self._note("dominant", state)
        return self.model.dominant(state, children)

    def is_end(self, state: State) -> bool:
        return self.model.is_end(state)

    def value(self, state: State) -> int:
        self._note("value", state)
        return self.model.value(state)

    def key(self, state: State, prune: bool) -> object:
        return self.model.key(state, prune)

    def bound(self, state: State) -> int:
        return self.model.bound(state)


def game_state(game: Game) -> State:
    """Return the search state of ``game`` now (its piles and the stock position).

    >>> game = IdiotsDelight(Deck.standard())
    >>> game.advance()
    >>> game_state(game)[4]
    4
    """
    piles = []
    for pile in game.piles:  # type: ignore[attr-defined]
        cards = [card.index for card in pile]
        cards.reverse()  # a Stack iterates from the top down
        piles.append(tuple(cards))
    pos = len(game.deck) - len(game.stock)  # type: ignore[attr-defined]
    return (piles[0], piles[1], piles[2], piles[3], pos)


def model_for(game: Game) -> IdiotsDelightModel | AcesUpModel:
    """Return the search model of ``game``'s kind, deck and options."""
    if isinstance(game, IdiotsDelight):
        assert isinstance(game.options, IdiotsDelightOptions)
        return IdiotsDelightModel(game.deck, game.options.deal_any_time)
    if isinstance(game, AcesUp):
        assert isinstance(game.options, AcesUpOptions)
        return AcesUpModel(game.deck, game.options.aces_only)
    raise TypeError(f"the solver plays Idiot's Delight and Aces Up, not {game.title}")
