"""Scoring a finished mock: one outcome per problem, a summary per checklist item, the total.

Pure and independent of the bank: the problems are passed in already generated and ``grade`` is
passed in as a function (``grader.grade`` in the app), so ``progress`` keeps pointing at
``question_bank`` ids only. An exact answer is worded by ``grader.grading.exact_answer``, as
practice's feedback words it. A problem is read through the fields of
``grader.problem.Problem`` and a verdict through those of ``grader.Verdict``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from grader.grading import exact_answer

#: The self-ratings a recall problem can get at the debrief, from worst to best.
RECALL_RATINGS: tuple[str, ...] = ("again", "hard", "good", "easy")


class ProblemLike(Protocol):
    """The fields of ``grader.problem.Problem`` a debrief reads (read-only, as Problem is frozen)."""

    @property
    def template_id(self) -> str: ...
    @property
    def checklist_item(self) -> str: ...
    # grader.problem.Kind, a StrEnum: compares equal to "numeric" / "choice" / "recall"
    @property
    def kind(self) -> Any: ...
    @property
    def prompt(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def params(self) -> dict[str, Any]: ...
    @property
    def answer(self) -> float | None: ...
    @property
    def unit(self) -> str: ...
    @property
    def choices(self) -> Sequence[Any]: ...
    @property
    def derivation(self) -> Sequence[Any]: ...
    @property
    def explanation(self) -> str: ...
    @property
    def key_points(self) -> Sequence[str]: ...
    @property
    def title(self) -> str: ...


class VerdictLike(Protocol):
    """The fields of ``grader.Verdict`` a debrief reads (read-only, as Verdict is frozen)."""

    # correct / incorrect / unparsable (a StrEnum)
    @property
    def status(self) -> Any: ...
    @property
    def score(self) -> float: ...
    @property
    def value(self) -> float | None: ...
    @property
    def exact(self) -> Any: ...
    @property
    def unit(self) -> str: ...
    @property
    def diagnosis(self) -> str | None: ...
    @property
    def diagnosis_text(self) -> str: ...
    @property
    def message(self) -> str: ...


Grade = Callable[[Any, str], VerdictLike]


@dataclass(frozen=True)
class Answer:
    """What the user left for one problem: the text, when (UTC), time spent on it (s), a recall rating."""

    position: int
    response: str
    answered_at: datetime
    time_spent_s: float = 0.0
    self_rating: str | None = None
    #: A recall answer's checked explanation as confirmed at the debrief (``made``, ``score``...), or None.
    explanation: Mapping[str, Any] | None = None


class Result(StrEnum):
    """How one problem of a mock ended."""

    CORRECT = "correct"
    INCORRECT = "incorrect"
    UNANSWERED = "unanswered"  # counts as incorrect
    UNPARSABLE = "unparsable"  # counts as incorrect: in a mock there is no second try
    AWAITING_RATING = "awaiting-rating"  # an answered recall problem not yet self-rated


@dataclass(frozen=True)
class Outcome:
    """One problem's line in the debrief. ``score`` is 0..1; ``time_spent_s`` in seconds."""

    position: int
    problem: Any
    response: str | None
    result: Result
    score: float
    verdict: VerdictLike | None
    time_spent_s: float
    self_rating: str | None
    explanation: Mapping[str, Any] | None = None

    @property
    def correct(self) -> bool:
        return self.result is Result.CORRECT

    @property
    def slip(self) -> str | None:
        return self.verdict.diagnosis if self.verdict is not None else None


@dataclass(frozen=True)
class ItemSummary:
    """How one checklist item went: problems asked, answered correctly, summed score, slips named."""

    checklist_item: str
    asked: int
    correct: int
    score: float
    slips: tuple[str, ...]


@dataclass(frozen=True)
class Debrief:
    """Every outcome in order, per-item summaries, and the score (0..1, the mean per-problem score).

    ``final`` is False while an answered recall problem still awaits its self-rating; until then
    ``score`` counts those problems as zero and must not be stored.
    """

    outcomes: tuple[Outcome, ...]
    items: tuple[ItemSummary, ...]
    score: float
    final: bool

    @property
    def awaiting_rating(self) -> tuple[int, ...]:
        return tuple(o.position for o in self.outcomes if o.result is Result.AWAITING_RATING)

    @property
    def n_correct(self) -> int:
        return sum(o.correct for o in self.outcomes)


