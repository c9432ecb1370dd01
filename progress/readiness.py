"""Readiness: how ready the user is on each checklist item, and why. The whole rule lives here.

Each checklist item gets six factors, every one a value from 0 to 1, and a score from 0 to 100 that is
their weighted sum times 100 (weights add up to 1)::

    factor           weight  value
    accuracy          0.35   recency-weighted share of right answers (practice and mock), shrunk towards 0 by
                             2 phantom wrong answers:  sum(w * score) / (sum(w) + 2)
    retrievability    0.15   FSRS's predicted chance of recall now, averaged over the item's cards
    stability         0.15   FSRS stability of the item's cards against a 10-day aim: mean of min(1, S / 10 d)
    mocks             0.10   the accuracy formula over mock answers only, with 1 phantom wrong answer
    coverage          0.15   share of the item's question templates answered at least once
    time              0.10   min(1, 120 s / recency-weighted mean seconds per answer), 0 until one is timed

The recency weight of an answer given ``a`` whole UTC days before today is ``w = 0.5 ** (a / 14)``: a
half-life of 14 days, so an answer from two weeks ago counts half as much as today's. Answers older than
180 days weigh under 0.02 % and are left out. The phantom answers mean a handful of right answers is not yet
"ready", and that the same history moved back in time scores lower: its weights shrink beside the phantoms.
Single answers longer than 600 s count as 600 s (a tab left open is not a slow answer).
A recall answer given with a typed explanation scores the share of its key points made (as the user
confirmed them, halved while a misconception stands), not its self-rating: for the items that ask to
define, explain, justify or describe, accuracy is explanation quality over time.
Retrievability and stability come from the stored FSRS cards, evaluated by ``fsrs`` at the injected ``now``.

Status, in this order:

* **not started**: no answer on the item at all;
* **ready**: score at least 80, accuracy at least 0.75, retrievability at least 0.80, and, once the item
  has at least 3 mock answers in the window (fewer say too little), their plain recency-weighted mean (no
  phantoms) at least 0.5;
* **learning**: score under 50;
* **shaky**: everything else.

Each factor also has an aim (accuracy 0.75 and retrievability 0.80, as for ready; mocks 0.5; the others
1); a factor below its aim yields one piece of advice, and the item's next steps are that advice ordered by
the points it would add.
Overall, the user is ready when every item is ready; otherwise the items that hold it back are listed from
the lowest score up, each with its next steps.

By construction a right answer, given within the time target, never lowers an item's score or status.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum

from fsrs import Card, Scheduler

from progress.utc import utc_day


class ItemStatus(StrEnum):
    """Where an item stands, from nothing to interview-ready."""

    NOT_STARTED = "not started"
    LEARNING = "learning"
    SHAKY = "shaky"
    READY = "ready"

    @property
    def rank(self) -> int:
        """0 (not started) .. 3 (ready), for comparisons."""
        return list(ItemStatus).index(self)


class Gate(StrEnum):
    """The conditions of "ready", each of which an item may not meet yet."""

    SCORE = "score"
    ACCURACY = "accuracy"
    RETRIEVABILITY = "retrievability"
    MOCKS = "mocks"


class FactorName(StrEnum):
    """The six factors of the rule, in the order they are shown."""

    ACCURACY = "accuracy"
    RETRIEVABILITY = "retrievability"
    STABILITY = "stability"
    MOCKS = "mocks"
    COVERAGE = "coverage"
    TIME = "time"


@dataclass(frozen=True)
class FactorRule:
    """A factor's weight in the score and the value (0..1) below which it gives advice."""

    weight: float
    aim: float


