"""A day-by-day plan to the interview: new cards, reviews and extra variants per day, checked by the rule.

The plan simulates the user's days from ``today`` up to the day before the interview, assuming every answer
is right (a plan states what is enough, not what will happen):

* each day holds ``floor(minutes_per_day * 60 / seconds_per_card)`` card views;
* due reviews come first (FSRS, fuzzing off, the user's desired retention), then new cards: every template
  without a card is introduced, at most ``daily_new_limit`` a day, spread evenly up to the last day that
  still leaves time for one spaced review before the interview; items with the lowest readiness come first;
* the simulated answers join the stored history and ``progress.readiness`` judges each item on the morning
  of the interview; an item short only of recent right answers gets extra variants (practice without
  scheduling effect), one a day in turn over the days with room, the latest first, when that makes it ready.

The plan is feasible when every item with questions comes out ready. Otherwise a warning says which items
would not be, how many minutes a day would do, and the earliest date the current minutes make it. When
the new cards do not meet every question type before the date, the plan also gives the smallest daily
new-card limit that does (cramming), within the minutes a day.
The day-by-day simulation is in ``progress.plan_simulation``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from fsrs import Scheduler

from progress.plan_simulation import Outcome, Simulation, practice_done, smallest
from progress.readiness import Overall
from progress.readiness_evidence import ItemEvidence
from progress.readiness_factors import plural
from progress.readiness_rule import DEFAULT_RULE, Gate, Rule

#: The most minutes a day a suggestion may ask for, and how far ahead the earliest date is looked for.
MAX_MINUTES_PER_DAY = 480
MAX_DAYS_AHEAD = 365
#: The most new cards a day a suggestion may ask for (the settings form's own bound).
MAX_NEW_PER_DAY = 100


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
class StudyPlan:
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
    #: Question types (templates) without a card, and how many of them the plan's new cards meet
    #: before the date; ``new_limit_to_meet_all``: the smallest new-card limit that meets them all
    #: (None when the limit set already does, or no limit up to MAX_NEW_PER_DAY does in the minutes).
    types_to_meet: int = 0
    types_met: int = 0
    new_limit_to_meet_all: int | None = None

    @property
    def views_range(self) -> tuple[int, int]:
        """The fewest and most card views the plan puts on one day (0, 0 without days)."""
        views = [d.views for d in self.days] or [0]
        return min(views), max(views)

    @property
    def minutes_range(self) -> tuple[int, int]:
        """The fewest and most minutes the plan fills on one day, rounded (0, 0 without days)."""
        minutes = [round(d.minutes) for d in self.days] or [0]
        return min(minutes), max(minutes)


def seconds_per_card(*, answer_seconds: float | None, reading_seconds: float = 30.0) -> float:
    """Planned seconds per card view: the measured answer time (120 s when unknown) plus reading feedback."""
    return (answer_seconds if answer_seconds else DEFAULT_RULE.target_seconds_per_answer) + reading_seconds


def _feasible(outcome: Outcome, evidence: Sequence[ItemEvidence]) -> bool:
    """Whether practice brings every item with questions to ready (or to only needing a better mock)."""
    with_questions = {e.checklist_item for e in evidence if e.template_ids}
    return all(practice_done(i) for i in outcome.projected.items if i.checklist_item in with_questions)


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
) -> StudyPlan:
    """The plan from ``today`` to ``interview_date`` (both UTC days) at ``minutes_per_day``.

    ``titles`` maps checklist ids to the names the warning uses (the ids themselves when absent).

    ``seconds_per_card`` is the planned time of one card view; ``answer_seconds`` the time one answer is
    assumed to take in the projection (the rule's target when None). ``scheduler`` should not fuzz.
    """
    simulation = Simulation(evidence, scheduler=scheduler, rule=rule)
    answer_s = answer_seconds or rule.target_seconds_per_answer

    def outcome_at(minutes: int, interview: date, new_limit: int = daily_new_limit) -> Outcome:
        capacity = int(minutes * 60 // seconds_per_card)
        return simulation.run(
            today=today,
            interview_date=interview,
            capacity=capacity,
            new_limit=new_limit,
            answer_s=answer_s,
        )

    def met(outcome: Outcome) -> int:
        return sum(outcome.new.values())

    outcome = outcome_at(minutes_per_day, interview_date)
    types_met = met(outcome)
    to_meet_all = None
    if types_met < simulation.types_to_meet and interview_date > today:
        # Cramming: the fewest new cards a day that meet every question type before the date.
        to_meet_all = smallest(
            daily_new_limit + 1,
            MAX_NEW_PER_DAY,
            lambda n: met(outcome_at(minutes_per_day, interview_date, n)) >= simulation.types_to_meet,
        )
    practice_enough = _feasible(outcome, evidence)
    minutes_needed = earliest = None
    if not practice_enough:
        minutes_needed = smallest(
            minutes_per_day + 1,
            MAX_MINUTES_PER_DAY,
            lambda m: _feasible(outcome_at(m, interview_date), evidence),
        )
        offset = smallest(
            max(1, (interview_date - today).days + 1),
            MAX_DAYS_AHEAD,
            lambda d: _feasible(outcome_at(minutes_per_day, today + timedelta(days=d)), evidence),
        )
        earliest = None if offset is None else today + timedelta(days=offset)
    with_questions = [i for i, e in zip(outcome.projected.items, evidence, strict=True) if e.template_ids]
    name = (titles or {}).get
    not_practised = [name(i.checklist_item, i.checklist_item) for i in with_questions if not practice_done(i)]
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
        new_limit_to_meet_all=to_meet_all,
    )
    return StudyPlan(
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
        types_to_meet=simulation.types_to_meet,
        types_met=types_met,
        new_limit_to_meet_all=to_meet_all,
    )


def _by_item(counts: Counter[tuple[date, str]]) -> dict[str, int]:
    totals: Counter[str] = Counter()
    for (_, item), n in counts.items():
        totals[item] += n
    return dict(totals)


def _days(
    outcome: Outcome, *, today: date, interview_date: date, seconds_per_card: float
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
    new_limit_to_meet_all: int | None = None,
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
            if new_limit_to_meet_all is not None:
                parts.append(
                    f"{new_limit_to_meet_all} new cards a day would meet every question type before the "
                    "date (below)."
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
