"""Game records: JSON round trip, replay verification, and rejection of tampered records."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from solitaire_ds.cards import Deck
from solitaire_ds.games.perpetual_motion import PerpetualMotion
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
    with pytest.raises(RecordError, match=rf"^event {n + 1}: the record says .*'to': 4.*but the rules give"):
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
