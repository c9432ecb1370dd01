"""AppTest of a scenario on the practice page: one step at a time, follow-through, one card."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from scenario_kit import drawn, exact_response
from streamlit.testing.v1 import AppTest

from grader import Verdict, VerdictStatus
from grader.follow_through import ScenarioProblem, StepProblem, StepVerdict, carried_problem
from grader.problem import Kind
from grader.units import format_quantity
from progress import Store
from progress.aggregates import load_snapshot
from progress.scheduling import card_states
from question_bank import Bank, load_bank
from question_bank.scenarios import generate_scenario
from ui import state_keys as keys
from ui.practice.loop import Current
from ui.practice.scenario import SCENARIOS, ScenarioRun

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "practice.py")
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SEED = 3


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank()


def _scenario(bank: Bank, *, with_recall: bool = False) -> ScenarioProblem:
    """A scenario whose step 1 feeds later steps (or, ``with_recall``, one with a recall step)."""
    template = next(
        s
        for s in bank.scenarios
        if (any(step.kind == "recall" for step in s.steps) if with_recall else s.id == "scenario-tp-serving")
    )
    return generate_scenario(template, SEED)


def _page(db: Path, scenario: ScenarioProblem) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = lambda: NOW
    at.session_state[keys.RNG_SEED] = 7
    current = Current(scenario.template_id, SEED, scheduled=True, started_at=NOW - timedelta(seconds=30))
    at.session_state[keys.PRACTICE_CURRENT] = current.to_dict()
    return at.run()


def _answer(at: AppTest, step: StepProblem, response: str) -> None:
    """Answer the step on screen: type a number, pick an option, or reveal and rate a recall."""
    if step.kind is Kind.NUMERIC:
        at.text_input(key=f"{keys.PRACTICE_STEP_ANSWER_PREFIX}{SEED}_{step.step}").input(response)
        at.button(key=keys.PRACTICE_STEP_SUBMIT).click().run()
    elif step.kind is Kind.CHOICE:
        at.button(key=f"{keys.PRACTICE_STEP_OPTION_PREFIX}{SEED}_{step.step}_{response}").click().run()
        at.button(key=keys.PRACTICE_STEP_SUBMIT).click().run()
    else:
        at.button(key=keys.PRACTICE_STEP_REVEAL).click().run()
        at.button(key=keys.PRACTICE_STEP_RATE_PREFIX + response).click().run()
    assert not at.exception


def _next_step(at: AppTest) -> None:
    at.button(key=keys.PRACTICE_STEP_NEXT).click().run()
    assert not at.exception


def test_the_setup_and_only_the_first_step_show(tmp_path: Path, bank: Bank) -> None:
    scenario = _scenario(bank)
    at = _page(tmp_path / "p.db", scenario)
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert scenario.steps[0].prompt.strip()[:40] in text
    assert scenario.steps[1].prompt.strip()[:40] not in text
    assert "Step 1 of" in text
    assert scenario.steps[0].kind is Kind.NUMERIC
    assert [e.label for e in at.expander] == ["How answers are read"], "the help sits under step 1's box"


def test_every_step_right_rates_the_card_good(tmp_path: Path, bank: Bank) -> None:
    scenario = _scenario(bank)
    at = _page(tmp_path / "p.db", scenario)
    for step in scenario.steps:
        _answer(at, step, exact_response(step))
        assert at.success, f"step {step.step} right shows a success message"
        if step.step < len(scenario.steps):
            _next_step(at)
    store = Store(tmp_path / "p.db")
    attempts = store.attempts()
    assert len(attempts) == len(scenario.steps)
    assert {a.template_id for a in attempts} == {scenario.template_id}
    assert sorted(a.params["step"] for a in attempts) == [s.step for s in scenario.steps]
    assert [a.checklist_item for a in sorted(attempts, key=lambda a: a.params["step"])] == [
        s.checklist_item for s in scenario.steps
    ]
    [card] = card_states(store, now=NOW)
    assert card.template_id == scenario.template_id
    # Each step counts toward its own checklist item in readiness.
    items = {step.checklist_item for step in scenario.steps}
    snapshot = load_snapshot(store, template_ids_by_item={item: [] for item in items}, now=NOW)
    answered = {e.checklist_item: sum(d.n_answers for d in e.day_totals) for e in snapshot.evidence}
    assert answered == {item: sum(s.checklist_item == item for s in scenario.steps) for item in items}
    assert "rated **Good**" in " ".join(s.value for s in at.success)
    assert at.button(key=keys.PRACTICE_NEXT)


def test_next_on_a_finished_scenario_goes_on_to_the_next_problem(tmp_path: Path, bank: Bank) -> None:
    scenario = _scenario(bank)
    at = _page(tmp_path / "p.db", scenario)
    assert at.query_params["card"] == scenario.template_id, "the address names the scenario on screen"
    for step in scenario.steps:
        _answer(at, step, exact_response(step))
        if step.step < len(scenario.steps):
            _next_step(at)
    at.button(key=keys.PRACTICE_NEXT).click().run()
    assert not at.exception
    shown = Current.from_dict(at.session_state[keys.PRACTICE_CURRENT])
    assert (shown.template_id, shown.seed) != (scenario.template_id, SEED), "Next leaves the finished draw"
    assert at.query_params.get("card") == shown.template_id, "and the address follows"


def test_a_wrong_step_then_a_carried_value_is_credited(tmp_path: Path, bank: Bank) -> None:
    scenario = _scenario(bank)
    first = scenario.steps[0]
    later = next(s for s in scenario.steps if s.dependency and 1 in [c.step for c in s.dependency.carries])
    assert first.answer is not None
    wrong = first.answer * 1.5
    at = _page(tmp_path / "p.db", scenario)
    _answer(at, first, format_quantity(wrong, first.unit, sig_figs=8))
    assert at.error, "a wrong step shows an error"
    for step in scenario.steps[1 : later.step - 1]:
        _next_step(at)
        _answer(at, step, exact_response(step))
    _next_step(at)
    carried, used = carried_problem(later, {1: wrong})
    assert used == (1,) and carried.answer is not None
    _answer(at, later, format_quantity(carried.answer, later.unit, sig_figs=8))
    [message] = [s.value for s in at.success]
    assert "carried forward from your step 1" in message
    derivation = " ".join(m.value for m in at.markdown)
    assert "Carried from your step 1" in derivation
    stored = {a.params["step"]: a for a in Store(tmp_path / "p.db").attempts()}
    assert stored[1].status == "incorrect" and stored[later.step].status == "correct"


def test_an_unreadable_answer_is_not_stored(tmp_path: Path, bank: Bank) -> None:
    scenario = _scenario(bank)
    at = _page(tmp_path / "p.db", scenario)
    _answer(at, scenario.steps[0], "lots")
    assert at.warning, "an unreadable answer says what to type"
    assert not Store(tmp_path / "p.db").attempts()


def test_the_scenarios_choice_serves_a_scenario_that_stays_while_answered(tmp_path: Path) -> None:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(tmp_path / "p.db")
    at.session_state[keys.CLOCK] = lambda: NOW
    at.session_state[keys.RNG_SEED] = 7
    at.run()
    at.selectbox(key=keys.PRACTICE_FILTER_ITEM).set_value(SCENARIOS).run()
    assert not at.exception
    current = Current.from_dict(at.session_state[keys.PRACTICE_CURRENT])
    bank = load_bank()
    assert bank.is_scenario(current.template_id)
    scenario = generate_scenario(bank.scenario(current.template_id), current.seed)
    first = scenario.steps[0]
    answer_key = f"{keys.PRACTICE_STEP_ANSWER_PREFIX}{current.seed}_1"
    if first.kind is Kind.NUMERIC:
        at.text_input(key=answer_key).input(exact_response(first))
    else:
        option = f"{keys.PRACTICE_STEP_OPTION_PREFIX}{current.seed}_1_{exact_response(first)}"
        at.button(key=option).click().run()
    at.button(key=keys.PRACTICE_STEP_SUBMIT).click().run()
    assert Current.from_dict(at.session_state[keys.PRACTICE_CURRENT]) == current, "the same draw stays"
    assert at.button(key=keys.PRACTICE_STEP_NEXT), "step 1's feedback, then the way to step 2"


# --- a recall step explained in writing, checked like a recall question --------------------------------
PARTIAL = (
    "Decode is memory-bound: a step costs the weight bytes it reads over the bandwidth. At batch 1 a token "
    "reads only its active experts. A big batch routes its tokens to nearly every expert, so a step reads "
    "almost all the weights."
)
WRONG = "Decode is memory-bound. At batch 1 a token reads only its active experts. An MoE is always faster."


def _at_recall_step(tmp_path: Path, bank: Bank) -> tuple[AppTest, ScenarioProblem, StepProblem]:
    """The page with every step before the scenario's recall step answered right."""
    scenario = _scenario(bank, with_recall=True)
    recall = next(s for s in scenario.steps if s.kind is Kind.RECALL)
    at = _page(tmp_path / "p.db", scenario)
    for step in scenario.steps[: recall.step - 1]:
        _answer(at, step, exact_response(step))
        _next_step(at)
    assert f"Step {recall.step} of {len(scenario.steps)}" in " ".join(m.value for m in at.markdown)
    return at, scenario, recall


