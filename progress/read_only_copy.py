"""A read-only copy of a progress database in memory, for export: the file itself is never written.

The file is opened read-only and copied with SQLite's backup API; the copy is migrated in memory, so
an older file exports with today's columns and nothing on disk changes. A database in WAL mode needs
its ``-shm`` file to be read; where that cannot be created (read-only media, a CD, a mounted snapshot)
the file and its ``-wal`` log are copied to a private temporary folder and read there, so answers not
yet checkpointed into the file are exported too; without a log, the file is opened as immutable.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import urllib.parse
from pathlib import Path

from progress.db_file import FileState, file_state
from progress.errors import CorruptDatabaseError, DatabaseAccessError, NewerSchemaError
from progress.migrations import LATEST_VERSION, migrate, schema_problem, schema_version, user_tables

# Primary result codes (the low byte of the extended code), from sqlite3.h.
_CANTOPEN_OR_READONLY = frozenset({8, 14})  # SQLITE_READONLY, SQLITE_CANTOPEN
_CORRUPT_CODES = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB


def read_only_copy(path: Path) -> sqlite3.Connection | None:
    """An in-memory copy of the database at ``path`` at the latest schema; None when there is none yet.

    A missing or empty file gives None and stays as it is. Anything that is not a progress database
    of this app (or one written by a newer version) raises the store's error naming the file.
    """
    if file_state(path) is not FileState.SQLITE:
        return None
    copy = sqlite3.connect(":memory:", isolation_level=None)
    try:
        _copy_into(path, copy)
        version = schema_version(copy)
        if version > LATEST_VERSION:
            raise NewerSchemaError(path, found=version, known=LATEST_VERSION)
        if version == 0 and user_tables(copy):
            raise CorruptDatabaseError(path, "it holds tables of another program")
        if version > 0 and (problem := schema_problem(copy)) is not None:
            raise CorruptDatabaseError(path, problem)
        copy.execute("BEGIN")
        migrate(copy, from_version=version)
        copy.execute("COMMIT")
    except BaseException:
        copy.close()
        raise
    copy.row_factory = sqlite3.Row
    return copy


def _copy_into(path: Path, copy: sqlite3.Connection) -> None:
    try:
        _backup(f"file:{urllib.parse.quote(str(path))}?mode=ro", path, copy)
        return
    except _CannotOpenError as exc:
        unopened = exc.cause  # most likely WAL without a -shm file on read-only media
    wal = path.with_name(path.name + "-wal")
    if _size(wal) > 0:
        # An immutable open would ignore the log and miss every answer not yet checkpointed into the
        # file: read a private copy of the two files instead, where SQLite may write its -shm file.
        _backup_private_copy(path, wal, copy)
        return
    try:
        _backup(f"file:{urllib.parse.quote(str(path))}?mode=ro&immutable=1", path, copy)
    except _CannotOpenError as exc:
        raise DatabaseAccessError(path, f"it cannot be opened for reading ({unopened}; {exc.cause})") from exc


class _CannotOpenError(Exception):
    def __init__(self, cause: sqlite3.Error) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _backup(uri: str, path: Path, copy: sqlite3.Connection) -> None:
    """Copy the database at ``uri`` into ``copy``; ``_CannotOpenError`` when it cannot be opened so."""
    try:
        source = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise _CannotOpenError(exc) from exc
    try:
        source.backup(copy)
    except sqlite3.DatabaseError as exc:
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        if code in _CORRUPT_CODES:
            raise CorruptDatabaseError(path, str(exc)) from exc
        if code not in _CANTOPEN_OR_READONLY:
            raise
        raise _CannotOpenError(exc) from exc
    finally:
        source.close()


def _backup_private_copy(path: Path, wal: Path, copy: sqlite3.Connection) -> None:
    """Copy the database and its write-ahead log aside, then back up the committed state from there."""
    try:
        with tempfile.TemporaryDirectory(prefix="drill-export-") as folder:
            scratch = Path(folder) / "progress.db"
            shutil.copyfile(path, scratch)
            shutil.copyfile(wal, scratch.with_name(scratch.name + "-wal"))
            try:
                _backup(f"file:{urllib.parse.quote(str(scratch))}?mode=rw", path, copy)
            except _CannotOpenError as exc:
                raise DatabaseAccessError(
                    path, f"its copy cannot be opened for reading ({exc.cause})"
                ) from exc
    except OSError as exc:
        raise DatabaseAccessError(
            path,
            f"its answers are partly in {wal.name}, which cannot be read in place (no {path.name}-shm "
            f"file, and none can be made beside it), and copying both aside failed ({exc.strerror or exc}); "
            "nothing was exported",
        ) from exc


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
