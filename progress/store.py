"""The progress store: one SQLite file, opened briefly for each transaction.

Streamlit reruns a script on whichever thread serves the session, so no connection is kept: each
``connect()`` opens one, runs one transaction and closes it. The file runs in WAL mode (readers never
block the writer) with a 5 s busy timeout; taking the write lock is retried with backoff on top of that,
so "database is locked" never reaches the user. A file that is not an intact database of this app, or
that was written by a newer schema, or that is not a regular file (a FIFO, ``/dev/null``), is refused
before anything is written to it. A file that this process has used and that was then deleted or
emptied is refused too, never re-created: only a first run or :meth:`Store.start_afresh` creates one.
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from os import PathLike
from pathlib import Path
from typing import TypeVar

from progress.attempt import COLUMNS, Attempt, Mode
from progress.attempt_rows import read_rows
from progress.db_file import FileState, file_state
from progress.errors import (
    CorruptDatabaseError,
    DatabaseAccessError,
    DatabaseBusyError,
    DiskFullError,
    NewerSchemaError,
    VanishedDatabaseError,
)
from progress.migrations import LATEST_VERSION, migrate, schema_problem, schema_version, user_tables
from progress.settings import Settings, read_settings, save_settings
from progress.utc import Clock, as_utc, system_clock, to_iso

_T = TypeVar("_T")
# Primary result codes (the low byte of the extended code), from sqlite3.h.
_CORRUPT_CODES = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB
_ACCESS_CODES = frozenset({3, 8, 14, 23})  # SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_AUTH
_BUSY_CODES = frozenset({5, 6})  # SQLITE_BUSY, SQLITE_LOCKED
_FULL_CODE = 13  # SQLITE_FULL
_IOERR_CODE = 10  # SQLITE_IOERR
# Below this much free space an I/O error is taken for a full disk: SQLite reports ENOSPC as
# SQLITE_FULL only on a plain write; growing the -shm file, an fsync or a truncate say SQLITE_IOERR.
_FULL_DISK_BYTES = 1 << 20
_ERROR_CODE = 1  # SQLITE_ERROR, e.g. "no such table" in a file emptied under the app
# Databases this process has opened and prepared: one of them missing or empty later was deleted or
# truncated under the app, which is refused rather than silently started afresh. Shared by every
# Store of the process, since a page may build a new Store on each rerun.
_USED: set[Path] = set()
_USED_LOCK = threading.Lock()
_INSERT_ATTEMPT = (
    f"INSERT INTO attempts ({', '.join(c for c in COLUMNS if c != 'id')}) "
    f"VALUES ({', '.join('?' for c in COLUMNS if c != 'id')})"
)


class Store:
    """Progress kept in the SQLite file at ``path`` (created, with its folders, on first use).

    ``clock`` returns the current aware datetime; it stamps rows whose time the caller does not give.
    Every public method runs in its own transaction.
    """

    #: SQLite's own wait for a lock, per try (milliseconds).
    busy_timeout_ms: int = 5000
    #: Tries at taking a lock before giving up; the pause between tries doubles from ``retry_pause_s``.
    lock_tries: int = 4
    retry_pause_s: float = 0.05

    def __init__(self, path: str | PathLike[str], *, clock: Clock | None = None) -> None:
        self.path = Path(path).expanduser()
        self._clock = clock or system_clock
        self._ready = False
        self._ready_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    def now(self) -> datetime:
        """The current time from the store's clock, in UTC."""
        return as_utc(self._clock())

    # --- connections --------------------------------------------------------------------------------

    @contextmanager
    def connect(self, *, write: bool = True) -> Iterator[sqlite3.Connection]:
        """A fresh connection inside one transaction, committed on success and rolled back on error.

        ``write=True`` takes the write lock up front (``BEGIN IMMEDIATE``), so the transaction can never
        fail half way for want of it; ``write=False`` is a read snapshot that does not block writers.
        Rows come back as ``sqlite3.Row``. SQLite errors that mean a damaged, unreadable or busy file
        are raised as the matching ``StoreError``.
        """
        self._ensure_ready()
        conn = self._open(create=False)
        try:
            with self._translated():
                self._with_retry(lambda: self._begin(conn, write=write))
                try:
                    yield conn
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                self._with_retry(lambda: conn.execute("COMMIT"))
        finally:
            conn.close()

    def _open(self, *, create: bool) -> sqlite3.Connection:
        # mode=rw never creates a file: a database deleted under a running app is an error, not a new file.
        mode = "rwc" if create else "rw"
        uri = f"file:{urllib.parse.quote(str(self.path))}?mode={mode}"
        with self._translated():
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
            try:
                conn.row_factory = sqlite3.Row
                conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
                conn.execute("PRAGMA foreign_keys = ON")
                # In WAL mode NORMAL skips the fsync per commit yet keeps every committed write
                # through a crash or kill of the process; only a power cut can lose the last few.
                conn.execute("PRAGMA synchronous = NORMAL")
            except BaseException:
                conn.close()
                raise
        return conn

    @staticmethod
    def _begin(conn: sqlite3.Connection, *, write: bool) -> None:
        if write:
            conn.execute("BEGIN IMMEDIATE")
            return
        conn.execute("BEGIN")
        try:
            # Start the read snapshot now, where a busy file can still be retried.
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _with_retry(self, operation: Callable[[], _T]) -> _T:
        """Run ``operation``, trying again with growing pauses while the file is locked."""
        started = time.monotonic()
        for attempt in range(self.lock_tries):
            try:
                return operation()
            except sqlite3.OperationalError as exc:
                if _primary_code(exc) not in _BUSY_CODES:
                    raise
                if attempt == self.lock_tries - 1:
                    raise DatabaseBusyError(self.path, waited_s=time.monotonic() - started) from exc
            # Jitter keeps two waiting processes from retrying in step.
            time.sleep(self.retry_pause_s * 2**attempt * (1 + random.random()))
        raise AssertionError("unreachable: the last try returns or raises")

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """Raise SQLite errors about the file itself as ``StoreError``s naming the file."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            code = _primary_code(exc)
            vanished = self._vanished() if code in (_ERROR_CODE, _IOERR_CODE, *_ACCESS_CODES) else None
            if vanished is not None:
                raise vanished from exc
            if code in _CORRUPT_CODES:
                raise CorruptDatabaseError(self.path, str(exc)) from exc
            if code in _ACCESS_CODES:
                raise DatabaseAccessError(self.path, str(exc)) from exc
            if code in _BUSY_CODES:
                raise DatabaseBusyError(self.path) from exc
            if code == _FULL_CODE:
                raise DiskFullError(self.path) from exc
            if code == _IOERR_CODE and _disk_full(self.path):
                raise DiskFullError(self.path) from exc
            if code == _IOERR_CODE:
                raise DatabaseAccessError(self.path, f"the disk reported an error ({exc})") from exc
            if code == _ERROR_CODE and str(exc).startswith("no such table"):
                reason = f"its tables are missing ({exc}); it was replaced or damaged while in use"
                raise CorruptDatabaseError(self.path, reason) from exc
            raise

    def _vanished(self) -> VanishedDatabaseError | None:
        """The error for a used file that is now missing or empty, else None."""
        try:
            size = os.stat(self.path).st_size
        except FileNotFoundError:
            return VanishedDatabaseError(self.path, emptied=False) if self._was_used() else None
        except OSError:
            return None
        return VanishedDatabaseError(self.path, emptied=True) if size == 0 and self._was_used() else None

    def _was_used(self) -> bool:
        with _USED_LOCK:
            return self._ready or self.path.absolute() in _USED

    def start_afresh(self) -> None:
        """Create a new, empty database where a used one was deleted or emptied: the user's choice.

        A file that holds data is never replaced: it is checked as on any first open.
        """
        with self._ready_lock, _USED_LOCK:
            _USED.discard(self.path.absolute())
            self._ready = False
        self._ensure_ready()

    # --- first open: refuse what is not ours, then migrate ------------------------------------------

    def _ensure_ready(self) -> None:
        if self._ready:
            return
        with self._ready_lock:
            if not self._ready:
                self._check_file()
                self._prepare()
                with _USED_LOCK:
                    _USED.add(self.path.absolute())
                self._ready = True

    def _check_file(self) -> None:
        """Refuse a path that SQLite must not touch, before SQLite opens it."""
        path = self.path
        state = file_state(path)
        if state is FileState.MISSING:
            if self._was_used():
                raise VanishedDatabaseError(path, emptied=False)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseAccessError(path, f"cannot create its folder ({exc.strerror})") from exc
        elif state is FileState.EMPTY and self._was_used():
            raise VanishedDatabaseError(path, emptied=True)
        # An empty file at a first run is an empty database.

    def _prepare(self) -> None:
        """Check the schema version, switch to WAL and apply pending migrations, in that order."""
        conn = self._open(create=True)
        try:
            with self._translated():
                # Read-only checks first, in one snapshot, so that nothing is written to a refused file.
                if self._checked_version(conn, write=False) == LATEST_VERSION:
                    return
                # The journal mode is kept in the file, so this is paid once per file.
                self._with_retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchall())
                # Another process may have migrated while this one waited for the lock: check again.
                version = self._checked_version(conn, write=True)
                try:
                    if version < LATEST_VERSION:
                        migrate(conn, from_version=version)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
        finally:
            conn.close()

    def _checked_version(self, conn: sqlite3.Connection, *, write: bool) -> int:
        """The file's schema version, read in a new transaction that stays open only when ``write``.

        Refuses a newer schema, a file at version 0 that already holds tables (not ours), and a file
        whose schema was tampered with (see :func:`progress.migrations.schema_problem`).
        """
        self._with_retry(lambda: self._begin(conn, write=write))
        try:
            version = schema_version(conn)
            if version > LATEST_VERSION:
                raise NewerSchemaError(self.path, found=version, known=LATEST_VERSION)
            if version == 0 and user_tables(conn):
                raise CorruptDatabaseError(self.path, "it holds tables of another program")
            if version > 0 and (problem := schema_problem(conn)) is not None:
                raise CorruptDatabaseError(self.path, problem)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        if not write:
            conn.execute("COMMIT")
        return version

    # --- attempts -----------------------------------------------------------------------------------

    def record_attempt(self, attempt: Attempt) -> int:
        """Store one attempt in its own transaction; return its id."""
        return self.record_attempts([attempt])[0]

    def record_attempts(self, attempts: Iterable[Attempt]) -> list[int]:
        """Store attempts in one transaction (all or none); return their ids in order."""
        attempts = list(attempts)
        with self.connect() as conn:
            return insert_attempts(conn, attempts)

    def attempts(
        self,
        *,
        since: datetime | None = None,
        checklist_item: str | None = None,
        mode: Mode | str | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Attempt]:
        """Stored attempts, oldest first (or newest first), optionally filtered and limited.

        ``since`` keeps attempts created at or after that moment. A row that is not a well-formed
        attempt (edited by hand or by another program) is skipped, see :mod:`progress.attempt_rows`.
        """
        clauses: list[str] = []
        args: list[object] = []
        if since is not None:
            clauses.append("created_at >= ?")
            args.append(to_iso(since))
        if checklist_item is not None:
            clauses.append("checklist_item = ?")
            args.append(checklist_item)
        if mode is not None:
            clauses.append("mode = ?")
            args.append(Mode(mode).value)
        sql = "SELECT * FROM attempts"
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        order = "DESC" if newest_first else "ASC"
        sql += f" ORDER BY created_at {order}, id {order}"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        with self.connect(write=False) as conn:
            return list(read_rows(conn.execute(sql, args)).attempts)

    def practised(self, template_id: str, seed: int) -> bool:
        """Whether a practice answer to this draw (template and seed) is stored.

        Seeds are drawn at random from 2**31 values, so a stored pair names one draw that was answered.
        """
        with self.connect(write=False) as conn:
            row = conn.execute(
                "SELECT 1 FROM attempts WHERE template_id = ? AND seed = ? AND mode = 'practice' LIMIT 1",
                (template_id, seed),
            ).fetchone()
        return row is not None

    def attempt_count(self) -> int:
        """How many attempts are stored."""
        with self.connect(write=False) as conn:
            return int(conn.execute("SELECT count(*) FROM attempts").fetchone()[0])

    # --- settings -----------------------------------------------------------------------------------

    def settings(self) -> Settings:
        """The stored settings, defaults where none are stored or a stored one cannot be used."""
        return self.settings_read()[0]

    def settings_read(self) -> tuple[Settings, tuple[str, ...]]:
        """The stored settings and a notice for each stored value set aside for its default.

        An interview date is checked against the store's clock (see :func:`progress.settings.read_settings`).
        """
        with self.connect(write=False) as conn:
            return read_settings(conn, today=self.now().date())

    def save_settings(self, settings: Settings) -> None:
        """Store every setting."""
        with self.connect() as conn:
            save_settings(conn, settings)


def _primary_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def free_bytes(folder: Path) -> int:
    """Free space for this user on the file system holding ``folder``."""
    found = os.statvfs(folder)
    return found.f_bavail * found.f_frsize


def _disk_full(path: Path) -> bool:
    try:
        return free_bytes(path.absolute().parent) < _FULL_DISK_BYTES
    except OSError:
        return False


def insert_attempts(conn: sqlite3.Connection, attempts: Iterable[Attempt]) -> list[int]:
    """Insert attempts inside the caller's transaction (from :meth:`Store.connect`); return their ids.

    For writes that must land together with others, such as an attempt and its card review.
    """
    return [int(conn.execute(_INSERT_ATTEMPT, _attempt_row(attempt)).lastrowid or 0) for attempt in attempts]


def _attempt_row(attempt: Attempt) -> tuple[object, ...]:
    if attempt.id is not None:
        raise ValueError(f"attempt {attempt.id} is already stored")
    stored = attempt.to_dict()
    stored["params"] = attempt.params_json()  # type: ignore[typeddict-item]
    stored["explanation"] = attempt.explanation_json()  # type: ignore[typeddict-item]
    return tuple(stored[name] for name in COLUMNS if name != "id")  # type: ignore[literal-required]
