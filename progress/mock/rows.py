"""Mock interviews as stored rows: the mock (config, problems, deadline, result) and its answers.

Plain persistence: deciding whether an answer is late, or when a mock ends, is the caller's business;
these functions store what they are given, each call in its own transaction. The ``*_in`` functions
do the same inside the caller's transaction (from :meth:`Store.connect`), so that a check and the
write it allows are one transaction. The schema lets at most one mock run at a time.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from progress.store import Store
from progress.utc import from_iso, to_iso

#: The largest rowid SQLite can store (a signed 64-bit integer).
MAX_ROW_ID = 2**63 - 1


class MockRunningError(RuntimeError):
    """Another mock is still running; finish it (or let it run out) before starting a new one."""

    def __init__(self, mock_id: int | None) -> None:
        which = f"mock #{mock_id}" if mock_id is not None else "another mock"
        super().__init__(f"{which} is still running: resume or finish it before starting another")
        self.mock_id = mock_id


class MockSettledError(RuntimeError):
    """The mock's score is final: its answers, ratings and explanation checks can no longer change."""

    def __init__(self, mock_id: int) -> None:
        super().__init__(f"mock #{mock_id} is settled: its score is final and its answers cannot change")
        self.mock_id = mock_id


class MockStatus(StrEnum):
    """Whether a mock is still being answered."""

    RUNNING = "running"
    FINISHED = "finished"


@dataclass(frozen=True)
class Mock:
    """A stored mock. ``duration_s`` is the seconds from start to deadline; ``config`` and ``problems`` are
    the JSON the mock was created with; ``score`` (0..1) and ``scorecard`` (Markdown) are set at the finish.
    """

    id: int
    created_at: datetime
    started_at: datetime
    deadline: datetime
    finished_at: datetime | None
    duration_s: float
    config: dict[str, Any]
    problems: list[dict[str, Any]]
    status: MockStatus
    score: float | None
    scorecard: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Mock:
        """A mock from its ``mocks`` row."""
        return cls(
            id=int(row["id"]),
            created_at=from_iso(row["created_at"]),
            started_at=from_iso(row["started_at"]),
            deadline=from_iso(row["deadline"]),
            finished_at=from_iso(row["finished_at"]) if row["finished_at"] else None,
            duration_s=float(row["duration_s"]),
            config=json.loads(row["config"]),
            problems=json.loads(row["problems"]),
            status=MockStatus(row["status"]),
            score=row["score"],
            scorecard=row["scorecard"],
        )


@dataclass(frozen=True)
class MockAnswer:
    """The latest answer at one position (0-based) of a mock; ``time_spent_s`` in seconds."""

    mock_id: int
    position: int
    response: str
    answered_at: datetime
    time_spent_s: float
    self_rating: str | None
    #: The checked explanation of a recall answer, confirmed at the debrief (JSON object), or None.
    explanation: dict[str, Any] | None = None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> MockAnswer:
        """An answer from its ``mock_answers`` row."""
        return cls(
            mock_id=int(row["mock_id"]),
            position=int(row["position"]),
            response=row["response"],
            answered_at=from_iso(row["answered_at"]),
            time_spent_s=float(row["time_spent_s"]),
            self_rating=row["self_rating"],
            explanation=json.loads(row["explanation"]) if row["explanation"] else None,
        )


def create_mock(
    store: Store,
    *,
    config: Mapping[str, Any],
    problems: Sequence[Mapping[str, Any]],
    started_at: datetime,
    deadline: datetime,
) -> int:
    """Store a new running mock; return its id. ``created_at`` comes from the store's clock.

    Raises :class:`MockRunningError` while another mock is running.
    """
    with store.connect() as conn:
        return insert_mock_in(
            conn,
            created_at=store.now(),
            config=config,
            problems=problems,
            started_at=started_at,
            deadline=deadline,
        )


def insert_mock_in(
    conn: sqlite3.Connection,
    *,
    created_at: datetime,
    config: Mapping[str, Any],
    problems: Sequence[Mapping[str, Any]],
    started_at: datetime,
    deadline: datetime,
) -> int:
    """:func:`create_mock` inside the caller's transaction."""
    duration_s = (deadline - started_at).total_seconds()
    if duration_s <= 0:
        raise ValueError(f"a mock's deadline must come after its start, got {duration_s} s")
    try:
        cursor = conn.execute(
            "INSERT INTO mocks (created_at, started_at, deadline, duration_s, config, problems, status) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                to_iso(created_at),
                to_iso(started_at),
                to_iso(deadline),
                duration_s,
                json.dumps(dict(config)),
                json.dumps([dict(problem) for problem in problems]),
                MockStatus.RUNNING.value,
            ),
        )
    except sqlite3.IntegrityError as exc:  # the unique index on running mocks
        running = running_mock_in(conn)
        raise MockRunningError(running.id if running else None) from exc
    return int(cursor.lastrowid or 0)


def mock_in(conn: sqlite3.Connection, mock_id: int) -> Mock | None:
    """:func:`get_mock` inside the caller's transaction."""
    if not 0 < mock_id <= MAX_ROW_ID:
        return None
    row = conn.execute("SELECT * FROM mocks WHERE id = ?", (mock_id,)).fetchone()
    return Mock.from_row(row) if row else None


