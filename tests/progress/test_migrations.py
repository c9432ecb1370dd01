"""Schema versions: a new file gets the contract's schema; a file that is not ours is refused untouched."""

from __future__ import annotations

import os
import sqlite3

import pytest
from store_kit import attempt, fingerprint, new_store, run_in_threads

from progress import CorruptDatabaseError, DatabaseAccessError, NewerSchemaError, Store, StoreError
from progress.migrations import LATEST_VERSION, MIGRATIONS

# The contract's migration 1, written out again here so that an edit to the migration shows up.
SCHEMA_1 = {
    "attempts": [
        "id", "created_at", "day", "template_id", "checklist_item", "seed", "params", "response", "value",
        "status", "score", "diagnosis", "mode", "mock_id", "duration_s",
    ],
    "cards": [
        "template_id", "checklist_item", "card", "due", "stability", "difficulty", "state", "last_review",
        "created_at",
    ],
    "review_logs": ["id", "template_id", "rating", "reviewed_at", "day", "log"],
    "mocks": [
        "id", "created_at", "started_at", "deadline", "finished_at", "duration_s", "config", "problems",
        "status", "score", "scorecard",
    ],
    "mock_answers": ["mock_id", "position", "response", "answered_at", "time_spent_s", "self_rating"],
    "settings": ["key", "value"],
}  # fmt: skip
#: Columns later migrations add at the end of their tables.
LATER_COLUMNS = {"attempts": ["explanation"], "mock_answers": ["explanation"]}
INDEXES_1 = {
    "attempts_item_time": ("attempts", ["checklist_item", "created_at"]),
    "attempts_template_time": ("attempts", ["template_id", "created_at"]),
    "attempts_day": ("attempts", ["day"]),
    "cards_due": ("cards", ["due"]),
    "review_logs_day": ("review_logs", ["day"]),
}


def _raw(path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def test_a_new_file_gets_migration_1_exactly(tmp_path):
    store = new_store(tmp_path)
    store.attempt_count()
    conn = _raw(store.path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION == len(MIGRATIONS)
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert sorted(tables) == sorted(SCHEMA_1)
        for table, columns in SCHEMA_1.items():
            expected = columns + LATER_COLUMNS.get(table, [])
            assert [r[1] for r in conn.execute(f"PRAGMA table_info({table})")] == expected
        for index, (table, columns) in INDEXES_1.items():
            assert conn.execute("SELECT tbl_name FROM sqlite_master WHERE name = ?", (index,)).fetchone() == (
                table,
            )
            assert [r[2] for r in conn.execute(f"PRAGMA index_info({index})")] == columns
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_the_contract_constraints_hold(tmp_path):
    store = new_store(tmp_path)
    with pytest.raises(sqlite3.IntegrityError), store.connect() as conn:
        conn.execute(
            "INSERT INTO attempts (created_at, day, template_id, checklist_item, seed, response, status, "
            "score, mode) VALUES ('t', 'd', 'x', 'y', 1, 'r', 'unparsable', 0, 'practice')"
        )


def test_reopening_keeps_data_and_does_not_migrate_again(tmp_path):
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    again = new_store(tmp_path)
    assert again.attempt_count() == 1
    with again.connect(write=False) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION


def test_a_version_2_file_gains_explanation_columns_and_keeps_its_answers(tmp_path):
    path = tmp_path / "progress.db"
    conn = _raw(path)
    for migration in MIGRATIONS[:2]:
        for statement in migration.statements:
            conn.execute(statement)
    conn.execute(
        "INSERT INTO attempts (created_at, day, template_id, checklist_item, seed, response, status, score, "
        "mode) VALUES ('2026-01-02T03:04:05+00:00', '2026-01-02', 'fusion-why', 'fusion', 1, 'good', "
        "'correct', 1.0, 'practice')"
    )
    conn.execute("PRAGMA user_version = 2")
    conn.close()
    (old,) = Store(path).attempts()
    assert old.template_id == "fusion-why" and old.explanation is None
    Store(path).record_attempt(attempt(explanation={"text": "fused", "made": [True, False]}))
    assert [a.explanation for a in Store(path).attempts()] == [None, {"text": "fused", "made": [True, False]}]
    with Store(path).connect(write=False) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION


def test_an_empty_file_is_an_empty_database(tmp_path):
    path = tmp_path / "progress.db"
    path.touch()
    assert Store(path).attempt_count() == 0


def test_two_threads_opening_a_new_file_at_once_both_succeed(tmp_path):
    path = tmp_path / "progress.db"
    assert run_in_threads(lambda: Store(path).record_attempt(attempt()), count=2) == []
    assert Store(path).attempt_count() == 2


def _random_bytes(path):
    path.write_bytes(os.urandom(8192))


def _text_file(path):
    path.write_text("These are my interview notes, not a database.\n" * 50)


def _truncated(path):
    store = Store(path)
    store.record_attempts([attempt(response="x" * 2000) for _ in range(50)])
    conn = _raw(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    size = path.stat().st_size
    os.truncate(path, size // 2)


def _header_only(path):
    path.write_bytes(b"SQLite format 3\x00" + b"\x10\x00")


def _someone_elses_database(path):
    conn = _raw(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.close()


@pytest.mark.parametrize(
    "spoil",
    [_random_bytes, _text_file, _truncated, _header_only, _someone_elses_database],
    ids=lambda f: f.__name__,
)
def test_a_file_that_is_not_an_intact_database_is_refused_untouched(tmp_path, spoil):
    path = tmp_path / "progress.db"
    spoil(path)
    before = fingerprint(path)
    with pytest.raises(CorruptDatabaseError) as caught:
        Store(path).attempts()
    assert str(path) in str(caught.value)
    assert "has not been changed" in str(caught.value)
    assert "DRILL_DB" in str(caught.value)
    assert fingerprint(path) == before


def test_a_newer_schema_is_refused_untouched(tmp_path):
    path = tmp_path / "progress.db"
    Store(path).record_attempt(attempt())
    conn = _raw(path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = fingerprint(path)
    with pytest.raises(NewerSchemaError) as caught:
        Store(path).record_attempt(attempt())
    assert isinstance(caught.value, StoreError)
    assert (caught.value.found, caught.value.known) == (LATEST_VERSION + 1, LATEST_VERSION)
    assert str(path) in str(caught.value)
    assert fingerprint(path) == before


def test_a_folder_is_refused(tmp_path):
    path = tmp_path / "progress.db"
    path.mkdir()
    with pytest.raises(DatabaseAccessError, match="folder"):
        Store(path).attempt_count()
    assert path.is_dir() and not any(path.iterdir())


def test_a_folder_that_cannot_be_created_is_refused(tmp_path):
    (tmp_path / "file").write_text("in the way")
    with pytest.raises(DatabaseAccessError, match="cannot create its folder"):
        Store(tmp_path / "file" / "progress.db").attempt_count()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_a_file_without_read_permission_is_refused_untouched(tmp_path):  # pragma: no cover - not as root
    path = tmp_path / "progress.db"
    Store(path).record_attempt(attempt())
    before = fingerprint(path)
    path.chmod(0)
    try:
        with pytest.raises(DatabaseAccessError, match=str(path)):
            Store(path).attempt_count()
    finally:
        path.chmod(0o600)
    assert fingerprint(path) == before


def test_a_file_deleted_while_in_use_is_not_silently_recreated(tmp_path):
    store = new_store(tmp_path)
    store.record_attempt(attempt())
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"progress.db{suffix}").unlink(missing_ok=True)
    with pytest.raises(DatabaseAccessError):
        store.attempt_count()
    assert not store.path.exists()
