"""Pinned answers the contract tests compare with: the reference's results, written down.

Invariant: each value here is what the reference implementation gives today, and the
package's own test suite recomputes them all (:func:`compute`) and fails when one differs.
The contract tests read these values instead of running the reference: in the grader's
copy of the package the module an exercise grades is its skeleton, so that no answer key
is within the submission's reach.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EIGHT_CARD_DECK", "FIRST_GATHER", "SHUFFLED", "SHUFFLED_ENDINGS", "compute"]

#: ``str(Deck.shuffled(seed))`` for a few seeds: the shuffle's output is part of its contract.
SHUFFLED: dict[int, str] = {
    1: "JS TC QH TD 3C KH 7D QC TH 6C 4H KS 5S 3D JD 8S 9S 9D 2S AS KC QS 7H 8D KD AH 9H JC 8H 4C 6D "
    "2D 5D 6S AC 2H 4S 2C 7S 7C AD QD 3S 5H 3H 6H 8C 4D 5C TS JH 9C",
    7: "5D AS 6H JC 2S QC AC 7D 2D QS 4D 9C KH 6S 8H 7S QD 4H TD KC 9D 5S 5H 3H JS KS 8C TS 6D TH 2C "
    "JH 4S 3D 8S AH 2H 6C 3C AD 7H 9S QH JD 7C 9H 5C 4C 3S KD TC 8D",
    2024: "9C AC 8C KD 4S 3C TC 3H JC 6S TH 6D KH 6C JS 4H 4C 2H TS QS 2C 3S 7C 5D 7H 8D KS 2D JD QD "
    "AS JH 5C 9D 5S 9S AD 8H 7S TD 6H 2S 3D 9H 4D AH KC 7D QH 8S QC 5H",
}

#: A deck of aces and twos whose first gather shows each reading's order.
EIGHT_CARD_DECK = "AC 2C 2D AD 2H AH AS 2S"

#: Perpetual Motion on :data:`EIGHT_CARD_DECK`, by gather reading: the second round's stock
#: (the first gather), and the result.
FIRST_GATHER: dict[str, tuple[str, dict[str, Any]]] = {
    "right-face-down": (
        "2C 2D AH AS AC AD 2H 2S",
        {"won": False, "rounds": 5, "deals": 10, "cards_left": 8, "cycle_length": 4},
    ),
    "right-face-up": (
        "2S 2H AD AC AS AH 2D 2C",
        {"won": False, "rounds": 5, "deals": 10, "cards_left": 8, "cycle_length": 4},
    ),
    "left-face-down": (
        "AC AD 2H 2S 2C 2D AH AS",
        {"won": False, "rounds": 3, "deals": 6, "cards_left": 8, "cycle_length": 2},
    ),
    "left-face-up": (
        "AS AH 2D 2C 2S 2H AD AC",
        {"won": False, "rounds": 3, "deals": 6, "cards_left": 8, "cycle_length": 2},
    ),
}

#: Perpetual Motion's result on ``Deck.shuffled(0)`` to ``Deck.shuffled(3)``, by gather reading.
SHUFFLED_ENDINGS: dict[str, list[dict[str, Any]]] = {
    "right-face-down": [
        {"won": False, "rounds": 56, "deals": 334, "cards_left": 12, "cycle_length": 24},
        {"won": False, "rounds": 25, "deals": 198, "cards_left": 16, "cycle_length": 6},
        {"won": False, "rounds": 22, "deals": 209, "cards_left": 12, "cycle_length": 3},
        {"won": False, "rounds": 64, "deals": 454, "cards_left": 12, "cycle_length": 24},
    ],
    "right-face-up": [
        {"won": True, "rounds": 24, "deals": 219, "cards_left": 0, "cycle_length": None},
        {"won": False, "rounds": 57, "deals": 491, "cards_left": 12, "cycle_length": 12},
        {"won": True, "rounds": 29, "deals": 286, "cards_left": 0, "cycle_length": None},
        {"won": False, "rounds": 31, "deals": 279, "cards_left": 8, "cycle_length": 4},
    ],
    "left-face-down": [
        {"won": False, "rounds": 101, "deals": 679, "cards_left": 16, "cycle_length": 48},
        {"won": False, "rounds": 37, "deals": 287, "cards_left": 16, "cycle_length": 12},
        {"won": True, "rounds": 32, "deals": 309, "cards_left": 0, "cycle_length": None},
        {"won": True, "rounds": 58, "deals": 541, "cards_left": 0, "cycle_length": None},
    ],
    "left-face-up": [
        {"won": False, "rounds": 36, "deals": 296, "cards_left": 8, "cycle_length": 4},
        {"won": False, "rounds": 46, "deals": 334, "cards_left": 16, "cycle_length": 18},
        {"won": False, "rounds": 66, "deals": 490, "cards_left": 16, "cycle_length": 18},
        {"won": True, "rounds": 30, "deals": 247, "cards_left": 0, "cycle_length": None},
    ],
}


def compute() -> tuple[dict[int, str], dict[str, tuple[str, dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """Return the three tables above as the reference implementation computes them now."""
    from solitaire_ds.cards import Deck, Rank
    from solitaire_ds.games.perpetual_motion import GATHER_READINGS, PerpetualMotion

    shuffled = {seed: str(Deck.shuffled(seed)) for seed in SHUFFLED}
    deck = Deck.parse(EIGHT_CARD_DECK, ranks=[Rank.ACE, Rank.TWO])
    first: dict[str, tuple[str, dict[str, Any]]] = {}
    endings: dict[str, list[dict[str, Any]]] = {}
    for gather in GATHER_READINGS:
        game = PerpetualMotion(deck, PerpetualMotion.options_type(gather=gather))  # type: ignore[call-arg]
        game.run()
        stocks = [event["stock"] for event in game.events if event["type"] == "gather"]
        first[gather] = (" ".join(stocks[0]), game.result())
        endings[gather] = [
            PerpetualMotion(Deck.shuffled(seed), PerpetualMotion.options_type(gather=gather)).run()  # type: ignore[call-arg]
            for seed in range(4)
        ]
    return shuffled, first, endings
