"""Settings are checked as they are read: a stored value that cannot be read, or lies outside the range
the settings form offers, is read as its default with a notice, and everything that reads settings
(the schedule, the queue, the plan's dates) goes on working."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from fsrs import Rating
from store_kit import T0, attempt, new_store

from progress import Settings, Store, due_queue, review
from progress.settings import MAX_INTERVIEW_DAYS_AHEAD

# (key, stored JSON text) that no form ever saves, each read as the key's default.
UNUSABLE = [
    ("desired_retention", "1e-300"),
    ("desired_retention", "0.999999"),
    ("desired_retention", "0.5"),
    ("desired_retention", '"high"'),
    ("desired_retention", "1e999"),
    ("daily_new_limit", "-1"),
    ("daily_new_limit", "100000000000"),
    ("daily_new_limit", "2.5"),
    ("daily_new_limit", "true"),
    ("minutes_per_day", "0"),
    ("minutes_per_day", "100000"),
    ("minutes_per_day", '"30"'),
    ("mock_updates_schedule", "1"),
    ("interview_date", '"9999-12-31"'),
    ("interview_date", '"garbage"'),
    ("interview_date", "20270101"),
    ("interview_date", "not json"),
    ("minutes_per_day", "[" * 5000),
]


def _stored(store: Store, key: str, text: str) -> None:
    store.save_settings(Settings())
    with store.connect() as conn:
        conn.execute("UPDATE settings SET value = ? WHERE key = ?", (text, key))


@pytest.fixture(params=UNUSABLE, ids=[f"{key}={text[:12]}" for key, text in UNUSABLE])
def unusable(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Store, str]:
    store = new_store(tmp_path)
    key, text = request.param
    _stored(store, key, text)
    return store, key


def test_an_unusable_setting_reads_as_its_default_with_a_notice(unusable: tuple[Store, str]) -> None:
    store, key = unusable
    settings, notices = store.settings_read()
    assert getattr(settings, key) == getattr(Settings(), key)
    assert len(notices) == 1 and "cannot be used" in notices[0] and "save the settings" in notices[0]


def test_the_schedule_still_works_on_an_unusable_setting(unusable: tuple[Store, str]) -> None:
    store, _ = unusable
    for minutes in (0, 10):
        review(
            store, template_id="kv-bytes-per-token", checklist_item="kv-cache", rating=Rating.Good,
            now=T0 + timedelta(minutes=minutes), enable_fuzzing=False, attempt=attempt(seed=minutes),
        )  # fmt: skip
    assert store.attempt_count() == 2
    due_queue(store, templates=[("kv-bytes-per-token", "kv-cache")], now=T0 + timedelta(days=1))


def test_a_tiny_retention_no_longer_loses_the_second_reviews_answer(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    _stored(store, "desired_retention", "1e-300")
    for day in (0, 1):
        review(
            store, template_id="kv-bytes-per-token", checklist_item="kv-cache", rating=Rating.Good,
            now=T0 + timedelta(days=day), attempt=attempt(seed=day, created_at=T0 + timedelta(days=day)),
        )  # fmt: skip
    assert [a.seed for a in store.attempts()] == [0, 1]


@pytest.mark.parametrize("years", [100, 500])
def test_an_interview_date_centuries_ahead_is_set_aside(tmp_path: Path, years: int) -> None:
    store = new_store(tmp_path)
    far = T0.date().replace(year=T0.year + years)
    store.save_settings(Settings(interview_date=far))
    settings, notices = store.settings_read()
    assert settings.interview_date is None
    assert notices and far.isoformat() in notices[0] and "2 years ahead" in notices[0]


def test_an_interview_date_within_reach_or_past_is_kept(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    for day in (T0.date() + timedelta(days=MAX_INTERVIEW_DAYS_AHEAD), T0.date() - timedelta(days=400)):
        store.save_settings(Settings(interview_date=day))
        assert store.settings_read() == (Settings(interview_date=day), ())


def test_settings_the_form_can_save_read_back_without_a_notice(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    for chosen in (
        Settings(daily_new_limit=0, desired_retention=0.70, minutes_per_day=5),
        Settings(
            daily_new_limit=100, desired_retention=0.97, minutes_per_day=480, mock_updates_schedule=True
        ),
    ):
        store.save_settings(chosen)
        assert store.settings_read() == (chosen, ())
