"""Per-session context: which database, which clock. Computed inside init, never at import."""

from __future__ import annotations

import functools
import math
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

from ui import state_keys as keys


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class FastClock:
    """A clock that runs ``speed`` times faster than the wall clock from ``anchor`` (aware) on.

    For browser tests only: a one-minute mock then runs out in a fraction of a minute of real
    waiting, through the same code as a real one. Aware UTC, never steps back.
    """

    speed: float
    anchor: datetime

    def __call__(self) -> datetime:
        return self.anchor + (datetime.now(UTC) - self.anchor) * self.speed


@dataclass(frozen=True)
class SkipClock:
    """``base`` moved ahead by the seconds written in the file at ``path`` (none while it is missing,
    unreadable, negative or not a number).

    For browser tests only: a test answers a mock at its own pace and then moves the clock past the
    deadline, instead of waiting for the deadline in real time or racing a fast clock to it.
    """

    base: Callable[[], datetime]
    path: Path

    def __call__(self) -> datetime:
        try:
            ahead = float(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            ahead = 0.0
        if not (math.isfinite(ahead) and ahead > 0):
            ahead = 0.0
        return self.base() + timedelta(seconds=ahead)


@functools.cache
def _server_start() -> datetime:
    # One anchor for the whole server, so that every session (two tabs on one mock) agrees on the time.
    return datetime.now(UTC)


def clock_for(speed_text: str | None, skip_file: str | None = None) -> Callable[[], datetime]:
    """The session clock: the wall clock, or a :class:`FastClock` when ``speed_text`` is a number > 1,
    moved ahead by a :class:`SkipClock` when ``skip_file`` names a file.

    Both are test-only environment variables read when a session starts: ``DRILL_CLOCK_SPEED``
    (anything but a number above 1 means the wall clock's pace) and ``DRILL_CLOCK_SKIP_FILE``.
    """
    clock: Callable[[], datetime] = _utc_now
    try:
        speed = float(speed_text or "")
    except ValueError:
        speed = 1.0
    if speed > 1 and math.isfinite(speed):
        clock = FastClock(speed=speed, anchor=_server_start())
    return SkipClock(base=clock, path=Path(skip_file)) if skip_file else clock


def init_session() -> None:
    """Fill the context keys that a test or an earlier run has not set already."""
    if keys.DB_PATH not in st.session_state:
        from progress import default_db_path

        st.session_state[keys.DB_PATH] = str(default_db_path())
    if keys.CLOCK not in st.session_state:
        st.session_state[keys.CLOCK] = clock_for(
            os.environ.get("DRILL_CLOCK_SPEED"), os.environ.get("DRILL_CLOCK_SKIP_FILE")
        )
    if keys.RNG_SEED not in st.session_state:
        st.session_state[keys.RNG_SEED] = initial_seed(os.environ.get("DRILL_SEED"))


def initial_seed(text: str | None) -> int:
    """The session's first seed: ``DRILL_SEED`` when it is an integer (repeatable sessions), else random."""
    if text is not None and text.strip().lstrip("-").isdecimal():
        return int(text)
    return random.SystemRandom().randrange(2**31)


def next_seed(seed: int) -> int:
    """The seed that follows ``seed``: the chain of problem seeds is a pure function of the first."""
    return random.Random(seed).randrange(2**31)


def db_path() -> Path:
    """The progress database of this session."""
    init_session()
    return Path(st.session_state[keys.DB_PATH])


def now() -> datetime:
    """The current time from this session's clock (aware, UTC)."""
    init_session()
    clock: Callable[[], datetime] = st.session_state[keys.CLOCK]
    return clock()


def new_seed() -> int:
    """A fresh problem seed; repeatable when a test seeds ``RNG_SEED``."""
    init_session()
    seed = next_seed(st.session_state[keys.RNG_SEED])
    st.session_state[keys.RNG_SEED] = seed
    return seed


def user_zone() -> tzinfo:
    """The time zone times are shown in: a test's ``ZONE``, else the browser's, else UTC.

    Times are stored and computed in UTC; only what a person reads is converted.
    """
    chosen = st.session_state.get(keys.ZONE)
    if isinstance(chosen, tzinfo):
        return chosen
    name = st.context.timezone
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass  # a zone this machine does not know: UTC, which the label then says
    return UTC


def local_time(moment: datetime, *, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """``moment`` (aware) in the user's zone, with the zone's short name: ``2026-12-01 14:05 CET``."""
    shown = moment.astimezone(user_zone())
    return f"{shown:{fmt}} {shown.tzname() or 'UTC'}"