@dataclass(frozen=True, eq=False)
class Rule:
    """The numbers of the rule described in the module docstring (compared and hashed by identity)."""

    half_life_days: float = 14.0
    window_days: int = 180
    accuracy_phantom_misses: float = 2.0
    mock_phantom_misses: float = 1.0
    stability_aim_days: float = 10.0
    target_seconds_per_answer: float = 120.0
    duration_cap_s: float = 600.0
    ready_score: float = 80.0
    learning_below_score: float = 50.0
    ready_min_accuracy: float = 0.75
    ready_min_retrievability: float = 0.80
    ready_min_mock_mean: float = 0.5
    ready_min_mock_answers: int = 3
    factors: Mapping[FactorName, FactorRule] = field(
        default_factory=lambda: {
            FactorName.ACCURACY: FactorRule(weight=0.35, aim=0.75),
            FactorName.RETRIEVABILITY: FactorRule(weight=0.15, aim=0.80),
            FactorName.STABILITY: FactorRule(weight=0.15, aim=1.0),
            FactorName.MOCKS: FactorRule(weight=0.10, aim=0.5),
            FactorName.COVERAGE: FactorRule(weight=0.15, aim=1.0),
            FactorName.TIME: FactorRule(weight=0.10, aim=1.0),
        }
    )

    def weight_of(self, *, age_days: int) -> float:
        """Weight of answers given ``age_days`` whole days ago: 1 today, 0.5 at the half-life."""
        return 0.5 ** (max(age_days, 0) / self.half_life_days)


DEFAULT_RULE = Rule()


@dataclass(frozen=True)
class DayTotal:
    """Answers on one checklist item on one UTC day in one mode, summed (one row of the SQL aggregate)."""

    checklist_item: str
    day: date
    mock: bool
    n_answers: int
    score_sum: float
    n_timed: int
    capped_duration_sum_s: float


@dataclass(frozen=True)
class ItemEvidence:
    """What the rule reads about one checklist item.

    ``started``: the item has at least one answer, however old. ``day_totals``: its answers within the rule's
    window. ``cards`` maps template id to its FSRS card.
    """

    checklist_item: str
    template_ids: tuple[str, ...]
    attempted_template_ids: frozenset[str]
    started: bool
    day_totals: tuple[DayTotal, ...]
    cards: Mapping[str, Card]


@dataclass(frozen=True)
class Factor:
    """One factor of an item's score: its value (0..1), weight, a readable detail and advice when short."""

    name: FactorName
    value: float
    weight: float
    aim: float
    detail: str
    advice: str | None

    @property
    def points(self) -> float:
        """What the factor adds to the 0..100 score."""
        return 100.0 * self.weight * self.value

    @property
    def points_short(self) -> float:
        """Points the factor would add if it reached its aim."""
        return 100.0 * self.weight * max(0.0, self.aim - self.value)


@dataclass(frozen=True)
class ItemReadiness:
    """The verdict on one checklist item; ``unmet`` lists the conditions of "ready" not met yet."""

    checklist_item: str
    score: float
    status: ItemStatus
    factors: tuple[Factor, ...]
    next_steps: tuple[str, ...]
    seconds_per_answer: float | None
    unmet: tuple[Gate, ...]

    def factor(self, name: FactorName) -> Factor:
        """The factor called ``name``."""
        return next(f for f in self.factors if f.name is name)


@dataclass(frozen=True)
class Overall:
    """Ready when every item is; otherwise the items holding it back, lowest score first."""

    items: tuple[ItemReadiness, ...]
    holding_back: tuple[ItemReadiness, ...]

    @property
    def ready(self) -> bool:
        """True when every checklist item is ready."""
        return bool(self.items) and not self.holding_back


@dataclass(frozen=True)
class _Weighted:
    """Recency-weighted sums over an item's answers."""

    answers: float = 0.0
    score: float = 0.0
    mock_answers: float = 0.0
    mock_score: float = 0.0
    timed: float = 0.0
    duration_s: float = 0.0
    mock_count: int = 0


@functools.cache
def _weights_by_age(rule: Rule) -> tuple[float, ...]:
    """The recency weight of each whole-day age inside the window (index 0 is today)."""
    return tuple(rule.weight_of(age_days=age) for age in range(rule.window_days + 1))


