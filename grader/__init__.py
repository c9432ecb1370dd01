"""Napkin-math estimator, answer parsing, grading and slip diagnosis. Imports neither streamlit nor torch.

The public face: ``grade(problem, response)`` and ``check_numeric(response, expected=, unit=,
rel_tol=)`` return a :class:`Verdict`; the problem types come from :mod:`grader.problem`.
Unit helpers for people (``format_quantity``, ``to_display``, ``from_display``) live in
:mod:`grader.units`; the estimator in :mod:`grader.estimator`. pint is imported on first use.
"""

from grader.derivation import Step
from grader.grading import check_numeric, grade
from grader.problem import Choice, Kind, Problem, SlipValue, Tolerance, ToleranceKind
from grader.verdict import Verdict, VerdictStatus

__all__ = [
    "Choice",
    "Kind",
    "Problem",
    "SlipValue",
    "Step",
    "Tolerance",
    "ToleranceKind",
    "Verdict",
    "VerdictStatus",
    "check_numeric",
    "grade",
]
