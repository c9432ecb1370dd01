"""The schema, as an ordered list of migrations; ``PRAGMA user_version`` says how many are applied.

A committed migration is never edited: a change to the schema is a new migration at the end.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    """One step of the schema. ``version`` is the ``user_version`` after it is applied."""

    version: int
    description: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        version=1,
        description="attempts, FSRS cards and review logs, mocks and their answers, settings",
        statements=(
            """CREATE TABLE attempts (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL,
  day TEXT NOT NULL,
  template_id TEXT NOT NULL,
  checklist_item TEXT NOT NULL,
  seed INTEGER NOT NULL,
  params TEXT NOT NULL DEFAULT '{}',
  response TEXT NOT NULL,
  value REAL,
  status TEXT NOT NULL CHECK (status IN ('correct', 'incorrect')),
  score REAL NOT NULL,
  diagnosis TEXT,
  mode TEXT NOT NULL CHECK (mode IN ('practice', 'mock')),
  mock_id INTEGER,
  duration_s REAL
)""",
            "CREATE INDEX attempts_item_time ON attempts (checklist_item, created_at)",
            "CREATE INDEX attempts_template_time ON attempts (template_id, created_at)",
            "CREATE INDEX attempts_day ON attempts (day)",
            """CREATE TABLE cards (
  template_id TEXT PRIMARY KEY,
  checklist_item TEXT NOT NULL,
  card TEXT NOT NULL,
  due TEXT NOT NULL,
  stability REAL,
  difficulty REAL,
  state INTEGER NOT NULL,
  last_review TEXT,
  created_at TEXT NOT NULL
)""",
            "CREATE INDEX cards_due ON cards (due)",
            """CREATE TABLE review_logs (
  id INTEGER PRIMARY KEY,
  template_id TEXT NOT NULL,
  rating INTEGER NOT NULL,
  reviewed_at TEXT NOT NULL,
  day TEXT NOT NULL,
  log TEXT NOT NULL
)""",
            "CREATE INDEX review_logs_day ON review_logs (day)",
            """CREATE TABLE mocks (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL,
  started_at TEXT NOT NULL,
  deadline TEXT NOT NULL,
  finished_at TEXT,
  duration_s REAL NOT NULL,
  config TEXT NOT NULL,
  problems TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'finished')),
  score REAL,
  scorecard TEXT
)""",
            """CREATE TABLE mock_answers (
  mock_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  response TEXT NOT NULL,
  answered_at TEXT NOT NULL,
  time_spent_s REAL NOT NULL DEFAULT 0,
  self_rating TEXT,
  PRIMARY KEY (mock_id, position)
)""",
            "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ),
    ),
    Migration(
        version=2,
        description="covering index for the readiness aggregates (answers per item, day and mode)",
        statements=(
            # Leading on day, so the readiness window is a range; the other columns make it covering,
            # so the per-day sums never touch the table rows (params, response) at all.
            "CREATE INDEX attempts_day_item_cover ON attempts (day, checklist_item, mode, score, duration_s)",
        ),
    ),
    Migration(
        version=3,
        description="typed explanations of recall answers: what was written, detected and overruled",
        statements=(
            # JSON text (grader.ExplanationRecord.to_dict); NULL for every other answer.
            "ALTER TABLE attempts ADD COLUMN explanation TEXT",
            "ALTER TABLE mock_answers ADD COLUMN explanation TEXT",
        ),
    ),
    Migration(
        version=4,
        description="at most one running mock, kept by a unique partial index",
        statements=(
            # Two starts racing could leave two running mocks: each older one is finished when the newest
            # started (or at its own deadline, if sooner), so the index below can be built.
            """UPDATE mocks SET status = 'finished',
  finished_at = min(deadline, (SELECT max(started_at) FROM mocks WHERE status = 'running'))
WHERE status = 'running'
  AND id != (SELECT id FROM mocks WHERE status = 'running' ORDER BY started_at DESC, id DESC LIMIT 1)""",
            "CREATE UNIQUE INDEX mocks_one_running ON mocks (status) WHERE status = 'running'",
        ),
    ),
)

#: The schema version this code writes and understands.
LATEST_VERSION: int = MIGRATIONS[-1].version


def schema_version(conn: sqlite3.Connection) -> int:
    """The file's ``PRAGMA user_version`` (0 for a new, empty file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


#: The tables every version of the schema has had since the first.
APP_TABLES: tuple[str, ...] = ("attempts", "cards", "review_logs", "mocks", "mock_answers", "settings")


def schema_problem(conn: sqlite3.Connection) -> str | None:
    """What makes a file of this app's schema unsafe to use, or None.

    Each of the app's tables must be a table: a view in its place answers reads and fails writes. No
    trigger and no view may be present, since the app creates none: a trigger runs on the app's own
    writes (one can delete every answer as it is stored), a view shadows nothing but hides intent.
    """
    kinds = {
        name: kind
        for name, kind in conn.execute(
            "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')"
        )
    }
    for table in APP_TABLES:
        if table not in kinds:
            return f"its table `{table}` is missing"
        if kinds[table] != "table":
            return f"`{table}` is a {kinds[table]}, not the table Roofline Drill created"
    for kind in ("trigger", "view"):
        names = sorted(name for name, found in kinds.items() if found == kind)
        if names:
            listed = ", ".join(f"`{name}`" for name in names)
            plural = "s" if len(names) > 1 else ""
            return f"it carries the {kind}{plural} {listed}, which Roofline Drill did not create"
    return None


def user_tables(conn: sqlite3.Connection) -> list[str]:
    """Names of the tables in the file, SQLite's own excluded."""
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return [name for (name,) in rows]


def migrate(conn: sqlite3.Connection, *, from_version: int) -> int:
    """Apply every migration after ``from_version`` inside the caller's transaction; return the new version.

    DDL is transactional in SQLite, so a failure part way leaves the file as it was.
    """
    version = from_version
    for migration in MIGRATIONS:
        if migration.version <= from_version:
            continue
        for statement in migration.statements:
            conn.execute(statement)
        version = migration.version
    # PRAGMA takes no bound parameters; the value is an int from this module.
    conn.execute(f"PRAGMA user_version = {int(version)}")
    return version
