"""One run per device across processes: an advisory file lock per device kind.

Two runs on one device at once (two terminals, or a terminal and the app) each see the other's
traffic and both save skewed figures, so the second is refused. The lock is ``flock`` on a small
file in a folder shared by the user's processes (the temporary folder by default); the kernel
drops it when the holder exits, however it exits, so a crashed run never leaves a stale lock.
The file holds the holder's process id and what it runs, for the refusal message. Where
``fcntl`` does not exist (Windows) only the in-process lock applies.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO

from gpu_checks.errors import RunInProgressError


def default_lock_dir() -> Path:
    """The folder for lock files: ``roofline-drill-<uid>`` in the temporary folder."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"roofline-drill-{uid}"


class DeviceLock:
    """An exclusive, non-blocking lock on ``device_key`` (``cpu``, ``cuda``, ``mps``) under ``lock_dir``.

    ``acquire`` raises :class:`RunInProgressError` naming the holder when another open lock on
    the same file exists, in this process or another.
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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="utf-8")
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
