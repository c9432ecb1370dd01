"""A day-by-day plan to the interview: new cards, reviews and extra variants per day, checked by the rule.

The plan simulates the user's days from ``today`` up to the day before the interview, assuming every answer
is right (a plan states what is enough, not what will happen):

* each day holds ``floor(minutes_per_day * 60 / seconds_per_card)`` card views;
* due reviews come first (FSRS, fuzzing off, the user's desired retention), then new cards: every template
  without a card is introduced, at most ``daily_new_limit`` a day, spread evenly up to the last day that
  still leaves time for one spaced review before the interview; items with the lowest readiness come first;
* the simulated answers join the stored history and ``progress.readiness`` judges each item on the morning
  of the interview; an item short only of recent right answers gets extra variants (practice without
  scheduling effect) on the latest days with room, when that makes it ready.

The plan is feasible when every item with questions comes out ready. Otherwise a warning says which items
would not be, how many minutes a day would do, and the earliest date the current minutes make it.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta

from fsrs import Card, Rating, Scheduler

from progress.readiness import (
    DEFAULT_RULE,
    DayTotal,
    Gate,
    ItemEvidence,
    ItemReadiness,
    ItemStatus,
    Overall,
    Rule,
    assess,
    plural,
)
from progress.utc import day_start

#: When a simulated day's work starts (UTC); any hour does, as long as every day uses the same.
_STUDY_TIME = timedelta(hours=9)
#: The most minutes a day a suggestion may ask for, and how far ahead the earliest date is looked for.
MAX_MINUTES_PER_DAY = 480
MAX_DAYS_AHEAD = 365


@dataclass(frozen=True)
class PlanDay:
    """One day of the plan: card views by kind and the minutes they take."""

    day: date
    new_cards: int
    reviews: int
    extra_variants: int
    minutes: float

    @property
    def views(self) -> int:
        """Every card view of the day."""
        return self.new_cards + self.reviews + self.extra_variants


@dataclass(frozen=True)
class Plan:
    """The plan to ``interview_date`` and what the rule expects of it on the morning of that day.

    ``feasible``: every item with questions comes out ready. ``practice_enough``: the plan's practice does
    all it can (items may still need better mock answers, which ``warning`` then names).
    """

    interview_date: date
    days: tuple[PlanDay, ...]
    new_by_item: Mapping[str, int]
    projected: Overall
    feasible: bool
    practice_enough: bool
    seconds_per_card: float
    cards_per_day: int
    warning: str | None
    minutes_needed: int | None
    earliest_ready_date: date | None


@dataclass
class _Outcome:
    new: Counter[tuple[date, str]]
    reviews: Counter[tuple[date, str]]
    extras: Counter[tuple[date, str]]
    projected: Overall


def seconds_per_card(*, answer_seconds: float | None, reading_seconds: float = 30.0) -> float:
    """Planned seconds per card view: the measured answer time (120 s when unknown) plus reading feedback."""
    return (answer_seconds if answer_seconds else DEFAULT_RULE.target_seconds_per_answer) + reading_seconds


def _first_day_views(scheduler: Scheduler) -> int:
    """Views a brand-new card takes on its first day (the first answer plus its learning steps)."""
    start = datetime(2000, 1, 1, tzinfo=UTC) + _STUDY_TIME
    card, _ = scheduler.review_card(Card(card_id=0, due=start), Rating.Good, start)
    views = 1
    while card.due < start + timedelta(days=1) and views < 10:
        card, _ = scheduler.review_card(card, Rating.Good, card.due)
        views += 1
    return views


def _lead_days(scheduler: Scheduler, *, rule: Rule) -> int:
    """Days from a card's first answer until spaced reviews lift its stability to the rule's aim."""
    start = datetime(2000, 1, 1, tzinfo=UTC) + _STUDY_TIME
    card, at = Card(card_id=0, due=start), start
    for _ in range(20):
        card, _ = scheduler.review_card(card, Rating.Good, at)
        if (card.stability or 0.0) >= rule.stability_aim_days:
            return (at - start).days
        at = card.due
    return (at - start).days


def _introduction_order(evidence: Sequence[ItemEvidence], overall: Overall) -> list[tuple[str, str]]:
    """Templates without a card, round-robin over items from the lowest readiness score up."""
    score = {item.checklist_item: item.score for item in overall.items}
    queues = [
        deque((e.checklist_item, t) for t in e.template_ids if t not in e.cards)
        for e in sorted(evidence, key=lambda e: score.get(e.checklist_item, 0.0))
    ]
    order: list[tuple[str, str]] = []
    while any(queues):
        order.extend(q.popleft() for q in queues if q)
    return order


class _Simulation:
    """The plan's days, simulated with every answer right."""

    def __init__(self, evidence: Sequence[ItemEvidence], *, scheduler: Scheduler, rule: Rule) -> None:
        self.evidence = evidence
        self.scheduler = scheduler
        self.rule = rule
        self.first_day_views = _first_day_views(scheduler)
        self.lead_days = _lead_days(scheduler, rule=rule)

    def run(
        self, *, today: date, interview_date: date, capacity: int, new_limit: int, answer_s: float
    ) -> _Outcome:
        now = day_start(today)
        days = [today + timedelta(days=i) for i in range((interview_date - today).days)]
        cards = {t: (e.checklist_item, c) for e in self.evidence for t, c in e.cards.items()}
        pending = deque(_introduction_order(self.evidence, assess(self.evidence, now=now, rule=self.rule)))
        deadline = max(today, interview_date - timedelta(days=self.lead_days + 1))
        new: Counter[tuple[date, str]] = Counter()
        reviews: Counter[tuple[date, str]] = Counter()
        used: Counter[date] = Counter()
        for index, day in enumerate(days):
            start, end = day_start(day) + _STUDY_TIME, day_start(day + timedelta(days=1))
            used[day] += self._review_due(cards, start=start, end=end, left=capacity, counts=reviews)
            days_left = max(1, (deadline - day).days + 1)
            room = (capacity - used[day]) // self.first_day_views
            for _ in range(min(math.ceil(len(pending) / days_left), new_limit, room)):
                item, template_id = pending.popleft()
                card, _ = self.scheduler.review_card(Card(card_id=index, due=start), Rating.Good, start)
                cards[template_id] = (item, card)
                new[day, item] += 1
                used[day] += 1
            used[day] += self._review_due(
                cards, start=start, end=end, left=capacity - used[day], counts=reviews
            )
        return self._project(
            cards,
            new,
            reviews,
            used,
            days=days,
            capacity=capacity,
            interview_date=interview_date,
            answer_s=answer_s,
        )

    def _review_due(
        self,
        cards: dict[str, tuple[str, Card]],
        *,
        start: datetime,
        end: datetime,
        left: int,
        counts: Counter[tuple[date, str]],
    ) -> int:
        """Review due cards in due order until none is due before ``end`` or ``left`` views are spent."""
        done = 0
        while done < left:
            due = [(card.due, t) for t, (_, card) in cards.items() if card.due < end]
            if not due:
                break
            _, template_id = min(due)
            item, card = cards[template_id]
            card, _ = self.scheduler.review_card(card, Rating.Good, max(card.due, start))
            cards[template_id] = (item, card)
            counts[start.date(), item] += 1
            done += 1
        return done

    def _project(
        self,
        cards: dict[str, tuple[str, Card]],
        new: Counter[tuple[date, str]],
        reviews: Counter[tuple[date, str]],
        used: Counter[date],
        *,
        days: Sequence[date],
        capacity: int,
        interview_date: date,
        answer_s: float,
    ) -> _Outcome:
        morning = day_start(interview_date)
        extras: Counter[tuple[date, str]] = Counter()

        def projected(evidence: ItemEvidence) -> ItemEvidence:
            item = evidence.checklist_item
            views = {day: new[day, item] + reviews[day, item] + extras[day, item] for day in days}
            added = tuple(
                DayTotal(item, day, False, n, float(n), n, n * min(answer_s, self.rule.duration_cap_s))
                for day, n in views.items()
                if n
            )
            mine = {t: c for t, (i, c) in cards.items() if i == item}
            return replace(
                evidence,
                attempted_template_ids=evidence.attempted_template_ids | set(mine),
                started=evidence.started or any(views.values()),
                day_totals=evidence.day_totals + added,
                cards=mine,
            )

        overall = assess([projected(e) for e in self.evidence], now=morning, rule=self.rule)
        for evidence, item in zip(self.evidence, overall.items, strict=True):
            # Right answers lift accuracy, time and the score; recall of the cards needs spaced reviews.
            if _practice_done(item) or not evidence.template_ids or Gate.RETRIEVABILITY in item.unmet:
                continue
            name = evidence.checklist_item
            # Latest days first: recent right answers weigh most on the morning of the interview.
            room = [(day, capacity - used[day]) for day in reversed(days) if used[day] < capacity]

            def place(n: int, name: str = name, room: list[tuple[date, int]] = room) -> None:
                for day, free in room:
                    extras[day, name] = min(free, n)
                    n -= extras[day, name]

            def enough(n: int, evidence: ItemEvidence = evidence) -> bool:
                place(n)
                return _practice_done(assess([projected(evidence)], now=morning, rule=self.rule).items[0])

            # More right answers never lower readiness, so the fewest that suffice is a bisection.
            needed = _smallest(1, sum(free for _, free in room), enough)
            place(needed or 0)  # extras that do not make it ready are not worth the time
            for day, _ in room:
                used[day] += extras[day, name]
        final = assess([projected(e) for e in self.evidence], now=morning, rule=self.rule)
        return _Outcome(new, reviews, +extras, final)


