"""The readiness rule's numbers and vocabulary: item statuses, the gates of "ready", the six factors' names,
and ``Rule``, the thresholds and weights that ``progress.readiness`` applies (its docstring states the rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


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
    """The numbers of the rule described in ``progress.readiness`` (compared and hashed by identity)."""

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
