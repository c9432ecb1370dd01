"""Mock rows: stored as given, answers replaced per position, finished once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from progress.mock.rows import (
    MockRunningError,
    MockStatus,
    create_mock,
    finish_mock,
    get_mock,
    list_mocks,
    mock_answers,
    rate_mock_answer,
    running_mock,
    save_mock_answer,
)
from tests.progress.store_kit import T0, FakeClock, new_store

CONFIG = {"n_problems": 2, "mix": "every-item", "difficulty": [1, 3], "updates_schedule": False}
PROBLEMS = [{"template_id": "kv-bytes-per-token", "seed": 11}, {"template_id": "ridge-point", "seed": 12}]


def test_a_mock_round_trips(tmp_path):
    clock = FakeClock(now=T0 - timedelta(seconds=5))
    store = new_store(tmp_path, clock)
    mock_id = create_mock(
        store, config=CONFIG, problems=PROBLEMS, started_at=T0, deadline=T0 + timedelta(minutes=30)
    )
    mock = get_mock(store, mock_id)
    assert mock is not None
    assert (mock.config, mock.problems, mock.status) == (CONFIG, PROBLEMS, MockStatus.RUNNING)
    assert (mock.started_at, mock.deadline, mock.duration_s) == (T0, T0 + timedelta(minutes=30), 1800.0)
    assert mock.created_at == clock.now
    assert (mock.finished_at, mock.score, mock.scorecard) == (None, None, None)
    assert get_mock(store, mock_id + 1) is None


def test_a_later_answer_replaces_the_earlier_one_at_its_position(tmp_path):
    store = new_store(tmp_path)
    mock_id = create_mock(
        store, config=CONFIG, problems=PROBLEMS, started_at=T0, deadline=T0 + timedelta(hours=1)
    )
    save_mock_answer(store, mock_id, 1, "3 GB", T0 + timedelta(minutes=1), 60.0)
    save_mock_answer(store, mock_id, 0, "0", T0 + timedelta(minutes=2), 30.0)
    save_mock_answer(store, mock_id, 1, "4 GB", T0 + timedelta(minutes=3), 90.0)
    answers = mock_answers(store, mock_id)
    assert [(a.position, a.response, a.time_spent_s) for a in answers] == [(0, "0", 30.0), (1, "4 GB", 90.0)]
    assert answers[1].answered_at == T0 + timedelta(minutes=3)
    assert rate_mock_answer(store, mock_id, 0, "good")
    assert not rate_mock_answer(store, mock_id, 5, "good")
    assert [a.self_rating for a in mock_answers(store, mock_id)] == ["good", None]


def test_a_mock_finishes_once(tmp_path):
    store = new_store(tmp_path)
    mock_id = create_mock(
        store, config=CONFIG, problems=PROBLEMS, started_at=T0, deadline=T0 + timedelta(hours=1)
    )
    assert running_mock(store).id == mock_id
    assert finish_mock(store, mock_id, T0 + timedelta(minutes=20), 0.5, "# Scorecard")
    assert not finish_mock(store, mock_id, T0 + timedelta(minutes=21), 1.0, "# Other")
    mock = get_mock(store, mock_id)
    assert (mock.status, mock.finished_at, mock.score, mock.scorecard) == (
        MockStatus.FINISHED,
        T0 + timedelta(minutes=20),
        0.5,
        "# Scorecard",
    )
    assert running_mock(store) is None


def test_mocks_are_listed_newest_first_and_by_status(tmp_path):
    store = new_store(tmp_path)
    ids = []
    for d in range(3):
        ids.append(
            create_mock(
                store,
                config=CONFIG,
                problems=PROBLEMS,
                started_at=T0 + timedelta(days=d),
                deadline=T0 + timedelta(days=d, hours=1),
            )
        )
        if d < 2:
            finish_mock(store, ids[-1], T0 + timedelta(days=d, minutes=30), 0.25, f"# {d}")
    assert [m.id for m in list_mocks(store)] == ids[::-1]
    assert [m.id for m in list_mocks(store, status="finished")] == ids[1::-1]
    assert running_mock(store).id == ids[2]


def test_the_schema_lets_one_mock_run_at_a_time(tmp_path):
    store = new_store(tmp_path)
    first = create_mock(
        store, config=CONFIG, problems=PROBLEMS, started_at=T0, deadline=T0 + timedelta(hours=1)
    )
    with pytest.raises(MockRunningError, match=f"mock #{first} is still running"):
        create_mock(store, config=CONFIG, problems=PROBLEMS, started_at=T0, deadline=T0 + timedelta(hours=1))
    assert [m.id for m in list_mocks(store)] == [first]
