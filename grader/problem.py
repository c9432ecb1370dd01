"""A generated problem: everything grading needs, with no reference back to the bank.

``question_bank.generate`` builds these; ``grader.grade`` reads them. The grader never imports
the bank, so the exact answer, the tolerance, the slip values and the derivation all travel
inside the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from grader.estimator.derivation import Step
from grader.explain.rubric import Misconception, Rubric


class Kind(StrEnum):
    """How a problem is answered."""

    NUMERIC = "numeric"
    CHOICE = "choice"
    RECALL = "recall"


class ToleranceKind(StrEnum):
    """How far from the exact answer a response may be.

    ``relative``: |x − v| ≤ value · |v|. ``absolute``: |x − v| ≤ value (in the display unit).
    ``geometric``: v / value ≤ x ≤ v · value (value > 1), for order-of-magnitude answers.
    """

    RELATIVE = "relative"
    ABSOLUTE = "absolute"
    GEOMETRIC = "geometric"


@dataclass(frozen=True)
class Tolerance:
    kind: ToleranceKind = ToleranceKind.RELATIVE
    value: float = 0.05


@dataclass(frozen=True)
class SlipValue:
    """A named wrong answer the template expects people to give, with its SI value."""

    name: str
    value: float
    diagnosis: str


@dataclass(frozen=True)
class Choice:
    """One option of a choice problem, in the order shown."""

    text: str
    correct: bool
    explanation: str


@dataclass(frozen=True)
class AcceptedValue:
    """Another answer accepted beside the exact one, with the note that says where it comes from.

    A defensible convention (a decode step gathers one row of the embedding table; an "80 GB" GPU
    holds 80 GiB) or another rounding of a whole-unit answer (the nearest integer, the unrounded
    quotient). ``value`` is SI; ``exactly``: only this very number counts (a whole number), else
    the problem's tolerance applies around it.
    """

    name: str
    value: float
    note: str
    exactly: bool = False


class ToleranceClass(StrEnum):
    """How strictly a numeric answer is graded, as the question states it.

    ``exact``: exact arithmetic, a tight relative band. ``rough``: an estimate, ±10 % or more (or a
    factor). ``whole``: a count of whole things: the floor is strict, and the nearest integer and
    the unrounded quotient are accepted too.
    """

    EXACT = "exact"
    ROUGH = "rough"
    WHOLE = "whole"


@dataclass(frozen=True)
class ChoicePart:
    """The second part of a two-part answer: a verdict named among ``options`` (``bandwidth-bound``).

    ``asks`` names it for messages (``regime``); ``correct`` indexes the right ``options`` (two
    when the draw is a near tie); ``why`` says how the right one is found.
    """

    asks: str
    options: tuple[str, ...]
    correct: tuple[int, ...]
    why: str = ""


@dataclass(frozen=True)
class Probe:
    """A short follow-up that tests one key point, as an interviewer asks it when the point was missed.

    Either another template of the bank (``template_id``, drawn at the same seed by whoever shows it)
    or a choice asked inline (``prompt`` and ``choices``).
    """

    template_id: str = ""
    prompt: str = ""
    choices: tuple[Choice, ...] = ()

    def as_problem(self, parent: Problem) -> Problem:
        """An inline probe as a choice problem of the parent's item (a template probe has no inline form)."""
        return Problem(
            template_id=f"{parent.template_id}#probe",
            checklist_item=parent.checklist_item,
            kind=Kind.CHOICE,
            prompt=self.prompt,
            seed=parent.seed,
            choices=self.choices,
        )


@dataclass(frozen=True)
class Problem:
    """One concrete question.

    ``answer`` is in SI base units (bytes, seconds, FLOP, FLOP/s, bytes/s, FLOP/B, tokens or a
    pure number) and ``unit`` is the display unit a bare number is read in (``GB``, ``ms``...).
    Choice and recall problems have ``answer`` None. A numeric problem's ``tolerance_class`` is
    stated in its prompt; ``accepted`` lists other answers a defensible convention or rounding gives;
    ``choice_part`` is a verdict asked beside the figure (both typed in one answer). A recall
    problem's ``key_point_rubrics`` (aligned with ``key_points``) and ``misconceptions`` let
    :func:`grader.check_explanation` read a typed explanation; ``model_answer`` is the answer alone,
    without the template's extra explanation.
    """

    template_id: str
    checklist_item: str
    kind: Kind
    prompt: str
    seed: int
    params: dict[str, Any] = field(default_factory=dict)
    answer: float | None = None
    unit: str = ""
    tolerance: Tolerance = field(default_factory=Tolerance)
    choices: tuple[Choice, ...] = ()
    slips: tuple[SlipValue, ...] = ()
    derivation: tuple[Step, ...] = ()
    explanation: str = ""
    references: tuple[str, ...] = ()
    key_points: tuple[str, ...] = ()
    difficulty: int = 1
    title: str = ""
    #: The template's free topic tags (``tensor-parallel``, ``moe``...); empty when it has none.
    topics: tuple[str, ...] = ()
    key_point_rubrics: tuple[Rubric, ...] = ()
    #: Aligned with ``key_points``: the follow-up that tests each point, or None.
    key_point_probes: tuple[Probe | None, ...] = ()
    misconceptions: tuple[Misconception, ...] = ()
    model_answer: str = ""
    tolerance_class: ToleranceClass = ToleranceClass.EXACT
    accepted: tuple[AcceptedValue, ...] = ()
    choice_part: ChoicePart | None = None
