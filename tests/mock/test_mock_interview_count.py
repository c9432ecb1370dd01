"""The Interview mix's count of single problems stays what the user chose, mock after mock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from progress import Store
from progress.mock.config import MAX_N_PROBLEMS, PRESET_MINUTES, Mix, MockConfig
from progress.mock.session import finish, history, single_problem_count
from question_bank import load_bank
from ui.mock.interview import start_mock
from ui.mock.setup import SetupDefaults

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
BANK = load_bank()


def _start_from_the_last(store: Store, config: MockConfig, *, round_: int) -> int:
    at = T0 + timedelta(hours=round_)
    session = start_mock(store, BANK, config=config, seed=round_, now=at)
    finish(store, mock_id=session.id, now=at + timedelta(minutes=1))
    assert len(session.problems) > single_problem_count(session.problems)  # a scenario came first
    return SetupDefaults.of(history(store)[0].config, presets=PRESET_MINUTES).n_problems


def test_each_new_interview_starts_from_the_same_count_of_single_problems(tmp_path: Path) -> None:
    store = Store(tmp_path / "progress.db")
    n_problems = 8
    counts = []
    for round_ in range(6):
        config = MockConfig.from_minutes(duration_min=30, n_problems=n_problems, mix=Mix.INTERVIEW)
        n_problems = _start_from_the_last(store, config, round_=round_)
        counts.append(n_problems)
    assert counts == [8] * 6


def test_forty_single_problems_start_after_the_scenario(tmp_path: Path) -> None:
    store = Store(tmp_path / "progress.db")
    config = MockConfig.from_minutes(duration_min=45, n_problems=MAX_N_PROBLEMS, mix=Mix.INTERVIEW)
    session = start_mock(store, BANK, config=config, seed=4, now=T0)
    assert single_problem_count(session.problems) == MAX_N_PROBLEMS
    assert session.config.n_problems == MAX_N_PROBLEMS
