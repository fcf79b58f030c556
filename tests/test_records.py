"""Game records: JSON round trip, replay verification, and rejection of tampered records."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solitaire_ds.cards import Deck
from solitaire_ds.games import game_class
from solitaire_ds.games.aces_up import AcesUp
from solitaire_ds.games.klondike import Klondike
from solitaire_ds.games.perpetual_motion import PerpetualMotion
from solitaire_ds.players import greedy_choice
from solitaire_ds.records import Record, RecordError, play_record, render_text, replay


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return play_record(PerpetualMotion(Deck.shuffled(3))).to_json()


def test_a_record_survives_a_json_round_trip(record: dict[str, Any]) -> None:
    again = Record.loads(Record.from_json(record).dumps())
    assert again.to_json() == record


def test_a_true_record_replays(record: dict[str, Any]) -> None:
    assert replay(record).result == record["result"]


def tampered(record: dict[str, Any], change: Any) -> dict[str, Any]:
    data = copy.deepcopy(record)
    change(data)
    return data


def first(record: dict[str, Any], kind: str) -> int:
    return next(i for i, e in enumerate(record["events"]) if e["type"] == kind)


def test_a_changed_move_is_rejected_with_its_event_number(record: dict[str, Any]) -> None:
    n = first(record, "move")
    data = tampered(record, lambda d: d["events"][n].update({"to": 4}))
    with pytest.raises(RecordError, match=rf"^event {n + 1}: the record says 'to': 4, but the rules give 'to': \d "
                                          r"\(the rules' event: move .* from pile \d to pile \d\)$"):
        replay(data)


def test_a_deleted_event_is_rejected(record: dict[str, Any]) -> None:
    n = first(record, "deal")
    data = tampered(record, lambda d: d["events"].pop(n + 1))
    with pytest.raises(RecordError, match=rf"^event {n + 2}: "):
        replay(data)


def test_a_record_cut_short_is_rejected(record: dict[str, Any]) -> None:
    data = tampered(record, lambda d: d["events"].__delitem__(slice(10, None)))
    with pytest.raises(RecordError, match=r"^event 11: the record ends early"):
        replay(data)


def test_extra_events_after_the_end_are_rejected(record: dict[str, Any]) -> None:
    data = tampered(record, lambda d: d["events"].append({"type": "deal"}))
    with pytest.raises(RecordError, match=rf"^event {len(record['events']) + 1}: the game is over"):
        replay(data)


def test_a_wrong_result_is_rejected(record: dict[str, Any]) -> None:
    data = tampered(record, lambda d: d["result"].update({"won": True}))
    with pytest.raises(RecordError, match=r"^result: the record says"):
        replay(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [(lambda d: d.update({"deck": "AS AS"}), r"the record's deck: card A♠ \(AS\) appears twice"),
     (lambda d: d.update({"game": "poker"}), r"unknown game 'poker'"),
     (lambda d: d.update({"options": {"gather": "up"}}), r"the record's options: unknown gather"),
     (lambda d: d.update({"options": {"colour": 1}}), r"the record's options: unknown option 'colour'"),
     (lambda d: d.pop("events"), r"the record has no 'events'"),
     (lambda d: d["events"].insert(0, 7), r"event 1: an event must be an object"),
     (lambda d: d.update({"format": 9}), r"unknown record format 9")],
)
def test_a_corrupt_record_is_rejected_with_the_reason(
    record: dict[str, Any], change: Any, message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        replay(tampered(record, change))


def test_text_that_is_not_json_is_rejected_with_its_place() -> None:
    with pytest.raises(RecordError, match=r"^not valid JSON: .* at line 1, column"):
        Record.loads("{oops")


def test_the_text_record_shows_options_deck_events_boards_and_result(record: dict[str, Any]) -> None:
    text = render_text(Record.from_json(record))
    assert text.startswith("Perpetual Motion\nOptions: gather = right-face-down\n")
    assert "Deck (first card dealt first): A♦ 3♥ 4♣" in text
    assert "  deal 1: A♦ 3♥ 4♣ 7♦\n    pile 1: A♦\n" in text
    assert text.rstrip().endswith("cycle_length = " + str(record["result"]["cycle_length"]))
    assert len([line for line in text.splitlines() if line.startswith("  ") and not
                line.startswith("    ")]) == len(record["events"])


def test_json_records_hold_one_event_per_line(record: dict[str, Any]) -> None:
    text = Record.from_json(record).dumps()
    assert json.loads(text) == record
    assert text.count("\n") == len(record["events"]) + 2



# -- strict reading: every tampered field is rejected, never crashes ---------------------
# The cases the audit of issue 3 found verifying or crashing, and their neighbours.

def move_to(record: dict[str, Any], pile: int) -> int:
    """Return the index of the first move event onto ``pile``."""
    return next(i for i, e in enumerate(record["events"]) if e["type"] == "move" and e["to"] == pile)


@pytest.mark.parametrize(
    ("where", "change", "message"),
    [(lambda r: move_to(r, 2), lambda e: e.update({"to": 2.0}),
      r"the record says 'to': 2\.0, but the rules give 'to': 2 \(the rules' event: move .*\)$"),
     (lambda r: 0, lambda e: e.update({"deal": 1.0}), r"the record says 'deal': 1\.0, but the rules give 'deal': 1 "),
     (lambda r: move_to(r, 1), lambda e: e.update({"to": True}), r"'to': True, but the rules give 'to': 1 "),
     (lambda r: move_to(r, 1), lambda e: e.update({"to": 10**400}), r"the record says 'to': 1000.*\.\.\., but"),
     (lambda r: 0, lambda e: e.update({"extra": 1}),
      r"the record has an extra 'extra': 1, where the rules give none \(the rules' event: deal 1: .*\)$"),
     (lambda r: 1, lambda e: e.pop("type"), r"an event must be an object with a 'type' string$"),
     (lambda r: 1, lambda e: e.update({"type": [1]}), r"an event must be an object with a 'type'"),
     (lambda r: 1, lambda e: e.update({"card": json.loads("[" * 50 + "]" * 50)}),
      r"nested more than 8 levels deep$")],
    ids=["to 2.0 for 2", "deal 1.0 for 1", "to true for 1", "to 10**400", "extra key",
         "no type", "type a list", "deeply nested"],
)
def test_a_tampered_event_is_rejected_with_its_number_and_the_reason(
    record: dict[str, Any], where: Any, change: Any, message: str
) -> None:
    index = where(record)
    data = tampered(record, lambda d: change(d["events"][index]))
    with pytest.raises(RecordError, match=rf"^event {index + 1}: .*{message}"):
        replay(data)
    with pytest.raises(RecordError, match=rf"^event {index + 1}: .*{message}"):
        replay(Record.loads(json.dumps(data)))


@pytest.mark.parametrize(
    ("change", "message"),
    [(lambda d: d["result"].update({"won": 0}), r"^result: the record says 'won': 0, but the game gives 'won': False$"),
     (lambda d: d["result"].update({"rounds": float("nan")}),
      r"^result: the record says 'rounds': nan, but the game gives 'rounds': \d+$"),
     (lambda d: d["result"].pop("won"), r"^result: the record has no 'won', where the game gives 'won': False$"),
     (lambda d: d["result"].clear(), r"^result: the record has no 'won'"),
     (lambda d: d.pop("result"), r"^the record has no 'result'$"),
     (lambda d: d.pop("format"), r"^the record has no 'format'$"),
     (lambda d: d.pop("player"), r"^the record has no 'player'$"),
     (lambda d: d.update({"note": 1}), r"^the record has an unknown key 'note'"),
     (lambda d: d.update({"format": True}), r"^unknown record format True"),
     (lambda d: d.update({"format": 1.0}), r"^unknown record format 1\.0"),
     (lambda d: d.update({"format": "1"}), r"^unknown record format '1'"),
     (lambda d: d.update({"format": [1]}), r"^unknown record format \[1\]"),
     (lambda d: d.update({"game": [1]}), r"^the record's 'game' must be a string, not \[1\]$"),
     (lambda d: d.update({"game": {}}), r"^the record's 'game' must be a string, not \{\}$"),
     (lambda d: d.update({"game": 3}), r"^the record's 'game' must be a string, not 3$"),
     (lambda d: d.update({"deck": 5}), r"^the record's 'deck' must be a string"),
     (lambda d: d.update({"options": [1]}), r"^the record's 'options' must be an object$"),
     (lambda d: d["options"].update({"gather": [1]}), r"^the record's options: option 'gather' must be like"),
     (lambda d: d["options"].update({"gather": {}}), r"^the record's options: option 'gather' must be like"),
     (lambda d: d["options"].update({"gather": json.loads("[" * 50 + "]" * 50)}),
      r"^the record's 'options': nested more than 8 levels deep$"),
     (lambda d: d.update({"events": {}}), r"^the record's 'events' must be a list$"),
     (lambda d: d.update({"result": []}), r"^the record's 'result' must be an object$"),
     (lambda d: d.update({"player": 3}), r"^the record's 'player' must be a string or null, not 3$"),
     (lambda d: d.update({"player": "greedy"}),
      r"^the record's 'player': perpetual-motion has no decisions, so no player plays it")],
    ids=["won 0", "rounds NaN", "result without won", "result empty", "no result", "no format",
         "no player", "unknown key", "format true", "format 1.0", "format '1'", "format [1]",
         "game a list", "game an object", "game a number", "deck a number", "options a list",
         "gather a list", "gather an object", "options deeply nested", "events an object",
         "result a list", "player a number", "player on a game without decisions"],
)
def test_a_tampered_field_is_rejected_naming_the_field(
    record: dict[str, Any], change: Any, message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        replay(tampered(record, change))


@pytest.mark.parametrize(
    ("text", "message"),
    [("[" * 100_000 + "]" * 100_000, r"^not a record: nested more than 8 levels deep$"),
     ('{"format": 1, "events": ' + "[" * 50_000 + "]" * 50_000 + "}",
      r"^not a record: nested more than 8 levels deep$"),
     ('{"format": 1' + "0" * 5000 + "}", r"^not valid JSON: a number with too many digits$"),
     ("[1, 2]", r"^a record must be a JSON object$")],
    ids=["deep list", "deep events", "huge number", "a list"],
)
def test_json_text_that_cannot_be_a_record_is_rejected_not_crashed_on(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.loads(text)


def test_a_player_on_klondike_is_rejected() -> None:
    data = play_record(Klondike(Deck.shuffled(1))).to_json()
    with pytest.raises(RecordError, match=r"^the record's 'player': klondike has no decisions"):
        replay({**data, "player": "greedy"})


@pytest.fixture(scope="module")
def aces_up_record() -> dict[str, Any]:
    return play_record(AcesUp(Deck.shuffled(2)), greedy_choice, "greedy").to_json()


def test_a_game_with_decisions_takes_a_known_player_or_none(aces_up_record: dict[str, Any]) -> None:
    assert replay({**aces_up_record, "player": None}).player is None
    assert replay({**aces_up_record, "player": "solver"}).player == "solver"
    with pytest.raises(RecordError, match=r"^the record's 'player': unknown player 'bob' "
                                          r"\(the players are greedy, interactive, no-peek, solver, solver-no-lone\)$"):
        replay({**aces_up_record, "player": "bob"})


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)


def look_alikes(value: object) -> list[object]:
    """Return values Python's ``==`` or a careless reader may take for ``value``."""
    alike: list[object] = [[value], {"value": value}, None]
    if type(value) is int:
        alike += [float(value), str(value), value + 1]
        alike += [bool(value)] if value in (0, 1) else []
    elif type(value) is bool:
        alike += [int(value), float(value), not value]
    elif isinstance(value, str):
        alike += [value.lower(), value + " ", {value: value}]
    elif isinstance(value, list):
        alike += [tuple(value), value[:-1], value + value[-1:]] if value else [{}]
    elif isinstance(value, dict):
        alike += [list(value), dict(list(value.items())[:-1])]
    return alike


