"""One run per device across processes: an advisory file lock per device kind.

Two runs on one device at once (two terminals, or a terminal and the app) each see the other's
traffic and both save skewed figures, so the second is refused. The lock is ``flock`` on a small
file; the kernel drops it when the holder exits, however it exits, so a crashed run never leaves
a stale lock. The file holds the holder's process id and what it runs, for the refusal message.
Where ``fcntl`` does not exist (Windows) only the in-process lock applies.

The file is written, so it lives in a folder only this user can enter: the per-user runtime
folder when the system provides one (``$XDG_RUNTIME_DIR``), else ``roofline-drill-<uid>`` in the
temporary folder, which is created with mode 0700 and checked on every run (a real folder, owned
by this user, no access for group or others). A folder in a shared temporary folder can be planted
by another local user, and so can a symbolic link in place of the file, which would make the lock
truncate whatever the link points at: the file is opened with ``O_NOFOLLOW`` (a link is refused,
never followed) and must be a regular file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import IO

from gpu_checks.errors import RunInProgressError, UnsafeLockError

#: The folder's permission bits must leave group and others out.
_SHARED_BITS = stat.S_IRWXG | stat.S_IRWXO
_WRITABLE_BY_OTHERS = stat.S_IWGRP | stat.S_IWOTH


def default_lock_dir() -> Path:
    """The lock folder: in ``$XDG_RUNTIME_DIR``, else ``roofline-drill-<uid>`` in the temporary folder."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_absolute():
        return Path(runtime) / "roofline-drill"
    return Path(tempfile.gettempdir()) / f"roofline-drill-{uid}"


def private_folder(folder: Path) -> Path:
    """``folder``, created with mode 0700 when missing; raises :class:`UnsafeLockError` unless it is private.

    Private means: a folder (not a link to one), owned by this user, with no permission for group
    or others. A folder of this user's that only it can write to is made 0700; one that others can
    write to is refused, with what to do, and left as it is.
    """
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700, parents=True)
    info = folder.lstat()
    what = f"the lock folder {folder}"
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeLockError(f"{what} is a symbolic link; remove it (another user may have planted it)")
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeLockError(f"{what} is not a folder; remove it and start the run again")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise UnsafeLockError(f"{what} belongs to another user; remove it and start the run again")
    if info.st_mode & _WRITABLE_BY_OTHERS == 0 and info.st_mode & _SHARED_BITS:
        # Readable by others but writable only by this user (an earlier version made it 0755): nothing
        # could have been planted in it, so it is made private rather than refused.
        folder.chmod(0o700)
        info = folder.lstat()
    if info.st_mode & _SHARED_BITS:
        raise UnsafeLockError(
            f"{what} is open to other users (mode {stat.S_IMODE(info.st_mode):04o}); "
            f"make it private with `chmod 700 {folder}`, or remove it"
        )
    return folder


def open_lock_file(path: Path) -> IO[str]:
    """``path`` opened for reading and writing, created 0600; a link or a non-regular file is refused.

    ``O_NOFOLLOW`` refuses a link at the last step; ``O_NONBLOCK`` keeps a planted FIFO from blocking
    the open, and the file is then checked to be a regular one.
    """
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise UnsafeLockError(
                f"the lock file {path} is a symbolic link; it was not followed: remove it and start again"
            ) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafeLockError(f"the lock file {path} is not a regular file; remove it and start again")
    return os.fdopen(fd, "r+", encoding="utf-8")


class DeviceLock:
    """An exclusive, non-blocking lock on ``device_key`` (``cpu``, ``cuda``, ``mps``) under ``lock_dir``.

    ``acquire`` raises :class:`RunInProgressError` naming the holder when another open lock on
    the same file exists, in this process or another, and :class:`UnsafeLockError` when the folder
    or the file is not this user's alone.
    """

    def __init__(self, *, lock_dir: Path, device_key: str) -> None:
        self.path = lock_dir / f"gpu-checks-{device_key}.lock"
        self.device_key = device_key
        self._handle: IO[str] | None = None

    def acquire(self, *, what: str) -> None:
        """Take the lock and record ``what`` runs; raise :class:`RunInProgressError` when held."""
        try:
            import fcntl
        except ImportError:  # no advisory locks on this platform: the in-process lock still holds
            return
        private_folder(self.path.parent)
        handle = open_lock_file(self.path)
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip()[:200] or "another process"
            handle.close()
            raise RunInProgressError(
                f"another GPU-check run is using {self.device_key} ({holder}); two runs at once skew "
                "each other's figures: wait for it to finish or stop it, then start again"
            ) from None
        # Only the holder of the lock rewrites the file, and only after taking it.
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}, {what}")
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        """Let the next run in (closing the file drops the lock)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
