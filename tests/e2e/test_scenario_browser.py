"""A whole scenario in a real browser: choose Scenarios, walk every step, one wrong and carried forward."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page

from grader import grade
from grader.follow_through import ScenarioProblem, StepProblem, carried_problem
from grader.problem import Kind
from grader.units import format_quantity
from progress import Store
from question_bank import load_bank
from question_bank.scenarios import generate_scenario
from ui.context import next_seed
from ui.practice.scenario import scenario_order

if TYPE_CHECKING:  # a conftest is not importable by name once several folders have one
    from conftest import AppServer

pytestmark = pytest.mark.browser
FIRST_SEED = 20261201
TIMEOUT_MS = 60_000


def _plain(markdown: str) -> str:
    return " ".join(markdown.replace("**", "").split())


def _on_screen(page: Page, template_id: str) -> ScenarioProblem:
    """The draw the page shows: the first seeds of the session's chain, matched on the setup text."""
    text = " ".join(page.locator('[data-testid="stMain"]').inner_text().split())
    seed = FIRST_SEED
    template = load_bank().scenario(template_id)
    for _ in range(12):
        seed = next_seed(seed)
        scenario = generate_scenario(template, seed)
        if _plain(scenario.setup) in text:
            return scenario
    raise AssertionError("the setup on screen matches none of the session's first seeds")


def _feeding_step(scenario: ScenarioProblem) -> StepProblem:
    """The first numeric step a later step is computed from."""
    carried = {c.step for s in scenario.steps if s.dependency for c in s.dependency.carries}
    return next(s for s in scenario.steps if s.step in carried)


def _wrong_that_shows(scenario: ScenarioProblem, wrong_at: StepProblem) -> float:
    """A wrong value for ``wrong_at`` that moves some later step's answer out of its exact band."""
    assert wrong_at.answer is not None
    for factor in (1.5, 10.0, 100.0, 1000.0):
        wrong = wrong_at.answer * factor
        for step in scenario.steps[wrong_at.step :]:
            carried, used = carried_problem(step, {wrong_at.step: wrong})
            response = format_quantity(carried.answer or 0.0, step.unit, sig_figs=8)
            if used and carried.answer is not None and not grade(step, response).correct:
                return wrong
    raise AssertionError("no wrong value at the feeding step moves a later step")


def _answer(page: Page, step: StepProblem, response: str) -> None:
    if step.kind is Kind.NUMERIC:
        box = page.get_by_label(re.compile("Your answer"))
        box.fill(response)
        box.press("Enter")
    elif step.kind is Kind.CHOICE:
        page.get_by_text(step.choices[int(response)].text, exact=True).click()
        page.get_by_role("button", name="Check").click()
    else:
        page.get_by_role("button", name="Show the model answer").click()
        page.get_by_role("button", name="Good").click()


def test_a_scenario_walked_step_by_step_with_follow_through(
    tmp_path: Path, browser: Browser, start_app: Callable[..., AppServer]
) -> None:
    db = tmp_path / "progress.db"
    server = start_app(db_path=db, env={"DRILL_SEED": str(FIRST_SEED)})
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url)
    page.get_by_text("Done today").wait_for()
    page.get_by_label("Checklist item").click()
    page.get_by_role("option", name=re.compile("^Scenarios")).click()
    template_id = scenario_order(load_bank())[0][0]
    page.get_by_text("Step 1 of").wait_for()
    scenario = _on_screen(page, template_id)
    wrong_at = _feeding_step(scenario)
    wrong = _wrong_that_shows(scenario, wrong_at)
    carried_steps = []
    for step in scenario.steps:
        page.get_by_text(f"Step {step.step} of {step.n_steps}").first.wait_for()
        carried, used = carried_problem(step, {wrong_at.step: wrong})
        if step is wrong_at:
            response = format_quantity(wrong, step.unit, sig_figs=8)
        elif used and carried.answer is not None:
            response = format_quantity(carried.answer, step.unit, sig_figs=8)
            if not grade(step, response).correct:  # right only on the carried value
                carried_steps.append(step.step)
        elif step.kind is Kind.NUMERIC:
            assert step.answer is not None
            response = format_quantity(step.answer, step.unit, sig_figs=8)
        else:
            response = str([c.correct for c in step.choices].index(True)) if step.kind is Kind.CHOICE else ""
        _answer(page, step, response)
        if step is wrong_at:
            page.locator('[data-testid="stAlertContentError"]').first.wait_for()
        elif step.step in carried_steps:
            verdict = page.get_by_test_id("stAlertContentSuccess").last
            verdict.get_by_text(f"Correct, carried forward from your step {wrong_at.step}").wait_for()
            # The derivation starts where the carried value entered (the newest feedback is the last one).
            page.get_by_text(f"Carried from your step {wrong_at.step}").last.wait_for()
        if step.step < step.n_steps:
            page.get_by_role("button", name=re.compile("^Next step")).click()
    page.get_by_text(re.compile("Scenario done")).wait_for()
    page.get_by_text(f"The chain first went wrong at step {wrong_at.step}").wait_for()
    assert carried_steps, "the walk met at least one step built on the wrong one"
    attempts = Store(db).attempts()
    assert sorted(a.params["step"] for a in attempts) == [s.step for s in scenario.steps]
    assert {a.template_id for a in attempts} == {template_id}
    page.close()
