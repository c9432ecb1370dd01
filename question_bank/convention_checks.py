"""The proof that every numeric template and step accepts both readings of each convention.

For each draw the sweep of :mod:`question_bank.generation_checks` makes, the answer is worked out
again under each convention of :mod:`grader.estimator.conventions`
(:func:`question_bank.convention_readings.convention_readings`), that number is graded as a user
would type it, and the draw fails when a reading beyond the band is not graded correct with its
convention named. A template that names a convention in its own ``accept`` with another value is
what this catches, and so is any change that lets the mechanism drift from the grader.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grader.diagnosis import band, within
from grader.grading import grade
from grader.problem import Problem
from grader.units import format_quantity
from question_bank.convention_readings import convention_readings
from question_bank.templates import NumericTemplate, Template


def reading_issue(template: Template, values: Mapping[str, Any], problem: Problem) -> tuple[str, str] | None:
    """Why a convention's reading of this draw is not accepted and named, as (message, hint), or None."""
    if problem.answer is None or not isinstance(template, NumericTemplate):
        return None
    exact_band = band(problem.answer, problem.tolerance, problem.unit)
    for convention, value in convention_readings(template, values, problem.answer):
        if within(value, exact_band):
            continue
        typed = format_quantity(value, problem.unit)
        verdict = grade(problem, typed)
        if not (verdict.correct and verdict.accepted_as):  # its own name, or a whole count's rounding
            return (
                f"{convention.name} gives {typed}, graded {verdict.status.value}; both readings of a "
                "convention count",
                "leave the conventions to the bank: drop an accept entry that names one",
            )
    return None
