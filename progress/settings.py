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


def load_settings(conn: sqlite3.Connection) -> Settings:
    """The settings stored in the open database (defaults where none are stored).

    Raises ValueError or TypeError when a stored value cannot be read.
    """
    stored = {key: json.loads(value) for key, value in conn.execute("SELECT key, value FROM settings")}
    return Settings.from_dict(stored)


def save_settings(conn: sqlite3.Connection, settings: Settings) -> None:
    """Write every setting, inside the caller's transaction."""
    conn.executemany(
        "INSERT INTO settings (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [(key, json.dumps(value)) for key, value in settings.to_dict().items()],
    )
