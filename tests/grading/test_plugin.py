"""The grading plugin's per-test alarm: it may stop a test, never pytest itself."""

from __future__ import annotations

import signal

import pytest

from solitaire_ds.course import plugin


def test_the_alarm_raises_only_inside_a_test_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin, "_IN_PHASE", False)
    assert plugin._on_alarm(signal.SIGPROF, None) is None  # pytest's reporting goes on
    monkeypatch.setattr(plugin, "_IN_PHASE", True)
    with pytest.raises(plugin._TestTimeout, match="CPU time"):
        plugin._on_alarm(signal.SIGPROF, None)


def test_a_phase_that_fails_still_clears_the_marker() -> None:
    phase = plugin._in_phase()
    next(phase)
    assert plugin._IN_PHASE
    with pytest.raises(ValueError):
        phase.throw(ValueError("the test failed"))
    assert not plugin._IN_PHASE
