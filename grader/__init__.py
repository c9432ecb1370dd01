"""Napkin-math estimator, answer parsing, grading and slip diagnosis. Imports neither streamlit nor torch.

The public face: ``grade(problem, response)`` and ``check_numeric(response, expected=, unit=,
rel_tol=)`` return a :class:`Verdict`; ``check_explanation(problem, text)`` reads a typed explanation
of a recall problem (an :class:`ExplanationCheck`); the problem types come from :mod:`grader.problem`.
Unit helpers for people (``format_quantity``, ``to_display``, ``from_display``) live in
:mod:`grader.units`; the estimator in :mod:`grader.estimator`. pint is imported on first use.
"""

from grader.estimator.derivation import Step
from grader.explain.check import ExplanationCheck, ExplanationRecord, check_explanation
from grader.explain.rubric import Misconception, Rubric
from grader.grading import check_numeric, grade
from grader.problem import Choice, Kind, Problem, SlipValue, Tolerance, ToleranceKind
from grader.verdict import Verdict, VerdictStatus

__all__ = [
    "Choice",
    "ExplanationCheck",
    "ExplanationRecord",
    "Kind",
    "Misconception",
    "Problem",
    "Rubric",
    "SlipValue",
    "Step",
    "Tolerance",
    "ToleranceKind",
    "Verdict",
    "VerdictStatus",
    "check_explanation",
    "check_numeric",
    "grade",
]
