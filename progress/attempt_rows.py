"""Stored attempt rows read strictly: a row that is not a well-formed attempt is skipped and named.

SQLite keeps what it is given whatever a column's declared type (a score of ``inf``, a day of
``'garbage'``, text in an integer column), so a file edited by hand or by another program can hold rows
this app never wrote. One such row must not lose the rest: readers skip it and say which it was.
:data:`WELL_FORMED_SQL` is the same test, for the columns the readiness aggregates read, in SQL.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from progress.attempt import Attempt, Mode, Status
from progress.utc import from_iso

#: Rows named in a notice at most; the count says how many more.
NAMED_IN_NOTICE = 10

# The columns the readiness aggregates read (the covering index's), each as the store writes them.
# ``date(day)`` alone keeps 2026-02-30; the no-op modifier makes SQLite normalise it to another day.
WELL_FORMED_SQL = """(
    typeof(day) = 'text' AND date(day, '+0 days') IS day
    AND typeof(checklist_item) = 'text' AND checklist_item != ''
    AND typeof(score) IN ('integer', 'real') AND score BETWEEN 0 AND 1
    AND (duration_s IS NULL
         OR (typeof(duration_s) IN ('integer', 'real') AND duration_s BETWEEN 0 AND 1.7976931348623157e308))
)"""


@dataclass(frozen=True)
class SkippedRow:
    """A stored row that is not a well-formed attempt: its id and what is wrong with it."""

    id: object
    reason: str


@dataclass(frozen=True)
class RowsRead:
    """The well-formed attempts among some rows, in their order, and the rows skipped."""

    attempts: tuple[Attempt, ...]
    skipped: tuple[SkippedRow, ...]


def read_rows(rows: Iterable[Mapping[str, Any]]) -> RowsRead:
    """Each row as an :class:`Attempt`, skipping (and naming) those that are not well-formed."""
    attempts: list[Attempt] = []
    skipped: list[SkippedRow] = []
    for row in rows:
        try:
            attempts.append(read_row(row))
        except MalformedRowError as exc:
            skipped.append(SkippedRow(exc.row_id, exc.reason))
    return RowsRead(tuple(attempts), tuple(skipped))


class MalformedRowError(ValueError):
    """A stored row is not a well-formed attempt."""

    def __init__(self, row_id: object, reason: str) -> None:
        super().__init__(f"attempt row {row_id!r}: {reason}")
        self.row_id = row_id
        self.reason = reason


def read_row(row: Mapping[str, Any]) -> Attempt:
    """The attempt a row holds; :class:`MalformedRowError` naming the first column that is wrong."""
    row_id = row["id"]
    try:
        _check_types(row)
        attempt = Attempt.from_row(row)
    except MalformedRowError:
        raise
    except (ValueError, TypeError, KeyError, OverflowError, json.JSONDecodeError) as exc:
        raise MalformedRowError(row_id, str(exc)) from None
    if attempt.day.isoformat() != row["day"]:
        raise MalformedRowError(row_id, f"its day {row['day']!r} is not the day of {row['created_at']!r}")
    return attempt


def _check_types(row: Mapping[str, Any]) -> None:
    row_id = row["id"]

    def wrong(column: str, wanted: str) -> MalformedRowError:
        return MalformedRowError(row_id, f"{column} is {row[column]!r}, not {wanted}")

    if not isinstance(row_id, int):
        raise wrong("id", "a whole number")
    for column in ("created_at", "day", "template_id", "checklist_item", "response", "params"):
        if not isinstance(row[column], str):
            raise wrong(column, "text")
    from_iso(row["created_at"])  # ValueError for text that is not an aware time
    date.fromisoformat(row["day"])
    if isinstance(row["seed"], bool) or not isinstance(row["seed"], int):
        raise wrong("seed", "a whole number")
    for column in ("score", "value", "duration_s"):
        found = row[column]
        if found is None and column != "score":
            continue
        if isinstance(found, bool) or not isinstance(found, int | float) or not math.isfinite(found):
            raise wrong(column, "a finite number")
    for column in ("diagnosis", "explanation"):
        if row[column] is not None and not isinstance(row[column], str):
            raise wrong(column, "text")
    if row["mock_id"] is not None and not isinstance(row["mock_id"], int):
        raise wrong("mock_id", "a whole number")
    Status(row["status"])
    Mode(row["mode"])
    for column in ("params", "explanation"):
        if row[column] and not isinstance(json.loads(row[column]), dict):
            raise wrong(column, "a JSON object")


def skipped_notice(skipped: Iterable[object], *, where: str) -> str:
    """One sentence naming skipped rows (ids, or :class:`SkippedRow`s) and what was done with the rest."""
    ids = [s.id if isinstance(s, SkippedRow) else s for s in skipped]
    named = ", ".join(f"#{row_id}" for row_id in ids[:NAMED_IN_NOTICE])
    more = f" and {len(ids) - NAMED_IN_NOTICE} more" if len(ids) > NAMED_IN_NOTICE else ""
    rows = "row" if len(ids) == 1 else "rows"
    return (
        f"{len(ids)} stored answer {rows} could not be read ({named}{more}) and {where}; every other "
        "answer is included. The file has not been changed."
    )
