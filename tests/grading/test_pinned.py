"""The contract tests' pinned answers are still what the reference computes."""

from __future__ import annotations

from solitaire_ds.course.contracts import pinned


def test_the_pinned_answers_are_the_references() -> None:
    shuffled, first_gather, endings = pinned.compute()
    assert shuffled == pinned.SHUFFLED
    assert first_gather == pinned.FIRST_GATHER
    assert endings == pinned.SHUFFLED_ENDINGS


def test_every_gather_reading_is_pinned() -> None:
    from solitaire_ds.games.perpetual_motion import GATHER_READINGS

    assert list(pinned.FIRST_GATHER) == list(GATHER_READINGS) == list(pinned.SHUFFLED_ENDINGS)
