"""A mock interview's life in the store: start, answer, finish, settle.

The server keeps the rules, whatever a browser shows: the deadline is fixed and stored when the mock
starts; an answer stamped at or after it is refused and nothing is stored; the first look at a mock
past its deadline finishes it. The score becomes final ("settled") once every answered recall problem
has its self-rating: then the mock's answers are stored as attempts (mode ``mock``, so they count for
readiness), the score and the scorecard are written to the mock, and, only when the mock was started
with ``updates_schedule``, each problem's FSRS card is reviewed.

Time is always passed in (aware UTC); problems are passed in already generated and ``grade`` is passed
in, so this module needs neither the bank nor the grader.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, tzinfo
from enum import StrEnum
from typing import Any

from grader.follow_through import chain_grader
from grader.grading import MAX_RESPONSE_CHARS
from grader.problem import Problem
from progress.attempt import Attempt, Mode, Status
from progress.mock.config import Mix, MockConfig, ProblemRef
from progress.mock.debrief import Answer, Debrief, Grade, Outcome, debrief, is_recall
from progress.mock.rows import (
    Mock,
    MockRunningError,
    MockSettledError,
    MockStatus,
    finish_mock,
    finish_mock_in,
    get_mock,
    insert_mock_in,
    list_mocks,
    mock_answers,
    mock_in,
    rate_mock_answer,
    running_mock_in,
    save_mock_answer,
)
from progress.mock.scorecard import MockFacts, derivation_text, exact_text, scorecard_markdown
from progress.mock.timer import deadline_for, is_expired
from progress.scheduling import rating_for_answer, rating_for_recall, rating_for_status, review_in
from progress.store import Store, insert_attempts
from progress.utc import as_utc


@dataclass(frozen=True)
class MockSession:
    """A stored mock with its config and problem list decoded."""

    mock: Mock
    config: MockConfig
    problems: tuple[ProblemRef, ...]

    @staticmethod
    def of(mock: Mock) -> MockSession:
        config = MockConfig.from_dict(mock.config, duration_s=mock.duration_s)  # type: ignore[arg-type]
        problems = tuple(ProblemRef.from_dict(p) for p in mock.problems)  # type: ignore[arg-type]
        singles = single_problem_count(problems)
        if config.mix is Mix.INTERVIEW and singles and config.n_problems == len(problems) > singles:
            # Stored by an earlier version with the scenarios' steps counted in: a new mock started
            # from this one's settings would ask for that many single problems, more each time.
            config = replace(config, n_problems=singles)
        return MockSession(mock=mock, config=config, problems=problems)

    @property
    def id(self) -> int:
        return self.mock.id

    @property
    def deadline(self) -> datetime:
        return self.mock.deadline

    @property
    def running(self) -> bool:
        return self.mock.status is MockStatus.RUNNING

    @property
    def settled(self) -> bool:
        """Finished with a final score stored."""
        return not self.running and self.mock.score is not None


#: The longest answer a mock stores: the most the grader reads of any kind (a recall explanation's cap).
MAX_ANSWER_CHARS = max(MAX_RESPONSE_CHARS.values())


class Refusal(StrEnum):
    """Why an answer was not stored."""

    LATE = "late"
    FINISHED = "finished"
    UNKNOWN_MOCK = "unknown-mock"
    NO_SUCH_PROBLEM = "no-such-problem"


@dataclass(frozen=True)
class Submission:
    """The server's reply to an answer: stored, or refused with a reason and a sentence to show."""

    accepted: bool
    refusal: Refusal | None = None
    message: str = ""
    #: The answer was over :data:`MAX_ANSWER_CHARS` and only its start was stored (``message`` says so).
    cut: bool = False


def single_problem_count(problems: Sequence[ProblemRef]) -> int:
    """How many of a mock's problems are single problems, not steps of a scenario."""
    return sum(ref.step is None for ref in problems)


def load(store: Store, mock_id: int) -> MockSession | None:
    """The mock with this id, or None."""
    mock = get_mock(store, mock_id)
    return MockSession.of(mock) if mock else None


def running_sessions(store: Store) -> list[MockSession]:
    """Every mock still marked running, newest first (past their deadline or not)."""
    return [MockSession.of(m) for m in list_mocks(store, status=MockStatus.RUNNING)]


def history(store: Store) -> list[MockSession]:
    """Finished mocks, newest first."""
    return [MockSession.of(m) for m in list_mocks(store, status=MockStatus.FINISHED)]


def close_expired(store: Store, *, now: datetime) -> list[int]:
    """Finish every running mock whose deadline has passed; return their ids.

    A mock finished this way is stamped as finished at its deadline: that is when it ended, however
    much later someone looked.
    """
    closed = []
    for session in running_sessions(store):
        if is_expired(deadline=session.deadline, now=now) and finish_mock(
            store, session.id, session.deadline, None, None
        ):
            closed.append(session.id)
    return closed


