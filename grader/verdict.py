"""The result of grading one response: status, score, the exact answer for people, and why."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypedDict

from grader.estimator.derivation import Step, StepDict


class VerdictStatus(StrEnum):
    """``unparsable`` means the text could not be read; it is not an attempt and is not stored."""

    CORRECT = "correct"
    INCORRECT = "incorrect"
    UNPARSABLE = "unparsable"


class VerdictDict(TypedDict):
    """The stored (JSON) form of a :class:`Verdict`."""

    status: str
    score: float
    value: float | None
    accepted_range: list[float] | None
    exact: float | None
    unit: str
    diagnosis: str | None
    diagnosis_text: str
    derivation: list[StepDict]
    message: str


@dataclass(frozen=True)
class PartResult:
    """One part of a two-part answer: its name (``time``, ``regime``), whether it was right, what to say."""

    name: str
    correct: bool
    message: str


@dataclass(frozen=True)
class Verdict:
    """How a response was graded.

    ``value`` is the parsed answer in SI base units (None for choice, recall and unparsable).
    ``accepted_range`` (low, high) and ``exact`` are in the display ``unit``, rounded to 4
    significant figures for people; grading itself compares unrounded SI values. ``diagnosis``
    names the slip that matches a wrong numeric answer (a declared slip's name, or a generic
    one such as ``bits-for-bytes``) and ``diagnosis_text`` explains it. ``message`` is the
    Markdown to show: the outcome, the exact answer and range, the slip, or what to type.
    ``accepted_as`` names the convention or rounding an answer matched when it is not the exact
    one (see :class:`grader.problem.AcceptedValue`). ``parts`` holds each part's own result for a
    two-part answer (the figure, then the verdict); the score is the share of parts right.
    """

    status: VerdictStatus
    score: float = 0.0
    value: float | None = None
    accepted_range: tuple[float, float] | None = None
    exact: float | None = None
    unit: str = ""
    diagnosis: str | None = None
    diagnosis_text: str = ""
    derivation: tuple[Step, ...] = ()
    message: str = ""
    accepted_as: str = ""
    parts: tuple[PartResult, ...] = ()

    @property
    def is_attempt(self) -> bool:
        """Whether this counts as an attempt (anything readable, right or wrong)."""
        return self.status is not VerdictStatus.UNPARSABLE

    @property
    def correct(self) -> bool:
        return self.status is VerdictStatus.CORRECT

    def to_dict(self) -> VerdictDict:
        return VerdictDict(
            status=str(self.status),
            score=self.score,
            value=self.value,
            accepted_range=list(self.accepted_range) if self.accepted_range is not None else None,
            exact=self.exact,
            unit=self.unit,
            diagnosis=self.diagnosis,
            diagnosis_text=self.diagnosis_text,
            derivation=[s.to_dict() for s in self.derivation],
            message=self.message,
        )
