"""The margin of a computed choice: draws closer than it to the threshold are drawn again.

A choice keyed by ``lhs < rhs`` on a near tie teaches a coin toss: a rounding, a convention (memory
read as GiB moves a capacity by 7.4 %) or a user's own earlier answer within its band turns it. The
margin is at least :data:`question_bank.choices.MIN_MARGIN` of the threshold, and never less than the
bands of the scenario steps the two sides rest on (both sides' when both are steps). A draw meets it
when the larger side is at least 1 / (1 − margin) times the smaller: the two sides then differ by at
least the margin of either.
"""

from __future__ import annotations

from collections.abc import Mapping

from grader.problem import ToleranceKind
from question_bank.choices import MIN_MARGIN, Decide
from question_bank.params import Requirement
from question_bank.templates import ChoiceStep, ChoiceTemplate, NumericStep, ScenarioTemplate, Template


def step_bands(scenario: ScenarioTemplate) -> dict[str, float]:
    """Each numeric step's relative band by step id (a non-relative band counts as none)."""
    bands = {}
    for step in scenario.steps:
        if isinstance(step, NumericStep):
            tolerance = step.answer.tolerance.to_tolerance()
            bands[step.id] = tolerance.value if tolerance.kind is ToleranceKind.RELATIVE else 0.0
    return bands


def decide_margin(decide: Decide, bands: Mapping[str, float]) -> float:
    """The margin ``decide`` needs: its own, or the least the bank allows given the steps it rests on."""
    rests_on = sum(bands.get(side, 0.0) for side in (decide.lhs, decide.rhs) if isinstance(side, str))
    return decide.margin if decide.margin is not None else max(MIN_MARGIN, rests_on)


def _requirement(decide: Decide, margin: float) -> Requirement:
    return Requirement(lhs=decide.lhs, rhs=decide.rhs, apart=1 / (1 - margin))


def margin_requirements(template: Template) -> list[Requirement]:
    """What a single choice template's draws must meet for its computed choice's margin."""
    if isinstance(template, ChoiceTemplate) and template.decide is not None:
        return [_requirement(template.decide, decide_margin(template.decide, {}))]
    return []


def scenario_margin_requirements(scenario: ScenarioTemplate) -> list[Requirement]:
    """What every draw of ``scenario`` must meet for the margins of all its computed choices."""
    bands = step_bands(scenario)
    return [
        _requirement(step.decide, decide_margin(step.decide, bands))
        for step in scenario.steps
        if isinstance(step, ChoiceStep) and step.decide is not None
    ]
