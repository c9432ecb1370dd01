"""The practice loop behind the practice page: pick, grade, record, schedule. No Streamlit here.

Kept out of the page so the page only reads widgets and renders, and so this logic is tested
without a browser. Time always comes in as an argument.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import zip_longest
from typing import Any

from grader import ExplanationRecord, Verdict, VerdictStatus, grade
from grader.problem import Kind, Problem
from progress import Attempt, Mode, Status, Store
from progress.scheduling import rating_for_answer, review
from question_bank import Bank
from question_bank.generation_checks import generate_checked
from question_bank.pins import PinValue


def queue_order(bank: Bank, *, skip: Collection[str] = ()) -> list[tuple[str, str]]:
    """(template id, checklist item) pairs in the order new cards are introduced.

    Easiest first, and within a difficulty one item after another, so the first days touch every
    checklist item instead of exhausting one. Scenarios are cards like any template. Templates in
    ``skip`` (they failed to generate in this session) are left out.
    """
    by_level: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for template in [*bank.templates, *bank.scenarios]:
        if template.id in skip:
            continue
        by_level[template.difficulty][template.checklist].append(template.id)
    order: list[tuple[str, str]] = []
    for level in sorted(by_level):
        items = by_level[level]
        columns = [[(tid, item) for tid in ids] for item, ids in items.items()]
        for row in zip_longest(*columns):
            order.extend(pair for pair in row if pair is not None)
    return order


def in_rotation(ids: Sequence[str], *, recent: Sequence[str], seed: int) -> str:
    """One of ``ids`` (not empty), drawn with ``seed`` among those shown least often in ``recent``
    (this session's problems, oldest first): every one comes before any comes again, and the one just
    shown never comes straight back while there is another."""
    shown = Counter(tid for tid in recent if tid in ids)
    fewest = min(shown[tid] for tid in ids)
    least = [tid for tid in ids if shown[tid] == fewest]
    last = recent[-1] if recent else None
    return random.Random(seed).choice([tid for tid in least if tid != last] or least)


def extra_template_id(
    bank: Bank,
    *,
    seed: int,
    checklist_item: str | None = None,
    skip: Collection[str] = (),
    recent: Sequence[str] = (),
) -> str:
    """A template for practice outside the schedule, drawn with ``seed`` (optionally from one item),
    in rotation over ``recent`` (see :func:`in_rotation`)."""
    usable = [t for t in bank.templates if t.id not in skip] or bank.templates
    ids = [t.id for t in usable if checklist_item is None or t.checklist == checklist_item]
    return in_rotation(ids or [t.id for t in usable], recent=recent, seed=seed)


@dataclass(frozen=True)
class Current:
    """The problem on screen and how it was chosen.

    ``pins``: params drawn with given values (a setup drilled from Explore), as (name, value) pairs in
    the form a problem's params show them; empty for an ordinary draw.
    """

    template_id: str
    seed: int
    scheduled: bool
    started_at: datetime
    pins: tuple[tuple[str, PinValue], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "template_id": self.template_id,
            "seed": self.seed,
            "scheduled": self.scheduled,
            "started_at": self.started_at.isoformat(),
            "pins": dict(self.pins),
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Current:
        return Current(
            template_id=str(data["template_id"]),
            seed=int(data["seed"]),
            scheduled=bool(data["scheduled"]),
            started_at=datetime.fromisoformat(data["started_at"]),
            pins=tuple(dict(data.get("pins") or {}).items()),
        )


def problem_for(bank: Bank, current: Current) -> Problem:
    """Regenerate the problem on screen from its template and seed.

    ``KeyError`` when the template left the bank; ``GenerationError`` when this draw fails or its
    answer is unusable (not finite, say), so the page can skip it with a note.
    """
    return generate_checked(bank.get(current.template_id), current.seed, pins=dict(current.pins) or None)


def practice_attempt(
    problem: Problem,
    verdict: Verdict,
    response: str,
    *,
    now: datetime,
    duration_s: float,
    explanation: ExplanationRecord | None = None,
) -> Attempt:
    """The attempt a graded practice answer stores (under the problem's template and checklist item).

    A typed ``explanation`` of a recall answer goes with the attempt, and its points made are the
    attempt's score.
    """
    attempt = Attempt(
        created_at=now,
        template_id=problem.template_id,
        checklist_item=problem.checklist_item,
        seed=problem.seed,
        params=problem.params,
        response=response,
        value=verdict.value,
        status=Status(verdict.status.value),
        score=verdict.score,
        diagnosis=verdict.diagnosis,
        mode=Mode.PRACTICE,
        duration_s=duration_s,
    )
    if explanation is None:
        return attempt
    return replace(attempt, score=explanation.score, explanation=explanation.to_dict())


def submit(
    store: Store,
    problem: Problem,
    response: str,
    *,
    current: Current,
    now: datetime,
    enable_fuzzing: bool = True,
    explanation: ExplanationRecord | None = None,
) -> Verdict:
    """Grade ``response``; unless it is unparsable, store the attempt and, when scheduled, review the card.

    For recall problems ``response`` is the self-rating (again, hard, good or easy); a typed
    ``explanation`` is stored with the attempt and its points made set the attempt's score.
    """
    verdict = grade(problem, response)
    if verdict.status is VerdictStatus.UNPARSABLE:
        return verdict
    duration_s = max(0.0, (now - current.started_at).total_seconds())
    attempt = practice_attempt(
        problem, verdict, response, now=now, duration_s=duration_s, explanation=explanation
    )
    if not current.scheduled:
        store.record_attempt(attempt)
        return verdict
    self_rating = response if problem.kind is Kind.RECALL else None
    review(
        store,
        template_id=problem.template_id,
        checklist_item=problem.checklist_item,
        rating=rating_for_answer(status=verdict.status.value, self_rating=self_rating),
        now=now,
        duration_s=duration_s,
        enable_fuzzing=enable_fuzzing,
        attempt=attempt,
    )
    return verdict


@dataclass(frozen=True)
class Tally:
    """What this browser session has done on the practice page."""

    answered: int = 0
    correct: int = 0
    seconds: float = 0.0

    def add(self, verdict: Verdict, *, seconds: float) -> Tally:
        return Tally(
            answered=self.answered + 1,
            correct=self.correct + (verdict.status is VerdictStatus.CORRECT),
            seconds=self.seconds + seconds,
        )

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answered if self.answered else None

    def to_dict(self) -> dict[str, float]:
        return {"answered": self.answered, "correct": self.correct, "seconds": self.seconds}

    @staticmethod
    def from_dict(data: dict[str, Any] | None) -> Tally:
        if not data:
            return Tally()
        return Tally(int(data["answered"]), int(data["correct"]), float(data["seconds"]))


def checklist_titles(items: Sequence[Any]) -> dict[str, str]:
    """Checklist id → short title, for filters and labels."""
    return {item.id: item.title for item in items}
