"""Spaced repetition with FSRS 6: one card per question template, reviewed at the template's next variant.

Auto-graded answers map to ratings (correct → Good, incorrect → Again); recall answers carry the rating
the user gave. All times are aware UTC and passed in; fuzzing can be switched off for repeatable tests.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from fsrs import Card, Rating, Scheduler, State

from progress.attempt import Attempt, Status
from progress.settings import Settings, load_settings, read_settings
from progress.store import Store, insert_attempts
from progress.utc import as_utc, day_start, from_iso, to_iso, utc_day

_RECALL_RATINGS = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy}


def rating_for_status(status: Status | str) -> Rating:
    """The FSRS rating of an auto-graded answer: correct → Good, incorrect → Again."""
    return Rating.Good if Status(status) is Status.CORRECT else Rating.Again


def rating_for_recall(self_rating: str) -> Rating:
    """The FSRS rating of a self-rated recall answer (``again``, ``hard``, ``good`` or ``easy``)."""
    try:
        return _RECALL_RATINGS[self_rating.strip().lower()]
    except KeyError:
        raise ValueError(f"a recall rating is one of again, hard, good, easy; got {self_rating!r}") from None


def rating_for_answer(*, status: Status | str, self_rating: str | None = None) -> Rating:
    """The FSRS rating an answer gives its card: a recall answer's own rating, else from its status."""
    return rating_for_recall(self_rating) if self_rating else rating_for_status(status)


def card_id_for(template_id: str) -> int:
    """A stable card id for a template: 48 bits of its SHA-256, the same on every machine and run."""
    return int.from_bytes(hashlib.sha256(template_id.encode()).digest()[:6], "big")


def scheduler_for(settings: Settings, *, enable_fuzzing: bool = True) -> Scheduler:
    """The FSRS scheduler for these settings (default FSRS 6 parameters)."""
    return Scheduler(desired_retention=settings.desired_retention, enable_fuzzing=enable_fuzzing)


def review(
    store: Store,
    *,
    template_id: str,
    checklist_item: str,
    rating: Rating | int,
    now: datetime,
    duration_s: float | None = None,
    enable_fuzzing: bool = True,
    attempt: Attempt | None = None,
) -> Card:
    """Review the template's card (creating it on first sight) and log the review; return the new card.

    The card, its log and the settings it was scheduled with are read and written in one transaction,
    together with ``attempt`` when given: an answer and the review it causes land together or not at all.
    """
    with store.connect() as conn:
        if attempt is not None:
            insert_attempts(conn, [attempt])
        return review_in(
            conn,
            template_id=template_id,
            checklist_item=checklist_item,
            rating=rating,
            now=now,
            duration_s=duration_s,
            enable_fuzzing=enable_fuzzing,
        )


def review_in(
    conn: sqlite3.Connection,
    *,
    template_id: str,
    checklist_item: str,
    rating: Rating | int,
    now: datetime,
    duration_s: float | None = None,
    enable_fuzzing: bool = True,
) -> Card:
    """:func:`review` inside the caller's write transaction (from :meth:`Store.connect`)."""
    now = as_utc(now)
    settings = load_settings(conn)
    row = conn.execute("SELECT card FROM cards WHERE template_id = ?", (template_id,)).fetchone()
    card = Card.from_json(row["card"]) if row else Card(card_id=card_id_for(template_id), due=now)
    duration_ms = None if duration_s is None else round(duration_s * 1000)
    card, log = scheduler_for(settings, enable_fuzzing=enable_fuzzing).review_card(
        card, Rating(rating), review_datetime=now, review_duration=duration_ms
    )
    conn.execute(
        "INSERT INTO cards (template_id, checklist_item, card, due, stability, difficulty, state, "
        "last_review, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (template_id) DO UPDATE "
        "SET checklist_item = excluded.checklist_item, card = excluded.card, due = excluded.due, "
        "stability = excluded.stability, difficulty = excluded.difficulty, state = excluded.state, "
        "last_review = excluded.last_review",
        (
            template_id,
            checklist_item,
            card.to_json(),
            to_iso(card.due),
            card.stability,
            card.difficulty,
            int(card.state),
            to_iso(card.last_review) if card.last_review else None,
            to_iso(now),
        ),
    )
    conn.execute(
        "INSERT INTO review_logs (template_id, rating, reviewed_at, day, log) VALUES (?, ?, ?, ?, ?)",
        (template_id, int(log.rating), to_iso(now), utc_day(now).isoformat(), log.to_json()),
    )
    return card


@dataclass(frozen=True)
class QueueItem:
    """A template to practise next: a due card (``due`` set) or a new one (``is_new``, ``due`` None)."""

    template_id: str
    checklist_item: str
    is_new: bool
    due: datetime | None = None


@dataclass(frozen=True)
class Queue:
    """Today's queue: due cards by due time, then new cards; and today's counts (UTC day).

    ``due_count``: cards due now. ``new_count``: new cards still allowed today. ``done_count``: reviews
    logged today. All three count the templates the queue was asked for (the scenarios alone, say), and
    with a checklist filter that item's only.
    """

    items: tuple[QueueItem, ...]
    due_count: int
    new_count: int
    done_count: int
    #: A sentence for each stored setting read as its default (see :func:`progress.settings.read_settings`).
    settings_notices: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.items)

    @property
    def first(self) -> QueueItem | None:
        """The next item, if any."""
        return self.items[0] if self.items else None


