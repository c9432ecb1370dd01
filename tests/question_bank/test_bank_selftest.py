"""The shipped bank grades itself: every template × 200 seeds.

For each seed the problem is generated once and then: no placeholder is left unfilled; a numeric
answer is a positive finite number in the dimension of its display unit; the exact answer and
the answer rounded to 3 significant figures (in the display unit) grade correct; every declared
slip grades incorrect and is diagnosed by its own name; answers 3 %, 8 %, 12 % and 20 % off
the exact value (above on even seeds, below on odd ones) get no slip that cannot apply to the
quantity (a binary prefix only where data is counted; no factor of 2, 8 or 1000); a "rough"
answer accepts ±10 %, a whole-unit one its floor, nearest integer and unrounded quotient; a
two-part answer with one part wrong is half right, each part shown; a choice
problem has exactly one correct option and only that option grades correct; a recall problem
takes a self-rating. Across the seeds, the prompts differ visibly. Every step of every scenario
passes the same checks, and a wrong answer to a step, carried through, makes each later step
built on it grade correct.
"""

from __future__ import annotations

import math

import pytest

from grader import Kind, Problem, VerdictStatus, grade
from grader.diagnosis import CLOSE, generic_slip_names
from grader.follow_through import ScenarioProblem, carried_problem, grade_step
from grader.problem import ToleranceClass
from grader.units import dimensionality, format_quantity
from question_bank import Template, generate, load_bank
from question_bank.catalog import select_presets, shipped_catalog
from question_bank.rendering import Placeholder, parse
from question_bank.scenarios import generate_scenario
from question_bank.schema import (
    MAX_STEPS,
    MIN_STEPS,
    ChoiceParam,
    ChoiceTemplate,
    DtypeParam,
    IntParam,
    PresetParam,
    ScenarioTemplate,
)

SEEDS = range(200)
#: Follow-through is checked on every 4th seed (50 draws): it grades each step once per earlier step.
FOLLOW_THROUGH_EVERY = 4
BANK = load_bank(include_shipped=True)
NEAR_MISSES = (0.03, 0.08, 0.12, 0.20)
BINARY_PREFIX_SLIPS = frozenset(name for name in generic_slip_names() if "-for-" in name)


def _variety(template: Template | ScenarioTemplate) -> int:
    """At most how many different prompts the template can draw (large ranges count as many)."""
    count = 1
    for spec in template.params.values():
        if isinstance(spec, PresetParam):
            count *= len(select_presets(spec, shipped_catalog().lists[spec.preset]))
        elif isinstance(spec, DtypeParam):
            count *= len(set(spec.dtype))
        elif isinstance(spec, ChoiceParam):
            count *= len(set(map(str, spec.choice)))
        elif isinstance(spec, IntParam):
            count *= (spec.int_.high - spec.int_.low) // spec.int_.step + 1
        elif not hasattr(spec, "call"):
            count *= 1000  # a float range
    if isinstance(template, ChoiceTemplate) and isinstance(template.scenarios, list):
        count *= len(template.scenarios)
    return count


def _verdict_suffix(problem: Problem, *, right: bool = True) -> str:
    """The second part of a two-part answer (right or wrong), or nothing."""
    part = problem.choice_part
    if part is None:
        return ""
    wrong = [i for i in range(len(part.options)) if i not in part.correct]
    return f", {part.options[part.correct[0] if right else wrong[0]]}"


def _check_near_misses(problem: Problem) -> None:
    assert problem.answer is not None
    sign = 1 if problem.seed % 2 == 0 else -1
    is_data = "[information]" in dimensionality(problem.unit)
    declared = {slip.name for slip in problem.slips}
    can_apply = declared | {CLOSE} | (BINARY_PREFIX_SLIPS if is_data else set())
    for offset in NEAR_MISSES:
        response = format_quantity(problem.answer * (1 + sign * offset), problem.unit) + _verdict_suffix(
            problem
        )
        verdict = grade(problem, response)
        if verdict.diagnosis is not None:
            assert verdict.diagnosis in can_apply, (response, verdict.diagnosis, verdict.diagnosis_text)


def _check_tolerance_class(problem: Problem) -> None:
    """A rough answer takes ±10 %; a whole-unit one its floor, nearest integer and unrounded quotient."""
    assert problem.answer is not None
    suffix = _verdict_suffix(problem)
    accepted: list[float] = []
    if problem.tolerance_class is ToleranceClass.ROUGH:
        accepted = [problem.answer * 0.9, problem.answer * 1.1]
    elif problem.tolerance_class is ToleranceClass.WHOLE:
        unrounded = problem.derivation[-2].value
        accepted = [math.floor(unrounded), round(unrounded), unrounded]
        assert math.floor(unrounded) == problem.answer, (unrounded, problem.answer)
    for value in accepted:
        response = format_quantity(value, problem.unit, sig_figs=12) + suffix
        verdict = grade(problem, response)
        assert verdict.status is VerdictStatus.CORRECT, (problem.tolerance_class, response, verdict.message)


def _check_two_parts(problem: Problem) -> None:
    """Right figure with the wrong verdict, and the reverse: each graded half right, each part shown."""
    if problem.choice_part is None or len(problem.choice_part.correct) == len(problem.choice_part.options):
        return
    assert problem.answer is not None
    figure = format_quantity(problem.answer, problem.unit)
    wrong_verdict = grade(problem, figure + _verdict_suffix(problem, right=False))
    wrong_figure = grade(
        problem, format_quantity(problem.answer * 3, problem.unit) + _verdict_suffix(problem)
    )
    for verdict, right_parts in ((wrong_verdict, [True, False]), (wrong_figure, [False, True])):
        assert verdict.status is VerdictStatus.INCORRECT and verdict.score == 0.5, verdict.message
        assert [part.correct for part in verdict.parts] == right_parts, verdict.parts