def is_recall(problem: ProblemLike) -> bool:
    return str(problem.kind) == "recall"


def _outcome(position: int, problem: ProblemLike, answer: Answer | None, grade: Grade) -> Outcome:
    spent = answer.time_spent_s if answer is not None else 0.0
    if answer is None or not answer.response.strip():
        return Outcome(position, problem, None, Result.UNANSWERED, 0.0, None, spent, None)
    rating = answer.self_rating
    if is_recall(problem):
        if rating not in RECALL_RATINGS:
            return Outcome(position, problem, answer.response, Result.AWAITING_RATING, 0.0, None, spent, None)
        # A recall problem is graded on the rating given against its key points, not on the text.
        verdict = grade(problem, rating)
    else:
        verdict = grade(problem, answer.response)
    status = str(verdict.status)
    if status == Result.CORRECT:
        result = Result.CORRECT
    elif status == Result.UNPARSABLE:
        result = Result.UNPARSABLE
    else:
        result = Result.INCORRECT
    score = float(verdict.score) if result is not Result.UNPARSABLE else 0.0
    explanation = answer.explanation if is_recall(problem) else None
    if explanation is not None and "score" in explanation:
        # A checked explanation scores the points made (halved by a misconception left standing).
        score = min(1.0, max(0.0, float(explanation["score"])))
    return Outcome(position, problem, answer.response, result, score, verdict, spent, rating, explanation)


def _summaries(outcomes: Sequence[Outcome]) -> tuple[ItemSummary, ...]:
    grouped: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        grouped.setdefault(outcome.problem.checklist_item, []).append(outcome)
    return tuple(
        ItemSummary(
            checklist_item=item,
            asked=len(group),
            correct=sum(o.correct for o in group),
            score=sum(o.score for o in group),
            slips=tuple(o.slip for o in group if o.slip and not o.correct),
        )
        for item, group in grouped.items()
    )


def debrief(problems: Sequence[ProblemLike], answers: Mapping[int, Answer], *, grade: Grade) -> Debrief:
    """Grade every problem of a mock (positions are 0-based indexes into ``problems``).

    An unanswered problem, or one whose answer cannot be read, scores zero.
    """
    outcomes = tuple(_outcome(i, problem, answers.get(i), grade) for i, problem in enumerate(problems))
    total = sum(o.score for o in outcomes) / len(outcomes) if outcomes else 0.0
    final = not any(o.result is Result.AWAITING_RATING for o in outcomes)
    return Debrief(outcomes=outcomes, items=_summaries(outcomes), score=total, final=final)


def answer_heading(problem: ProblemLike) -> str:
    """What the debrief calls the answer it shows: a chosen option is right, not exact."""
    return "Right answer" if str(problem.kind) == "choice" else "Exact answer"


def exact_answer_text(problem: ProblemLike, verdict: VerdictLike | None) -> str:
    """The exact answer in words a person reads: number and unit, the right option, or the key points."""
    kind = str(problem.kind)
    if kind == "choice":
        return next((c.text for c in problem.choices if c.correct), "")
    if kind == "recall":
        return "; ".join(problem.key_points)
    if problem.answer is not None:
        # Worded as practice's feedback words it: a rounded count never reads as an exact integer.
        return exact_answer(problem.answer, problem.unit)
    exact = verdict.exact if verdict is not None else None
    if exact is None:
        return ""
    if isinstance(exact, int | float):
        return f"{exact:,.4g} {verdict.unit}".strip() if verdict is not None else ""
    return str(exact)


def response_text(problem: ProblemLike, response: str | None) -> str:
    """The user's answer as shown back: a choice index becomes the option's text."""
    if response is None or not response.strip():
        return "(no answer)"
    if str(problem.kind) == "choice" and response.strip().isdigit():
        index = int(response.strip())
        if 0 <= index < len(problem.choices):
            return str(problem.choices[index].text)
    return response.strip()
