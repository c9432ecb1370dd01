"""Everything the progress store refuses, in one tree. Each message names the file and what to do.

    StoreError                  the base: catch this to show the message and stop
    ├── DatabaseAccessError     the path cannot be opened or written (a folder, a FIFO, no permission)
    │   └── VanishedDatabaseError   the file was deleted or emptied while the app was using it
    ├── CorruptDatabaseError    the file is not an intact progress database of this app
    ├── NewerSchemaError        the file was written by a newer version of the app
    ├── DatabaseBusyError       another process kept the file locked for too long
    └── DiskFullError           the disk (or the file's size limit) has no room for the write

A refused file is never changed: no migration, no repair, no replacement. A file that vanished is
never re-created behind the user's back: only :meth:`progress.Store.start_afresh` (the user's choice)
or a first run that never saw the file creates one.
"""

from __future__ import annotations

from pathlib import Path

_UNCHANGED = "It has not been changed"


class StoreError(Exception):
    """The progress store cannot do what was asked; ``path`` is the database file."""

    def __init__(self, message: str, *, path: Path) -> None:
        super().__init__(message)
        self.path = path


class DatabaseAccessError(StoreError):
    """The database path cannot be opened or written."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            f"Cannot use the progress database {path}: {reason}. {_UNCHANGED}: fix its permissions, "
            "or point DRILL_DB at another (ordinary) file.",
            path=path,
        )


class CorruptDatabaseError(StoreError):
    """The file is not a readable SQLite database of this app (random bytes, truncated, text...)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            f"The progress database {path} cannot be read: {reason}. {_UNCHANGED}: move it aside "
            "(keep it if it holds progress you want) or point DRILL_DB elsewhere to start afresh.",
            path=path,
        )


class NewerSchemaError(StoreError):
    """The file's schema version is newer than this code knows."""

    def __init__(self, path: Path, *, found: int, known: int) -> None:
        super().__init__(
            f"The progress database {path} was written by a newer Roofline Drill (schema version {found}; "
            f"this one knows up to {known}). {_UNCHANGED}: upgrade Roofline Drill, or point DRILL_DB "
            "elsewhere.",
            path=path,
        )
        self.found = found
        self.known = known


class DatabaseBusyError(StoreError):
    """Another process held the write lock through every retry."""

    def __init__(self, path: Path, *, waited_s: float | None = None) -> None:
        waited = "" if waited_s is None else f" for {waited_s:.1f} s"
        super().__init__(
            f"The progress database {path} stayed busy{waited} (another Roofline Drill "
            "window or process is writing to it). Nothing was saved from this step: try again.",
            path=path,
        )


class VanishedDatabaseError(DatabaseAccessError):
    """The file was deleted, or truncated to 0 bytes, after this process had opened it."""

    def __init__(self, path: Path, *, emptied: bool) -> None:
        what = "was emptied (0 bytes)" if emptied else "was deleted"
        StoreError.__init__(
            self,
            f"The progress database {path} {what} while Roofline Drill was using it. Nothing was "
            "re-created, so your history is not silently replaced: restore the file from a backup or the "
            "trash and reload, or choose to start a new, empty progress file, or point DRILL_DB elsewhere.",
            path=path,
        )
        self.emptied = emptied


class DiskFullError(StoreError):
    """SQLite found no room for the write (disk full, quota, or the file's size limit)."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"The disk holding the progress database {path} is full. Nothing was lost: the saved "
            "progress is intact and only this step was not saved. Free some disk space, then try again.",
            path=path,
        )