def _check_numeric(problem: Problem) -> None:
    answer, unit = problem.answer, problem.unit
    assert answer is not None and math.isfinite(answer) and answer > 0, answer
    if problem.derivation:
        # The estimator's last step carries the answer's SI unit; the display unit must measure the same.
        assert dimensionality(problem.derivation[-1].unit) == dimensionality(unit), problem.derivation[-1]
    suffix = _verdict_suffix(problem)
    for sig_figs in (12, 3):
        response = format_quantity(answer, unit, sig_figs=sig_figs) + suffix
        verdict = grade(problem, response)
        assert verdict.status is VerdictStatus.CORRECT, (response, verdict.message)
    for slip in problem.slips:
        response = format_quantity(slip.value, unit, sig_figs=12) + suffix
        verdict = grade(problem, response)
        assert verdict.status is VerdictStatus.INCORRECT, (slip.name, response, verdict.message)
        assert verdict.diagnosis == slip.name, (slip.name, response, verdict.diagnosis)
    _check_near_misses(problem)
    _check_tolerance_class(problem)
    _check_two_parts(problem)


def _check_choice(problem: Problem) -> None:
    correct = [index for index, choice in enumerate(problem.choices) if choice.correct]
    assert len(correct) == 1, problem.choices
    assert len({choice.text for choice in problem.choices}) == len(problem.choices)
    for index in range(len(problem.choices)):
        expected = VerdictStatus.CORRECT if index == correct[0] else VerdictStatus.INCORRECT
        assert grade(problem, str(index)).status is expected


def _check_recall(problem: Problem) -> None:
    assert 3 <= len(problem.key_points) <= 6
    assert problem.explanation.strip()
    assert grade(problem, "good").status is VerdictStatus.CORRECT
    assert grade(problem, "again").status is VerdictStatus.INCORRECT


CHECKS = {Kind.NUMERIC: _check_numeric, Kind.CHOICE: _check_choice, Kind.RECALL: _check_recall}


@pytest.mark.parametrize("template", BANK.templates, ids=lambda t: t.id)
def test_template_over_200_seeds(template: Template) -> None:
    sources = [p.source for p in parse(template.prompt) if isinstance(p, Placeholder)]
    prompts = set()
    for seed in SEEDS:
        problem = generate(template, seed)
        assert problem.template_id == template.id and problem.kind.value == template.kind
        unfilled = [source for source in sources if source in problem.prompt]
        assert not unfilled, f"seed {seed}: {unfilled}"
        CHECKS[problem.kind](problem)
        prompts.add(problem.prompt)
    assert len(prompts) >= min(5, _variety(template)), (
        f"only {len(prompts)} distinct prompts in {len(SEEDS)} seeds"
    )


# --- scenarios: every step like a template, and follow-through ---------------------------------------


def _wrong(value: float, problem: Problem) -> float:
    """A value the step's own tolerance rejects: 37 % high, or past a geometric band."""
    factor = problem.tolerance.value**2 if problem.tolerance.kind.value == "geometric" else 1.37
    return value * factor


def _check_follow_through(scenario: ScenarioProblem) -> None:
    """A wrong answer at each numeric step, carried through, makes every step built on it grade correct."""
    for earlier in scenario.steps:
        if earlier.kind is not Kind.NUMERIC or earlier.answer is None:
            continue
        wrong = _wrong(earlier.answer, earlier)
        for later in scenario.steps[earlier.step :]:
            carried, used = carried_problem(later, {earlier.step: wrong})
            if later.kind is Kind.CHOICE:
                if used:  # the wrong value changes which option is right: that option is credited
                    response = str([choice.correct for choice in carried.choices].index(True))
                    result = grade_step(later, response, earlier={earlier.step: wrong})
                    assert result.correct and result.carried_from == (earlier.step,), later.step_id
                continue
            if not used or carried.answer is None or carried.answer <= 0:
                continue  # the formula cannot take the wrong value (a capacity at zero): no credit to give
            response = format_quantity(carried.answer, later.unit, sig_figs=12)
            result = grade_step(later, response, earlier={earlier.step: wrong})
            assert result.correct, (later.step_id, response, result.verdict.message)
            if not grade(later, response).correct:
                assert result.carried_from == (earlier.step,), (later.step_id, result)
                assert f"your step {earlier.step}" in result.verdict.message
                assert result.verdict.derivation[0].label == f"Carried from your step {earlier.step}"


@pytest.mark.parametrize("template", BANK.scenarios, ids=lambda t: t.id)
def test_scenario_over_200_seeds(template: ScenarioTemplate) -> None:
    assert MIN_STEPS <= len(template.steps) <= MAX_STEPS
    setups = set()
    for seed in SEEDS:
        scenario = generate_scenario(template, seed)
        assert [step.step for step in scenario.steps] == list(range(1, len(template.steps) + 1))
        assert "{" not in scenario.setup.replace("{{", ""), scenario.setup
        for step, spec in zip(scenario.steps, template.steps, strict=True):
            assert step.template_id == template.id and step.kind.value == spec.kind
            assert step.checklist_item == spec.checklist and step.params["step"] == step.step
            assert "{" not in step.prompt, step.prompt
            CHECKS[step.kind](step)
        if seed % FOLLOW_THROUGH_EVERY == 0:
            _check_follow_through(scenario)
        setups.add(scenario.setup)
    assert len(setups) >= min(5, _variety(template)), f"only {len(setups)} distinct setups"
