"""Real boards at the moments each rule fires: the game pages' "The rules on the table".

For each rule of a game, :func:`rule_boards` plays real seeded deals (the package's own game
and player) until the first step whose events show that rule, and draws the table just
before and just after that step with :func:`solitaire_ds.boards.board_svg`, the cards the
rule moved outlined. The caption quotes the rule text and names the seed and the step, so a
reader can watch the same moment with ``solitaire-ds play GAME --seed N``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from docgen.common import DirectiveError, _esc, _game_class

Event = dict[str, Any]

def _only(kind: str, more: Callable[[Event], bool] = lambda e: True) -> Callable[[list[Event]], bool]:
    """A step that shows ``kind`` and nothing else, so its two boards show that rule alone."""
    return lambda events: {e["type"] for e in events} == {kind} and all(more(e) for e in events)


def _has(kind: str, more: Callable[[Event], bool] = lambda e: True) -> Callable[[list[Event]], bool]:
    """A step with at least one ``kind`` event (other events may come with it)."""
    return lambda events: any(e["type"] == kind and more(e) for e in events)


#: For each game: (what the moment shows, the rule text it quotes, which steps show it).
MOMENTS: dict[str, list[tuple[str, str, Callable[[list[Event]], bool]]]] = {
    "perpetual-motion": [
        ("A deal", "Four cards are dealt, one in each pile.", _only("deal")),
        ("A duplicate moves left", "If there are cards of equal rank, the duplicates are moved to the "
         "leftmost pile with an equal card.", _has("move")),
        ("Four of a rank discarded", "In case the four cards dealt from the stock are all of the same "
         "rank, they are immediately discarded.", _has("discard")),
        ("The piles gathered into the stock", "After this first round, the piles are picked up, starting "
         "from the rightmost pile, and put over one another either faced down or face up without "
         "disturbing the order of the cards in each pile.", _has("gather")),
    ],
    "idiots-delight": [
        ("A pair discarded", "If there are two cards of the same rank showing, discard both of them",
         _only("pair")),
        ("The lower of a suit discarded", "If there are two cards of the same suit showing, discard the "
         "one with the lower rank", _only("suit")),
        ("A deal", "If neither of those conditions exist, deal four new cards, one on top of each stack.",
         _only("deal", lambda e: e.get("deal", 0) > 1)),
    ],
    "aces-up": [
        ("A lower card of a suit discarded", "If there are two or more cards of the same suit, discard all "
         "but the highest-ranked card of that suit. Aces rank high.",
         lambda events: _has("move")(events) and _has("discard")(events)),
        ("A card moved to an empty pile", "Whenever there are any empty spaces, you may choose the top card "
         "of another pile to be put into the empty space.", _has("move")),
        ("A deal", "When there are no more cards to move or remove, deal out the next four cards from the "
         "deck face-up onto each pile.", _only("deal", lambda e: e.get("deal", 0) > 1)),
    ],
    "klondike": [
        ("A card turned from the stock", "From the rest of the deck, called the stock, cards are turned up "
         "one by one and placed face up on a waste pile.", _only("turn")),
        ("A card to a foundation", "Move a card from the top of a playing pile or from the top of the "
         "waste pile to an output pile.", _has("move", lambda e: e.get("rule") == 1)),
        ("The waste plays onto a pile", "Move a card from the top of the waste pile to the leftmost playing "
         "pile to which it can be moved.", _has("move", lambda e: e.get("rule") == 2)),
        ("A run moves as a unit", "Find the leftmost playing pile which can be moved and place it on top of "
         "the leftmost playing pile to which it can be moved.",
         _has("move", lambda e: e.get("rule") == 3 and len(e["cards"]) > 1)),
        ("A face-down card turned up", "Whenever a face-down card is uncovered, it is turned face up.",
         lambda events: _has("turn_up")(events) and _has("move", lambda e: e.get("rule") == 3
                                                          and len(e["cards"]) == 1)(events)),
    ],
}


#: The moments whose outline shows only some of the step's events (the rest came with it).
FOCUS: dict[tuple[str, str], set[str]] = {
    ("aces-up", "A lower card of a suit discarded"): {"discard"},
    ("perpetual-motion", "A duplicate moves left"): {"move"},
    ("perpetual-motion", "Four of a rank discarded"): {"discard"},
    ("klondike", "A card to a foundation"): {"move"},
}


def find_moment(game: str, shows: Callable[[list[Event]], bool], seeds: int = 40) -> tuple[int, int]:
    """Return ``(seed, step)`` of the first step whose events ``shows`` accepts.

    Deals are tried in seed order, 1 to ``seeds``; within a deal, steps in order (the greedy
    player decides where the game asks). Raise :class:`DirectiveError` when no deal shows it.
    """
    for seed in range(1, seeds + 1):
        for step, events in enumerate(_play(game, seed).steps(_chooser(game)), start=1):
            if shows(events):
                return seed, step
    raise DirectiveError(f"{game}: no deal among seeds 1-{seeds} shows this rule")


def _play(game: str, seed: int) -> Any:
    from solitaire_ds.cards import Deck

    return _game_class(game)(Deck.shuffled(seed))


def _chooser(game: str) -> Any:
    from solitaire_ds.players import make_player

    cls = _game_class(game)
    return make_player("greedy", cls) if cls.has_decisions else None


def _on_table(state: Any) -> set[Any]:
    """Every card a board shows face up or in a pile (not the stock, not the discards)."""
    if hasattr(state, "face_up"):
        held = [*state.face_up, state.waste, *state.foundations.values()]
    else:
        held = list(state.piles)
    return {card for structure in held for card in structure}


def moment_boards(game: str, seed: int, step: int, kinds: set[str] | None = None) -> tuple[str, str, str]:
    """Return the boards just before and just after ``step`` of deal ``seed``, and the cards it moved.

    The cards named by the step's events of ``kinds`` (all its events, if None) are outlined
    on both boards: on the first, those about to move or go; on the second, where they went.
    """
    from solitaire_ds.boards import board_svg, moved_cards

    state = _play(game, seed)
    steps = state.steps(_chooser(game))
    for _ in range(step - 1):
        next(steps)
    frozen = copy.deepcopy(state)  # the table just before the step, for the first picture
    moved = moved_cards(next(steps), kinds)
    title = _game_class(game).title
    before = board_svg(frozen, title=f"{title}, seed {seed}, before step {step}", highlight=moved)
    after = board_svg(state, title=f"{title}, seed {seed}, after step {step}", highlight=moved)
    shown = _on_table(state)
    kept = [card.name for card in moved if card in shown]
    gone = [card.name for card in moved if card not in shown]
    caption = "After it" + (f"; outlined: {', '.join(kept)}" if kept else "") + (
        f"; gone from the table: {', '.join(gone)}" if gone else "") + "."
    return before, after, caption


def rule_boards(game: str) -> str:
    """For each rule of ``game``: the table before and after the first step where it fires."""
    if game not in MOMENTS:
        raise DirectiveError(f"rule-boards: no moments are defined for {game!r}")
    out = []
    for what, rule, shows in MOMENTS[game]:
        seed, step = find_moment(game, shows)
        before, after, caption = moment_boards(game, seed, step, FOCUS.get((game, what)))
        out += [f"### {what}", "",
                f"> {rule}", "",
                '<div class="ds-boards" data-search-exclude markdown="0">',
                f'<figure class="ds-board">{before}<figcaption>Before step {step} of seed {seed}.'
                "</figcaption></figure>",
                f'<figure class="ds-board">{after}<figcaption>{_esc(caption)}</figcaption></figure>',
                "</div>", "",
                f"`solitaire-ds play {game} --seed {seed}` plays this deal; this is its step {step}.",
                ""]
    return "\n".join(out)