def _weighted_sums(totals: Iterable[DayTotal], *, today: date, rule: Rule) -> _Weighted:
    weights = _weights_by_age(rule)
    answers = score = mock_answers = mock_score = timed = duration_s = 0.0
    mock_count = 0
    for total in totals:
        age_days = max(0, (today - total.day).days)
        if age_days > rule.window_days:
            continue
        w = weights[age_days]
        answers += w * total.n_answers
        score += w * total.score_sum
        timed += w * total.n_timed
        duration_s += w * total.capped_duration_sum_s
        if total.mock:
            mock_answers += w * total.n_answers
            mock_score += w * total.score_sum
            mock_count += total.n_answers
    return _Weighted(answers, score, mock_answers, mock_score, timed, duration_s, mock_count)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _memory_factors(cards: Sequence[Card], *, now: datetime, rule: Rule) -> tuple[float, float, float]:
    """(mean retrievability, stability factor, mean stability in days) of ``cards`` at ``now``."""
    scheduler = Scheduler(enable_fuzzing=False)
    recall = [scheduler.get_card_retrievability(card, now) for card in cards]
    stability_days = [card.stability or 0.0 for card in cards]
    stability_value = _mean([min(1.0, s / rule.stability_aim_days) for s in stability_days])
    return _mean(recall), stability_value, _mean(stability_days)


def _factor(name: FactorName, value: float, detail: str, advice: str, *, rule: Rule) -> Factor:
    value = min(1.0, max(0.0, value))
    spec = rule.factors[name]
    return Factor(name, value, spec.weight, spec.aim, detail, advice if value < spec.aim else None)


def _factors(evidence: ItemEvidence, sums: _Weighted, *, now: datetime, rule: Rule) -> tuple[Factor, ...]:
    accuracy = sums.score / (sums.answers + rule.accuracy_phantom_misses)
    recall, stability, stability_days = _memory_factors(tuple(evidence.cards.values()), now=now, rule=rule)
    mocks = sums.mock_score / (sums.mock_answers + rule.mock_phantom_misses)
    n_templates = len(evidence.template_ids)
    n_tried = len(evidence.attempted_template_ids.intersection(evidence.template_ids))
    coverage = n_tried / n_templates if n_templates else 0.0
    mean_s = sums.duration_s / sums.timed if sums.timed else math.inf
    target_s = rule.target_seconds_per_answer
    n_cards = len(evidence.cards)
    # The number of right answers today that would lift accuracy to its aim.
    aim = rule.factors[FactorName.ACCURACY].aim
    more = math.ceil(max(0.0, (aim * (sums.answers + rule.accuracy_phantom_misses) - sums.score) / (1 - aim)))
    start_cards = "Answer its questions in Practice: each starts a card that spaced reviews then strengthen."
    return (
        _factor(
            FactorName.ACCURACY,
            accuracy,
            _share_detail(sums.score, sums.answers, phantoms=rule.accuracy_phantom_misses, value=accuracy),
            f"Practise it: about {plural(more, 'more right answer')} would lift accuracy to {aim:.0%}.",
            rule=rule,
        ),
        _factor(
            FactorName.RETRIEVABILITY,
            recall,
            f"predicted recall {recall:.0%} over {plural(n_cards, 'card')}"
            if n_cards
            else "no scheduled cards yet",
            "Work through today's due cards before they fade." if n_cards else start_cards,
            rule=rule,
        ),
        _factor(
            FactorName.STABILITY,
            stability,
            f"memories last {stability_days:.1f} days on average (aim {rule.stability_aim_days:g})"
            if n_cards
            else "no scheduled cards yet",
            "Come back on the days its cards fall due: each spaced review makes the memory last longer."
            if n_cards
            else start_cards,
            rule=rule,
        ),
        _factor(
            FactorName.MOCKS,
            mocks,
            _share_detail(sums.mock_score, sums.mock_answers, phantoms=rule.mock_phantom_misses, value=mocks)
            if sums.mock_answers
            else "no mock answers yet",
            "Take a timed mock interview that includes it.",
            rule=rule,
        ),
        _factor(
            FactorName.COVERAGE,
            coverage,
            f"{n_tried} of {n_templates} question types answered",
            f"Try the {plural(n_templates - n_tried, 'question type')} you have not met yet.",
            rule=rule,
        ),
        _factor(
            FactorName.TIME,
            # Answers timed at 0 s (a mock's unopened problem) meet the target rather than divide by zero.
            min(1.0, target_s / mean_s) if mean_s > 0 else 1.0,
            f"{mean_s:.0f} s per answer against a {target_s:.0f} s target"
            if sums.timed
            else "no timed answers yet",
            f"Answer faster: aim for {target_s:.0f} s, as in an interview.",
            rule=rule,
        ),
    )


