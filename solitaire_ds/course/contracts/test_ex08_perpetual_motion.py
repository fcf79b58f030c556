"""Exercise 8: Perpetual Motion's deal, match, gather and cycle check (run with ``--impl``).

The expectations are trusted: small deals worked out by hand (see tests/test_perpetual_motion.py
and the docs' Perpetual Motion page) and the package's own games on fixed shuffles. The game
under test runs on the package's reference structures, so only its rules are graded here.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.pinned import EIGHT_CARD_DECK, FIRST_GATHER, SHUFFLED_ENDINGS
from solitaire_ds.course.contracts.plain import Played, doing
from solitaire_ds.course.grader.proxy import drive

READINGS = list(FIRST_GATHER)


@pytest.fixture(scope="module")
def game_module(impl: str) -> ModuleType:
    """The perpetual_motion module of the implementation under test."""
    return load_module(impl, "games.perpetual_motion")


def play(module: ModuleType, deck: Deck, gather: str, limit: int = 20_000, name: str = "") -> Any:
    """Play to the end, stopping a game that runs away (a missing cycle check)."""
    played = Played(f"Perpetual Motion on {name or f'the deck {deck}'} with gather={gather}")
    with played.step("PerpetualMotion(deck, options)"):
        game = module.PerpetualMotion(deck, module.PerpetualMotionOptions(gather=gather))
    with played.step("advance() until is_over()"):
        steps = drive(game, "advance", "is_over", limit)
    if steps < limit:
        return game
    pytest.fail(f"the game with gather={gather} did not end in {limit} steps: is the cycle check missing?")


def test_duplicates_move_to_the_leftmost_pile_with_an_equal_card(game_module: ModuleType) -> None:
    deck = Deck.parse("AC 2C 2D AD 2H AH AS 2S", ranks=[Rank.ACE, Rank.TWO])
    with doing(f"the first advance() (deal) of Perpetual Motion on the deck {deck}"):
        game = game_module.PerpetualMotion(deck)
        game.advance()
    moves = [(e["card"], e["from"], e["to"]) for e in game.events if e["type"] == "move"]
    assert moves == [("2D", 3, 2), ("AD", 4, 1)], (
        f"after dealing AC 2C 2D AD, 2D should move from pile 3 to pile 2 and then AD from pile 4 "
        f"to pile 1; the moves were {moves}")


def test_four_of_a_kind_dealt_together_is_discarded(game_module: ModuleType) -> None:
    deck = Deck.parse(" ".join(f"{r}C {r}D {r}H {r}S" for r in "A23456789TJQK"))
    game = play(game_module, deck, "right-face-down", name="a deck dealt in fours of a kind")
    with doing("result()"):
        result = game.result()
    assert result["won"] and result["deals"] == 13 and result["rounds"] == 1, (
        f"a deck dealt in fours of a kind is won in 1 round of 13 deals; got {result}")


@pytest.mark.parametrize("gather", READINGS)
def test_each_gather_reading_builds_its_next_stock(game_module: ModuleType, gather: str) -> None:
    deck = Deck.parse(EIGHT_CARD_DECK, ranks=[Rank.ACE, Rank.TWO])
    want, expected_result = FIRST_GATHER[gather]
    theirs = play(game_module, deck, gather)
    with doing("result()"):
        theirs_result = theirs.result()
    got = [" ".join(e["stock"]) for e in theirs.events if e["type"] == "gather"][:1]
    assert got == [want], (
        f"with gather={gather} the second round's stock should be {want}; "
        f"it was {got[0] if got else 'never gathered'}")
    assert theirs_result == expected_result, (
        f"with gather={gather} the game should end {expected_result}, it ended {theirs_result}")


@pytest.mark.parametrize("gather", READINGS)
def test_shuffled_deals_end_exactly_as_the_rules_say(game_module: ModuleType, gather: str) -> None:
    for seed in range(4):
        deck = Deck.shuffled(seed)
        want = SHUFFLED_ENDINGS[gather][seed]
        game = play(game_module, deck, gather, name=f"Deck.shuffled({seed})")
        with doing("result()"):
            got = game.result()
        assert got == want, f"Deck.shuffled({seed}) with gather={gather} should end {want}, ended {got}"