def _finish(at: AppTest, scenario: ScenarioProblem, after: StepProblem) -> str:
    """Answer the steps after ``after`` right; the scenario's closing summary."""
    for step in scenario.steps[after.step :]:
        _next_step(at)
        _answer(at, step, exact_response(step))
    return " ".join(m.value for m in [*at.success, *at.info] if "Scenario done" in m.value)


def _explain(at: AppTest, text: str) -> None:
    at.text_area(key=keys.PRACTICE_EXPLANATION).input(text)
    at.button(key=keys.PRACTICE_CHECK).click().run()
    assert not at.exception


def _step_suggested(at: AppTest) -> str:
    rates = [b for b in at.button if b.key.startswith(keys.PRACTICE_STEP_RATE_PREFIX)]
    assert len(rates) == 4
    [primary] = [b for b in rates if b.proto.type == "primary"]
    return primary.key.removeprefix(keys.PRACTICE_STEP_RATE_PREFIX)


def test_a_recall_step_explanation_is_checked_overruled_and_stored(tmp_path: Path, bank: Bank) -> None:
    at, scenario, recall = _at_recall_step(tmp_path, bank)
    _explain(at, PARTIAL)
    points = [at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}{i}") for i in range(len(recall.key_points))]
    assert [p.value for p in points] == [True, True, True, False]
    assert [p.label for p in points] == list(recall.key_points)
    captions = [drawn(c.value)[1] for c in at.caption]  # the words found are the user's, escaped
    assert any(c.startswith("Made in:") and "memory-bound" in c for c in captions)
    assert ":blue-background[memory\\-bound]" in "".join(m.value for m in at.markdown)
    assert any("Model answer" in m.value for m in at.markdown)
    assert _step_suggested(at) == "hard"
    at.checkbox(key=f"{keys.PRACTICE_POINT_PREFIX}3").check().run()  # the point was made in other words
    assert _step_suggested(at) == "good"
    at.button(key=keys.PRACTICE_STEP_RATE_PREFIX + "good").click().run()
    assert not at.exception
    stored = {a.params["step"]: a for a in Store(tmp_path / "p.db").attempts()}
    attempt = stored[recall.step]
    assert (attempt.response, attempt.status, attempt.score) == ("good", "correct", 1.0)
    assert attempt.checklist_item == recall.checklist_item
    explanation = attempt.explanation
    assert explanation is not None and explanation["text"] == PARTIAL
    assert explanation["detected"] == [True, True, True, False]
    assert explanation["made"] == [True, True, True, True] and explanation["overrides"] == {"3": True}
    assert explanation["rating"] == "good"
    summary = _finish(at, scenario, recall)
    assert f"{len(scenario.steps)} of {len(scenario.steps)} steps right" in summary
    assert "rated **Good**" in summary, "every step right, the explained one too: the card is Good"
    stored = {a.params["step"]: a for a in Store(tmp_path / "p.db").attempts()}
    assert [s.step for s in scenario.steps if stored[s.step].explanation is not None] == [recall.step]