def _practice_done(item: ItemReadiness) -> bool:
    """Ready, or short only of better mock answers, which practice cannot supply."""
    return item.status is not ItemStatus.NOT_STARTED and not set(item.unmet) - {Gate.MOCKS}


def _feasible(outcome: _Outcome, evidence: Sequence[ItemEvidence]) -> bool:
    """Whether practice brings every item with questions to ready (or to only needing a better mock)."""
    with_questions = {e.checklist_item for e in evidence if e.template_ids}
    return all(_practice_done(i) for i in outcome.projected.items if i.checklist_item in with_questions)


def make_plan(
    evidence: Sequence[ItemEvidence],
    *,
    today: date,
    interview_date: date,
    minutes_per_day: int,
    seconds_per_card: float,
    daily_new_limit: int,
    scheduler: Scheduler,
    answer_seconds: float | None = None,
    rule: Rule = DEFAULT_RULE,
    titles: Mapping[str, str] | None = None,
) -> Plan:
    """The plan from ``today`` to ``interview_date`` (both UTC days) at ``minutes_per_day``.

    ``titles`` maps checklist ids to the names the warning uses (the ids themselves when absent).

    ``seconds_per_card`` is the planned time of one card view; ``answer_seconds`` the time one answer is
    assumed to take in the projection (the rule's target when None). ``scheduler`` should not fuzz.
    """
    simulation = _Simulation(evidence, scheduler=scheduler, rule=rule)
    answer_s = answer_seconds or rule.target_seconds_per_answer

    def outcome_at(minutes: int, interview: date) -> _Outcome:
        capacity = int(minutes * 60 // seconds_per_card)
        return simulation.run(
            today=today,
            interview_date=interview,
            capacity=capacity,
            new_limit=daily_new_limit,
            answer_s=answer_s,
        )

    outcome = outcome_at(minutes_per_day, interview_date)
    practice_enough = _feasible(outcome, evidence)
    minutes_needed = earliest = None
    if not practice_enough:
        minutes_needed = _smallest(
            minutes_per_day + 1,
            MAX_MINUTES_PER_DAY,
            lambda m: _feasible(outcome_at(m, interview_date), evidence),
        )
        offset = _smallest(
            max(1, (interview_date - today).days + 1),
            MAX_DAYS_AHEAD,
            lambda d: _feasible(outcome_at(minutes_per_day, today + timedelta(days=d)), evidence),
        )
        earliest = None if offset is None else today + timedelta(days=offset)
    with_questions = [i for i, e in zip(outcome.projected.items, evidence, strict=True) if e.template_ids]
    name = (titles or {}).get
    not_practised = [
        name(i.checklist_item, i.checklist_item) for i in with_questions if not _practice_done(i)
    ]
    mocks_short = [name(i.checklist_item, i.checklist_item) for i in with_questions if Gate.MOCKS in i.unmet]
    notes = _warning(
        today=today,
        interview_date=interview_date,
        minutes_per_day=minutes_per_day,
        daily_new_limit=daily_new_limit,
        not_practised=not_practised,
        mocks_short=mocks_short,
        no_questions=[name(e.checklist_item, e.checklist_item) for e in evidence if not e.template_ids],
        minutes_needed=minutes_needed,
        earliest=earliest,
    )
    return Plan(
        interview_date=interview_date,
        days=_days(outcome, today=today, interview_date=interview_date, seconds_per_card=seconds_per_card),
        new_by_item=_by_item(outcome.new),
        projected=outcome.projected,
        feasible=practice_enough and not mocks_short and interview_date > today,
        practice_enough=practice_enough and interview_date > today,
        seconds_per_card=seconds_per_card,
        cards_per_day=int(minutes_per_day * 60 // seconds_per_card),
        warning=notes,
        minutes_needed=minutes_needed,
        earliest_ready_date=earliest,
    )


def _smallest(low: int, high: int, ok: Callable[[int], bool]) -> int | None:
    """The smallest value in ``low..high`` for which ``ok`` holds (assumed monotone), else None.

    Galloping up from ``low`` first, so that an answer near ``low`` needs only short simulations.
    """
    step, lower, upper = 1, low, None
    while lower <= high:
        probe = min(lower + step - 1, high)
        if ok(probe):
            upper = probe
            break
        lower, step = probe + 1, step * 2
    if upper is None:
        return None
    while lower < upper:
        middle = (lower + upper) // 2
        if ok(middle):
            upper = middle
        else:
            lower = middle + 1
    return upper


def _by_item(counts: Counter[tuple[date, str]]) -> dict[str, int]:
    totals: Counter[str] = Counter()
    for (_, item), n in counts.items():
        totals[item] += n
    return dict(totals)


def _days(
    outcome: _Outcome, *, today: date, interview_date: date, seconds_per_card: float
) -> tuple[PlanDay, ...]:
    def on(counts: Counter[tuple[date, str]], day: date) -> int:
        return sum(n for (d, _), n in counts.items() if d == day)

    rows = []
    for i in range((interview_date - today).days):
        day = today + timedelta(days=i)
        new, reviews, extras = on(outcome.new, day), on(outcome.reviews, day), on(outcome.extras, day)
        rows.append(PlanDay(day, new, reviews, extras, (new + reviews + extras) * seconds_per_card / 60))
    return tuple(rows)


def _listed(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _warning(
    *,
    today: date,
    interview_date: date,
    minutes_per_day: int,
    daily_new_limit: int,
    not_practised: Sequence[str],
    mocks_short: Sequence[str],
    no_questions: Sequence[str],
    minutes_needed: int | None,
    earliest: date | None,
) -> str | None:
    """What stands between the plan and every item ready, in words; None when nothing does."""
    days = (interview_date - today).days
    if days <= 0:
        return f"The interview date {interview_date.isoformat()} is today or past: set the next one to plan."
    parts = []
    if not_practised:
        parts.append(
            f"The interview is {plural(days, 'day')} away: too close to make every item ready at "
            f"{minutes_per_day} minutes a day. Not ready by then: {_listed(not_practised)}."
        )
        if minutes_needed is not None:
            parts.append(f"About {minutes_needed} minutes a day would make it.")
        else:
            parts.append(
                f"Even {MAX_MINUTES_PER_DAY} minutes a day would not: spaced reviews need days to settle, "
                f"and at most {daily_new_limit} new cards a day are introduced (*New cards a day*)."
            )
        if earliest is not None:
            # Practice sets this date; items short of mock answers also need a mock, said next.
            what = "practice can do its part for every item" if mocks_short else "every item can be ready"
            parts.append(f"At {minutes_per_day} minutes a day, {what} by {earliest.isoformat()}.")
    if mocks_short:
        them = "it" if len(mocks_short) == 1 else "them"
        parts.append(
            f"Practice alone cannot make {_listed(mocks_short)} ready: fewer than half of the recent mock "
            f"answers on {them} are right. Take a mock interview that includes {them} before the date, and "
            "get those answers right."
        )
    if parts and no_questions:
        parts.append(f"No questions exist yet for: {_listed(no_questions)}.")
    return " ".join(parts) or None
