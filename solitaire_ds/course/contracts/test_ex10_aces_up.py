"""Exercise 10: Aces Up's discards and moves (run with ``--impl`` to grade a folder).

The expectations are trusted: small decks worked out by hand, and the scores of a fixed
strategy on Deck.shuffled(0) … Deck.shuffled(19) and on decks drawn for the file under test
(:mod:`.drawn`), which the package's own game plays here. The game is built from the
package's reference structures.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.course.contracts.drawn import Draw
from solitaire_ds.course.contracts.plain import (
    Played,
    events_differ,
    first_difference,
    first_step_apart,
    in_words,
    names_card,
    names_pile,
    play_to_the_end,
)
from solitaire_ds.course.grader.proxy import Submission
from solitaire_ds.games.base import IllegalMove, Move

A_TO_3 = [Rank.ACE, Rank.TWO, Rank.THREE]
TWELVE = Deck.parse("2C 3C AD 2D AC 3D AH 2H 3H AS 2S 3S", ranks=A_TO_3)

#: Scores of the package's greedy player on Deck.shuffled(0) … Deck.shuffled(19).
SHUFFLED_SCORES = [41, 29, 28, 33, 40, 28, 31, 37, 33, 34, 36, 35, 37, 40, 43, 37, 41, 41, 36, 32]
#: Decks drawn for the file under test, played beside the fixed shuffles (one: each step of a
#: game is a request to the worker, and one deck nobody knows is enough to need the rules).
DRAWN = 1


@pytest.fixture(scope="module")
def module(impl: str) -> Any:
    """The aces_up module of the implementation under test."""
    from solitaire_ds.course.catalog import load_module

    return load_module(impl, "games.aces_up")


@pytest.fixture(scope="module")
def drawn(impl: Submission, pytestconfig: pytest.Config) -> Draw:
    """The decks drawn for the file under test."""
    return Draw.for_file(impl, "games/aces_up.py", pytestconfig)


def begin(module: Any, aces_only: bool = False) -> tuple[Any, Played]:
    """Deal the first four cards of TWELVE; return the game and its steps so far."""
    played = Played(f"Aces Up on the deck {TWELVE}" + (" with aces_only" if aces_only else ""))
    with played.step("AcesUp(deck)"):
        game = module.AcesUp(TWELVE, module.AcesUpOptions(aces_only=aces_only))
    with played.step("advance()"):
        game.advance()
    return game, played


def test_lower_cards_of_a_showing_suit_are_discarded_at_once(module: Any) -> None:
    game, _ = begin(module)
    expected = [{"type": "discard", "cards": ["2C", "2D"], "piles": [1, 4]}]
    got = game.events[1:]
    assert got == expected, (
        f"dealing 2♣ 3♣ A♦ 2♦ (aces high) should discard 2♣ and 2♦ in one event {expected[0]}; "
        f"{events_differ(got, expected)}")


def test_discards_repeat_until_no_two_tops_share_a_suit(module: Any) -> None:
    game, played = begin(module)
    for _ in range(2):
        with played.step("play(deal)"):
            game.play(Move("deal"))
    discards = [e["cards"] for e in game.events if e["type"] == "discard"]
    assert discards == [["2C", "2D"], ["2H"], ["2S", "3S"], ["3H"]], (
        f"after the third deal 2♠ and 3♠ go (under A♠), which shows 3♥ under A♥: it goes "
        f"next; the discards were {discards}")


def test_an_empty_pile_may_take_any_top_card_or_with_aces_only_an_ace(module: Any) -> None:
    game, played = begin(module)
    with played.step("card_moves()"):
        moves = [str(m) for m in game.card_moves()]
    # in any order (card_moves' docstring): the greedy player and the solver do not depend on it
    assert sorted(moves) == ["move 2 1", "move 2 4", "move 3 1", "move 3 4"], (
        f"piles 1 and 4 are empty: piles 2 and 3 may fill them (move 2 1, move 2 4, move 3 1, move 3 4, "
        f"in any order); card_moves() gave {moves}")
    game, played = begin(module, aces_only=True)
    with played.step("card_moves()"):
        moves = [str(m) for m in game.card_moves()]
    assert sorted(moves) == ["move 3 1", "move 3 4"], (
        f"with aces_only only the A♦ (pile 3) may fill an empty pile (move 3 1, move 3 4, in any order); "
        f"card_moves() gave {moves}")


def test_a_move_then_its_discards(module: Any) -> None:
    game, played = begin(module)
    for move in (Move("move", (3, 1)), Move("deal"), Move("move", (2, 4))):
        with played.step(f"play({move})"):
            game.play(move)
    expected: list[dict[str, Any]] = [{"type": "move", "card": "3D", "from": 2, "to": 4},
                {"type": "discard", "cards": ["3C"], "piles": [2]}]
    got = game.events[-2:]
    assert got == expected, (
        f"moving 3♦ from pile 2 shows 3♣, lower than the A♣ showing: it is discarded, so the "
        f"last two events should be {expected}; {events_differ(got, expected)}")


#: Refused moves after dealing 2♣ 3♣ A♦ 2♦ (2♣ and 2♦ are discarded): the move, why it is
#: refused, and the pile or card its message must name.
_ILLEGAL = [
    (Move("move", (1, 4)), "pile 1 is empty", "pile 1"),
    (Move("move", (2, 3)), "pile 3 is not empty", "pile 3"),
    (Move("move", (3, 3)), "pile 3 cannot move onto itself", "pile 3"),
]


@pytest.mark.parametrize("aces_only", [False, True], ids=["any-card", "aces-only"])
@pytest.mark.parametrize(
    ("move", "why", "named"),
    [*_ILLEGAL, (Move("move", (2, 1)), "3♣ is not an ace: only an ace may fill an empty pile", "3C")],
    ids=["from-empty", "onto-a-card", "onto-itself", "not-an-ace"],
)
def test_an_illegal_move_is_refused_and_changes_nothing(
        module: Any, move: Move, why: str, named: str, aces_only: bool) -> None:
    game, played = begin(module, aces_only)
    if named == "3C" and not aces_only:
        # without aces_only any top card may fill an empty pile: the same move is legal
        with played.step(f"play({move}), which is legal without aces_only,"):
            game.play(move)
        assert game.events[-1] == {"type": "move", "card": "3C", "from": 2, "to": 1}, (
            f"without aces_only, {move} moves 3♣ to the empty pile 1; the last event was "
            f"{game.events[-1]}")
        return
    with played.step("board()", record=False):
        before = (game.board(), game.events)
    with played.step(f"play({move}), which should raise IllegalMove ({why}),"):
        try:
            game.play(move)
        except IllegalMove as refused:
            info = refused
        else:
            pytest.fail(f"after dealing 2♣ 3♣ A♦ 2♦{' with aces_only' if aces_only else ''}, "
                        f"play({move}) should raise IllegalMove ({why}), but it was played")
    with played.step("board()", record=False):
        after = (game.board(), game.events)
    assert after == before, f"a refused {move} must change nothing (no card moved, no event recorded)"
    said = str(info)
    if named.startswith("pile "):
        ok, what = names_pile(said, int(named.split()[1])), named
    else:
        ok, what = names_card(said, named), "the card 3♣"
    assert ok, f"{move} is refused ({why}), and the message should name {what}; it reads {said!r}"


@cache
def rules(deck: Deck) -> tuple[int, list[dict[str, Any]]]:
    """Return the score of the package's own game on ``deck``, played by the greedy player, and its events."""
    from solitaire_ds.games.aces_up import AcesUp
    from solitaire_ds.players import greedy_choice

    game = AcesUp(deck)
    return int(game.run(greedy_choice)["score"]), game.events


