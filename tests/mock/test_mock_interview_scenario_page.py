"""AppTest of scenarios in the mock interview: an interview mix, steps without feedback, follow-through."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from streamlit.testing.v1 import AppTest

from grader.follow_through import StepProblem, carried_problem
from grader.problem import Kind, Problem
from grader.units import format_quantity
from progress import Store
from progress.mock.config import Mix, MockConfig, ProblemRef
from progress.mock.rows import list_mocks
from progress.mock.session import running_sessions, start
from question_bank import load_bank
from tests.pages.scenario_kit import RECALL_TEXT, exact_response
from ui import state_keys as keys
from ui.mock.interview import problems_of

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "mock_interview.py")
T0 = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)
SERVING = "scenario-tp-serving"


def _page(db: Path, *, mock_id: int | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = lambda: T0 + timedelta(minutes=1)
    at.session_state[keys.RNG_SEED] = 2026
    if mock_id is not None:
        at.session_state[keys.MOCK_ACTIVE_ID] = mock_id
    return at.run()


def _key(at: AppTest, position: int) -> str:
    return f"{keys.MOCK_ANSWER_PREFIX}{at.session_state[keys.MOCK_ACTIVE_ID]}_{position}"


def _enter(at: AppTest, problem: Problem, position: int, response: str) -> None:
    if problem.kind is Kind.CHOICE:
        at.button(key=f"{_key(at, position)}_option_{int(response)}").click().run()
    elif problem.kind is Kind.RECALL:
        at.text_area(key=_key(at, position)).input(response)
    else:
        at.text_input(key=_key(at, position)).input(response)
    at.button(key=keys.MOCK_SAVE).click().run()
    assert not at.exception


def test_the_interview_mix_asks_a_scenarios_steps_then_single_problems(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    at = _page(db)
    at.radio(key=keys.MOCK_MIX).set_value(Mix.INTERVIEW).run()
    assert "every step of one scenario" in " ".join(c.value for c in at.caption)
    at.number_input(key=keys.MOCK_N_PROBLEMS).set_value(2).run()
    at.button(key=keys.MOCK_START).click().run()
    at.button(key=keys.MOCK_CONFIRM).click().run()
    assert not at.exception
    [session] = running_sessions(Store(db))
    refs = session.problems
    steps = [ref for ref in refs if ref.step is not None]
    assert steps == list(refs[: len(steps)]) and len(refs) == len(steps) + 2
    assert [ref.step for ref in steps] == list(range(1, len(steps) + 1))
    assert len({(ref.template_id, ref.seed) for ref in steps}) == 1
    first = problems_of(load_bank(), session)[0]
    assert isinstance(first, StepProblem)
    assert any(first.setup.strip()[:30] in m.value for m in at.markdown), "the setup shows above step 1"
    assert any(f"step 1 of {first.n_steps}" in c.value for c in at.caption)
    assert not at.success and not at.error, "no feedback during the mock"


def test_a_wrong_step_carried_forward_is_marked_at_the_debrief(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    bank = load_bank()
    n_steps = len(bank.scenario(SERVING).steps)
    refs = [ProblemRef(SERVING, 11, step=n) for n in range(1, n_steps + 1)]
    # One scenario's steps and nothing else: an interview mix would add single problems after them.
    config = MockConfig.from_minutes(duration_min=30, n_problems=len(refs), mix=Mix.EVERY_ITEM)
    session = start(Store(db), config=config, problems=refs, now=T0)
    problems = problems_of(bank, session)
    first = problems[0]
    assert isinstance(first, StepProblem) and first.answer is not None
    wrong = first.answer * 1.5
    at = _page(db, mock_id=session.id)
    for position, problem in enumerate(problems):
        assert isinstance(problem, StepProblem)
        carried, used = carried_problem(problem, {1: wrong})
        if position == 0:
            response = format_quantity(wrong, problem.unit, sig_figs=8)
        elif used and carried.answer is not None:
            response = format_quantity(carried.answer, problem.unit, sig_figs=8)
        else:
            response = exact_response(problem, recall=RECALL_TEXT)
        _enter(at, problem, position, response)
        assert not at.error, "a saved answer is never judged during the mock"
        if position < len(problems) - 1:
            at.button(key=keys.MOCK_NEXT).click().run()
    at.button(key=keys.MOCK_FINISH).click().run()
    at.button(key=keys.MOCK_FINISH_CONFIRM).click().run()
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert any("step 1 of" in label and ": wrong" in label for label in labels), labels
    carried_labels = [label for label in labels if "correct, carried forward from step 1" in label]
    assert carried_labels, labels
    assert any("The chain first went wrong at step 1" in m.value for m in at.markdown)
    [mock] = list_mocks(Store(db))
    assert "correct, carried forward from step 1" in (mock.scorecard or "")
    attempts = Store(db).attempts()
    assert {a.template_id for a in attempts} == {SERVING}
    assert sorted(a.params["step"] for a in attempts) == list(range(1, n_steps + 1))
    assert sum(a.status.value == "correct" for a in attempts) == n_steps - 1


def test_the_debrief_of_a_later_step_shows_the_scenarios_setup(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    bank = load_bank()
    refs = [ProblemRef(SERVING, 11, step=3), ProblemRef(SERVING, 11, step=4)]
    config = MockConfig.from_minutes(duration_min=15, n_problems=len(refs))
    session = start(Store(db), config=config, problems=refs, now=T0)
    problems = problems_of(bank, session)
    setup = problems[0].setup
    at = _page(db, mock_id=session.id)
    at.button(key=keys.MOCK_FINISH).click().run()
    at.button(key=keys.MOCK_FINISH_CONFIRM).click().run()
    assert not at.exception
    steps = [e for e in at.expander if "step 3 of" in e.label or "step 4 of" in e.label]
    assert len(steps) == 2
    for expander in steps:  # each expander is read on its own
        assert any(setup.strip()[:60] in m.value for m in expander.markdown), expander.label
    [mock] = list_mocks(Store(db))
    assert (mock.scorecard or "").count(setup.strip()) == 1  # once, before the first step asked
