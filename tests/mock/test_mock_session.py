"""A mock's life in a real store with a fake clock: start, answer, late refusal, auto-finish, settle."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from mock_kit import KV, PROBLEMS, REGIME, RIDGE, T0, WHY, fake_grade

from progress import Mode, Settings, Store, card_states
from progress.mock.config import MockConfig, ProblemRef
from progress.mock.rows import MockSettledError, mock_answers, rate_mock_answer, save_mock_answer
from progress.mock.session import (
    MAX_ANSWER_CHARS,
    MockRunningError,
    MockSession,
    Refusal,
    close_expired,
    finish,
    history,
    load,
    rate_recall,
    running_sessions,
    settle,
    start,
    submit,
)
from progress.mock.timer import remaining

ROOT = Path(__file__).resolve().parents[2]
REFS = [ProblemRef(p.template_id, p.seed) for p in PROBLEMS]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "progress.db", clock=lambda: T0)


def _start(store: Store, *, minutes: float = 15, updates_schedule: bool = False) -> int:
    config = MockConfig.from_minutes(duration_min=minutes, n_problems=5, updates_schedule=updates_schedule)
    return start(store, config=config, problems=REFS, now=T0).id


def test_the_deadline_is_stored_and_a_fresh_reader_sees_the_same_remaining_time(tmp_path: Path) -> None:
    mock_id = _start(Store(tmp_path / "progress.db", clock=lambda: T0))
    reopened = load(Store(tmp_path / "progress.db"), mock_id)
    assert reopened is not None and reopened.running
    assert reopened.deadline == T0 + timedelta(minutes=15)
    assert remaining(deadline=reopened.deadline, now=T0 + timedelta(minutes=4)) == timedelta(minutes=11)
    assert reopened.problems == tuple(REFS)


def test_answers_can_change_until_the_deadline(store: Store) -> None:
    mock_id = _start(store)
    assert submit(store, mock_id=mock_id, position=0, response="400", now=T0 + timedelta(minutes=1)).accepted
    assert submit(store, mock_id=mock_id, position=0, response="800", now=T0 + timedelta(minutes=2)).accepted
    [answer] = mock_answers(store, mock_id)
    assert (answer.response, answer.answered_at) == ("800", T0 + timedelta(minutes=2))


def test_a_late_answer_is_refused_and_nothing_is_stored(store: Store) -> None:
    mock_id = _start(store, minutes=1)
    submit(store, mock_id=mock_id, position=0, response="800", now=T0 + timedelta(seconds=30))
    late = submit(store, mock_id=mock_id, position=0, response="400", now=T0 + timedelta(seconds=60))
    assert not late.accepted
    assert late.refusal is Refusal.LATE
    assert "deadline" in late.message
    assert [a.response for a in mock_answers(store, mock_id)] == ["800"]
    # the late answer also finished the mock, at its deadline
    session = load(store, mock_id)
    assert session is not None and not session.running
    assert session.mock.finished_at == T0 + timedelta(minutes=1)


def test_no_answer_to_a_finished_mock_or_a_problem_it_does_not_have(store: Store) -> None:
    mock_id = _start(store)
    beyond = submit(store, mock_id=mock_id, position=5, response="1", now=T0)
    assert beyond.refusal is Refusal.NO_SUCH_PROBLEM
    assert finish(store, mock_id=mock_id, now=T0 + timedelta(minutes=3))
    after = submit(store, mock_id=mock_id, position=0, response="800", now=T0 + timedelta(minutes=4))
    assert after.refusal is Refusal.FINISHED
    assert submit(store, mock_id=99, position=0, response="1", now=T0).refusal is Refusal.UNKNOWN_MOCK
    assert mock_answers(store, mock_id) == []


def test_expired_mocks_finish_by_themselves_at_the_first_look(store: Store) -> None:
    mock_id = _start(store, minutes=1)
    assert close_expired(store, now=T0 + timedelta(seconds=59)) == []
    assert close_expired(store, now=T0 + timedelta(minutes=7)) == [mock_id]
    assert running_sessions(store) == []
    session = load(store, mock_id)
    assert session is not None and session.mock.finished_at == T0 + timedelta(minutes=1)


def test_one_running_mock_at_a_time(store: Store) -> None:
    first = _start(store)
    with pytest.raises(MockRunningError, match=f"#{first}"):
        _start(store)


def test_settling_stores_mock_attempts_once_with_the_score(store: Store) -> None:
    mock_id = _start(store)
    submit(store, mock_id=mock_id, position=0, response="800", now=T0 + timedelta(minutes=1), time_spent_s=60)
    submit(store, mock_id=mock_id, position=4, response="400", now=T0 + timedelta(minutes=2), time_spent_s=45)
    finish(store, mock_id=mock_id, now=T0 + timedelta(minutes=5))
    session = load(store, mock_id)
    assert session is not None
    result, scorecard = settle(store, session, PROBLEMS, grade=fake_grade, now=T0 + timedelta(minutes=5))
    assert result.final
    attempts = store.attempts()
    assert len(attempts) == 5
    assert {a.mode for a in attempts} == {Mode.MOCK}
    assert {a.mock_id for a in attempts} == {mock_id}
    assert [a.status.value for a in attempts].count("correct") == 1
    assert next(a for a in attempts if a.diagnosis).diagnosis == "forgot-k-and-v"
    assert next(a for a in attempts if a.response == "800").duration_s == 60

    settled = load(store, mock_id)
    assert settled is not None and settled.mock.score == pytest.approx(0.2)
    assert settled.mock.scorecard == scorecard
    settle(store, settled, PROBLEMS, grade=fake_grade, now=T0 + timedelta(minutes=6))
    assert store.attempt_count() == 5  # a second look stores nothing more
    assert [s.id for s in history(store)] == [mock_id]


def test_recall_is_rated_at_the_debrief_before_anything_is_stored(store: Store) -> None:
    mock_id = _start(store)
    submit(store, mock_id=mock_id, position=3, response="a multiply-add is two FLOPs", now=T0)
    finish(store, mock_id=mock_id, now=T0 + timedelta(minutes=1))
    session = load(store, mock_id)
    assert session is not None
    pending, _ = settle(store, session, PROBLEMS, grade=fake_grade, now=T0)
    assert pending.awaiting_rating == (3,)
    assert store.attempt_count() == 0
    assert load(store, mock_id).mock.score is None  # type: ignore[union-attr]

    with pytest.raises(ValueError, match="again, hard, good, easy"):
        rate_recall(store, session=session, position=3, self_rating="great")
    assert rate_recall(store, session=session, position=3, self_rating="Good")
    final, scorecard = settle(store, session, PROBLEMS, grade=fake_grade, now=T0)
    assert final.final
    assert "**Score: 20%**" in scorecard
    recall = next(a for a in store.attempts() if a.template_id == WHY.template_id)
    assert (recall.status.value, recall.response) == ("correct", "good")


def _settled_with_a_stale_tab(store: Store) -> tuple[int, MockSession]:
    """A mock settled by one tab, and the session another tab read while its debrief waited for a rating."""
    mock_id = _start(store)
    submit(store, mock_id=mock_id, position=3, response="a multiply-add is two FLOPs", now=T0)
    finish(store, mock_id=mock_id, now=T0 + timedelta(minutes=1))
    stale = load(store, mock_id)
    assert stale is not None and not stale.settled
    assert rate_recall(store, session=stale, position=3, self_rating="again")
    settle(store, stale, PROBLEMS, grade=fake_grade, now=T0)
    return mock_id, stale


def test_a_stale_tab_cannot_rate_or_overrule_a_settled_mock(store: Store) -> None:
    mock_id, stale = _settled_with_a_stale_tab(store)
    score = load(store, mock_id).mock.score  # type: ignore[union-attr]
    checked = {"text": "a multiply-add is two FLOPs", "made": [True], "score": 1.0}
    assert not rate_recall(store, session=stale, position=3, self_rating="good")
    assert not rate_recall(store, session=stale, position=3, self_rating="good", explanation=checked)
    [answer] = mock_answers(store, mock_id)
    assert (answer.self_rating, answer.explanation) == ("again", None)
    # The debrief drawn from the store agrees with the stored score.
    again, _ = settle(store, stale, PROBLEMS, grade=fake_grade, now=T0)
    assert again.score == score == 0.0


def test_no_write_reaches_a_settled_mocks_answers_by_any_path(store: Store) -> None:
    mock_id, _ = _settled_with_a_stale_tab(store)
    with pytest.raises(MockSettledError):
        rate_mock_answer(store, mock_id, 3, "easy")
    with pytest.raises(MockSettledError):
        save_mock_answer(store, mock_id, 3, "changed", T0, 1.0)
    with pytest.raises(MockSettledError), store.connect() as conn:
        save_mock_answer(conn, mock_id, 0, "800", T0, 1.0)
    assert [(a.position, a.response, a.self_rating) for a in mock_answers(store, mock_id)] == [
        (3, "a multiply-add is two FLOPs", "again")
    ]


@pytest.mark.parametrize("updates_schedule", [False, True])
def test_the_schedule_moves_only_when_the_setting_says_so(store: Store, updates_schedule: bool) -> None:
    store.save_settings(Settings(mock_updates_schedule=updates_schedule))
    mock_id = _start(store, updates_schedule=store.settings().mock_updates_schedule)
    submit(store, mock_id=mock_id, position=1, response="200", now=T0)
    submit(store, mock_id=mock_id, position=2, response="1", now=T0)
    finish(store, mock_id=mock_id, now=T0 + timedelta(minutes=2))
    session = load(store, mock_id)
    assert session is not None
    settle(store, session, PROBLEMS, grade=fake_grade, now=T0 + timedelta(minutes=2), enable_fuzzing=False)
    reviewed = {card.template_id for card in card_states(store, now=T0)}
    expected = {KV.template_id, RIDGE.template_id, REGIME.template_id, WHY.template_id}
    assert reviewed == (expected if updates_schedule else set())


# Settles mock argv[2] of the store at argv[1], killed (SIGKILL) as it reviews the second card.
KILLED_SETTLE = """
import os, signal, sys
from datetime import timedelta
sys.path.insert(0, sys.argv[3])
from mock_kit import PROBLEMS, T0, fake_grade
import progress.mock.session as mock_session
from progress import Store

