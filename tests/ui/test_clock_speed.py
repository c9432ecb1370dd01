"""The test-only clocks: DRILL_CLOCK_SPEED makes a session's clock run faster, DRILL_CLOCK_SKIP_FILE moves it
ahead by the seconds its file holds; anything else is the real clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ui.context import FastClock, SkipClock, clock_for


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


def test_a_skip_file_moves_the_clock_ahead_by_what_it_holds(tmp_path: Path) -> None:
    skip = tmp_path / "skip"
    clock = clock_for(None, str(skip))
    assert isinstance(clock, SkipClock)
    assert abs(clock() - datetime.now(UTC)) < timedelta(minutes=1)  # no file yet: the wall clock
    skip.write_text("90", encoding="utf-8")
    ahead = clock() - datetime.now(UTC)
    assert timedelta(seconds=89) < ahead < timedelta(seconds=120)
    assert clock().tzinfo is not None


@pytest.mark.parametrize("text", ["", "soon", "-30", "nan", "inf", "\xff"])
def test_a_skip_file_that_holds_no_positive_number_skips_nothing(tmp_path: Path, text: str) -> None:
    skip = tmp_path / "skip"
    skip.write_bytes(text.encode("latin-1"))
    assert abs(clock_for(None, str(skip))() - datetime.now(UTC)) < timedelta(seconds=30)


def test_a_skip_file_moves_a_fast_clock_too(tmp_path: Path) -> None:
    skip = tmp_path / "skip"
    skip.write_text("3600", encoding="utf-8")
    clock = clock_for("4", str(skip))
    assert isinstance(clock, SkipClock) and isinstance(clock.base, FastClock)
    assert clock() - clock.base() > timedelta(minutes=59)
