"""Exercise 8: Perpetual Motion's deal, match, gather and cycle check (run with ``--impl``).

The expectations are trusted: small deals worked out by hand (see tests/test_perpetual_motion.py
and the docs' Perpetual Motion page), the package's own games on fixed shuffles, and the
package's own games on decks drawn for the file under test (:mod:`.drawn`), played here. The
game under test runs on the package's reference structures, so only its rules are graded here.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

import pytest

from solitaire_ds.cards import Deck, Rank
from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.drawn import Draw, DrawnDeck
from solitaire_ds.course.contracts.pinned import EIGHT_CARD_DECK, FIRST_GATHER, SHUFFLED_ENDINGS
from solitaire_ds.course.contracts.plain import Played, doing, first_difference, first_step_apart, in_words
from solitaire_ds.course.grader.proxy import Submission, drive

READINGS = list(FIRST_GATHER)
#: Decks drawn for the file under test: the same ones in each test that plays shuffled deals
#: (so the rules' game on each is played once), and as many in fours of a kind.
DRAWN = 2
#: The steps (advance calls) of a 52-card deck's first round: 13 deals, then its end and gather.
FIRST_ROUND = 14


@pytest.fixture(scope="module")
def game_module(impl: str) -> ModuleType:
    """The perpetual_motion module of the implementation under test."""
    return load_module(impl, "games.perpetual_motion")


@pytest.fixture(scope="module")
def drawn(impl: Submission, pytestconfig: pytest.Config) -> Draw:
    """The decks drawn for the file under test."""
    return Draw.for_file(impl, "games/perpetual_motion.py", pytestconfig)


@cache
def rules(deck: Deck, gather: str = "right-face-down") -> tuple[list[tuple[str, int, int]], str | None, dict[str, Any]]:
    """Return what the package's own game does on ``deck``: the moves of its first round
    (card, from, to), its first gather's stock (None if it never gathers), and its result."""
    from solitaire_ds.games.perpetual_motion import PerpetualMotion, PerpetualMotionOptions

    game = PerpetualMotion(deck, PerpetualMotionOptions(gather=gather))
    result = game.run()
    return moves_of(game.events[:first_gather(game.events)]), first_stock(game.events), result


def first_gather(events: list[dict[str, Any]]) -> int:
    """Return the index of the first event past the first round (``len(events)`` if none)."""
    return next((n for n, e in enumerate(events) if e["type"] in ("round_end", "gather")), len(events))