def greedy_game(module: Any, deck: Deck, name: str) -> tuple[int, list[Any]]:
    """Play ``deck`` (called ``name``) with the greedy player; return the score and the events."""
    from solitaire_ds.players import greedy_choice

    played = Played(f"{name} played by the greedy player")
    with played.step("AcesUp(deck)"):
        game = module.AcesUp(deck)
    score = play_to_the_end(game, played, greedy_choice, lambda result: result["score"])
    with played.step("events", record=False):
        return score, list(game.events)


def said(event: Any) -> str:
    """Return an event in a player's words (the package's own description), or as it is."""
    from solitaire_ds.games.aces_up import AcesUp

    return in_words(AcesUp(TWELVE), event)


def test_fixed_shuffles_are_played_event_for_event_as_the_rules_say(module: Any, drawn: Draw) -> None:
    deals = [(f"Deck.shuffled({seed})", Deck.shuffled(seed), expected, "")
             for seed, expected in enumerate(SHUFFLED_SCORES)]
    deals += [(str(d), d.deck, rules(d.deck)[0], " " + d.rules_game("aces-up", "--player greedy", "--record"))
              for d in drawn.decks("shuffled", DRAWN)]
    for name, deck, expected, shown in deals:
        score, events = greedy_game(module, deck, name)
        trusted = rules(deck)[1]
        differ = first_difference(events, trusted, said)
        at = first_step_apart(events, trusted)
        assert not differ, (
            f"{name} played by the greedy player: {differ}; "
            f"{events_differ(events[at:at + 1], trusted[at:at + 1], first=at)}.{shown}")
        assert score == expected, (
            f"{name} played by the greedy player should score {expected}, not {score}.{shown}")
