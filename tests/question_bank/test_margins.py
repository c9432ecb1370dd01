"""A computed choice has a margin: no draw sits within 10 % of its threshold, nor within the steps' bands."""

from __future__ import annotations

import pytest

from question_bank import generate, load_bank
from question_bank.bindings import resolve
from question_bank.choices import MIN_MARGIN
from question_bank.generation import draw_values
from question_bank.margins import decide_margin, step_bands
from question_bank.scenarios import scenario_values, step_view
from question_bank.templates import ChoiceStep, ChoiceTemplate

BANK = load_bank()
DECIDED = [s for s in BANK.scenarios if any(isinstance(t, ChoiceStep) and t.decide for t in s.steps)]


def _apart(lhs: float, rhs: float, margin: float) -> bool:
    # Both ways: the sides differ by at least the margin of the threshold.
    return abs(lhs - rhs) >= margin * abs(rhs) * (1 - 1e-9)


@pytest.mark.parametrize("scenario", DECIDED, ids=lambda s: s.id)
def test_no_scenario_draw_is_a_near_tie(scenario) -> None:  # type: ignore[no-untyped-def]
    bands = step_bands(scenario)
    for seed in range(60):
        values = scenario_values(scenario, seed)
        for step in scenario.steps:
            if isinstance(step, ChoiceStep) and step.decide is not None:
                margin = decide_margin(step.decide, bands)
                assert margin >= MIN_MARGIN
                lhs, rhs = resolve(step.decide.lhs, values), resolve(step.decide.rhs, values)
                assert _apart(float(lhs), float(rhs), margin), (step.id, seed, lhs, rhs)


def test_every_step_of_a_draw_shares_the_margin_redraw() -> None:
    # The margin is met by the scenario's one draw: each step's view, generated on its own, draws it too.
    scenario = BANK.scenario("scenario-speculative-decoding")
    for seed in range(20):
        drawn = [generate(step_view(scenario, i), seed).params for i in range(len(scenario.steps))]
        setups = [{name: params[name] for name in scenario.params} for params in drawn]
        assert all(setup == setups[0] for setup in setups), seed


def test_no_single_template_draw_is_a_near_tie() -> None:
    for template in BANK.templates:
        if isinstance(template, ChoiceTemplate) and template.decide is not None:
            for seed in range(60):
                values = draw_values(template, seed)
                lhs, rhs = resolve(template.decide.lhs, values), resolve(template.decide.rhs, values)
                assert _apart(float(lhs), float(rhs), MIN_MARGIN), (template.id, seed)
