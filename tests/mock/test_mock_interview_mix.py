"""The interview mix: a scenario's steps, then single problems; one card review per scenario."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from mock_kit import T0

from grader import Kind, Problem, grade
from grader.follow_through import StepProblem
from progress import Store
from progress.aggregates import load_snapshot
from progress.mock.config import MAX_N_PROBLEMS, Mix, MockConfig, ProblemRef
from progress.mock.selection import Candidate, NoCandidatesError, ScenarioCandidate, select_interview
from progress.mock.session import (
    MockSession,
    finish,
    history,
    load,
    settle,
    single_problem_count,
    start,
    submit,
)
from progress.readiness import FactorName, assess
from progress.scheduling import card_states
from tests.progress.store_kit import attempt, new_store

CANDIDATES = [Candidate(f"atom-{n}", "kv-cache", 1) for n in range(5)]
SCENARIOS = [ScenarioCandidate("scenario-a", 4, 2), ScenarioCandidate("scenario-b", 5, 3)]


def _config(minutes: float, n_problems: int = 3) -> MockConfig:
    return MockConfig.from_minutes(duration_min=minutes, n_problems=n_problems, mix=Mix.INTERVIEW)


def test_a_step_survives_the_stored_form() -> None:
    ref = ProblemRef("scenario-a", 12, step=3)
    assert ProblemRef.from_dict(ref.to_dict()) == ref
    assert "step" not in ProblemRef("atom-1", 4).to_dict()  # a single problem stores as before


@pytest.mark.parametrize(("minutes", "n_scenarios"), [(30, 1), (45, 2)])
def test_steps_of_each_scenario_come_first_then_single_problems(minutes: int, n_scenarios: int) -> None:
    refs = select_interview(SCENARIOS, CANDIDATES, config=_config(minutes), rng=random.Random(3))
    steps = [ref for ref in refs if ref.step is not None]
    assert refs[: len(steps)] == steps and len(refs) - len(steps) == 3
    draws = {(ref.template_id, ref.seed) for ref in steps}
    assert len(draws) == n_scenarios
    for template_id, seed in draws:
        numbers = [ref.step for ref in steps if (ref.template_id, ref.seed) == (template_id, seed)]
        expected = next(s.n_steps for s in SCENARIOS if s.template_id == template_id)
        assert numbers == list(range(1, expected + 1))


def test_no_scenario_in_the_bank_is_a_clear_refusal() -> None:
    with pytest.raises(NoCandidatesError, match="no scenarios"):
        select_interview([], CANDIDATES, config=_config(30), rng=random.Random(1))


def _step(number: int, *, answer: float) -> StepProblem:
    return StepProblem(
        template_id="scenario-a", checklist_item="kv-cache", kind=Kind.NUMERIC, prompt=f"Step {number}?",
        seed=9, params={"step": number}, answer=answer, unit="", step=number, n_steps=2,
    )  # fmt: skip


def test_a_scenarios_steps_review_its_card_once(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    single = Problem("atom-1", "kv-cache", Kind.NUMERIC, "Bytes?", 4, answer=30.0, unit="")
    problems = [_step(1, answer=10.0), _step(2, answer=20.0), single]
    refs = [ProblemRef("scenario-a", 9, step=1), ProblemRef("scenario-a", 9, step=2), ProblemRef("atom-1", 4)]
    config = replace(_config(30, n_problems=1), updates_schedule=True)
    session = start(store, config=config, problems=refs, now=T0)
    for position, response in enumerate(("10", "20", "30")):
        submit(store, mock_id=session.id, position=position, response=response, now=T0)
    finish(store, mock_id=session.id, now=T0)
    finished = load(store, session.id)
    assert finished is not None
    settle(store, finished, problems, grade=grade, now=T0, enable_fuzzing=False)
    assert [card.template_id for card in card_states(store, now=T0)] == ["atom-1", "scenario-a"]
    with store.connect(write=False) as conn:
        sql = "SELECT count(*) FROM review_logs WHERE template_id = 'scenario-a'"
        (reviews,) = conn.execute(sql).fetchone()
    assert reviews == 1
    assert sorted(a.params["step"] for a in store.attempts() if a.template_id == "scenario-a") == [1, 2]


def _interview(store: Store, n_problems: int, *, seed: int, at: datetime) -> MockSession:
    config = _config(30, n_problems=n_problems)
    refs = select_interview(SCENARIOS, CANDIDATES, config=config, rng=random.Random(seed))
    session = start(store, config=config, problems=refs, now=at)
    finish(store, mock_id=session.id, now=at + timedelta(minutes=1))
    return session


def test_forty_single_problems_and_a_scenario_start(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    session = _interview(store, MAX_N_PROBLEMS, seed=1, at=T0)
    assert single_problem_count(session.problems) == MAX_N_PROBLEMS
    assert len(session.problems) > MAX_N_PROBLEMS
    assert history(store)[0].config.n_problems == MAX_N_PROBLEMS


def test_an_interview_stored_with_its_steps_counted_in_reads_back_its_single_problems(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    session = _interview(store, 8, seed=2, at=T0)
    with store.connect() as conn:  # as an earlier version stored it: every position counted
        conn.execute(
            "UPDATE mocks SET config = json_set(config, '$.n_problems', ?) WHERE id = ?",
            (len(session.problems), session.id),
        )
    assert history(store)[0].config.n_problems == 8


def test_answers_timed_at_zero_seconds_do_not_break_readiness(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    store.record_attempt(attempt(checklist_item="kv-cache", duration_s=0.0, created_at=T0))
    snapshot = load_snapshot(store, template_ids_by_item={"kv-cache": []}, now=T0)
    [item] = assess(snapshot.evidence, now=T0).items
    assert next(f for f in item.factors if f.name is FactorName.TIME).value == 1.0