def running_mock_in(conn: sqlite3.Connection) -> Mock | None:
    """:func:`running_mock` inside the caller's transaction."""
    row = conn.execute(
        "SELECT * FROM mocks WHERE status = ? ORDER BY started_at DESC, id DESC LIMIT 1",
        (MockStatus.RUNNING.value,),
    ).fetchone()
    return Mock.from_row(row) if row else None


def get_mock(store: Store, mock_id: int) -> Mock | None:
    """The mock with this id, or None (also for an id no SQLite row can have)."""
    if not 0 < mock_id <= MAX_ROW_ID:
        return None
    with store.connect(write=False) as conn:
        return mock_in(conn, mock_id)


def running_mock(store: Store) -> Mock | None:
    """The most recently started mock that is not finished, or None."""
    with store.connect(write=False) as conn:
        return running_mock_in(conn)


def list_mocks(store: Store, *, status: MockStatus | str | None = None) -> list[Mock]:
    """Stored mocks, newest first, optionally only those with ``status``."""
    sql = "SELECT * FROM mocks"
    args: list[str] = []
    if status is not None:
        sql += " WHERE status = ?"
        args.append(MockStatus(status).value)
    with store.connect(write=False) as conn:
        return [Mock.from_row(row) for row in conn.execute(sql + " ORDER BY started_at DESC, id DESC", args)]


def save_mock_answer(
    target: Store | sqlite3.Connection,
    mock_id: int,
    position: int,
    response: str,
    answered_at: datetime,
    time_spent_s: float,
    self_rating: str | None = None,
) -> None:
    """Store the answer at ``position``, replacing an earlier one there.

    ``target`` is a store (its own transaction) or a connection inside the caller's transaction.
    Raises :class:`MockSettledError` for a settled mock.
    """
    if isinstance(target, Store):
        with target.connect() as conn:
            save_mock_answer(conn, mock_id, position, response, answered_at, time_spent_s, self_rating)
        return
    refuse_settled_in(target, mock_id)
    target.execute(
        "INSERT INTO mock_answers (mock_id, position, response, answered_at, time_spent_s, self_rating) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (mock_id, position) DO UPDATE SET "
        "response = excluded.response, answered_at = excluded.answered_at, "
        "time_spent_s = excluded.time_spent_s, self_rating = excluded.self_rating",
        (mock_id, position, response, to_iso(answered_at), float(time_spent_s), self_rating),
    )


def rate_mock_answer(
    store: Store,
    mock_id: int,
    position: int,
    self_rating: str | None,
    explanation: Mapping[str, Any] | None = None,
) -> bool:
    """Set only the self-rating (and the confirmed explanation checks) of a stored answer.

    False when there is no answer at ``position``. Raises :class:`MockSettledError` for a settled mock.
    """
    text = None if explanation is None else json.dumps(dict(explanation), separators=(",", ":"))
    with store.connect() as conn:
        refuse_settled_in(conn, mock_id)
        cursor = conn.execute(
            "UPDATE mock_answers SET self_rating = ?, explanation = ? WHERE mock_id = ? AND position = ?",
            (self_rating, text, mock_id, position),
        )
        return cursor.rowcount > 0


def refuse_settled_in(conn: sqlite3.Connection, mock_id: int) -> None:
    """Raise :class:`MockSettledError` when the mock's score is set, inside the caller's write transaction.

    Every write to a mock's answers passes here, in the transaction of the write: a tab that still
    shows the debrief of a mock another tab has settled cannot change what the stored score was made of.
    """
    row = conn.execute("SELECT score FROM mocks WHERE id = ?", (mock_id,)).fetchone()
    if row is not None and row["score"] is not None:
        raise MockSettledError(mock_id)


def mock_answers(store: Store, mock_id: int) -> list[MockAnswer]:
    """The mock's stored answers by position."""
    with store.connect(write=False) as conn:
        rows = conn.execute("SELECT * FROM mock_answers WHERE mock_id = ? ORDER BY position", (mock_id,))
        return [MockAnswer.from_row(row) for row in rows]


def finish_mock(
    store: Store, mock_id: int, finished_at: datetime, score: float | None, scorecard: str | None
) -> bool:
    """Mark a running mock finished with its score and scorecard.

    Returns False (and changes nothing) when the mock does not exist or is already finished, so two
    reruns racing to finish the same mock record one result.
    """
    with store.connect() as conn:
        return finish_mock_in(conn, mock_id, finished_at, score, scorecard)


def finish_mock_in(
    conn: sqlite3.Connection, mock_id: int, finished_at: datetime, score: float | None, scorecard: str | None
) -> bool:
    """:func:`finish_mock` inside the caller's transaction."""
    cursor = conn.execute(
        "UPDATE mocks SET status = ?, finished_at = ?, score = ?, scorecard = ? WHERE id = ? AND status = ?",
        (MockStatus.FINISHED.value, to_iso(finished_at), score, scorecard, mock_id, MockStatus.RUNNING),
    )
    return cursor.rowcount > 0