reviewed = []
real_review = mock_session.review_in

def review_then_die(conn, **card):
    if reviewed:
        os.kill(os.getpid(), signal.SIGKILL)
    reviewed.append(card["template_id"])
    return real_review(conn, **card)

mock_session.review_in = review_then_die
store = Store(sys.argv[1])
session = mock_session.load(store, int(sys.argv[2]))
mock_session.settle(store, session, PROBLEMS, grade=fake_grade, now=T0 + timedelta(minutes=2))
"""


def test_a_kill_inside_the_settle_leaves_it_to_the_next_look_which_settles_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    store = Store(path, clock=lambda: T0)
    mock_id = _start(store, updates_schedule=True)
    submit(store, mock_id=mock_id, position=1, response="200", now=T0)
    submit(store, mock_id=mock_id, position=3, response="a multiply-add is two FLOPs", now=T0)
    finish(store, mock_id=mock_id, now=T0 + timedelta(minutes=2))
    session = load(store, mock_id)
    assert session is not None and rate_recall(store, session=session, position=3, self_rating="good")
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_SETTLE, str(path), str(mock_id), str(Path(__file__).parent)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    # Nothing of the settle landed: no score, no attempts, no card.
    reopened = load(store, mock_id)
    assert reopened is not None and not reopened.settled
    assert store.attempt_count() == 0 and card_states(store, now=T0) == []
    settle(store, reopened, PROBLEMS, grade=fake_grade, now=T0 + timedelta(minutes=3), enable_fuzzing=False)
    reviewed = {card.template_id for card in card_states(store, now=T0)}
    assert reviewed == {KV.template_id, RIDGE.template_id, REGIME.template_id, WHY.template_id}
    assert store.attempt_count() == len(PROBLEMS)
    assert load(store, mock_id).settled  # type: ignore[union-attr]


def test_an_answer_over_the_cap_is_stored_cut_to_it_and_the_reply_says_so(store: Store) -> None:
    mock_id = _start(store)
    long = "a multiply-add is two FLOPs. " * 40_000  # over a megabyte
    reply = submit(store, mock_id=mock_id, position=3, response=long, now=T0)
    assert reply.accepted and reply.cut
    assert f"only its first {MAX_ANSWER_CHARS:,} were saved" in reply.message
    [answer] = mock_answers(store, mock_id)
    assert answer.response == long[:MAX_ANSWER_CHARS]
    assert not submit(store, mock_id=mock_id, position=3, response=long[:MAX_ANSWER_CHARS], now=T0).cut
