"""UTC time as the store keeps it: aware datetimes in, ISO 8601 text with an offset on disk."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

#: A zero-argument callable returning the current aware datetime; injected so tests control time.
Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The real current time, aware, in UTC."""
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` converted to UTC; a naive datetime is refused because its zone is a guess."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"expected an aware datetime, got naive {moment.isoformat()}")
    return moment.astimezone(UTC)


def to_iso(moment: datetime) -> str:
    """ISO 8601 text in UTC, always with microseconds, so that stored times sort as text."""
    return as_utc(moment).isoformat(timespec="microseconds")


def from_iso(text: str) -> datetime:
    """The aware UTC datetime of stored ISO 8601 text."""
    return as_utc(datetime.fromisoformat(text))


def utc_day(moment: datetime) -> date:
    """The UTC calendar day of ``moment``."""
    return as_utc(moment).date()


def day_start(day: date) -> datetime:
    """Midnight UTC at the start of ``day``."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)
