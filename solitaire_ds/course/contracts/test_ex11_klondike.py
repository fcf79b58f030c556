"""Exercise 11: Klondike's priority order of moves (run with ``--impl`` to grade a folder).

The expectations are trusted: deals worked out by hand (one per rule), and shuffled deals
(fixed ones, and decks drawn for the file under test: :mod:`.drawn`) played step by step here
by the package's own game, whose every move, turn and card turned up the code under test
must repeat. A failure says in plain words which rule the code under test broke.

Every assert carries a plain-words message, shown as it is (PYTEST_DONT_REWRITE:
pytest adds no expression dump under it).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from solitaire_ds.cards import Card, Deck
from solitaire_ds.course.catalog import load_module
from solitaire_ds.course.contracts.drawn import Draw, DrawnDeck
from solitaire_ds.course.contracts.plain import Played, first_difference, first_step_apart
from solitaire_ds.course.grader.proxy import Submission, drive

# Cards that go up at the start of every game (piles 1 … 7, bottom first), then the stock.
RULE_DEALS: dict[str, tuple[list[str], str, list[str]]] = {
    "rule 1 plays pile tops left to right, and the waste's top only after them": (
        ["9C", "7C AH", "8C 8S 5C", "TC TS JC AS", "3C 3S 4C 4S 6C",
         "QC QS KC KS 6S 7S", "9S 5S 2C QH JH TH JS"], "AD 9H KD",
        ["turn AD", "rule 1: AH from pile 2 to foundation", "up 7C", "rule 1: AS from pile 4 to foundation",
         "up JC", "rule 1: AD from waste to foundation", "turn 9H", "turn KD"]),
    "rule 2 puts the waste's top on the leftmost pile that takes it, before rule 3": (
        ["9C", "KC 9S", "QC QS 8D", "3C 5C 5S 4C", "6C 6S 8C 8S 4S",
         "TC TS JC JS 2C 3S", "AC AD AH AS 2D 2H KS"], "8H 7S KD 5D",
        ["turn 8H", "rule 2: 8H from waste to pile 1", "turn 7S", "rule 2: 7S from waste to pile 1",
         "turn KD", "rule 3: 8D from pile 3 to pile 2", "up QS", "turn 5D"]),
    "rule 3 moves all the face-up cards of the leftmost movable pile, onto the leftmost pile": (
        ["6D", "QC 7S", "3C 3S 7C", "4C 4S 5C 8H", "9C 9S TC TS JC",
         "AC AD AH AS KC JS", "QS KS 2D 2H 3D 3H 6S"], "2C 5S",
        ["turn 2C", "rule 3: 6D from pile 1 to pile 2", "rule 3: 7S 6D from pile 2 to pile 4",
         "up QC", "turn 5S"]),
    "only a king fills an empty pile, from the waste (rule 2) or off face-down cards (rule 3)": (
        ["AC", "AD AS", "3H 4H 8C", "3C 3S 4C KD", "5C 5S 6C 6S 7C",
         "7S 9S TC TS JC JS", "AH 2C 2D 2S KC KS 2H"], "KH QS 9C 4S 5H",
        ["turn KH", "rule 1: AC from pile 1 to foundation", "rule 1: AS from pile 2 to foundation",
         "up AD", "rule 1: AD from pile 2 to foundation", "rule 2: KH from waste to pile 1",
         "turn QS", "rule 2: QS from waste to pile 1", "turn 9C",
         "rule 3: KD from pile 4 to pile 2", "up 4C", "turn 4S"]),
    "a king already at the bottom of its pile is never moved (the guard)": (
        ["AC", "KC AS", "QC QS 8C", "3C 3S 4C JD", "5C 5S 6C 6S 7C",
         "7S 9S TC TS JC JS", "AH AD 2C 2D 2S KS 3D"], "4H 4D",
        ["turn 4H", "rule 1: AC from pile 1 to foundation", "rule 1: AS from pile 2 to foundation",
         "up KC", "turn 4D"]),
}

#: Shuffled deals played through and compared, step by step, with the package's own game.
SHUFFLED_DEALS = 40
#: Decks drawn for the file under test, played beside them (the first also beside the new-deck order).
DRAWN = 2
#: How many decks are drawn, at most, to find one the rules win (about 1 in 100 is won).
WON_DRAWS = 5000


#: More steps than any game can take (the proof in the module's docstring gives 153).
STEP_LIMIT = 1000


@pytest.fixture(scope="module")
def klondike(impl: str) -> Any:
    """The Klondike class of the implementation under test."""
    return load_module(impl, "games.klondike").Klondike


@pytest.fixture(scope="module")
def drawn(impl: Submission, pytestconfig: pytest.Config) -> Draw:
    """The decks drawn for the file under test."""
    return Draw.for_file(impl, "games/klondike.py", pytestconfig)


def layout(piles: list[str], stock: str) -> Deck:
    cards = [pile.split() for pile in piles]
    order = [cards[p][r] for r in range(7) for p in range(r, 7)] + stock.split()
    named = {Card.parse(code) for code in order}
    return Deck.parse(" ".join(order + [c.code for c in Deck.standard() if c not in named]))


def _to_its_end(make: Any, what: str) -> tuple[Played, Any]:
    """Make the game and advance it to its end; fail in plain words if it goes on past any end."""
    played = Played(what)
    with played.step("Klondike(deck)"):
        game = make()
    with played.step("advance() until is_over()"):
        steps = drive(game, "advance", "is_over", STEP_LIMIT)
    if steps >= STEP_LIMIT:
        pytest.fail(f"{what} did not end after {STEP_LIMIT} steps: every game must end "
                    "(is the guard on kings at the bottom of their piles missing?)")
    return played, game


def play_out(make: Any, what: str) -> dict[str, Any]:
    """Make the game and run it to its end; return its result."""
    played, game = _to_its_end(make, what)
    with played.step("result()", record=False):
        return dict(game.result())


def plain(event: dict[str, Any]) -> str:
    if event["type"] == "move":
        return f"rule {event['rule']}: {' '.join(event['cards'])} from {event['from']} to {event['to']}"
    if event["type"] == "turn":
        return f"turn {event['card']}"
    if event["type"] == "turn_up":
        return f"up {event['card']}"
    return str(event["type"])


@pytest.mark.parametrize("rule", list(RULE_DEALS))
def test_each_rule_is_applied_in_priority_order(klondike: Any, rule: str) -> None:
    piles, stock, expected = RULE_DEALS[rule]
    played = Played(f"Expected that {rule}. On the deal for that rule")
    with played.step("Klondike(deck)"):
        game = klondike(layout(piles, stock))
    while len(game.events) < len(expected) + 1:
        with played.step("is_over()", record=False):
            if game.is_over():
                break
        with played.step("advance()"):
            game.advance()
    got = [plain(event) for event in game.events[1:len(expected) + 1]]
    differ = first_difference(["deal", *got], ["deal", *expected], shown_from=1)
    assert not differ, (
        f"On a deal laid out to try that {rule}: {differ}. {why_they_differ(got, expected)}\n"
        "On this deal the first steps should be:\n  " + "\n  ".join(expected)
        + "\nbut your code did:\n  " + "\n  ".join(got))


#: Each rule of the priority order, as a failure names it.
RULES = {
    "1": "rule 1 plays a top card to its suit's foundation: piles left to right, then the waste",
    "2": "rule 2 puts the waste's top card on the leftmost pile that takes it",
    "3": "rule 3 moves all the face-up cards of the leftmost movable pile onto the leftmost pile that "
         "takes them (a king only to an empty pile, and never one already at the bottom of its pile)",
}


def why_they_differ(theirs: list[str], trusted: list[str]) -> str:
    """Say what the first step where ``theirs`` and ``trusted`` differ shows, and no more: which
    rule has a move there that the code under test missed, or none that it made."""
    at = first_step_apart(theirs, trusted)
    if at >= len(trusted):
        return "The rules have no step there."
    want, did = trusted[at], theirs[at] if at < len(theirs) else ""
    wanted = want[5] if want.startswith("rule ") else ""
    made = did[5] if did.startswith("rule ") else ""
    if want.startswith("up "):
        return "A face-down card left on top of a pile is turned up at once, before any other step."
    if wanted and made == wanted:
        return f"Both are rule-{wanted} moves, but not the same one: {RULES[wanted]}."
    if wanted and made and made < wanted:
        return (f"Your code made a rule-{made} move where the rules find none ({RULES[made]}); "
                f"the rules' next move is by rule {wanted}.")
    if wanted:
        return f"Your code missed the rule-{wanted} move ({RULES[wanted]}), which comes first."
    if made:
        return f"No rule has a move there, so the stock turns; your code made a rule-{made} move ({RULES[made]})."
    return "No rule has a move there, so the next stock card turns onto the waste."


@cache
def rules(deck: Deck) -> tuple[list[str], dict[str, Any]]:
    """Return the package's own game on ``deck``: its steps in plain words, and its result."""
    from solitaire_ds.games.klondike import Klondike  # the package's own rules: the record to match

    game = Klondike(deck)
    result = game.run()
    return [plain(e) for e in game.events], result


