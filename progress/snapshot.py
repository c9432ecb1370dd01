"""A read-only copy of a progress database in memory, for export: the file itself is never written.

The file is opened read-only and copied with SQLite's backup API; the copy is migrated in memory, so
an older file exports with today's columns and nothing on disk changes. A database in WAL mode needs
its ``-shm`` file to be read; where that cannot be created (read-only media, a CD, a mounted snapshot)
the file is opened as immutable instead: nothing there can be changing it anyway.
"""

from __future__ import annotations

import sqlite3
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
    quoted = urllib.parse.quote(str(path))
    last: sqlite3.Error | None = None
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            source = sqlite3.connect(f"file:{quoted}?{query}", uri=True)
        except sqlite3.Error as exc:
            last = exc
            continue
        try:
            source.backup(copy)
            return
        except sqlite3.DatabaseError as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if code in _CORRUPT_CODES:
                raise CorruptDatabaseError(path, str(exc)) from exc
            if code not in _CANTOPEN_OR_READONLY:
                raise
            last = exc  # most likely WAL without a -shm file on read-only media: try immutable
        finally:
            source.close()
    raise DatabaseAccessError(path, f"it cannot be opened for reading ({last})")
