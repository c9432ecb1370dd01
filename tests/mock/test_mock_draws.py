"""What a mock of the real bank asks: a recall question in its mixes, and no problem's numbers twice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from grader.problem import Kind
from progress import Store
from progress.mock.config import Mix, MockConfig
from progress.mock.session import finish
from question_bank import Bank, load_bank
from ui.mock.interview import asked, problem_slots, start_mock

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank()


@pytest.mark.parametrize("mix", [Mix.INTERVIEW, Mix.EVERY_ITEM])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_interview_and_every_item_mixes_ask_an_explanation(
    tmp_path: Path, bank: Bank, mix: Mix, seed: int
) -> None:
    config = MockConfig.from_minutes(duration_min=30, n_problems=10, mix=mix)
    session = start_mock(Store(tmp_path / "p.db"), bank, config=config, seed=seed, now=NOW)
    kinds = [p.kind for p in problem_slots(bank, session) if not isinstance(p, Exception)]
    singles = [ref for ref in session.problems if ref.step is None]
    assert len(singles) == 10
    assert Kind.RECALL in kinds


def test_mocks_in_a_row_never_ask_the_same_problem_with_the_same_numbers(tmp_path: Path, bank: Bank) -> None:
    store = Store(tmp_path / "p.db")
    config = MockConfig.from_minutes(duration_min=45, n_problems=20, mix=Mix.EVERY_ITEM)
    asked_so_far: list[set[tuple[str, str]]] = []
    for n in range(3):
        moment = NOW + timedelta(hours=n)
        session = start_mock(store, bank, config=config, seed=100 + n, now=moment)
        # Questions with numbers to draw; one without (a recall, say) asks the same words every time.
        drawn = [r for r in session.problems if bank.get(r.template_id).params]
        draws = [asked(bank, r.template_id, r.seed) for r in drawn]
        assert len(set(draws)) == len(draws), "no problem twice within a mock"
        for earlier in asked_so_far:
            assert not set(draws) & earlier, "nor one the last mocks asked"
        asked_so_far.append(set(draws))
        assert finish(store, mock_id=session.id, now=moment + timedelta(minutes=1))
