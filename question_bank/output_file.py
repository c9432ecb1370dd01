"""Writing a file the command line was told to write: never into a FIFO or a device, never through a link.

Opening a FIFO with no reader for writing blocks for ever, a link sends the bytes wherever it points,
and an existing file may be something the user wants to keep. So :func:`output_refusal` refuses all
three (an existing file unless ``force``), and :func:`write_new` writes a temporary file beside the
target and moves it into place: a link or a FIFO planted after the check is replaced, not written
through, and a half-written file is never left under the target's name.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, TypeVar

_T = TypeVar("_T")


def output_refusal(path: Path, *, flag: str, force: bool) -> str | None:
    """Why ``path`` may not be written (``flag`` names the option that gave it), or None."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: cannot be checked ({exc.strerror or exc}); give {flag} another path"
    if stat.S_ISLNK(info.st_mode):
        return f"{path}: is a symbolic link, and nothing is written through one; give {flag} the real path"
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a FIFO, a device or a socket"
        return f"{path}: is not a regular file ({kind}); give {flag} a new file name"
    if not force:
        return f"{path}: already exists; add --force to overwrite it, or give {flag} a new file name"
    return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_new(path: Path, write: Callable[[IO[bytes]], _T], *, force: bool) -> _T:
    """Write ``path`` through ``write`` (returning what it returns), in a temporary file moved into place.

    Without ``force``, a file that appeared at ``path`` since the check is kept: ``FileExistsError``.
    """
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # as an ordinary new file would be, not mkstemp's 0600
        with os.fdopen(fd, "wb") as file:
            written = write(file)
        if force:
            os.replace(temporary, path)
        else:
            _link_new(temporary, path)
        return written
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _link_new(temporary: str, path: Path) -> None:
    """Give ``temporary`` the name ``path`` only if nothing holds that name (``FileExistsError`` if so)."""
    try:
        os.link(temporary, path)  # fails when something took the name since the check
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: the name is checked once more, then taken
        if os.path.lexists(path):
            raise FileExistsError(17, "File exists", str(path)) from None
        os.replace(temporary, path)