@cache
def won(deck: Deck) -> bool:
    """Return whether the package's own game wins ``deck`` (played without a record: faster)."""
    from solitaire_ds.games.klondike import Klondike

    return bool(Klondike(deck, record=False).run()["won"])


def shown_by(drawn: DrawnDeck) -> str:
    """Return how to see the rules' game on a drawn deck, for a failure message."""
    return " " + drawn.rules_game("klondike", "--record")


def test_the_new_deck_order_ends_with_28_cards_on_the_foundations(klondike: Any, drawn: Draw) -> None:
    result = play_out(lambda: klondike(Deck.standard()), "The new-deck order")
    assert result == {"won": False, "to_foundation": 28, "cards_left": 24, "net": 88}, (
        f"The unshuffled deck should end with 28 cards up (net +$88), not {result}")
    deck = drawn.deck("shuffled", 1)
    result = play_out(lambda: klondike(deck.deck), str(deck))
    want = rules(deck.deck)[1]
    assert result == want, f"{deck} should end {want}, not {result}.{shown_by(deck)}"


def _record(make: Any, what: str) -> list[dict[str, Any]]:
    """Play the game ``make()`` gives to its end; return its events."""
    played, game = _to_its_end(make, what)
    with played.step("events", record=False):
        return list(game.events)


