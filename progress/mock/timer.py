"""The mock interview's clock: deadlines and remaining time as pure functions of an injected now.

Nothing here reads the wall clock. The deadline is fixed once, when a mock starts, and stored
with it; every later question (how long is left, is it over, may this answer still count) is
answered from that stored deadline and the ``now`` the caller passes in. All datetimes are
aware and in UTC; durations are in seconds.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta


def _require_aware(moment: datetime, *, name: str) -> None:
    # A naive datetime compared with an aware one raises deep inside a rerun; refuse it here,
    # where the message can say which argument was wrong.
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{name} must be an aware datetime (UTC), got naive {moment.isoformat()}")


def deadline_for(*, started_at: datetime, duration_s: float) -> datetime:
    """The moment a mock started at ``started_at`` and lasting ``duration_s`` seconds ends (UTC)."""
    _require_aware(started_at, name="started_at")
    if not math.isfinite(duration_s) or duration_s <= 0:
        raise ValueError(f"duration_s must be a positive number of seconds, got {duration_s!r}")
    return (started_at + timedelta(seconds=duration_s)).astimezone(UTC)


def remaining(*, deadline: datetime, now: datetime) -> timedelta:
    """Time left until ``deadline`` at ``now``; zero (never negative) once it has passed."""
    _require_aware(deadline, name="deadline")
    _require_aware(now, name="now")
    return max(deadline - now, timedelta(0))


def is_expired(*, deadline: datetime, now: datetime) -> bool:
    """True from the deadline itself onward: an answer stamped exactly at the deadline is late."""
    _require_aware(deadline, name="deadline")
    _require_aware(now, name="now")
    return now >= deadline


def elapsed_s(*, since: datetime, now: datetime) -> float:
    """Seconds from ``since`` to ``now``, never negative (a clock that steps back counts as zero)."""
    _require_aware(since, name="since")
    _require_aware(now, name="now")
    return max((now - since).total_seconds(), 0.0)


def format_remaining(left: timedelta) -> str:
    """``MM:SS`` (or ``H:MM:SS`` from an hour up), rounding partial seconds up.

    Rounding up means the display reads ``00:00`` only when no time is left at all, so a
    countdown never shows zero while answers are still accepted.
    """
    total_s = max(math.ceil(left.total_seconds()), 0)
    hours, rest = divmod(total_s, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes:02d}:{seconds:02d}"