def test_a_recall_step_with_a_misconception_counts_as_wrong(tmp_path: Path, bank: Bank) -> None:
    at, scenario, recall = _at_recall_step(tmp_path, bank)
    _explain(at, WRONG)
    assert any("Misconception" in e.value for e in at.error)
    assert _step_suggested(at) == "again"
    at.button(key=keys.PRACTICE_STEP_RATE_PREFIX + "again").click().run()
    assert not at.exception
    attempt = {a.params["step"]: a for a in Store(tmp_path / "p.db").attempts()}[recall.step]
    assert (attempt.response, attempt.status) == ("again", "incorrect")
    assert attempt.explanation is not None and attempt.explanation["standing_misconceptions"]
    summary = _finish(at, scenario, recall)
    assert f"{len(scenario.steps) - 1} of {len(scenario.steps)} steps right" in summary
    assert "rated **Again**" in summary, "rating a step again makes it wrong, so the card is Again"


def test_a_recall_step_left_empty_is_revealed_and_self_rated(tmp_path: Path, bank: Bank) -> None:
    at, _, recall = _at_recall_step(tmp_path, bank)
    at.button(key=keys.PRACTICE_CHECK).click().run()
    assert at.warning and "Type your explanation first" in at.warning[0].value
    assert not [m for m in at.markdown if recall.key_points[0] in m.value], "key points wait for the reveal"
    at.button(key=keys.PRACTICE_STEP_REVEAL).click().run()
    assert [m for m in at.markdown if recall.key_points[0] in m.value], "the reveal shows the key points"
    at.button(key=keys.PRACTICE_STEP_RATE_PREFIX + "again").click().run()
    assert not at.exception
    attempt = {a.params["step"]: a for a in Store(tmp_path / "p.db").attempts()}[recall.step]
    assert (attempt.response, attempt.status, attempt.explanation) == ("again", "incorrect", None)
    assert attempt.checklist_item == recall.checklist_item


