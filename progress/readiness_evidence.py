"""The evidence the readiness rule reads about a checklist item: its answers summed per day, its cards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from fsrs import Card


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
    #: The time factor's share: each timed answer counted by its score, so only right answers' speed
    #: counts (the sum of scores of timed answers, and of score × capped seconds).
    right_timed: float = 0.0
    right_duration_sum_s: float = 0.0


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
