"""The simulation behind ``progress.plan``: the plan's days from today to the interview, every answer right.

``Simulation.run`` reviews due cards first, introduces new cards in an even spread, adds extra variants where
they make an item ready, and judges the result with ``progress.readiness`` on the morning of the interview.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta

from fsrs import Card, Rating, Scheduler

from progress.readiness import ItemReadiness, Overall, assess
from progress.readiness_evidence import DayTotal, ItemEvidence
from progress.readiness_rule import Gate, ItemStatus, Rule
from progress.utc import day_start

#: When a simulated day's work starts (UTC); any hour does, as long as every day uses the same.
_STUDY_TIME = timedelta(hours=9)


@dataclass
class Outcome:
    """What a simulation gave: card views per (day, item) by kind, and readiness on the interview morning."""

    new: Counter[tuple[date, str]]
    reviews: Counter[tuple[date, str]]
    extras: Counter[tuple[date, str]]
    projected: Overall


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


class Simulation:
    """The plan's days, simulated with every answer right."""

    def __init__(self, evidence: Sequence[ItemEvidence], *, scheduler: Scheduler, rule: Rule) -> None:
        self.evidence = evidence
        self.scheduler = scheduler
        self.rule = rule
        self.first_day_views = _first_day_views(scheduler)
        self.lead_days = _lead_days(scheduler, rule=rule)
        #: Question types (templates) with no card yet: what the plan's new cards are to meet.
        self.types_to_meet = sum(t not in e.cards for e in evidence for t in e.template_ids)

    def run(
        self, *, today: date, interview_date: date, capacity: int, new_limit: int, answer_s: float
    ) -> Outcome:
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
    ) -> Outcome:
        morning = day_start(interview_date)
        extras: Counter[tuple[date, str]] = Counter()
        capped_s = min(answer_s, self.rule.duration_cap_s)

        def projected(evidence: ItemEvidence) -> ItemEvidence:
            item = evidence.checklist_item
            views = {day: new[day, item] + reviews[day, item] + extras[day, item] for day in days}
            added = tuple(
                # Projected answers are right ones at the user's pace, so they count for time too.
                DayTotal(
                    item,
                    day,
                    False,
                    n,
                    float(n),
                    n,
                    n * capped_s,
                    right_timed=n,
                    right_duration_sum_s=n * capped_s,
                )
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
            if practice_done(item) or not evidence.template_ids or Gate.RETRIEVABILITY in item.unmet:
                continue
            name = evidence.checklist_item
            # Latest days first: recent right answers weigh most on the morning of the interview.
            room = [(day, capacity - used[day]) for day in reversed(days) if used[day] < capacity]

            def place(n: int, name: str = name, room: list[tuple[date, int]] = room) -> None:
                # One a day in turn, the latest day first, rather than filling the last day: the extras
                # spread over the days with room, as a person would practise them.
                for day, _ in room:
                    extras[day, name] = 0
                while n > 0:
                    open_days = [day for day, free in room if extras[day, name] < free]
                    if not open_days:
                        break
                    for day in open_days[:n]:
                        extras[day, name] += 1
                    n -= min(n, len(open_days))

            def enough(n: int, evidence: ItemEvidence = evidence) -> bool:
                place(n)
                return practice_done(assess([projected(evidence)], now=morning, rule=self.rule).items[0])

            # More right answers never lower readiness, so the fewest that suffice is a bisection.
            needed = smallest(1, sum(free for _, free in room), enough)
            place(needed or 0)  # extras that do not make it ready are not worth the time
            for day, _ in room:
                used[day] += extras[day, name]
        final = assess([projected(e) for e in self.evidence], now=morning, rule=self.rule)
        return Outcome(new, reviews, +extras, final)


def practice_done(item: ItemReadiness) -> bool:
    """Ready, or short only of better mock answers, which practice cannot supply."""
    return item.status is not ItemStatus.NOT_STARTED and not set(item.unmet) - {Gate.MOCKS}


def smallest(low: int, high: int, ok: Callable[[int], bool]) -> int | None:
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