@pytest.mark.parametrize("feedback", [True, False], ids=["feedback-on-screen", "moved-on"])
def test_a_scenario_that_lost_steps_since_it_was_started_starts_afresh(
    tmp_path: Path, bank: Bank, feedback: bool
) -> None:
    # The run in this tab answered more steps than the scenario now has (its bank was edited meanwhile).
    scenario = _scenario(bank)
    extra = len(scenario.steps) + 2
    verdicts = {n: StepVerdict(n, Verdict(VerdictStatus.CORRECT, score=1.0)) for n in range(1, extra + 1)}
    run = ScenarioRun(
        scenario.template_id,
        SEED,
        NOW,
        responses={n: "1 GB" for n in verdicts},
        verdicts=verdicts,
        moved_on=extra - 1 if feedback else extra,
    )
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(tmp_path / "p.db")
    at.session_state[keys.CLOCK] = lambda: NOW
    at.session_state[keys.RNG_SEED] = 7
    current = Current(scenario.template_id, SEED, scheduled=True, started_at=NOW - timedelta(seconds=30))
    at.session_state[keys.PRACTICE_CURRENT] = current.to_dict()
    at.session_state[keys.PRACTICE_SCENARIO_RUN] = run
    at.run()
    assert not at.exception
    notices = " ".join(w.value for w in at.warning)
    assert f"now has {len(scenario.steps)} steps, and {extra} were answered" in notices
    assert "starts again from step 1" in notices and "answers you gave are saved" in notices
    text = " ".join(m.value for m in at.markdown)
    assert f"Step 1 of {len(scenario.steps)}" in text
    fresh = at.session_state[keys.PRACTICE_SCENARIO_RUN]
    assert fresh.verdicts == {} and fresh.moved_on == 0
    # The fresh run goes on as any other: the first step is answered and its feedback shown.
    _answer(at, scenario.steps[0], exact_response(scenario.steps[0]))
    assert "now has" not in " ".join(w.value for w in at.warning)


def test_an_answered_step_shows_the_answer_as_typed(tmp_path: Path, bank: Bank) -> None:
    scenario = _scenario(bank)
    step = scenario.steps[0]
    assert step.kind is Kind.NUMERIC
    typed = f"`{exact_response(step)}`"  # read as the figure, in Markdown's backticks
    at = _page(tmp_path / "p.db", scenario)
    _answer(at, step, typed)
    _next_step(at)
    [shown] = [m.value for m in at.markdown if m.value.startswith("Your answer:")]
    rendered, text = drawn(shown)
    assert text == f"Your answer: {typed}"
    assert "<code>" not in rendered
