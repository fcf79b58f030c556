"""The solver: an exhaustive depth-first search over the states of a game with choices.

Invariant of the search (:func:`search`): every state on the frontier Stack has been
reached by the moves in ``path[:depth]`` from the start, its key is in ``visited``, and
``best`` is the best value of any end state generated so far (or of the incumbent line
the caller gave), reached by ``best_path``. End states are scored when generated and
never enter the frontier or the visited set (scoring one is O(1)).

Vocabulary:

* a *state* is a tuple ``(pile 1, pile 2, pile 3, pile 4, position)``: each pile a tuple
  of card indexes (bottom first), the position the index of the next card to deal from
  the deck (``-1`` in Aces Up once the player ended the game);
* a :class:`Model` says, for one game, which decisions a state allows and the state each
  leads to (forced steps -- deals, discards -- are folded into the move), and the *value*
  of an end state (Idiot's Delight: minus the cards left; Aces Up: the score);
* a *line* is the list of :class:`~solitaire_ds.games.base.Move` from the start to the best
  end state. Played through the game it gives an ordinary record that ``replay`` checks.

Every state reachable from the start is visited once (the visited set), so the best value
found is the best reachable: the value of an end state does not depend on the way to it.

Pruning and the game models live in :mod:`solitaire_ds.solver_models`.

What the search guarantees: under the default rules of Idiot's Delight and in both Aces
Up variants it always runs to the end, so the line found is optimal (a win whenever one
exists; Aces Up's highest reachable score). With ``deal_any_time`` the solver player
stops at a state budget (see :class:`SolverPlayer`): its line is at least the default
rules' optimum, and optimal only when ``Solution.complete`` (``SolverPlayer.proved``)
says so. Measured on 200 deals (seed 0): 54 proved, all of them wins (a win ends the
search at once); on every lost deal the budget stopped the search, so "no win exists"
is not proved for any deal with ``deal_any_time``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solitaire_ds.cards import Deck  # noqa: F401 (the doctests deal a Deck)
from solitaire_ds.games.aces_up import AcesUp
from solitaire_ds.games.base import Game, Move
from solitaire_ds.games.idiots_delight import IdiotsDelight  # noqa: F401 (the doctests play it)
from solitaire_ds.solver_models import (
    AcesUpModel,
    IdiotsDelightModel,
    Model,
    State,
    game_state,
    model_for,
)
from solitaire_ds.structures.array_stack import ArrayStack

__all__ = [
    "DEAL_ANY_TIME_BUDGET",
    "AcesUpModel",
    "IdiotsDelightModel",
    "Model",
    "Solution",
    "SolverPlayer",
    "State",
    "game_state",
    "model_for",
    "search",
    "solve",
    "solver_no_lone_player",
    "solver_player",
]

@dataclass(frozen=True)
class Solution:
    """The best line found: its value, the moves, and how many states were searched."""

    value: int
    moves: list[Move]
    states: int
    complete: bool = True


def search(
    model: Model,
    start: State,
    *,
    prune: bool = True,
    max_states: int | None = None,
    incumbent: Solution | None = None,
) -> Solution:
    """Search every state reachable from ``start`` depth first; return the best line.

    With ``max_states``, the search checks before each pop: once more than ``max_states``
    states are known (``len(visited) > max_states``) *and* it has a line (an end state
    scored, or the ``incumbent``), it stops and returns the best line found so far
    (``Solution.complete`` is then False): a lower bound on perfect play. So it never stops before it has a line, and it
    stops at the first pop after the budget is passed, not one state earlier or one
    expansion later.
    With ``incumbent`` (a line from ``start`` found some other way), the search starts
    from its value and line: it returns a better line or that one, never a worse one. The
    incumbent counts as a line already found: with ``max_states`` too, the search may stop
    at the budget before it has scored an end state of its own (and return the incumbent).

    With ``prune`` (see :mod:`solitaire_ds.solver_models`), three things change, and
    nothing else: a popped state whose ``model.bound(state)`` is no better than the best
    value found so far (``bound <= best``) is skipped without being expanded; the children
    of an expanded state are cut down to ``model.dominant(state, children)`` before they are
    scored or pushed; and the search stops as soon as it finds a line worth
    ``model.best_possible``. Without ``prune`` every known state that is not an end is
    expanded (asked ``model.children(state)``) exactly once.

    The frontier is the package's own :class:`~solitaire_ds.structures.ArrayStack` of
    ``(state, depth, move)``; ``path`` holds the moves to the state being expanded. A
    state's key goes into ``visited`` when the state is pushed, so no state is pushed
    twice. An end state is scored as soon as it is generated, without entering the
    frontier; the best line is replaced only by a strictly better one. The children of a
    state may be pushed in any order: every order finds the best value (among lines of
    equal value, which one is returned depends on the order).

    Runtime complexity: O(S * b) for S reachable states (distinct keys) with b moves each.

    >>> model = IdiotsDelightModel(Deck.standard())
    >>> search(model, model.settle(((), (), (), ()), 0)).value <= 0
    True
    """
    # BEGIN SOLUTION: DFS on an ArrayStack of (state, depth, move) with a visited set of keys; keep the best end.
    best: int | None = None
    best_path: list[Move] = []
    if incumbent is not None:
        best, best_path = incumbent.value, list(incumbent.moves)
    best_possible = model.best_possible
    if model.is_end(start):
        value = model.value(start)
        if best is None or value > best:
            best, best_path = value, []
        return Solution(best, best_path, 1, True)
    frontier: ArrayStack[tuple[State, int, Move | None]] = ArrayStack([(start, 0, None)])
    visited = {model.key(start, prune)}
    path: list[Move] = []
    complete = True
    done = prune and best is not None and best >= best_possible
    while frontier and not done:
        if max_states is not None and len(visited) > max_states and best is not None:
            complete = False
            break
        state, depth, move = frontier.pop()
        del path[max(depth - 1, 0):]
        if move is not None:
            path.append(move)
        if prune and best is not None and model.bound(state) <= best:
            continue
        children = model.children(state)
        if prune:
            children = model.dominant(state, children)
        inner = []
        for child_move, child in children:
            if not model.is_end(child):
                inner.append((child_move, child))
                continue
            value = model.value(child)
            if best is None or value > best:
                best, best_path = value, [*path, child_move]
                if prune and best >= best_possible:
                    done = True
                    break
        for child_move, child in reversed(inner):  # pushed last to first: the first move is searched first
            key = model.key(child, prune)
            if key not in visited:
                visited.add(key)
                frontier.push((child, depth + 1, child_move))
    assert best is not None  # every line ends, so some end state was scored
    return Solution(best, best_path, len(visited), complete)
    # END SOLUTION


#: The state budget of the solver player with ``--deal-any-time`` (see :func:`solver_player`).
DEAL_ANY_TIME_BUDGET = 20_000


def solve(game: Game, *, prune: bool = True, max_states: int | None = None) -> Solution:
    """Return the best line from ``game``'s present state, after the forced steps it awaits.

    >>> game = AcesUp(Deck.shuffled(1))
    >>> game.advance()
    >>> 0 <= solve(game).value <= 48
    True
    """
    model, state = model_for(game), game_state(game)
    # The game may be between two forced steps: take them, as the game itself will.
    start = model.settle(state[:4], state[4])
    return search(model, start, prune=prune, max_states=max_states)


class SolverPlayer:
    """A choose function that plays the solver's best line, and says whether it is proved.

    The first call on a game solves it from there; later calls play the line's next move
    as long as the game is where the line expects it, and solve again otherwise.

    Idiot's Delight with ``deal_any_time`` lets the player deal over any state, and its
    state space is too large to search in full (a single deal can exceed 10^6 states).
    There the player first solves the deal under the default rules (a small search that
    always finishes); every default-rules line is legal with ``deal_any_time`` too, so
    that optimum seeds the deal-any-time search as its incumbent. The deal-any-time
    search then stops after :data:`DEAL_ANY_TIME_BUDGET` states. The line played is
    therefore never worse than the default-rules optimum (nor than the greedy line),
    but when the budget stops the search it is *not proved* optimal: :attr:`proved`
    says False, and a win may exist that was not found.

    Attributes (for the caller that wants to report them):
        proved: every search this player ran finished (the line is optimal).
        states: the states searched, over all its searches.

    >>> from solitaire_ds.records import play_record
    >>> player = SolverPlayer(IdiotsDelight)
    >>> record = play_record(IdiotsDelight(Deck.shuffled(6)), player, "solver")
    >>> record.result["won"], player.proved
    (True, True)
    """

    def __init__(self, game_class: type[Game], lone_moves: bool = True) -> None:
        if not game_class.has_decisions:
            raise TypeError(f"{game_class.title} has no decisions to solve")
        self.lone_moves = lone_moves  # Aces Up: False never moves a card alone in its pile
        self.plan: list[tuple[State, Move]] = []
        self.game: Game | None = None
        self.step = 0
        self.proved = True
        self.states = 0

    def __call__(self, game: Game) -> Move:
        """Return the next move of the best line from ``game``'s present state."""
        state = game_state(game)
        if self.game is not game or self.step >= len(self.plan) or self.plan[self.step][0] != state:
            model = model_for(game)
            if isinstance(model, AcesUpModel):
                model.lone_moves = self.lone_moves
            solution = self.solve(model, state)
            self.proved = self.proved and solution.complete
            self.states += solution.states
            self.plan.clear()
            current = state
            for move in solution.moves:
                self.plan.append((current, move))
                current = dict(model.children(current))[move]
            self.game, self.step = game, 0
        self.step += 1
        return self.plan[self.step - 1][1]

    @staticmethod
    def solve(model: IdiotsDelightModel | AcesUpModel, state: State) -> Solution:
        """Return the best line from ``state``; with deal-any-time, seeded and budgeted."""
        if not (isinstance(model, IdiotsDelightModel) and model.deal_any_time):
            return search(model, state)
        seed = search(IdiotsDelightModel(model.deck), state)  # default rules: always finishes
        return search(model, state, max_states=DEAL_ANY_TIME_BUDGET, incumbent=seed)


def solver_player(game_class: type[Game]) -> Callable[[Game], Move]:
    """Return a :class:`SolverPlayer`: a choose function that plays the solver's best line."""
    return SolverPlayer(game_class)


def solver_no_lone_player(game_class: type[Game]) -> Callable[[Game], Move]:
    """Return the solver of Aces Up that never moves a card alone in its pile.

    The rules allow such a move, and the full search needs it (which pile holds a card
    decides which card of the next deal covers it); a published solver refuses it, and
    this player measures what that costs. Raise TypeError for another game.
    """
    if not issubclass(game_class, AcesUp):
        raise TypeError(f"the solver-no-lone player plays Aces Up, not {game_class.title}")
    return SolverPlayer(game_class, lone_moves=False)
