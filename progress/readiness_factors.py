"""The six factors of an item's readiness: ``Factor``, and how each is computed from an item's evidence.

``progress.readiness`` states the rule and turns these factors into a score and a status.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from fsrs import Card, Scheduler

from progress.readiness_evidence import DayTotal, ItemEvidence
from progress.readiness_rule import FactorName, Rule


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
class Weighted:
    """Recency-weighted sums over an item's answers."""

    answers: float = 0.0
    score: float = 0.0
    mock_answers: float = 0.0
    mock_score: float = 0.0
    timed: float = 0.0
    duration_s: float = 0.0
    mock_count: int = 0
    right_timed: float = 0.0
    right_duration_s: float = 0.0


@functools.cache
def _weights_by_age(rule: Rule) -> tuple[float, ...]:
    """The recency weight of each whole-day age inside the window (index 0 is today)."""
    return tuple(rule.weight_of(age_days=age) for age in range(rule.window_days + 1))


def weighted_sums(totals: Iterable[DayTotal], *, today: date, rule: Rule) -> Weighted:
    """The recency-weighted sums of ``totals`` as of the UTC day ``today``; older than the window left out."""
    weights = _weights_by_age(rule)
    answers = score = mock_answers = mock_score = timed = duration_s = right_timed = right_duration_s = 0.0
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
        right_timed += w * total.right_timed
        right_duration_s += w * total.right_duration_sum_s
        if total.mock:
            mock_answers += w * total.n_answers
            mock_score += w * total.score_sum
            mock_count += total.n_answers
    return Weighted(
        answers, score, mock_answers, mock_score, timed, duration_s, mock_count, right_timed, right_duration_s
    )


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


def item_factors(evidence: ItemEvidence, sums: Weighted, *, now: datetime, rule: Rule) -> tuple[Factor, ...]:
    """The six factors of one item at ``now`` (aware UTC), in the order they are shown."""
    accuracy = sums.score / (sums.answers + rule.accuracy_phantom_misses)
    recall, stability, stability_days = _memory_factors(tuple(evidence.cards.values()), now=now, rule=rule)
    mocks = sums.mock_score / (sums.mock_answers + rule.mock_phantom_misses)
    n_templates = len(evidence.template_ids)
    n_tried = len(evidence.attempted_template_ids.intersection(evidence.template_ids))
    coverage = n_tried / n_templates if n_templates else 0.0
    # Speed counts for right answers only: a fast wrong answer says nothing about interview pace.
    mean_s = sums.right_duration_s / sums.right_timed if sums.right_timed else math.inf
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
            f"{mean_s:.0f} s per right answer against a {target_s:.0f} s target"
            if sums.right_timed
            else "no timed right answers yet",
            f"Answer faster: aim for {target_s:.0f} s, as in an interview.",
            rule=rule,
        ),
    )


def plural(n: int, noun: str) -> str:
    """``1 day``, ``2 days``: a count with its noun."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _answers(n: float, noun: str = "answer") -> str:
    """A weighted count with its noun, as shown (``1 answer``, ``2.5 answers``)."""
    shown = f"{n:.3g}"
    return f"{shown} {noun}{'' if shown == '1' else 's'}"


def _share_detail(right: float, answers: float, *, phantoms: float, value: float) -> str:
    """How a share with phantom misses comes out, spelled out: ``1 right of 2 answers ... = 25 %``."""
    return (
        f"{right:.3g} right of {_answers(answers)} (recent ones count most), counted as if "
        f"{_answers(phantoms, 'more answer')} "
        "had been wrong, so that a few right ones are not yet enough: "
        f"{right:.3g} / ({answers:.3g} + {phantoms:g}) = {value:.0%}"
    )
