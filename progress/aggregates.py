"""Aggregates over the progress store, computed in SQL; Python only sees grouped rows.

The per-day sums read the covering index ``attempts_day_item_cover`` over the readiness window only
(migration 2), never the table rows; "was this item or template ever answered" is one index probe per id;
cards, reviews per day and finished mocks are small. What comes back to Python is at most a few thousand
grouped rows however many answers there are; the recency weighting of the readiness rule is then applied to
those rows (see ``progress.readiness``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from fsrs import Card

from progress.attempt_rows import WELL_FORMED_SQL
from progress.readiness_evidence import DayTotal, ItemEvidence
from progress.readiness_rule import DEFAULT_RULE, Rule
from progress.store import Store
from progress.utc import from_iso, utc_day

ITEM_DAY_TOTALS_SQL = f"""
SELECT checklist_item, day, mode = 'mock' AS mock, count(*) AS n_answers, total(score) AS score_sum,
       count(duration_s) AS n_timed, total(min(duration_s, :cap)) AS duration_sum_s,
       total(CASE WHEN duration_s IS NOT NULL THEN score END) AS right_timed,
       total(score * min(duration_s, :cap)) AS right_duration_sum_s
FROM attempts
WHERE day >= :since AND {WELL_FORMED_SQL}
GROUP BY checklist_item, day, mode
"""
# The rows the totals leave out, within the same window (any text day sorts after a number).
_MALFORMED_IDS_SQL = f"SELECT id FROM attempts WHERE day >= :since AND NOT {WELL_FORMED_SQL} ORDER BY id"
# "Has any answer" is one index probe per id (attempts_template_time, attempts_item_time), not a scan.
_TRIED_TEMPLATES = """
SELECT wanted.value FROM json_each(:ids) AS wanted
WHERE EXISTS (SELECT 1 FROM attempts WHERE attempts.template_id = wanted.value)
"""
_STARTED_ITEMS = """
SELECT wanted.value FROM json_each(:ids) AS wanted
WHERE EXISTS (SELECT 1 FROM attempts WHERE attempts.checklist_item = wanted.value)
"""


@dataclass(frozen=True)
class DayCount:
    """How many of something happened on one UTC day."""

    day: date
    count: int


@dataclass(frozen=True)
class DailyAccuracy:
    """Answers and their mean score (0..1) on one UTC day, all items and modes together."""

    day: date
    n_answers: int
    accuracy: float


@dataclass(frozen=True)
class MockScore:
    """A finished mock interview: when it ended and its score (0..1)."""

    mock_id: int
    finished_at: datetime
    score: float


@dataclass(frozen=True)
class Snapshot:
    """Everything the readiness view reads from the store, taken in one read transaction.

    ``version`` changes whenever an answer or a review is stored, so it can key caches of what follows.
    """

    evidence: tuple[ItemEvidence, ...]
    daily_accuracy: tuple[DailyAccuracy, ...]
    reviews_per_day: tuple[DayCount, ...]
    mock_scores: tuple[MockScore, ...]
    version: tuple[int, int]
    #: Ids of the window's stored answers that are not well-formed (a score of inf, a day of
    #: 'garbage'), left out of everything above.
    skipped_rows: tuple[int, ...] = ()

    @property
    def empty(self) -> bool:
        """True when no item has a single answer yet."""
        return not any(e.started for e in self.evidence)


def data_version(conn: sqlite3.Connection) -> tuple[int, int]:
    """(newest attempt id, newest review log id): both grow with every answer and every review."""
    row = conn.execute("SELECT (SELECT max(id) FROM attempts), (SELECT max(id) FROM review_logs)").fetchone()
    return int(row[0] or 0), int(row[1] or 0)


def malformed_rows(conn: sqlite3.Connection, *, since: date) -> list[int]:
    """Ids of the answers from ``since`` on that :func:`item_day_totals` leaves out as malformed."""
    return [row_id for (row_id,) in conn.execute(_MALFORMED_IDS_SQL, {"since": since.isoformat()})]


def item_day_totals(conn: sqlite3.Connection, *, since: date, duration_cap_s: float) -> list[DayTotal]:
    """Answers grouped per (checklist item, UTC day, mode) from ``since`` on; durations capped per answer."""
    rows = conn.execute(ITEM_DAY_TOTALS_SQL, {"since": since.isoformat(), "cap": duration_cap_s})
    return [
        DayTotal(
            checklist_item=item,
            day=date.fromisoformat(day),
            mock=bool(mock),
            n_answers=int(n),
            score_sum=float(score),
            n_timed=int(n_timed),
            capped_duration_sum_s=float(duration),
            right_timed=float(right_timed),
            right_duration_sum_s=float(right_duration),
        )
        for item, day, mock, n, score, n_timed, duration, right_timed, right_duration in rows
    ]


def _with_answers(conn: sqlite3.Connection, sql: str, ids: Iterable[str]) -> frozenset[str]:
    rows = conn.execute(sql, {"ids": json.dumps(sorted(set(ids)))})
    return frozenset(value for (value,) in rows)


def started_items(conn: sqlite3.Connection, items: Iterable[str]) -> frozenset[str]:
    """The checklist items among ``items`` that have at least one answer, however old."""
    return _with_answers(conn, _STARTED_ITEMS, items)


def tried_templates(conn: sqlite3.Connection, template_ids: Iterable[str]) -> frozenset[str]:
    """The ids among ``template_ids`` that have at least one answer."""
    return _with_answers(conn, _TRIED_TEMPLATES, template_ids)


def cards_by_item(conn: sqlite3.Connection) -> dict[str, dict[str, Card]]:
    """The stored FSRS cards per checklist item, each a mapping of template id to card."""
    grouped: dict[str, dict[str, Card]] = defaultdict(dict)
    for item, template_id, card in conn.execute("SELECT checklist_item, template_id, card FROM cards"):
        grouped[item][template_id] = Card.from_json(card)
    return dict(grouped)


def reviews_per_day(conn: sqlite3.Connection, *, since: date) -> list[DayCount]:
    """Spaced-repetition reviews per UTC day from ``since`` on, oldest first (days without any left out)."""
    rows = conn.execute(
        "SELECT day, count(*) FROM review_logs WHERE day >= ? GROUP BY day ORDER BY day", (since.isoformat(),)
    )
    return [DayCount(date.fromisoformat(day), int(n)) for day, n in rows]


def mock_scores(conn: sqlite3.Connection) -> list[MockScore]:
    """Finished mocks with a score, in the order they finished."""
    rows = conn.execute(
        "SELECT id, finished_at, score FROM mocks WHERE status = 'finished' AND score IS NOT NULL "
        "AND finished_at IS NOT NULL ORDER BY finished_at, id"
    )
    return [MockScore(int(mock_id), from_iso(at), float(score)) for mock_id, at, score in rows]


def daily_accuracy(totals: Iterable[DayTotal]) -> list[DailyAccuracy]:
    """Per UTC day: answers and mean score, summed over items and modes; oldest first."""
    answers: dict[date, int] = defaultdict(int)
    scores: dict[date, float] = defaultdict(float)
    for total in totals:
        answers[total.day] += total.n_answers
        scores[total.day] += total.score_sum
    return [DailyAccuracy(day, answers[day], scores[day] / answers[day]) for day in sorted(answers)]


# What a snapshot holds that only changes with the data version: evidence, daily accuracy, reviews per day.
_VersionBound = tuple[
    tuple[ItemEvidence, ...], tuple[DailyAccuracy, ...], tuple[DayCount, ...], tuple[int, ...]
]


class SnapshotCache:
    """The version-bound part of recent snapshots (evidence, daily accuracy, reviews), shared by readers.

    Attempts and review logs are only ever inserted and cards change only with a logged review, so
    a database whose :func:`data_version` has not moved still holds the same evidence: a rerun of the
    readiness view then skips the scan over the window's answers. Finished mocks are small and are
    read fresh every time, since finishing one adds neither an answer nor a review. Thread-safe; the
    least recently used of more than ``max_entries`` entries is dropped.
    """

    def __init__(self, max_entries: int = 16) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[object, _VersionBound] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: object) -> _VersionBound | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: object, value: _VersionBound) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)


def load_snapshot(
    store: Store,
    *,
    template_ids_by_item: Mapping[str, Sequence[str]],
    now: datetime,
    rule: Rule = DEFAULT_RULE,
    cache: SnapshotCache | None = None,
) -> Snapshot:
    """Read the evidence for every item of ``template_ids_by_item`` (in its order) and the chart series.

    Answers older than the rule's window are left out of the per-day series; an item answered only before
    the window still counts as started. With a ``cache``, an unchanged database reuses what it read last.
    """
    since = utc_day(now) - timedelta(days=rule.window_days)
    with store.connect(write=False) as conn:
        version = data_version(conn)
        key = (
            str(store.path),
            version,
            since,
            rule,
            tuple((i, tuple(ids)) for i, ids in template_ids_by_item.items()),
        )
        parts = cache.get(key) if cache is not None else None
        if parts is None:
            parts = _version_bound(conn, template_ids_by_item=template_ids_by_item, since=since, rule=rule)
            if cache is not None:
                cache.put(key, parts)
        mocks = mock_scores(conn)
    evidence, daily, reviews, skipped = parts
    return Snapshot(
        evidence=evidence,
        daily_accuracy=daily,
        reviews_per_day=reviews,
        mock_scores=tuple(mocks),
        version=version,
        skipped_rows=skipped,
    )


def _version_bound(
    conn: sqlite3.Connection, *, template_ids_by_item: Mapping[str, Sequence[str]], since: date, rule: Rule
) -> _VersionBound:
    all_ids = [template_id for ids in template_ids_by_item.values() for template_id in ids]
    totals = item_day_totals(conn, since=since, duration_cap_s=rule.duration_cap_s)
    started = started_items(conn, template_ids_by_item)
    tried = tried_templates(conn, all_ids)
    cards = cards_by_item(conn)
    reviews = reviews_per_day(conn, since=since)
    by_item: dict[str, list[DayTotal]] = defaultdict(list)
    for total in totals:
        by_item[total.checklist_item].append(total)
    evidence = tuple(
        ItemEvidence(
            checklist_item=item,
            template_ids=tuple(ids),
            attempted_template_ids=tried.intersection(ids),
            started=item in started,
            day_totals=tuple(by_item.get(item, ())),
            cards=cards.get(item, {}),
        )
        for item, ids in template_ids_by_item.items()
    )
    skipped = tuple(malformed_rows(conn, since=since))
    return evidence, tuple(daily_accuracy(totals)), tuple(reviews), skipped
