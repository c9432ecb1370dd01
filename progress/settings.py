"""The user's settings, kept as JSON values in the ``settings`` table."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import date
from typing import Any, TypedDict


class SettingsDict(TypedDict):
    """JSON-ready form: one key per row of the ``settings`` table."""

    daily_new_limit: int
    desired_retention: float
    interview_date: str | None
    minutes_per_day: int
    mock_updates_schedule: bool


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Scheduling and planning settings.

    ``daily_new_limit``: new cards introduced per UTC day. ``desired_retention``: the probability of recall
    FSRS aims for at each review (0..1, exclusive). ``interview_date``: the day to be ready by, if any.
    ``minutes_per_day``: practice time the plan may use. ``mock_updates_schedule``: whether mock answers
    also review the spaced-repetition cards.
    """

    daily_new_limit: int = 10
    desired_retention: float = 0.9
    interview_date: date | None = None
    minutes_per_day: int = 30
    mock_updates_schedule: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.daily_new_limit, bool) or not isinstance(self.daily_new_limit, int):
            raise TypeError(f"daily_new_limit must be an int, got {self.daily_new_limit!r}")
        if self.daily_new_limit < 0:
            raise ValueError(f"daily_new_limit must be >= 0, got {self.daily_new_limit}")
        if not 0.0 < self.desired_retention < 1.0:
            raise ValueError(f"desired_retention must be between 0 and 1, got {self.desired_retention}")
        if isinstance(self.minutes_per_day, bool) or not isinstance(self.minutes_per_day, int):
            raise TypeError(f"minutes_per_day must be an int, got {self.minutes_per_day!r}")
        if self.minutes_per_day <= 0:
            raise ValueError(f"minutes_per_day must be > 0, got {self.minutes_per_day}")
        if self.interview_date is not None and not isinstance(self.interview_date, date):
            raise TypeError(f"interview_date must be a date or None, got {self.interview_date!r}")
        if not isinstance(self.mock_updates_schedule, bool):
            raise TypeError(f"mock_updates_schedule must be a bool, got {self.mock_updates_schedule!r}")

    def to_dict(self) -> SettingsDict:
        """The JSON-ready form (the interview date as ISO text)."""
        return {
            "daily_new_limit": self.daily_new_limit,
            "desired_retention": self.desired_retention,
            "interview_date": self.interview_date.isoformat() if self.interview_date else None,
            "minutes_per_day": self.minutes_per_day,
            "mock_updates_schedule": self.mock_updates_schedule,
        }

    @classmethod
    def from_dict(cls, source: Mapping[str, Any]) -> Settings:
        """Settings from stored values; a missing key takes its default, an unknown key is ignored."""
        known = {f.name for f in fields(cls)}
        values = {key: value for key, value in source.items() if key in known}
        if values.get("interview_date") is not None:
            values["interview_date"] = date.fromisoformat(values["interview_date"])
        if "desired_retention" in values:
            values["desired_retention"] = float(values["desired_retention"])
        return cls(**values)


#: The ranges the settings form offers; a stored value outside its range is read as the default.
DAILY_NEW_LIMIT_RANGE = (0, 100)
MINUTES_PER_DAY_RANGE = (5, 480)
DESIRED_RETENTION_RANGE = (0.70, 0.97)
#: How far ahead an interview date may lie. The plan simulates every day up to it, so a date centuries
#: ahead would take minutes to plan; no one prepares for an interview two years away.
MAX_INTERVIEW_DAYS_AHEAD = 730


def _whole(value: object, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def _retention(value: object) -> float | None:
    low, high = DESIRED_RETENTION_RANGE
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    # Rounded to the form's whole percent, so that 0.97 stored as 0.9700000001 still reads.
    return float(value) if low <= round(float(value), 4) <= high else None


def _interview_date(value: object, today: date | None) -> date | None:
    if not isinstance(value, str):
        raise ValueError("not a date")
    day = date.fromisoformat(value)
    if today is not None and (day - today).days > MAX_INTERVIEW_DAYS_AHEAD:
        raise ValueError(f"more than {MAX_INTERVIEW_DAYS_AHEAD // 365} years ahead")
    return day


_LABELS = {
    "daily_new_limit": "new cards a day",
    "desired_retention": "recall to aim for",
    "interview_date": "interview date",
    "minutes_per_day": "minutes per day",
    "mock_updates_schedule": "whether mock answers update the schedule",
}


def _checked(key: str, value: object, *, today: date | None) -> object:
    """The setting ``key`` as stored (decoded JSON), within its range; ValueError otherwise."""
    read: object
    if key == "daily_new_limit":
        read = _whole(value, *DAILY_NEW_LIMIT_RANGE)
    elif key == "minutes_per_day":
        read = _whole(value, *MINUTES_PER_DAY_RANGE)
    elif key == "desired_retention":
        read = _retention(value)
    elif key == "interview_date":
        return None if value is None else _interview_date(value, today)
    else:  # mock_updates_schedule
        read = value if isinstance(value, bool) else None
    if read is None:
        raise ValueError("outside the range the settings offer")
    return read


def read_settings(conn: sqlite3.Connection, *, today: date | None = None) -> tuple[Settings, tuple[str, ...]]:
    """The settings stored in the open database, and a notice for each stored value set aside.

    A value that cannot be read, or lies outside the range the settings form offers (an interview date
    more than :data:`MAX_INTERVIEW_DAYS_AHEAD` days after ``today``, when given), is read as its default:
    the pages still work, and saving the settings replaces it. Never raises for what is stored.
    """
    known = {f.name: f.default for f in fields(Settings)}
    values: dict[str, Any] = {}
    notices: list[str] = []
    for key, text in conn.execute("SELECT key, value FROM settings"):
        if key not in known:
            continue
        try:
            values[key] = _checked(key, json.loads(text), today=today)
        except (ValueError, TypeError, RecursionError) as exc:
            shown = text if isinstance(text, str) and len(text) <= 40 else f"{str(text)[:40]}…"
            default = "none" if known[key] is None else json.dumps(known[key])
            notices.append(
                f"The saved {_LABELS[key]} ({shown}) cannot be used ({exc}), so the default ({default}) "
                "applies: save the settings on Readiness to replace it."
            )
    return Settings(**values), tuple(notices)


def load_settings(conn: sqlite3.Connection, *, today: date | None = None) -> Settings:
    """The settings stored in the open database, each unusable value read as its default.

    See :func:`read_settings`, which also says which values were set aside.
    """
    return read_settings(conn, today=today)[0]


def save_settings(conn: sqlite3.Connection, settings: Settings) -> None:
    """Write every setting, inside the caller's transaction."""
    conn.executemany(
        "INSERT INTO settings (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [(key, json.dumps(value)) for key, value in settings.to_dict().items()],
    )