def start(store: Store, *, config: MockConfig, problems: Sequence[ProblemRef], now: datetime) -> MockSession:
    """Store a new running mock starting at ``now`` with its deadline; refuse while another is running.

    Closing the expired mocks, the check for a running one and the insert are one write transaction,
    so two starts at once (two tabs, two processes) start one mock; the other gets ``MockRunningError``.
    """
    # An interview's scenario steps come on top of the single problems the config counts.
    given = single_problem_count(problems) if config.mix is Mix.INTERVIEW else len(problems)
    if given != config.n_problems:
        raise ValueError(f"the config asks for {config.n_problems} problems, {given} were given")
    started_at = as_utc(now)
    with store.connect() as conn:
        running = running_mock_in(conn)
        if running is not None and is_expired(deadline=running.deadline, now=now):
            finish_mock_in(conn, running.id, running.deadline, None, None)
            running = running_mock_in(conn)
        if running is None:
            mock_id = insert_mock_in(
                conn,
                created_at=store.now(),
                config=config.to_dict(),
                problems=[p.to_dict() for p in problems],
                started_at=started_at,
                deadline=deadline_for(started_at=started_at, duration_s=config.duration_s),
            )
            mock = mock_in(conn, mock_id)
    # Raised once the transaction is over, so that the expired mock it finished stays finished.
    if running is not None:
        raise MockRunningError(running.id)
    assert mock is not None  # just written in this transaction
    return MockSession.of(mock)


def submit(
    store: Store, *, mock_id: int, position: int, response: str, now: datetime, time_spent_s: float = 0.0
) -> Submission:
    """Store (or replace) the answer at ``position`` while the mock runs and ``now`` is before its deadline.

    An answer over :data:`MAX_ANSWER_CHARS` is cut to that length, and the submission says so.

    The deadline is read from the store, not from the caller, so a page that still shows the problem
    after time ran out cannot get a late answer in. A refused answer changes nothing. The checks and
    the write are one write transaction: once :func:`finish` has returned, no answer can land.
    """
    with store.connect() as conn:
        mock = mock_in(conn, mock_id)
        if mock is None:
            return Submission(False, Refusal.UNKNOWN_MOCK, f"There is no mock #{mock_id}.")
        if mock.status is not MockStatus.RUNNING:
            return Submission(False, Refusal.FINISHED, "This mock is finished: answers can no longer change.")
        if is_expired(deadline=mock.deadline, now=now):
            finish_mock_in(conn, mock.id, mock.deadline, None, None)
            return Submission(
                False, Refusal.LATE, "Time is up: this answer came after the deadline and was not saved."
            )
        if not 0 <= position < len(mock.problems):
            return Submission(False, Refusal.NO_SUCH_PROBLEM, f"This mock has no problem {position + 1}.")
        cut = len(response) > MAX_ANSWER_CHARS
        stored = response[:MAX_ANSWER_CHARS]
        save_mock_answer(conn, mock_id, position, stored, as_utc(now), max(float(time_spent_s), 0.0))
    if cut:
        return Submission(True, message=_cut_message(len(response)), cut=True)
    return Submission(True)


def _cut_message(length: int) -> str:
    return (
        f"It was {length:,} characters long, so only its first {MAX_ANSWER_CHARS:,} were saved: "
        "that is all the debrief reads."
    )


def finish(store: Store, *, mock_id: int, now: datetime) -> bool:
    """Finish a running mock now (the "Finish" button); False when it was already finished.

    Past the deadline, the mock is stamped as finished at its deadline instead. One write
    transaction, like :func:`submit`: an answer either landed before it or is refused after it.
    """
    with store.connect() as conn:
        mock = mock_in(conn, mock_id)
        if mock is None or mock.status is not MockStatus.RUNNING:
            return False
        return finish_mock_in(conn, mock_id, min(as_utc(now), mock.deadline), None, None)


def answers(store: Store, mock_id: int) -> dict[int, Answer]:
    """The mock's stored answers by 0-based position."""
    return {
        a.position: Answer(
            a.position, a.response, a.answered_at, a.time_spent_s, a.self_rating, explanation=a.explanation
        )
        for a in mock_answers(store, mock_id)
    }


def rate_recall(
    store: Store,
    *,
    session: MockSession,
    position: int,
    self_rating: str,
    explanation: Mapping[str, Any] | None = None,
) -> bool:
    """Record the self-rating of an answered recall problem at the debrief, before the score is final,
    with the explanation's key-point checks as the user confirmed or overruled them.

    False, and nothing changed, when the mock is running or settled (checked in the store, so also
    when ``session`` was read before another tab settled it) or has no answer at ``position``."""
    rating_for_recall(self_rating)  # raises ValueError naming the four ratings
    if session.running or session.settled:
        return False
    try:
        return rate_mock_answer(store, session.id, position, self_rating.strip().lower(), explanation)
    except MockSettledError:  # settled since ``session`` was read (another tab, another rerun)
        return False