def leaves(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Return the path to every value inside ``value`` (containers included)."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += leaves(item, (*path, index))
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_changed_value_is_rejected_with_a_record_error_and_nothing_else(
    record: dict[str, Any], aces_up_record: dict[str, Any], data: st.DataObject
) -> None:
    original = data.draw(st.sampled_from([record, aces_up_record]), label="record")
    paths = leaves(original)
    path = data.draw(st.sampled_from(paths), label="path")
    changed = copy.deepcopy(original)
    holder = changed
    for step in path[:-1]:
        holder = holder[step]
    old = holder[path[-1]]
    new = data.draw(JSON_VALUES | st.sampled_from(look_alikes(old)), label="new value")
    assume(json.dumps(new) != json.dumps(old))
    holder[path[-1]] = new
    try:
        replay(changed)
    except RecordError as exc:
        assert "\n" not in str(exc)
    else:
        if path == ("deck",):  # card codes are read case-insensitively: the same deck in other letters
            assert Deck.parse(str(new)) == Deck.parse(str(old)), (path, old, new)
            return
        if path == ("options",):  # options left out are the defaults: {} is the default gather
            options = game_class(original["game"]).options_type
            assert options.from_json(new) == options.from_json(old), (path, old, new)
            return
        # only a player's name may change, to another player, on a game with decisions
        assert path == ("player",) and original is aces_up_record, (path, old, new)


def test_a_rejected_event_says_what_differs_in_a_sentence_not_two_dicts(record: dict[str, Any]) -> None:
    data = tampered(record, lambda d: d["events"][0]["cards"].__setitem__(0, "KS"))
    with pytest.raises(RecordError) as caught:
        replay(data)
    message = str(caught.value)
    assert message.startswith("event 1: the record says 'cards': ['KS', ")
    assert "but the rules give 'cards': ['AD', " in message and "(the rules' event: deal 1: A♦ " in message
    assert "{" not in message and len(message) < 160
