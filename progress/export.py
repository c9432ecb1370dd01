"""Every stored attempt as CSV or JSON text, for ``python -m progress export`` and the app's download."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from enum import StrEnum
from os import PathLike
from pathlib import Path

from progress.attempt import COLUMNS, Attempt
from progress.store import Store


class ExportFormat(StrEnum):
    """The export's text formats."""

    CSV = "csv"
    JSON = "json"


def attempts_json(attempts: Iterable[Attempt]) -> str:
    """A JSON list with one object per attempt (keys in column order, ``params`` an object)."""
    return json.dumps([attempt.to_dict() for attempt in attempts], indent=2) + "\n"


def attempts_csv(attempts: Iterable[Attempt]) -> str:
    """A header line, then one row per attempt; ``params`` as JSON text, missing values empty."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for attempt in attempts:
        row: dict[str, object] = dict(attempt.to_dict())
        row["params"] = attempt.params_json()
        row["explanation"] = attempt.explanation_json()
        writer.writerow(row)
    return buffer.getvalue()


def export_attempts(path: str | PathLike[str], export_format: ExportFormat | str) -> str:
    """Every attempt in the database at ``path``, oldest first, as text in ``export_format``.

    A database that does not exist yet exports as empty and is not created.
    """
    export_format = ExportFormat(export_format)
    path = Path(path).expanduser()
    attempts = Store(path).attempts() if path.exists() else []
    return attempts_json(attempts) if export_format is ExportFormat.JSON else attempts_csv(attempts)
