"""Exercise 10: Aces Up's discards and moves (run with ``--impl`` to grade a folder).

The expectations are trusted: small decks worked out by hand, and the scores of a fixed
strategy on Deck.shuffled(0) … Deck.shuffled(19). The game is built from the package's
reference structures.
"""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.games.base import IllegalMove, Move

A_TO_3 = [Rank.ACE, Rank.TWO, Rank.THREE]
TWELVE = Deck.parse("2C 3C AD 2D AC 3D AH 2H 3H AS 2S 3S", ranks=A_TO_3)

#: Scores of the package's greedy player on Deck.shuffled(0) … Deck.shuffled(19).
SHUFFLED_SCORES = [41, 29, 28, 33, 40, 28, 31, 37, 33, 34, 36, 35, 37, 40, 43, 37, 41, 41, 36, 32]


@pytest.fixture(scope="module")
def module(impl: str) -> Any:
    """The aces_up module of the implementation under test."""
    from solitaire_ds.course import load_module

    return load_module(impl, "games.aces_up")


def test_lower_cards_of_a_showing_suit_are_discarded_at_once(module: Any) -> None:
    game = module.AcesUp(TWELVE)
    game.advance()
    expected = {"type": "discard", "cards": ["2C", "2D"], "piles": [1, 4]}
    assert game.events[1:] == [expected], (
        f"dealing 2♣ 3♣ A♦ 2♦ (aces high) should discard 2♣ and 2♦ in one event {expected}; "
        f"the events were {game.events[1:]}")


def test_discards_repeat_until_no_two_tops_share_a_suit(module: Any) -> None:
    game = module.AcesUp(TWELVE)
    game.advance()
    game.play(Move("deal"))
    game.play(Move("deal"))
    discards = [e["cards"] for e in game.events if e["type"] == "discard"]
    assert discards == [["2C", "2D"], ["2H"], ["2S", "3S"], ["3H"]], (
        f"after the third deal 2♠ and 3♠ go (under A♠), which shows 3♥ under A♥: it goes "
        f"next; the discards were {discards}")


def test_an_empty_pile_may_take_any_top_card_or_with_aces_only_an_ace(module: Any) -> None:
    game = module.AcesUp(TWELVE)
    game.advance()
    moves = [str(m) for m in game.card_moves()]
    assert moves == ["move 2 1", "move 2 4", "move 3 1", "move 3 4"], (
        f"piles 1 and 4 are empty: piles 2 and 3 may fill them; card_moves() gave {moves}")
    game = module.AcesUp(TWELVE, module.AcesUpOptions(aces_only=True))
    game.advance()
    moves = [str(m) for m in game.card_moves()]
    assert moves == ["move 3 1", "move 3 4"], (
        f"with aces_only only the A♦ (pile 3) may fill an empty pile; card_moves() gave {moves}")


def test_a_move_then_its_discards(module: Any) -> None:
    game = module.AcesUp(TWELVE)
    game.advance()
    game.play(Move("move", (3, 1)))
    game.play(Move("deal"))
    game.play(Move("move", (2, 4)))
    assert game.events[-2:] == [{"type": "move", "card": "3D", "from": 2, "to": 4},
                                {"type": "discard", "cards": ["3C"], "piles": [2]}], (
        f"moving 3♦ from pile 2 shows 3♣, lower than the A♣ showing: it is discarded; "
        f"the last events were {game.events[-2:]}")


@pytest.mark.parametrize(("move", "reason"), [
    (Move("move", (1, 4)), "pile 1 is empty"),
    (Move("move", (2, 3)), "pile 3 is not empty (it shows A♦)"),
])
def test_an_illegal_move_is_refused_and_changes_nothing(
        module: Any, move: Move, reason: str) -> None:
    game = module.AcesUp(TWELVE)
    game.advance()
    before = (game.board(), len(game.events))
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert str(info.value) == reason, f"{move} should be refused with {reason!r}, not {info.value!r}"
    assert (game.board(), len(game.events)) == before, f"a refused {move} must change nothing"


def test_fixed_shuffles_score_as_trusted(module: Any) -> None:
    from solitaire_ds.players import greedy_choice

    for seed, expected in enumerate(SHUFFLED_SCORES):
        game = module.AcesUp(Deck.shuffled(seed))
        while not game.is_over():
            if game.needs_decision():
                game.play(greedy_choice(game))
            else:
                game.advance()
        score = game.result()["score"]
        assert score == expected, (
            f"Deck.shuffled({seed}) played by the greedy player should score {expected}, "
            f"not {score}")