def moves_of(events: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    return [(e["card"], e["from"], e["to"]) for e in events if e["type"] == "move"]


def first_stock(events: list[dict[str, Any]]) -> str | None:
    return next((" ".join(e["stock"]) for e in events if e["type"] == "gather"), None)


@cache
def rules_record(deck: Deck, gather: str) -> tuple[int, list[dict[str, Any]]]:
    """Return the package's own game on ``deck``: its steps (advance calls) to the end, and its events."""
    from solitaire_ds.games.perpetual_motion import PerpetualMotion, PerpetualMotionOptions

    game = PerpetualMotion(deck, PerpetualMotionOptions(gather=gather))
    steps = drive(game, "advance", "is_over", 20_000)
    return steps, list(game.events)


def said(event: Any) -> str:
    """Return an event in a player's words (the package's own description), or as it is."""
    from solitaire_ds.games.perpetual_motion import PerpetualMotion

    return in_words(PerpetualMotion(Deck.parse(EIGHT_CARD_DECK, ranks=[Rank.ACE, Rank.TWO])), event)


def where_it_differs(events: list[Any], deck: Deck, gather: str, prefix: bool = False) -> str:
    """Say the first step where ``events`` differ from the rules' game on ``deck`` (from its start
    only, with ``prefix``), and what that step establishes: the cycle check, when the rules end
    the game there and the code did not, or the code ended it where the rules gather and play on."""
    trusted = rules_record(deck, gather)[1]
    ended = bool(events) and isinstance(events[-1], dict) and events[-1].get("type") == "result"
    if prefix and isinstance(events, list) and not ended:
        trusted = trusted[:len(events)]
    differ = first_difference(events, trusted, said)
    if not differ:
        return "it was not gathered, though every event so far is the rules' own"
    at = first_step_apart(events, trusted)
    want = trusted[at] if at < len(trusted) else None
    did = events[at] if at < len(events) and isinstance(events[at], dict) else {}
    if want is not None and want.get("type") == "result" and not want["won"] and did.get("type") == "gather":
        cause = ("the rules end the game there, as a cycle (rule 6): the new stock's order already "
                 "started an earlier round, and your game went on")
    elif want is not None and want.get("type") == "gather" and did.get("type") == "result":
        cause = ("your game ended there, where the rules gather the piles and play on: that stock's "
                 "order has not started an earlier round, so it is no cycle")
    else:
        return differ
    return f"{differ}: {cause}"


def shown_by(drawn: DrawnDeck, gather: str = "", record: bool = True) -> str:
    """Return how to see the rules' game on a drawn deck, for a failure message."""
    options = ([f"--gather {gather}"] if gather else []) + (["--record"] if record else [])
    return drawn.rules_game("perpetual-motion", *options)


def first_round(module: ModuleType, drawn: DrawnDeck, gather: str = "right-face-down") -> list[dict[str, Any]]:
    """Play the first round of a drawn deck, to its gather; return the events (not a whole game's)."""
    played = Played(f"Perpetual Motion on {drawn} with gather={gather}")
    with played.step("PerpetualMotion(deck, options)"):
        game = module.PerpetualMotion(drawn.deck, module.PerpetualMotionOptions(gather=gather))
    with played.step(f"advance() {FIRST_ROUND} times (the first round's 13 deals, then its end)"):
        drive(game, "advance", "is_over", FIRST_ROUND)
    with played.step("events", record=False):
        return list(game.events)


def play(module: ModuleType, deck: Deck, gather: str, limit: int = 20_000, name: str = "") -> Any:
    """Play to the end, stopping a game that runs away (a missing cycle check)."""
    played = Played(f"Perpetual Motion on {name or f'the deck {deck}'} with gather={gather}")
    with played.step("PerpetualMotion(deck, options)"):
        game = module.PerpetualMotion(deck, module.PerpetualMotionOptions(gather=gather))
    with played.step("advance() until is_over()"):
        steps = drive(game, "advance", "is_over", limit)
    if steps < limit:
        return game
    # Replay it just past the rules' end, and say where the two first differ.
    ends_at = rules_record(deck, gather)[0]
    with played.step("PerpetualMotion(deck, options) again"):
        again = module.PerpetualMotion(deck, module.PerpetualMotionOptions(gather=gather))
    with played.step(f"advance() {ends_at + 1} times (the rules' game ends after {ends_at})"):
        drive(again, "advance", "is_over", ends_at + 1)
    with played.step("events", record=False):
        events = list(again.events)
    pytest.fail(f"{name or 'the game'} with gather={gather} did not end in {limit} steps, and the rules' game "
                f"ends after {ends_at}: {where_it_differs(events, deck, gather)}")


def test_duplicates_move_to_the_leftmost_pile_with_an_equal_card(game_module: ModuleType, drawn: Draw) -> None:
    deck = Deck.parse("AC 2C 2D AD 2H AH AS 2S", ranks=[Rank.ACE, Rank.TWO])
    with doing(f"the first advance() (deal) of Perpetual Motion on the deck {deck}"):
        game = game_module.PerpetualMotion(deck)
        game.advance()
    moves = moves_of(game.events)
    assert moves == [("2D", 3, 2), ("AD", 4, 1)], (
        f"after dealing AC 2C 2D AD, 2D should move from pile 3 to pile 2 and then AD from pile 4 "
        f"to pile 1; the moves were {moves}")
    for deal in drawn.decks("deals", DRAWN):
        want = rules(deal.deck)[0]
        events = first_round(game_module, deal)
        got = moves_of(events[:first_gather(events)])
        assert got == want, (
            f"in the first round of {deal}, the moves (card, from pile, to pile) should be {want}; "
            f"they were {got}. {shown_by(deal)}")


def test_four_of_a_kind_dealt_together_is_discarded(game_module: ModuleType, drawn: Draw) -> None:
    deck = Deck.parse(" ".join(f"{r}C {r}D {r}H {r}S" for r in "A23456789TJQK"))
    game = play(game_module, deck, "right-face-down", name="a deck dealt in fours of a kind")
    with doing("result()"):
        result = game.result()
    assert result["won"] and result["deals"] == 13 and result["rounds"] == 1, (
        f"a deck dealt in fours of a kind is won in 1 round of 13 deals; got {result}")
    for number in range(1, DRAWN + 1):
        fours = in_fours(drawn.deck("fours of a kind", number))
        game = play(game_module, fours.deck, "right-face-down", name=f"{fours}, dealt in fours of a kind")
        with doing("result()"):
            result = game.result()
        want = rules(fours.deck)[2]
        assert result == want, (
            f"{fours}, dealt in fours of a kind, should end {want}; it ended {result}. {shown_by(fours, record=False)}")


def in_fours(drawn: DrawnDeck) -> DrawnDeck:
    """Return the drawn deck's cards regrouped in fours of a kind, each rank where its first card was."""
    ranks = list(dict.fromkeys(card.rank for card in drawn.deck))
    cards = sorted(drawn.deck, key=lambda card: ranks.index(card.rank))  # stable: suits in the drawn order
    return DrawnDeck(Deck(cards), drawn.name)


@pytest.mark.parametrize("gather", READINGS)
def test_each_gather_reading_builds_its_next_stock(game_module: ModuleType, drawn: Draw, gather: str) -> None:
    deck = Deck.parse(EIGHT_CARD_DECK, ranks=[Rank.ACE, Rank.TWO])
    want, expected_result = FIRST_GATHER[gather]
    theirs = play(game_module, deck, gather)
    with doing("result()"):
        theirs_result = theirs.result()
    events = theirs.events
    got = first_stock(events)
    assert got == want, (
        f"with gather={gather} the second round's stock should be {want}; "
        + (f"it was {got}" if got else where_it_differs(events, deck, gather)))
    assert theirs_result == expected_result, (
        f"with gather={gather} the game should end {expected_result}, it ended {theirs_result}")
    for deal in drawn.decks("deals", DRAWN):
        want_stock = rules(deal.deck, gather)[1]
        events = first_round(game_module, deal, gather)
        stock = first_stock(events)
        assert stock == want_stock, (
            f"on {deal} with gather={gather} the second round's stock should be "
            f"{want_stock or 'none (the game ends in the first round)'}; "
            + (f"it was {stock}" if stock else where_it_differs(events, deal.deck, gather, prefix=True))
            + f". {shown_by(deal, gather)}")


@pytest.mark.parametrize("gather", READINGS)
def test_shuffled_deals_end_exactly_as_the_rules_say(game_module: ModuleType, drawn: Draw, gather: str) -> None:
    for seed in range(4):
        deck = Deck.shuffled(seed)
        want = SHUFFLED_ENDINGS[gather][seed]
        game = play(game_module, deck, gather, name=f"Deck.shuffled({seed})")
        with doing("result()"):
            got = game.result()
        assert got == want, f"Deck.shuffled({seed}) with gather={gather} should end {want}, ended {got}"
    for deal in drawn.decks("deals", DRAWN):
        want = rules(deal.deck, gather)[2]
        game = play(game_module, deal.deck, gather, name=str(deal))
        with doing("result()"):
            got = game.result()
        assert got == want, (
            f"{deal} with gather={gather} should end {want}, ended {got}. {shown_by(deal, gather, record=False)}")
