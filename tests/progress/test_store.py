"""The store: lazy opening, attempts round-trip and filters, settings, transactions, locks."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from store_kit import T0, FakeClock, attempt, new_store, run_in_threads

from progress import DatabaseBusyError, Mode, Settings, Status, Store


def test_nothing_is_created_until_first_use(tmp_path):
    store = Store(tmp_path / "deep" / "er" / "progress.db")
    assert not (tmp_path / "deep").exists()
    assert store.attempt_count() == 0
    assert store.path.is_file()


def test_attempt_round_trips_every_field(tmp_path):
    store = new_store(tmp_path)
    original = attempt(
        created_at=datetime(2026, 3, 2, 23, 30, tzinfo=timezone(timedelta(hours=-5))),
        diagnosis="heads-not-kv-heads",
        status=Status.INCORRECT,
        score=0.0,
        mode=Mode.MOCK,
        mock_id=7,
    )
    attempt_id = store.record_attempt(original)
    (stored,) = store.attempts()
    assert stored == replace(original, id=attempt_id)
    assert stored.created_at.tzinfo == UTC
    # 23:30 at UTC-5 is the next UTC day.
    assert stored.day == date(2026, 3, 3)


def test_stored_text_is_iso_utc_with_offset(tmp_path):
    store = new_store(tmp_path)
    store.record_attempt(attempt(created_at=datetime(2026, 3, 2, 9, 30, tzinfo=UTC)))
    with store.connect(write=False) as conn:
        row = conn.execute("SELECT created_at, day, params FROM attempts").fetchone()
    assert tuple(row) == (
        "2026-03-02T09:30:00.000000+00:00",
        "2026-03-02",
        '{"dtype":"fp16","model":"llama2_13b"}',
    )


@pytest.mark.parametrize(
    "overrides",
    [
        {"created_at": datetime(2026, 3, 2, 9, 30)},  # naive: its zone would be a guess
        {"status": "unparsable"},
        {"mode": "exam"},
        {"score": 1.5},
        {"duration_s": -1.0},
        {"params": {"x": object()}},
    ],
)
def test_invalid_attempts_are_refused_before_writing(overrides):
    with pytest.raises((ValueError, TypeError)):
        attempt(**overrides)


def test_a_stored_attempt_is_not_stored_twice(tmp_path):
    store = new_store(tmp_path)
    (stored,) = [replace(attempt(), id=store.record_attempt(attempt()))]
    with pytest.raises(ValueError, match="already stored"):
        store.record_attempt(stored)
    assert store.attempt_count() == 1


def test_attempt_filters_and_order(tmp_path):
    store = new_store(tmp_path)
    ids = store.record_attempts(
        [
            attempt(created_at=T0 + timedelta(minutes=3), checklist_item="fusion", template_id="fuse"),
            attempt(created_at=T0, mode=Mode.MOCK, mock_id=1),
            attempt(created_at=T0 + timedelta(minutes=1)),
        ]
    )
    assert [a.id for a in store.attempts()] == [ids[1], ids[2], ids[0]]
    assert [a.id for a in store.attempts(newest_first=True, limit=2)] == [ids[0], ids[2]]
    assert [a.id for a in store.attempts(since=T0 + timedelta(minutes=1))] == [ids[2], ids[0]]
    assert [a.id for a in store.attempts(checklist_item="fusion")] == [ids[0]]
    assert [a.id for a in store.attempts(mode="mock")] == [ids[1]]
    assert store.attempt_count() == 3


def test_record_attempts_is_all_or_none(tmp_path):
    store = new_store(tmp_path)
    good = attempt()
    with pytest.raises(ValueError):
        store.record_attempts([good, replace(good, id=99)])
    assert store.attempt_count() == 0


def test_connect_commits_on_success_and_rolls_back_on_error(tmp_path):
    store = new_store(tmp_path)
    with store.connect() as conn:
        conn.execute("INSERT INTO settings (key, value) VALUES ('kept', '1')")
    with pytest.raises(RuntimeError), store.connect() as conn:
        conn.execute("INSERT INTO settings (key, value) VALUES ('dropped', '1')")
        raise RuntimeError("boom")
    with store.connect(write=False) as conn:
        assert [r[0] for r in conn.execute("SELECT key FROM settings")] == ["kept"]


def test_connections_use_wal_busy_timeout_and_foreign_keys(tmp_path):
    store = new_store(tmp_path)
    with store.connect() as conn:
        assert conn.in_transaction
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_a_store_can_be_used_from_other_threads(tmp_path):
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    assert run_in_threads(lambda: store.record_attempt(attempt()), count=4) == []
    assert store.attempt_count() == 5


def test_settings_default_then_round_trip(tmp_path):
    store = new_store(tmp_path)
    assert store.settings() == Settings()
    assert Settings() == Settings(
        daily_new_limit=10,
        desired_retention=0.9,
        interview_date=None,
        minutes_per_day=30,
        mock_updates_schedule=False,
    )
    chosen = Settings(
        daily_new_limit=3, desired_retention=0.85, interview_date=date(2026, 4, 1), minutes_per_day=45
    )
    store.save_settings(chosen)
    assert new_store(tmp_path).settings() == chosen
    with store.connect(write=False) as conn:
        stored = dict(conn.execute("SELECT key, value FROM settings").fetchall())
    assert stored["interview_date"] == '"2026-04-01"'
    assert stored["mock_updates_schedule"] == "false"


@pytest.mark.parametrize(
    "overrides",
    [{"daily_new_limit": -1}, {"desired_retention": 1.0}, {"minutes_per_day": 0}, {"daily_new_limit": 2.5}],
)
def test_invalid_settings_are_refused(overrides):
    with pytest.raises((ValueError, TypeError)):
        Settings(**overrides)


def test_an_unusable_setting_is_read_as_its_default_with_a_notice(tmp_path):
    store = new_store(tmp_path)
    with store.connect() as conn:
        conn.execute("INSERT INTO settings (key, value) VALUES ('desired_retention', '7')")
    settings, notices = store.settings_read()
    assert settings == Settings() and store.settings() == Settings()
    assert len(notices) == 1 and "recall to aim for (7)" in notices[0] and "default (0.9)" in notices[0]


def test_store_clock_is_injected_and_utc(tmp_path):
    clock = FakeClock(now=datetime(2026, 3, 2, 12, tzinfo=timezone(timedelta(hours=2))))
    assert new_store(tmp_path, clock).now() == datetime(2026, 3, 2, 10, tzinfo=UTC)


class _QuickStore(Store):
    busy_timeout_ms = 20
    lock_tries = 3
    retry_pause_s = 0.01


def _hold_write_lock(path):
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_lock_released_soon_is_waited_for(tmp_path):
    store = new_store(tmp_path)
    store.attempt_count()
    holder = _hold_write_lock(store.path)
    timer = threading.Timer(0.2, lambda: holder.execute("COMMIT"))
    timer.start()
    try:
        assert store.record_attempt(attempt()) == 1  # waits inside SQLite's busy timeout
    finally:
        timer.join()
        holder.close()


def test_a_lock_that_outlasts_every_retry_is_a_store_error(tmp_path):
    store = _QuickStore(tmp_path / "progress.db")
    store.attempt_count()
    holder = _hold_write_lock(store.path)
    try:
        with pytest.raises(DatabaseBusyError) as caught:
            store.record_attempt(attempt())
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    message = str(caught.value)
    assert str(store.path) in message
    assert "database is locked" not in message
    assert store.record_attempt(attempt()) == 1  # nothing half-written, usable again


def test_progress_imports_neither_streamlit_nor_torch():
    probe = (
        "import sys, progress, progress.mock.rows, progress.export, progress.__main__; "
        "print(sorted(m for m in ('streamlit', 'torch', 'fsrs.optimizer') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


def test_practised_names_a_draw_answered_in_practice(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    assert not store.practised("kv-bytes-per-token", 1234)  # nothing stored yet, no file needed
    store.record_attempt(attempt(mode=Mode.MOCK, mock_id=1))
    store.record_attempt(attempt(seed=99))
    assert not store.practised("kv-bytes-per-token", 1234)  # only in a mock, or another draw
    assert not store.practised("ridge-point-bf16", 99)
    store.record_attempt(attempt())
    assert store.practised("kv-bytes-per-token", 1234)
