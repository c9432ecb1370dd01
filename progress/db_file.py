"""What is at a database path, checked before SQLite opens it: nothing, an empty file, or SQLite."""

from __future__ import annotations

import os
import stat
from enum import Enum
from pathlib import Path

from progress.errors import CorruptDatabaseError, DatabaseAccessError

_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 100


class FileState(Enum):
    """What is at a database path that may be opened: nothing yet, an empty file, or an SQLite file."""

    MISSING = "missing"
    EMPTY = "empty"
    SQLITE = "sqlite"


def file_state(path: Path) -> FileState:
    """What is at ``path``; a StoreError naming it for anything SQLite must not open.

    Refused: a folder, anything but a regular file (opening a FIFO blocks for ever; a device such as
    /dev/null swallows every write), an unreadable file, a file that is not SQLite or is cut short.
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return FileState.MISSING
    except OSError as exc:
        raise DatabaseAccessError(path, exc.strerror or str(exc)) from exc
    if stat.S_ISDIR(mode):
        raise DatabaseAccessError(path, "it is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise DatabaseAccessError(
            path, "it is not a regular file (a FIFO, a device such as /dev/null, or a socket)"
        )
    try:
        with path.open("rb") as file:
            header = file.read(_HEADER_BYTES)
    except OSError as exc:
        raise DatabaseAccessError(path, exc.strerror or str(exc)) from exc
    if not header:
        return FileState.EMPTY
    if not header.startswith(_SQLITE_MAGIC):
        raise CorruptDatabaseError(path, "it is not an SQLite database")
    if len(header) < _HEADER_BYTES:
        raise CorruptDatabaseError(path, "it is cut short (no complete SQLite header)")
    return FileState.SQLITE
