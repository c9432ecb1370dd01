"""Time spent per mock problem: screen time banked on leaving a problem, added to what was stored on save."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ui.mock.interview import ScreenTime

T0 = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)


def test_time_on_a_problem_adds_up_across_visits_until_saved() -> None:
    screen = ScreenTime(mock_id=1, position=0, since=T0)
    screen.look_at(1, now=T0 + timedelta(seconds=20))  # 20 s on problem 1
    screen.look_at(0, now=T0 + timedelta(seconds=50))  # 30 s on problem 2
    assert screen.seconds_on(0, now=T0 + timedelta(seconds=60)) == pytest.approx(30)
    assert screen.seconds_on(1, now=T0 + timedelta(seconds=60)) == pytest.approx(30)
    screen.saved(0, now=T0 + timedelta(seconds=60))
    assert screen.seconds_on(0, now=T0 + timedelta(seconds=65)) == pytest.approx(5)


def test_resume_starts_afresh_for_another_mock_and_round_trips_its_stored_form() -> None:
    screen = ScreenTime(mock_id=1, position=2, since=T0, unsaved_s={0: 12.5})
    again = ScreenTime.resume(screen.to_dict(), mock_id=1, now=T0 + timedelta(hours=1))
    assert again == screen
    other = ScreenTime.resume(screen.to_dict(), mock_id=2, now=T0)
    assert (other.mock_id, other.position, other.unsaved_s) == (2, 0, {})
    assert ScreenTime.resume(None, mock_id=3, now=T0).mock_id == 3
