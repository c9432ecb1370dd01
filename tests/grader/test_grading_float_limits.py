"""Figures near float's limits (the largest float, its negative, subnormals) get a verdict on every
numeric question of the bank, single problems and scenario steps alike, never the grader's safety net."""

from __future__ import annotations

import pytest

from grader import Kind, Problem, grade
from grader.grading import _FAILED
from question_bank import generate, load_bank
from question_bank.scenarios import generate_scenario

LARGEST = "1.7976931348623157e308"
FIGURES = (
    LARGEST,
    f"-{LARGEST}",
    "1.7976931348623157E+308",
    "1e308",
    "-1e308",
    "1e300",
    "1.0000001e300",
    "5e-324",
    "-5e-324",
    "2.2250738585072014e-308",
    "1e-320",
    "0.0",
)


def _numeric_problems() -> list[Problem]:
    bank = load_bank()
    problems: list[Problem] = [generate(t, 3) for t in bank.templates if t.kind == Kind.NUMERIC]
    for scenario in bank.scenarios:
        problems.extend(s for s in generate_scenario(scenario, 3).steps if s.kind == Kind.NUMERIC)
    return problems


PROBLEMS = _numeric_problems()


def test_the_bank_has_numeric_questions_to_try() -> None:
    assert len(PROBLEMS) > 60


@pytest.mark.parametrize("figure", FIGURES)
def test_a_figure_near_floats_limits_gets_a_verdict_on_every_numeric_question(figure: str) -> None:
    failed = []
    for problem in PROBLEMS:
        for typed in (figure, f"{figure} {problem.unit}".strip()):
            verdict = grade(problem, typed)
            if _FAILED in verdict.message or not verdict.message:
                failed.append((problem.template_id, typed))
    assert not failed, failed


def test_the_largest_float_is_told_to_check_its_exponent() -> None:
    verdict = grade(PROBLEMS[0], LARGEST)
    assert "too large to grade" in verdict.message
    assert verdict.score == 0.0
