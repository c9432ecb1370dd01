"""Every stored attempt as CSV or JSON text, for ``python -m progress export`` and the app's download."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from os import PathLike
from pathlib import Path

from progress.attempt import COLUMNS, Attempt
from progress.attempt_rows import RowsRead, SkippedRow, read_rows, skipped_notice
from progress.read_only_copy import read_only_copy


class ExportFormat(StrEnum):
    """The export's text formats."""

    CSV = "csv"
    JSON = "json"


def attempts_json(attempts: Iterable[Attempt]) -> str:
    """A JSON list with one object per attempt (keys in column order, ``params`` an object)."""
    return json.dumps([attempt.to_dict() for attempt in attempts], indent=2) + "\n"


# A text cell starting with one of these is read as a formula by spreadsheets (=HYPERLINK(...) and
# the like); a tab too, since some programs strip it and read what follows.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t")


def spreadsheet_safe(value: object) -> object:
    """``value`` as a CSV cell: text that a spreadsheet would run as a formula gets a leading ``'``.

    Only text is escaped: a number (a negative one too) stays a number.
    """
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def attempts_csv(attempts: Iterable[Attempt]) -> str:
    """A header line, then one row per attempt; ``params`` as JSON text, missing values empty.

    Text cells that a spreadsheet would read as a formula are escaped (:func:`spreadsheet_safe`).
    """
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for attempt in attempts:
        row: dict[str, object] = dict(attempt.to_dict())
        row["params"] = attempt.params_json()
        row["explanation"] = attempt.explanation_json()
        writer.writerow({name: spreadsheet_safe(value) for name, value in row.items()})
    return buffer.getvalue()


@dataclass(frozen=True)
class Export:
    """An export's text, and the stored rows left out of it because they are not well-formed attempts."""

    text: str
    skipped: tuple[SkippedRow, ...] = ()

    @property
    def notice(self) -> str:
        """A sentence naming the rows left out; empty when none were."""
        return skipped_notice(self.skipped, where="were left out of the export") if self.skipped else ""


def export_attempts(path: str | PathLike[str], export_format: ExportFormat | str) -> str:
    """Every well-formed attempt in the database at ``path``, oldest first, as text in ``export_format``.

    The file is only read, from an in-memory copy (:mod:`progress.read_only_copy`): a database that does not
    exist yet, or is empty, exports as empty and is neither created nor written; one on read-only
    media exports too. :func:`export_report` also names the rows left out.
    """
    return export_report(path, export_format).text


def export_report(path: str | PathLike[str], export_format: ExportFormat | str) -> Export:
    """:func:`export_attempts` with the malformed rows it skipped (:mod:`progress.attempt_rows`)."""
    export_format = ExportFormat(export_format)
    copy = read_only_copy(Path(path).expanduser())
    read = RowsRead((), ())
    if copy is not None:
        try:
            read = read_rows(copy.execute("SELECT * FROM attempts ORDER BY created_at, id"))
        finally:
            copy.close()
    attempts = read.attempts
    text = attempts_json(attempts) if export_format is ExportFormat.JSON else attempts_csv(attempts)
    return Export(text, read.skipped)