def _attempt(outcome: Outcome, *, mock_id: int, answer: Answer | None, finished_at: datetime) -> Attempt:
    problem = outcome.problem
    verdict = outcome.verdict
    response = outcome.self_rating if is_recall(problem) and outcome.self_rating else (outcome.response or "")
    return Attempt(
        created_at=answer.answered_at if answer else finished_at,
        template_id=problem.template_id,
        checklist_item=problem.checklist_item,
        seed=problem.seed,
        params=problem.params,
        response=response,
        value=verdict.value if verdict is not None else None,
        status=Status.CORRECT if outcome.correct else Status.INCORRECT,
        score=outcome.score,
        diagnosis=outcome.slip,
        mode=Mode.MOCK,
        mock_id=mock_id,
        duration_s=outcome.time_spent_s,
        explanation=outcome.explanation,
    )


def _claim_record_and_review(
    store: Store,
    *,
    session: MockSession,
    score: float,
    scorecard: str,
    outcomes: Sequence[Outcome],
    attempts: list[Attempt],
    now: datetime,
    enable_fuzzing: bool,
) -> bool:
    # The score, the attempts and the card reviews are one transaction, and the score is set only
    # while it is still empty: two reruns settling at once store the attempts exactly once, and a
    # process killed part way leaves the mock unsettled, so the next look at it settles it whole.
    with store.connect() as conn:
        claimed = conn.execute(
            "UPDATE mocks SET score = ?, scorecard = ? WHERE id = ? AND status = ? AND score IS NULL",
            (score, scorecard, session.id, MockStatus.FINISHED.value),
        ).rowcount
        if not claimed:
            return False
        insert_attempts(conn, attempts)
        if session.config.updates_schedule:
            _review_cards(conn, outcomes, attempts, now=now, enable_fuzzing=enable_fuzzing)
    return True


def _review_cards(
    conn: sqlite3.Connection,
    outcomes: Sequence[Outcome],
    attempts: Sequence[Attempt],
    *,
    now: datetime,
    enable_fuzzing: bool,
) -> None:
    # Auto-graded answers rate Good or Again; a recall answer keeps the self-rating it was given. A
    # scenario's steps share one card (their template id), reviewed once: Good when every step was right.
    steps: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        steps.setdefault(attempt.template_id, []).append(attempt)
    for outcome, attempt in zip(outcomes, attempts, strict=True):
        chain = steps[attempt.template_id]
        if len(chain) > 1:
            if attempt is not chain[-1]:
                continue
            rating = rating_for_status(
                Status.CORRECT if all(a.status is Status.CORRECT for a in chain) else Status.INCORRECT
            )
        else:
            recall_rating = outcome.self_rating if is_recall(outcome.problem) else None
            rating = rating_for_answer(status=attempt.status, self_rating=recall_rating)
        review_in(
            conn,
            template_id=attempt.template_id,
            checklist_item=attempt.checklist_item,
            rating=rating,
            now=now,
            duration_s=attempt.duration_s,
            enable_fuzzing=enable_fuzzing,
        )


def settle(
    store: Store,
    session: MockSession,
    problems: Sequence[Problem],
    *,
    now: datetime,
    grade: Grade | None = None,
    item_titles: Mapping[str, str] | None = None,
    exact_text: Callable[[Outcome], str] = exact_text,
    derivation_text: Callable[[Outcome], str] = derivation_text,
    zone: tzinfo = UTC,
    enable_fuzzing: bool = True,
) -> tuple[Debrief, str]:
    """Grade a finished mock; once every recall answer is rated, store its result (once).

    Returns the debrief and its Markdown scorecard (provisional while ratings are missing). The first
    call that finds the score final stores the attempts, the score and the scorecard, and reviews the
    FSRS cards when the mock says so, all in one transaction: all of it lands, or none of it.

    ``grade`` grades one problem's response; by default each problem is graded as the mock was
    answered, a scenario's steps with follow-through from the user's own earlier answers.
    """
    if session.running:
        raise ValueError(f"mock #{session.id} is still running; finish it before the debrief")
    by_position = answers(store, session.id)
    if grade is None:
        grade = chain_grader(problems, {p: a.response for p, a in by_position.items()})
    result = debrief(problems, by_position, grade=grade)
    finished_at = session.mock.finished_at or session.deadline
    facts = MockFacts(session.id, session.mock.started_at, finished_at, session.config)
    markdown = scorecard_markdown(
        result,
        facts=facts,
        item_titles=item_titles,
        exact_text=exact_text,
        derivation_text=derivation_text,
        zone=zone,
    )
    if session.settled or not result.final:
        return result, session.mock.scorecard if session.settled and session.mock.scorecard else markdown
    attempts = [
        _attempt(o, mock_id=session.id, answer=by_position.get(o.position), finished_at=finished_at)
        for o in result.outcomes
    ]
    _claim_record_and_review(
        store,
        session=session,
        score=result.score,
        scorecard=markdown,
        outcomes=result.outcomes,
        attempts=attempts,
        now=now,
        enable_fuzzing=enable_fuzzing,
    )
    return result, markdown
