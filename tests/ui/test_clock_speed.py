"""The test-only fast clock: DRILL_CLOCK_SPEED makes a session's clock run faster, anything else is real."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ui.context import FastClock, clock_for


@pytest.mark.parametrize("text", [None, "", "fast", "1", "0.5", "-3", "nan", "inf"])
def test_anything_but_a_speed_above_one_is_the_wall_clock(text: str | None) -> None:
    clock = clock_for(text)
    assert not isinstance(clock, FastClock)
    assert abs(clock() - datetime.now(UTC)) < timedelta(minutes=1)


def test_a_fast_clock_runs_that_many_times_faster_from_its_anchor() -> None:
    anchor = datetime.now(UTC) - timedelta(seconds=60)
    shown = FastClock(speed=4.0, anchor=anchor)()
    assert timedelta(seconds=239) < shown - anchor < timedelta(seconds=300)
    assert shown.tzinfo is not None


def test_every_session_shares_the_servers_anchor() -> None:
    first, second = clock_for("4"), clock_for("4")
    assert isinstance(first, FastClock) and isinstance(second, FastClock)
    assert first.anchor == second.anchor
