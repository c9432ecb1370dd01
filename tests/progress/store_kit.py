"""Test doubles for the progress tests: a fake clock, attempt factories, file fingerprints."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from progress import Attempt, Mode, Status, Store

T0 = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


@dataclass
class FakeClock:
    """A clock that stands still until moved."""

    now: datetime = T0
    calls: int = field(default=0)

    def __call__(self) -> datetime:
        self.calls += 1
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def new_store(tmp_path: Path, clock: FakeClock | None = None) -> Store:
    return Store(tmp_path / "progress.db", clock=clock or FakeClock())


def attempt(**overrides: Any) -> Attempt:
    """A plausible attempt; any field can be overridden."""
    fields: dict[str, Any] = {
        "created_at": T0,
        "template_id": "kv-bytes-per-token",
        "checklist_item": "kv-cache",
        "seed": 1234,
        "params": {"model": "llama2_13b", "dtype": "fp16"},
        "response": "800 KiB",
        "value": 819200.0,
        "status": Status.CORRECT,
        "score": 1.0,
        "diagnosis": None,
        "mode": Mode.PRACTICE,
        "mock_id": None,
        "duration_s": 42.5,
    }
    fields.update(overrides)
    return Attempt(**fields)


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_in_threads(work: Callable[[], object], *, count: int) -> list[BaseException]:
    """Run ``work`` on ``count`` threads started together; return what they raised."""
    errors: list[BaseException] = []

    def guarded() -> None:
        try:
            work()
        except BaseException as exc:  # reported to the caller
            errors.append(exc)

    threads = [threading.Thread(target=guarded) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def schema_file(path: Path, *, version: int) -> sqlite3.Connection:
    """A database at ``path`` with the schema as it was at ``version``; an open autocommit connection."""
    from progress.migrations import MIGRATIONS

    conn = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:version]:
        for statement in migration.statements:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {int(version)}")
    return conn


#: Databases of this app's schema tampered with by hand, each with the name its refusal must give.
TAMPERINGS: dict[str, tuple[str, str]] = {
    "a trigger deleting each stored answer": (
        "CREATE TRIGGER forget AFTER INSERT ON attempts BEGIN DELETE FROM attempts; END",
        "`forget`",
    ),
    "a trigger on the settings": (
        "CREATE TRIGGER nudge AFTER UPDATE ON settings BEGIN UPDATE settings SET value = '0.5'; END",
        "`nudge`",
    ),
    "a view in place of the attempts table": (
        "ALTER TABLE attempts RENAME TO attempts_kept; CREATE VIEW attempts AS SELECT * FROM attempts_kept",
        "`attempts` is a view",
    ),
    "a view beside the tables": ("CREATE VIEW peek AS SELECT * FROM settings", "`peek`"),
    "a table missing": ("DROP TABLE mock_answers", "`mock_answers` is missing"),
}


def tampered_file(path: Path, tampering: str) -> Path:
    """A database of the latest schema at ``path``, holding one attempt, then tampered with as named."""
    Store(path).record_attempt(attempt())
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.executescript(TAMPERINGS[tampering][0])
    finally:
        conn.close()
    return path


#: Attempt rows no version of the app writes, each as the SQL that spoils a good row: a column's
#: value that SQLite keeps whatever the column's declared type.
MALFORMED_ROWS: dict[str, str] = {
    "score inf": "score = 9e999",
    "score -inf": "score = -9e999",
    "score above 1": "score = 1.5",
    "score below 0": "score = -0.5",
    "score text": "score = 'garbage'",
    "created_at text": "created_at = 'garbage'",
    "created_at a number": "created_at = 12345",
    "created_at without a zone": "created_at = '2026-03-02T09:30:00'",
    "day text": "day = 'garbage'",
    "day a number": "day = 20260302",
    "day not a date": "day = '2026-02-30'",
    "day not created_at's": "day = '2026-03-05'",
    "seed text": "seed = 'x'",
    "seed a fraction": "seed = 1.5",
    "params not JSON": "params = 'not json'",
    "params a JSON list": "params = '[1, 2]'",
    "value text": "value = 'abc'",
    "value inf": "value = 9e999",
    "duration negative": "duration_s = -5",
    "duration inf": "duration_s = 9e999",
    "duration text": "duration_s = 'abc'",
    "explanation not JSON": "explanation = '{'",
    "checklist_item empty": "checklist_item = ''",
    "response a blob": "response = x'00ff'",
    "mock_id text": "mock_id = 'x'",
}


def with_malformed_row(store: Store, spoil: str, *, good: int = 3) -> int:
    """``good`` well-formed attempts, then one more spoiled by ``spoil`` (SQL); return the spoiled id."""
    store.record_attempts(attempt(seed=n) for n in range(good))
    [spoiled] = store.record_attempts([attempt(seed=99)])
    conn = sqlite3.connect(store.path, isolation_level=None)
    try:
        conn.execute(f"UPDATE attempts SET {spoil} WHERE id = ?", (spoiled,))
    finally:
        conn.close()
    return spoiled