def test_shuffled_deals_are_played_move_for_move_as_the_rules_say(klondike: Any, drawn: Draw) -> None:
    deals = [(f"Deck.shuffled({seed})", Deck.shuffled(seed), "") for seed in range(SHUFFLED_DEALS)]
    deals += [(str(d), d.deck, shown_by(d)) for d in drawn.decks("shuffled", DRAWN)]
    wrong: list[tuple[str, str, str]] = []
    for name, deck, shown in deals:
        theirs = [plain(e) for e in _record(lambda deck=deck: klondike(deck), name)]
        trusted = rules(deck)[0]
        differ = first_difference(theirs, trusted, shown_from=1)
        if differ:
            wrong.append((name, f"{differ}. {why_they_differ(theirs, trusted)}", shown))
    assert not wrong, (
        f"{wrong[0][0]}: {wrong[0][1]} {len(wrong)} of {len(deals)} deals ({SHUFFLED_DEALS} fixed shuffles, "
        f"{DRAWN} drawn for your file) differ from the rules' order of moves.{wrong[0][2]}")


def test_a_won_deal_is_won(klondike: Any, drawn: Draw) -> None:
    result = play_out(lambda: klondike(Deck.shuffled(70)), "Deck.shuffled(70)")
    assert result == {"won": True, "to_foundation": 52, "cards_left": 0, "net": 208}, (
        f"Deck.shuffled(70) is won by the priority order (all 52 cards, net +$208), not {result}")
    deck = next((d for d in (drawn.deck("won", n) for n in range(1, WON_DRAWS + 1)) if won(d.deck)), None)
    if deck is not None:  # about 1 in 100 decks is won: one is found among the first few hundred
        result = play_out(lambda: klondike(deck.deck), str(deck))
        assert result == {"won": True, "to_foundation": 52, "cards_left": 0, "net": 208}, (
            f"{deck} is won by the priority order (all 52 cards, net +$208), not {result}.{shown_by(deck)}")
