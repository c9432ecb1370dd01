"""Readiness: how ready the user is on each checklist item, and why. The whole rule is stated here.

Each checklist item gets six factors, every one a value from 0 to 1, and a score from 0 to 100 that is
their weighted sum times 100 (weights add up to 1)::

    factor           weight  value
    accuracy          0.35   recency-weighted share of right answers (practice and mock), shrunk towards 0 by
                             2 phantom wrong answers:  sum(w * score) / (sum(w) + 2)
    retrievability    0.15   FSRS's predicted chance of recall now, averaged over the item's cards
    stability         0.15   FSRS stability of the item's cards against a 10-day aim: mean of min(1, S / 10 d)
    mocks             0.10   the accuracy formula over mock answers only, with 1 phantom wrong answer
    coverage          0.15   share of the item's question templates answered at least once
    time              0.10   min(1, 120 s / recency-weighted mean seconds per right answer, each answer
                             counted by its score), 0 until a right answer is timed

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

This module scores items and gives the verdict. The rule's numbers and names are in
``progress.readiness_rule``, what it reads in ``progress.readiness_evidence``, and how each factor is
computed in ``progress.readiness_factors``; their names can still be imported from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from progress.readiness_evidence import DayTotal, ItemEvidence
from progress.readiness_factors import Factor, Weighted, item_factors, plural, weighted_sums
from progress.readiness_rule import DEFAULT_RULE, FactorName, FactorRule, Gate, ItemStatus, Rule
from progress.utc import utc_day

# The rule's parts live in their own modules; they stay importable from here, where the rule is stated.
__all__ = [
    "DEFAULT_RULE",
    "DayTotal",
    "Factor",
    "FactorName",
    "FactorRule",
    "Gate",
    "ItemEvidence",
    "ItemReadiness",
    "ItemStatus",
    "Overall",
    "Rule",
    "assess",
    "assess_item",
    "plural",
    "seconds_per_answer",
    "strengths",
]


@dataclass(frozen=True)
class ItemReadiness:
    """The verdict on one checklist item; ``unmet`` lists the conditions of "ready" not met yet."""

    checklist_item: str
    score: float
    status: ItemStatus
    factors: tuple[Factor, ...]
    next_steps: tuple[str, ...]
    seconds_per_answer: float | None  # per right answer, as the time factor counts it
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


def _unmet(score: float, factors: Sequence[Factor], sums: Weighted, *, rule: Rule) -> tuple[Gate, ...]:
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
    sums = weighted_sums(evidence.day_totals, today=utc_day(now), rule=rule)
    factors = item_factors(evidence, sums, now=now, rule=rule)
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
    seconds = sums.right_duration_s / sums.right_timed if sums.right_timed else None
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
    sums = weighted_sums((t for e in evidence for t in e.day_totals), today=utc_day(now), rule=rule)
    return sums.duration_s / sums.timed if sums.timed else None


def strengths(overall: Overall) -> dict[str, float]:
    """Each item's score as a 0..1 strength, for ordering a mock's items weakest first."""
    return {item.checklist_item: item.score / 100.0 for item in overall.items}