def plural(n: int, noun: str) -> str:
    """``1 day``, ``2 days``: a count with its noun."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _share_detail(right: float, answers: float, *, phantoms: float, value: float) -> str:
    """How a share with phantom misses comes out, spelled out: ``1 right of 2 answers ... = 25 %``."""
    return (
        f"{right:.3g} right of {answers:.3g} answers (recent ones count most), counted with "
        f"{phantoms:g} imagined wrong {'answer' if phantoms == 1 else 'answers'} so that a few right ones "
        f"are not yet enough: {right:.3g} / ({answers:.3g} + {phantoms:g}) = {value:.0%}"
    )


def _unmet(score: float, factors: Sequence[Factor], sums: _Weighted, *, rule: Rule) -> tuple[Gate, ...]:
    """The conditions of "ready" this item does not meet yet."""
    value = {f.name: f.value for f in factors}
    checks = {
        Gate.SCORE: score >= rule.ready_score,
        Gate.ACCURACY: value[FactorName.ACCURACY] >= rule.ready_min_accuracy,
        Gate.RETRIEVABILITY: value[FactorName.RETRIEVABILITY] >= rule.ready_min_retrievability,
        Gate.MOCKS: sums.mock_count < rule.ready_min_mock_answers
        or sums.mock_score / sums.mock_answers >= rule.ready_min_mock_mean,
    }
    return tuple(gate for gate, met in checks.items() if not met)


def assess_item(evidence: ItemEvidence, *, now: datetime, rule: Rule = DEFAULT_RULE) -> ItemReadiness:
    """Score, status, factors and next steps of one item at ``now`` (aware UTC)."""
    sums = _weighted_sums(evidence.day_totals, today=utc_day(now), rule=rule)
    factors = _factors(evidence, sums, now=now, rule=rule)
    score = sum(f.points for f in factors)
    unmet = _unmet(score, factors, sums, rule=rule)
    if not evidence.started:
        status = ItemStatus.NOT_STARTED
    elif not unmet:
        status = ItemStatus.READY
    else:
        status = ItemStatus.LEARNING if score < rule.learning_below_score else ItemStatus.SHAKY
    short = sorted((f for f in factors if f.advice), key=lambda f: -f.points_short)
    steps = tuple(dict.fromkeys(f.advice for f in short if f.advice))  # one line per piece of advice
    if status is ItemStatus.NOT_STARTED:
        steps = ("Start it: answer its first problems in Practice.",)
    elif status is ItemStatus.READY:
        steps = ()
    seconds = sums.duration_s / sums.timed if sums.timed else None
    return ItemReadiness(evidence.checklist_item, score, status, factors, steps, seconds, unmet)


def assess(evidence: Iterable[ItemEvidence], *, now: datetime, rule: Rule = DEFAULT_RULE) -> Overall:
    """Every item's readiness in the given order, and the overall verdict."""
    items = tuple(assess_item(e, now=now, rule=rule) for e in evidence)
    holding = sorted((i for i in items if i.status is not ItemStatus.READY), key=lambda i: i.score)
    return Overall(items, tuple(holding))


def seconds_per_answer(
    evidence: Iterable[ItemEvidence], *, now: datetime, rule: Rule = DEFAULT_RULE
) -> float | None:
    """Recency-weighted mean seconds per timed answer over every item (capped per answer), None if none."""
    sums = _weighted_sums((t for e in evidence for t in e.day_totals), today=utc_day(now), rule=rule)
    return sums.duration_s / sums.timed if sums.timed else None


def strengths(overall: Overall) -> dict[str, float]:
    """Each item's score as a 0..1 strength, for ordering a mock's items weakest first."""
    return {item.checklist_item: item.score / 100.0 for item in overall.items}