def due_queue(
    store: Store,
    *,
    templates: Sequence[tuple[str, str]],
    now: datetime,
    checklist_item: str | None = None,
) -> Queue:
    """The queue at ``now`` over ``templates``, pairs of (template id, checklist item).

    New cards come in the order of ``templates``, up to the daily new limit less the cards first
    reviewed earlier the same UTC day (the limit counts every checklist item).
    """
    now = as_utc(now)
    wanted = dict(templates)
    if checklist_item is not None:
        wanted = {tid: item for tid, item in wanted.items() if item == checklist_item}
    today = utc_day(now)
    with store.connect(write=False) as conn:
        settings, settings_notices = read_settings(conn)
        known = {row["template_id"]: row["due"] for row in conn.execute("SELECT template_id, due FROM cards")}
        introduced = _cards_created_on(conn, today)
        logs = conn.execute("SELECT template_id FROM review_logs WHERE day = ?", (today.isoformat(),))
        reviewed_today = [tid for (tid,) in logs]
    now_iso = to_iso(now)
    due_cards = sorted((due, tid) for tid, due in known.items() if tid in wanted and due <= now_iso)
    due_items = [QueueItem(tid, wanted[tid], is_new=False, due=from_iso(due)) for due, tid in due_cards]
    allowance = max(0, settings.daily_new_limit - introduced)
    new_items = [QueueItem(tid, item, is_new=True) for tid, item in wanted.items() if tid not in known]
    new_items = new_items[:allowance]
    done = sum(tid in wanted for tid in reviewed_today)
    return Queue(
        items=(*due_items, *new_items),
        due_count=len(due_items),
        new_count=len(new_items),
        done_count=done,
        settings_notices=settings_notices,
    )


def _cards_created_on(conn: sqlite3.Connection, day: date) -> int:
    start = day_start(day)
    row = conn.execute(
        "SELECT count(*) FROM cards WHERE created_at >= ? AND created_at < ?",
        (to_iso(start), to_iso(start + timedelta(days=1))),
    ).fetchone()
    return int(row[0])


# From the latest day with an attempt, step back one day while the day before has attempts too: one
# index probe per day of the streak, inside SQLite, never a walk over every attempt. A day that is not
# a date (a row edited by hand) cannot start it.
_STREAK_SQL = """
WITH RECURSIVE run(day) AS (
    SELECT max(day) FROM attempts WHERE day <= :today AND typeof(day) = 'text' AND date(day, '+0 days') IS day
    UNION ALL
    SELECT date(run.day, '-1 day') FROM run
    WHERE EXISTS (SELECT 1 FROM attempts WHERE attempts.day = date(run.day, '-1 day'))
)
SELECT max(day), count(day) FROM run
"""


def streak(store: Store, *, today: date) -> int:
    """Consecutive UTC days with at least one attempt, ending today (or yesterday, if today has none yet)."""
    with store.connect(write=False) as conn:
        latest, days = conn.execute(_STREAK_SQL, {"today": today.isoformat()}).fetchone()
    if latest is None or (today - date.fromisoformat(latest)).days > 1:
        return 0
    return int(days)


def next_due(store: Store, now: datetime, *, checklist_item: str | None = None) -> datetime | None:
    """When the next card falls due after ``now`` (None when no card is scheduled later)."""
    sql = "SELECT min(due) FROM cards WHERE due > ?"
    args: list[str] = [to_iso(now)]
    if checklist_item is not None:
        sql += " AND checklist_item = ?"
        args.append(checklist_item)
    with store.connect(write=False) as conn:
        (due,) = conn.execute(sql, args).fetchone()
    return from_iso(due) if due else None


@dataclass(frozen=True)
class CardState:
    """A template's card as readiness sees it: FSRS state, memory figures, and recall odds at a moment.

    ``stability`` is in days; ``retrievability`` is the predicted probability of recall (0..1).
    """

    template_id: str
    checklist_item: str
    state: State
    due: datetime
    stability: float | None
    difficulty: float | None
    last_review: datetime | None
    retrievability: float


def card_states(store: Store, *, now: datetime, checklist_item: str | None = None) -> list[CardState]:
    """Every stored card (or one checklist item's), with its retrievability at ``now``."""
    now = as_utc(now)
    sql = "SELECT template_id, checklist_item, card FROM cards"
    args: list[str] = []
    if checklist_item is not None:
        sql += " WHERE checklist_item = ?"
        args.append(checklist_item)
    with store.connect(write=False) as conn:
        scheduler = scheduler_for(load_settings(conn), enable_fuzzing=False)
        rows = conn.execute(sql + " ORDER BY template_id", args).fetchall()
    states = []
    for row in rows:
        card = Card.from_json(row["card"])
        states.append(
            CardState(
                template_id=row["template_id"],
                checklist_item=row["checklist_item"],
                state=card.state,
                due=as_utc(card.due),
                stability=card.stability,
                difficulty=card.difficulty,
                last_review=as_utc(card.last_review) if card.last_review else None,
                retrievability=float(scheduler.get_card_retrievability(card, now)),
            )
        )
    return states
