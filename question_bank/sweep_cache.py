"""What a sweep of the bank found, kept on disk between processes when ``DRILL_SWEEP_CACHE`` names a folder.

The app checks every template when it starts (:func:`question_bank.generation_checks.usable_bank`), a few
seconds of generating and rubric matching that come out the same for an unchanged bank. With the variable
set, each outcome is stored under a key that holds everything it depends on: the template's whole
definition and its seeds, every file of the ``grader`` and ``question_bank`` packages (the code, the
presets and the lexicons), the Python version and every installed distribution's version. A change to any
of them is a new key, so an entry is never used for a bank or code it was not computed from.

Unset (the default), nothing is read or written. The test suite sets it for its whole run, so the bank
is checked once per run rather than once per parallel worker and once per app server it starts. Entries
are small JSON files written whole (a temporary file renamed into place), so processes sharing the folder
never read half of one; a folder that cannot be read or written only means the sweep runs without it.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

_T = TypeVar("_T")
ENV_VAR = "DRILL_SWEEP_CACHE"
#: The packages whose files decide a sweep's outcome.
_HERE = Path(__file__).resolve().parent
_PACKAGE_DIRS = (_HERE.parent / "grader", _HERE)


@functools.cache
def code_fingerprint() -> str:
    """A digest of everything besides the definition that a sweep's outcome depends on."""
    digest = hashlib.sha256(sys.version.encode())
    for root in _PACKAGE_DIRS:
        files = sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for path in files:
            digest.update(f"\0{path.relative_to(root.parent).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    versions = sorted(
        f"{dist.metadata['Name']}=={dist.version}" for dist in importlib.metadata.distributions()
    )
    digest.update("\0".join(versions).encode())
    return digest.hexdigest()


def _folder() -> Path | None:
    where = os.environ.get(ENV_VAR, "")
    return Path(where) if where else None


def cached(
    key: str, compute: Callable[[], _T], *, encode: Callable[[_T], object], decode: Callable[[object], _T]
) -> _T:
    """``compute()``, or what it returned before for ``key`` with the same code (see the module's note)."""
    folder = _folder()
    if folder is None:
        return compute()
    name = hashlib.sha256(f"{code_fingerprint()}\0{key}".encode()).hexdigest()
    path = folder / f"{name}.json"
    try:
        return decode(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        pass  # not there yet (or unreadable): computed below
    value = compute()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(encode(value), out)
        os.replace(temporary, path)
    except OSError:
        pass  # a cache that cannot be written is only slower
    return value
