"""The mock interview behind its page: the bank, the grader and the store joined up. No Streamlit here.

``progress.mock.session`` keeps the rules (deadline, refusals, settling) without knowing the bank or
the grader; this module hands it generated problems and a grader (``grader.grade``, with
follow-through for scenario steps), so the page only reads widgets and renders. Time always
comes in as an argument.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from functools import partial
from typing import Any

from grader import VerdictStatus, grade
from grader.problem import Kind, Problem
from progress import Store
from progress.aggregates import load_snapshot
from progress.mock.config import Mix, MockConfig, ProblemRef
from progress.mock.debrief import Debrief
from progress.mock.selection import Candidate, ScenarioCandidate, select_interview, select_problems
from progress.mock.session import MockSession, Submission, answers, history, settle, start, submit
from progress.mock.timer import elapsed_s
from progress.readiness import assess, strengths
from question_bank import Bank, GenerationError, load_checklist
from question_bank.generation_checks import generate_checked
from ui.practice.scenario import scenario_for

#: How many of the latest finished mocks a new one never repeats a problem of (same template, same numbers).
RECENT_MOCKS = 3


def candidates(bank: Bank) -> list[Candidate]:
    """Every template of the bank as something a mock may draw."""
    return [Candidate(t.id, t.checklist, t.difficulty, recall=t.kind == "recall") for t in bank.templates]


def asked(bank: Bank, template_id: str, seed: int) -> tuple[str, str]:
    """What the draw of ``template_id`` with ``seed`` asks: its template and prompt (the numbers in it)."""
    try:
        return template_id, generate_checked(bank.get(template_id), seed).prompt
    except (KeyError, GenerationError):
        return template_id, f"seed {seed}"  # not drawable: equal to no other draw


def recently_asked(store: Store, bank: Bank) -> set[tuple[str, str]]:
    """What the latest finished mocks asked, as :func:`asked` gives it (their single problems)."""
    recent = history(store)[:RECENT_MOCKS]
    return {asked(bank, r.template_id, r.seed) for m in recent for r in m.problems if r.step is None}


def item_titles() -> dict[str, str]:
    """Checklist id → short title."""
    return {item.id: item.title for item in load_checklist()}


def item_strengths(store: Store, bank: Bank, *, now: datetime) -> dict[str, float]:
    """Readiness per checklist item as 0..1 (the readiness page's score / 100), for ``weakest-first``."""
    ids_by_item: dict[str, list[str]] = {item.id: [] for item in load_checklist()}
    for template in bank.templates:
        ids_by_item.setdefault(template.checklist, []).append(template.id)
    snapshot = load_snapshot(store, template_ids_by_item=ids_by_item, now=now)
    return strengths(assess(snapshot.evidence, now=now))


def start_mock(store: Store, bank: Bank, *, config: MockConfig, seed: int, now: datetime) -> MockSession:
    """Choose the problems (seeds drawn from ``seed``) and start the mock at ``now``.

    Raises ``NoCandidatesError`` when no template fits the difficulty range and ``MockRunningError``
    while another mock is running.
    """
    order = [item.id for item in load_checklist()]
    numbers, seen = partial(asked, bank), recently_asked(store, bank)
    if config.mix is Mix.INTERVIEW:
        scenarios = [ScenarioCandidate(s.id, len(s.steps), s.difficulty) for s in bank.scenarios]
        refs = select_interview(
            scenarios,
            candidates(bank),
            config=config,
            rng=random.Random(seed),
            checklist_order=order,
            numbers=numbers,
            seen=seen,
        )
        # The stored count is the single problems asked for; the scenarios' steps come on top.
        return start(store, config=config, problems=refs, now=now)
    strength = item_strengths(store, bank, now=now) if config.mix is Mix.WEAKEST_FIRST else None
    refs = select_problems(
        candidates(bank),
        config=config,
        rng=random.Random(seed),
        checklist_order=order,
        strength=strength,
        numbers=numbers,
        seen=seen,
    )
    return start(store, config=config, problems=refs, now=now)


class ProblemUnavailableError(LookupError):
    """A stored mock's problem can no longer be generated: its template left the bank, or its seed fails."""

    def __init__(self, position: int, template_id: str, reason: str) -> None:
        super().__init__(f"problem {position + 1} ({template_id}) is no longer available: {reason}")
        self.position = position
        self.template_id = template_id
        self.reason = reason


def problem_at(bank: Bank, session: MockSession, position: int) -> Problem:
    """The mock's problem at ``position``, regenerated; :class:`ProblemUnavailableError` when it cannot be."""
    ref = session.problems[position]
    if ref.step is not None:
        return _step_at(bank, ref, position)
    try:
        template = bank.get(ref.template_id)
    except KeyError:
        raise ProblemUnavailableError(position, ref.template_id, "its template left the bank") from None
    try:
        return generate_checked(template, ref.seed)
    except GenerationError as exc:
        raise ProblemUnavailableError(position, ref.template_id, str(exc)) from exc


def _step_at(bank: Bank, ref: ProblemRef, position: int) -> Problem:
    try:
        return scenario_for(bank, ref.template_id, ref.seed).step(int(ref.step or 1))
    except KeyError:
        raise ProblemUnavailableError(position, ref.template_id, "its scenario left the bank") from None
    except (GenerationError, IndexError, ArithmeticError, ValueError) as exc:
        raise ProblemUnavailableError(position, ref.template_id, str(exc)) from exc


def problem_slots(bank: Bank, session: MockSession) -> list[Problem | ProblemUnavailableError]:
    """Each position's problem, or why it cannot be shown (the rest of the mock goes on)."""
    slots: list[Problem | ProblemUnavailableError] = []
    for position in range(len(session.problems)):
        try:
            slots.append(problem_at(bank, session, position))
        except ProblemUnavailableError as exc:
            slots.append(exc)
    return slots


def problems_of(bank: Bank, session: MockSession) -> list[Problem]:
    """The mock's problems, regenerated from their templates and seeds (same seed, same numbers).

    Raises :class:`ProblemUnavailableError` for the first that cannot be regenerated.
    """
    return [problem_at(bank, session, position) for position in range(len(session.problems))]


def unreadable_message(problem: Problem, response: str) -> str | None:
    """What to type instead when ``response`` cannot be read, else None; nothing on right or wrong.

    A recall answer is the user's own prose (rated at the debrief) and an empty box is no answer
    yet: neither is read here.
    """
    if problem.kind is Kind.RECALL or not response.strip():
        return None
    verdict = grade(problem, response)
    return verdict.message if verdict.status is VerdictStatus.UNPARSABLE else None


def settle_mock(
    store: Store,
    bank: Bank,
    session: MockSession,
    *,
    now: datetime,
    zone: tzinfo = UTC,
    enable_fuzzing: bool = True,
) -> tuple[list[Problem], Debrief, str]:
    """The finished mock's problems, its debrief and its scorecard (dates in ``zone``); stores the result
    once it is final."""
    problems = problems_of(bank, session)
    result, scorecard = settle(
        store,
        session,
        problems,
        now=now,
        item_titles=item_titles(),
        zone=zone,
        enable_fuzzing=enable_fuzzing,
    )
    return problems, result, scorecard


def settle_past(
    store: Store, bank: Bank, *, now: datetime, zone: tzinfo = UTC
) -> tuple[list[MockSession], set[int]]:
    """Finished mocks, newest first, after settling those that can be, and the ids of those that cannot.

    A mock that ran out while nobody looked is settled here, so its answers count even if its debrief
    is never opened; one with an unrated recall answer waits for that rating. One whose problems can
    no longer be generated stays as it is stored and its id is returned as unavailable.
    """
    past = history(store)
    unsettled = [session for session in past if session.mock.score is None]
    unavailable: set[int] = set()
    for session in unsettled:
        try:
            settle_mock(store, bank, session, now=now, zone=zone)
        except ProblemUnavailableError:
            unavailable.add(session.id)
    return (history(store) if unsettled else past), unavailable


def save_answer(
    store: Store, session: MockSession, *, position: int, response: str, screen: ScreenTime, now: datetime
) -> Submission:
    """Submit an answer with the time spent on it: what was stored before plus the unsaved screen time.

    On success ``screen`` starts counting that problem afresh; a refused answer changes nothing.
    """
    before = answers(store, session.id).get(position)
    spent_s = (before.time_spent_s if before else 0.0) + screen.seconds_on(position, now=now)
    reply = submit(
        store, mock_id=session.id, position=position, response=response, now=now, time_spent_s=spent_s
    )
    if reply.accepted:
        screen.saved(position, now=now)
    return reply


@dataclass
class ScreenTime:
    """Seconds each problem of one mock has been on screen since its answer was last saved.

    Kept in session state as a dict: which problem is shown since when, and the unsaved seconds of
    the others. Saving an answer adds these seconds to what was stored before, so time spent
    survives a reload (only the seconds since the last save are lost).
    """

    mock_id: int
    position: int
    since: datetime
    unsaved_s: dict[int, float] = field(default_factory=dict)

    def look_at(self, position: int, *, now: datetime) -> None:
        """The user moved to ``position``: bank the time spent on the problem left."""
        if position == self.position:
            return
        self.unsaved_s[self.position] = self.seconds_on(self.position, now=now)
        self.position, self.since = position, now

    def seconds_on(self, position: int, *, now: datetime) -> float:
        """Unsaved seconds on ``position``, the running interval included when it is on screen."""
        running = elapsed_s(since=self.since, now=now) if position == self.position else 0.0
        return self.unsaved_s.get(position, 0.0) + running

    def saved(self, position: int, *, now: datetime) -> None:
        """The answer at ``position`` was stored with its time: start counting afresh."""
        self.unsaved_s.pop(position, None)
        if position == self.position:
            self.since = now

    def to_dict(self) -> dict[str, Any]:
        return {
            "mock_id": self.mock_id,
            "position": self.position,
            "since": self.since.isoformat(),
            "unsaved_s": {str(k): v for k, v in self.unsaved_s.items()},
        }

    @staticmethod
    def resume(data: Mapping[str, Any] | None, *, mock_id: int, now: datetime) -> ScreenTime:
        """The stored screen time of this mock, or a fresh one (a new session, another mock)."""
        screen = ScreenTime.from_dict(data) if data else None
        if screen is None or screen.mock_id != mock_id:
            return ScreenTime(mock_id, 0, now)
        return screen

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> ScreenTime:
        return ScreenTime(
            mock_id=int(data["mock_id"]),
            position=int(data["position"]),
            since=datetime.fromisoformat(data["since"]),
            unsaved_s={int(k): float(v) for k, v in data.get("unsaved_s", {}).items()},
        )
