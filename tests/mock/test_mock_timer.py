"""The mock's clock: deadlines and remaining time from a fake, injected now."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from progress.mock.timer import deadline_for, elapsed_s, format_remaining, is_expired, remaining

START = datetime(2026, 11, 29, 16, 0, 0, tzinfo=UTC)


def test_deadline_is_start_plus_duration() -> None:
    assert deadline_for(started_at=START, duration_s=15 * 60) == datetime(2026, 11, 29, 16, 15, tzinfo=UTC)


def test_deadline_from_another_offset_is_stored_in_utc() -> None:
    berlin = START.astimezone(ZoneInfo("Europe/Berlin"))
    deadline = deadline_for(started_at=berlin, duration_s=90)
    assert deadline.utcoffset() == timedelta(0)
    assert deadline == START + timedelta(seconds=90)


@pytest.mark.parametrize("duration_s", [0, -5, float("nan"), float("inf")])
def test_deadline_refuses_durations_that_are_not_positive(duration_s: float) -> None:
    with pytest.raises(ValueError, match="duration_s"):
        deadline_for(started_at=START, duration_s=duration_s)


def test_naive_datetimes_are_refused_with_the_argument_named() -> None:
    with pytest.raises(ValueError, match="now must be an aware"):
        remaining(deadline=START, now=datetime(2026, 11, 29, 16, 0))


@pytest.mark.parametrize(
    ("after_s", "left_s"),
    [(0, 60), (0.25, 59.75), (59, 1), (60, 0), (61, 0), (3600, 0)],
)
def test_remaining_counts_down_and_stops_at_zero(after_s: float, left_s: float) -> None:
    deadline = deadline_for(started_at=START, duration_s=60)
    now = START + timedelta(seconds=after_s)
    assert remaining(deadline=deadline, now=now).total_seconds() == pytest.approx(left_s)


def test_expired_from_the_deadline_itself() -> None:
    deadline = deadline_for(started_at=START, duration_s=60)
    assert not is_expired(deadline=deadline, now=deadline - timedelta(microseconds=1))
    assert is_expired(deadline=deadline, now=deadline)
    assert is_expired(deadline=deadline, now=deadline + timedelta(hours=2))


def test_elapsed_never_negative() -> None:
    assert elapsed_s(since=START, now=START + timedelta(seconds=12.5)) == pytest.approx(12.5)
    assert elapsed_s(since=START, now=START - timedelta(seconds=3)) == 0.0


@pytest.mark.parametrize(
    ("left", "shown"),
    [
        (timedelta(minutes=15), "15:00"),
        (timedelta(seconds=59.2), "01:00"),
        (timedelta(seconds=0.4), "00:01"),
        (timedelta(0), "00:00"),
        (timedelta(seconds=-3), "00:00"),
        (timedelta(hours=1, seconds=5), "1:00:05"),
    ],
)
def test_format_remaining_rounds_up_so_zero_means_over(left: timedelta, shown: str) -> None:
    assert format_remaining(left) == shown
