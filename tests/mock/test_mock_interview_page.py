"""AppTest of the mock interview page: confirmed start, answers, finish, debrief, time-out, resume."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from streamlit.testing.v1 import AppTest

from grader.grading import exact_answer
from grader.problem import Kind, Problem
from grader.units import format_quantity
from progress import Attempt, Mode, Status, Store
from progress.mock.config import Mix, MockConfig, ProblemRef
from progress.mock.rows import list_mocks, mock_answers
from progress.mock.session import load, running_sessions, start
from question_bank import load_bank, load_checklist
from tests.pages.scenario_kit import drawn
from ui import state_keys as keys
from ui.mock.interview import problems_of

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "mock_interview.py")
T0 = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)


@dataclass
class FakeClock:
    """A clock that stands still until a test moves it."""

    now: datetime = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "progress.db"


def _page(db: Path, clock: FakeClock) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = clock
    at.session_state[keys.RNG_SEED] = 2026
    return at.run()


def _start(at: AppTest, *, minutes: float = 15, n_problems: int = 3) -> AppTest:
    if minutes in (15, 30, 45):
        at.radio(key=keys.MOCK_DURATION).set_value(str(int(minutes))).run()
    else:
        at.radio(key=keys.MOCK_DURATION).set_value("custom").run()
        at.number_input(key=keys.MOCK_CUSTOM_MINUTES).set_value(minutes).run()
    at.number_input(key=keys.MOCK_N_PROBLEMS).set_value(n_problems).run()
    at.button(key=keys.MOCK_START).click().run()
    return at.button(key=keys.MOCK_CONFIRM).click().run()


def _finish(at: AppTest) -> AppTest:
    """Finish the running mock as a user does: "Finish", then confirm."""
    at.button(key=keys.MOCK_FINISH).click().run()
    return at.button(key=keys.MOCK_FINISH_CONFIRM).click().run()


def _time_left(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label == "Time left")


def _problems(db: Path) -> list[Problem]:
    [session] = running_sessions(Store(db))
    return problems_of(load_bank(), session)


def _answer_key(at: AppTest, position: int) -> str:
    return f"{keys.MOCK_ANSWER_PREFIX}{at.session_state[keys.MOCK_ACTIVE_ID]}_{position}"


def _type(
    at: AppTest, problem: Problem, position: int, *, right: bool, explanation: str | None = None
) -> AppTest:
    """Enter an answer on the problem shown, right (the bank's exact answer) or plainly wrong; a recall
    question takes ``explanation`` when given."""
    key = _answer_key(at, position)
    if problem.kind is Kind.CHOICE:
        index = next(i for i, c in enumerate(problem.choices) if c.correct == right)
        return at.button(key=f"{key}_option_{index}").click().run()  # picking an option saves it
    if problem.kind is Kind.RECALL:
        # Right: the model answer, which makes every key point (the bank's validation proves it).
        text = explanation or (problem.model_answer if right else "no idea")
        at.text_area(key=key).input(text)
    else:
        assert problem.answer is not None
        value = problem.answer if right else problem.answer * 37
        at.text_input(key=key).input(format_quantity(value, problem.unit))
    return at.button(key=keys.MOCK_SAVE).click().run()


def test_start_asks_for_confirmation_first(db: Path, clock: FakeClock) -> None:
    at = _page(db, clock)
    at.button(key=keys.MOCK_START).click().run()
    assert not at.exception
    assert "countdown starts at once" in at.warning[0].value
    assert list_mocks(Store(db)) == []  # nothing started on the first click
    at.button(key=keys.MOCK_CANCEL).click().run()
    assert not at.button(key=keys.MOCK_START).disabled
    assert list_mocks(Store(db)) == []

    _start(at, minutes=30, n_problems=3)
    [mock] = list_mocks(Store(db))
    assert mock.deadline == T0 + timedelta(minutes=30)
    assert len(mock.problems) == 3
    assert _time_left(at) == "30:00"
    assert at.query_params[keys.MOCK_QUERY_PARAM] == str(mock.id)


def test_the_schedule_toggle_is_saved_at_once(db: Path, clock: FakeClock) -> None:
    at = _page(db, clock)
    assert at.toggle(key=keys.MOCK_UPDATES_SCHEDULE).value is False
    at.toggle(key=keys.MOCK_UPDATES_SCHEDULE).set_value(True).run()
    assert not at.exception
    assert Store(db).settings().mock_updates_schedule is True
    assert _page(db, clock).toggle(key=keys.MOCK_UPDATES_SCHEDULE).value is True  # a new session reads it


def test_a_start_refused_by_a_mock_started_elsewhere_says_why(db: Path, clock: FakeClock) -> None:
    at = _page(db, clock)
    at.button(key=keys.MOCK_START).click().run()
    template = load_bank().templates[0]
    other = start(Store(db), config=MockConfig.from_minutes(duration_min=15, n_problems=1),
                  problems=[ProblemRef(template.id, 1)], now=T0)  # fmt: skip
    at.button(key=keys.MOCK_CONFIRM).click().run()
    assert not at.exception
    [refusal] = at.error
    assert f"mock #{other.id} is still running" in refusal.value
    assert keys.MOCK_ACTIVE_ID not in at.session_state  # this tab shows no mock; it offers to resume that one
    assert at.button(key=keys.MOCK_RESUME)
    assert [m.id for m in list_mocks(Store(db))] == [other.id]


def test_answer_finish_and_debrief_with_scorecard_and_history(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), n_problems=3)
    problems = _problems(db)
    for position, problem in enumerate(problems):
        clock.now += timedelta(seconds=40)
        _type(at, problem, position, right=position != 1)
        assert not at.exception
        # during the mock, a saved answer is acknowledged but never judged
        assert [s.value for s in at.success] == [f"Answer to problem {position + 1} saved."]
        assert not any("exact answer" in m.value for m in at.markdown)
        if position < len(problems) - 1:
            at.button(key=keys.MOCK_NEXT).click().run()
    _finish(at)
    assert not at.exception

    for position, problem in enumerate(problems):  # every recall is rated: the one answered wrong, Again
        if problem.kind is Kind.RECALL:
            rating = "again" if position == 1 else "good"
            at.button(key=f"{keys.MOCK_RATE_PREFIX}{position}_{rating}").click().run()
    store = Store(db)
    [mock] = list_mocks(store)
    assert mock.score == pytest.approx(2 / 3)
    assert next(m.value for m in at.metric if m.label == "Score") == "67%"
    assert "**Score: 67%** (2 of 3 correct)" in (mock.scorecard or "")
    attempts = store.attempts()
    assert [a.mode for a in attempts] == [Mode.MOCK] * 3
    assert [a.status.value for a in sorted(attempts, key=lambda a: a.created_at)] == [
        "correct", "incorrect", "correct",
    ]  # fmt: skip
    assert all(a.duration_s == pytest.approx(40) for a in attempts)
    assert at.download_button(key=keys.MOCK_DOWNLOAD).label.startswith("Download the scorecard")
    history = at.dataframe[-1].value  # the past mocks
    assert history["score"].tolist() == ["67%"]
    assert list(history.columns[:2]) == ["mock", "score"]  # in view on a phone, before the dates


def test_time_out_finishes_the_mock_at_the_next_rerun(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), minutes=1, n_problems=2)
    _type(at, _problems(db)[0], 0, right=True)
    clock.now += timedelta(seconds=59)
    at.run()
    assert _time_left(at) == "00:01"
    clock.now += timedelta(seconds=1)
    at.run()
    assert not at.exception
    [mock] = list_mocks(Store(db))
    assert mock.status == "finished"
    assert mock.finished_at == T0 + timedelta(minutes=1)
    assert not [m for m in at.metric if m.label == "Time left"]
    assert at.download_button(key=keys.MOCK_DOWNLOAD)
    at.button(key=keys.MOCK_NEW).click().run()
    assert at.button(key=keys.MOCK_START)  # back to the setup, the finished mock in the history
    assert keys.MOCK_QUERY_PARAM not in at.query_params
    assert at.dataframe[-1].value["mock"].tolist() == [f"#{mock.id}"]


def test_a_late_answer_is_refused_whatever_the_page_shows(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), minutes=1, n_problems=2)
    problem = _problems(db)[0]
    clock.now += timedelta(minutes=1, seconds=5)  # the page still shows the problem; the server knows better
    _type(at, problem, 0, right=True)
    assert not at.exception
    assert any("after the deadline" in e.value for e in at.error)
    [mock] = list_mocks(Store(db))
    assert mock_answers(Store(db), mock.id) == []
    assert mock.status == "finished"


def test_a_fresh_session_finds_the_running_mock_with_the_same_time_left(db: Path, clock: FakeClock) -> None:
    first = _start(_page(db, clock), minutes=15, n_problems=2)
    mock_id = first.session_state[keys.MOCK_ACTIVE_ID]
    clock.now += timedelta(minutes=4)

    fresh = _page(db, clock)  # a new browser session: nothing in session state
    assert f"Mock #{mock_id} is running: 11:00 left" in fresh.info[0].value
    assert not [b for b in fresh.button if b.key == keys.MOCK_START]  # no second mock meanwhile
    fresh.button(key=keys.MOCK_RESUME).click().run()
    assert _time_left(fresh) == "11:00"

    refreshed = AppTest.from_file(PAGE, default_timeout=30)  # a browser refresh keeps the query string
    refreshed.session_state[keys.DB_PATH] = str(db)
    refreshed.session_state[keys.CLOCK] = clock
    refreshed.query_params[keys.MOCK_QUERY_PARAM] = str(mock_id)
    refreshed.run()
    assert _time_left(refreshed) == "11:00"
    session = load(Store(db), mock_id)
    assert session is not None and session.running


def test_the_page_is_reached_through_the_app_navigation(db: Path, clock: FakeClock) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = clock
    at.run()
    at.switch_page("pages/mock_interview.py").run()
    assert not at.exception
    assert at.title[0].value == "Mock interview"
    assert at.button(key=keys.MOCK_START)


def test_recall_is_self_rated_at_the_debrief_before_the_score_is_final(db: Path, clock: FakeClock) -> None:
    bank = load_bank()
    recall = next(t for t in bank.templates if t.kind == "recall")
    numeric = next(t for t in bank.templates if t.kind == "numeric")
    config = MockConfig.from_minutes(duration_min=15, n_problems=2)
    refs = [ProblemRef(recall.id, 1), ProblemRef(numeric.id, 2)]
    session = start(Store(db), config=config, problems=refs, now=T0)
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = clock
    at.query_params[keys.MOCK_QUERY_PARAM] = str(session.id)
    at.run()
    _type(at, problems_of(bank, session)[0], 0, right=True, explanation="the weights are read once per token")
    _finish(at)

    assert next(m.value for m in at.metric if m.label == "Score so far") == "0%"
    assert Store(db).attempt_count() == 0  # nothing counts until the recall answer is rated
    at.button(key=f"{keys.MOCK_RATE_PREFIX}0_hard").click().run()
    assert not at.exception
    # The typed answer makes none of the key points, and the score counts points made: 0 whatever the rating.
    assert next(m.value for m in at.metric if m.label == "Score") == "0%"
    [mock] = list_mocks(Store(db))
    assert mock.score == pytest.approx(0.0)
    assert [a.response for a in Store(db).attempts()] == ["hard", ""]


def test_weakest_first_asks_the_least_ready_items_first(db: Path, clock: FakeClock) -> None:
    store = Store(db, clock=clock)
    bank = load_bank()
    practised = load_checklist()[0].id  # ten right answers make the first item the strongest
    template = bank.by_checklist(practised)[0]
    store.record_attempts(
        Attempt(
            created_at=T0 - timedelta(hours=i), template_id=template.id, checklist_item=practised,
            seed=i, response="right", status=Status.CORRECT, score=1.0, duration_s=30.0,
        )
        for i in range(10)
    )  # fmt: skip
    at = _page(db, clock)
    at.radio(key=keys.MOCK_MIX).set_value(Mix.WEAKEST_FIRST).run()
    _start(at, n_problems=9)
    assert not at.exception
    asked = [p.checklist_item for p in _problems(db)]
    assert practised not in asked  # nine problems, ten items: the strongest one is left out
    assert len(set(asked)) == 9


def _first_numeric(at: AppTest, db: Path) -> tuple[int, Problem]:
    """Move to the first numeric problem of the running mock; its position and problem."""
    for position, problem in enumerate(_problems(db)):
        if problem.kind is Kind.NUMERIC:
            return position, problem
        at.button(key=keys.MOCK_NEXT).click().run()
    raise AssertionError("the mock drew no numeric problem")


def test_an_unreadable_answer_is_flagged_when_saved_without_judging_it(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), n_problems=8)
    position, problem = _first_numeric(at, db)
    assert any(e.label == "How answers are read" for e in at.expander), "the help sits under the box"
    at.text_input(key=_answer_key(at, position)).input("lots of bytes").run()
    assert not at.exception
    [warning] = at.warning
    assert warning.value.startswith(f"Answer to problem {position + 1} saved, but it cannot be read.")
    assert "Type a number" in warning.value  # with a unit, or a bare one where the question has none
    assert not any("exact answer" in m.value for m in [*at.markdown, *at.warning])

    assert problem.answer is not None
    at.text_input(key=_answer_key(at, position)).input(
        format_quantity(problem.answer * 3, problem.unit)
    ).run()
    assert not at.warning  # a readable answer, right or wrong, is only acknowledged
    assert [s.value for s in at.success] == [f"Answer to problem {position + 1} saved."]


def test_finish_asks_for_confirmation_first(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), n_problems=3)
    at.button(key=keys.MOCK_FINISH).click().run()
    assert "3 of 3 problems have no answer yet" in at.warning[0].value
    assert list_mocks(Store(db))[0].status == "running"
    at.button(key=keys.MOCK_FINISH_CANCEL).click().run()
    assert list_mocks(Store(db))[0].status == "running"
    assert _time_left(at) == "15:00"
    _finish(at)
    assert list_mocks(Store(db))[0].status == "finished"
    assert at.download_button(key=keys.MOCK_DOWNLOAD)


def test_finish_counts_one_unanswered_problem_in_the_singular(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), n_problems=3)
    problems = _problems(db)
    for position in range(2):
        _type(at, problems[position], position, right=False)
        at.button(key=keys.MOCK_NEXT).click().run()
    at.button(key=keys.MOCK_FINISH).click().run()
    assert "1 of 3 problems has no answer yet" in at.warning[0].value


def test_a_refresh_resumes_at_the_problem_on_screen(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), n_problems=3)
    at.button(key=keys.MOCK_NEXT).click().run()
    assert at.query_params[keys.MOCK_PROBLEM_QUERY_PARAM] == "2"

    refreshed = AppTest.from_file(PAGE, default_timeout=30)  # a refresh keeps only the query string
    refreshed.session_state[keys.DB_PATH] = str(db)
    refreshed.session_state[keys.CLOCK] = clock
    for name in (keys.MOCK_QUERY_PARAM, keys.MOCK_PROBLEM_QUERY_PARAM):
        refreshed.query_params[name] = at.query_params[name]
    refreshed.run()
    assert not refreshed.exception
    assert "problem 2 of 3" in refreshed.subheader[0].value


def test_new_mock_keeps_the_custom_length_and_problem_count(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), minutes=0.5, n_problems=2)
    _finish(at)
    at.button(key=keys.MOCK_NEW).click().run()
    assert at.radio(key=keys.MOCK_DURATION).value == "custom"
    assert at.number_input(key=keys.MOCK_CUSTOM_MINUTES).value == pytest.approx(0.5)
    assert at.number_input(key=keys.MOCK_N_PROBLEMS).value == 2


def test_the_scorecard_stands_alone_with_times_in_the_users_zone(db: Path, clock: FakeClock) -> None:
    bank = load_bank()
    numeric = next(t for t in bank.templates if t.id == "decode-13b-a100")
    config = MockConfig.from_minutes(duration_min=15, n_problems=1)
    session = start(Store(db), config=config, problems=[ProblemRef(numeric.id, 5)], now=T0)
    [problem] = problems_of(bank, session)
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = clock
    at.session_state[keys.ZONE] = ZoneInfo("Europe/Paris")
    at.query_params[keys.MOCK_QUERY_PARAM] = str(session.id)
    at.run()
    _type(at, problem, 0, right=False)
    _finish(at)
    assert not at.exception

    [mock] = list_mocks(Store(db))
    scorecard = mock.scorecard or ""
    assert "- Date: 2026-11-29 17:00 CET" in scorecard  # 16:00 UTC, shown where the user is
    assert problem.prompt.strip() in scorecard
    assert f"- **Exact answer:** {exact_answer(problem.answer or 0, problem.unit)}" in scorecard
    assert "| Decode step time | max(weight read time, compute time) | max(" in scorecard  # the derivation
    assert at.dataframe[-1].value["started"].tolist() == ["2026-11-29 17:00 CET"]


@pytest.mark.parametrize(("kind", "reminded"), [("recall", True), ("numeric", False)])
def test_the_last_minute_reminds_to_save_a_written_answer(
    db: Path, clock: FakeClock, kind: str, reminded: bool
) -> None:
    template = next(t for t in load_bank().templates if t.kind == kind)
    config = MockConfig.from_minutes(duration_min=2, n_problems=1)
    session = start(Store(db), config=config, problems=[ProblemRef(template.id, 1)], now=T0)
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = clock
    at.query_params[keys.MOCK_QUERY_PARAM] = str(session.id)
    at.run()
    assert not any("Under a minute left" in w.value for w in at.warning)  # two minutes left
    clock.now += timedelta(seconds=65)
    at.run()
    assert any("Under a minute left" in w.value for w in at.warning) is reminded


def test_a_typed_answer_is_shown_as_typed_at_the_debrief(db: Path, clock: FakeClock) -> None:
    at = _start(_page(db, clock), n_problems=8)
    position, _ = _first_numeric(at, db)
    typed = "12 GB ![pixel](http://evil.example/p.png) <img src=http://evil.example/q.png> **&amp;**"
    at.text_input(key=_answer_key(at, position)).input(typed).run()
    _finish(at)
    assert not at.exception
    [shown] = [m.value for m in at.markdown if m.value.startswith("**Your answer**") and "evil" in m.value]
    rendered, text = drawn(shown)
    assert "<img" not in rendered and "<strong>&amp;" not in rendered
    assert text == f"Your answer\n{typed}"


def test_the_start_question_reads_as_written_for_the_chosen_length(db: Path, clock: FakeClock) -> None:
    at = _page(db, clock)
    at.radio(key=keys.MOCK_DURATION).set_value("custom").run()
    at.number_input(key=keys.MOCK_CUSTOM_MINUTES).set_value(8.0).run()
    at.number_input(key=keys.MOCK_N_PROBLEMS).set_value(1).run()
    at.button(key=keys.MOCK_START).click().run()
    assert not at.exception
    assert at.warning[0].value.startswith("Start an 8-minute mock with 1 problem?")
    # Minutes as people write them ("8"), not "8.00".
    assert at.number_input(key=keys.MOCK_CUSTOM_MINUTES).proto.format == "%g"


def test_a_choice_in_a_mock_is_picked_like_practices_and_saved(db: Path, clock: FakeClock) -> None:
    """Options are buttons with number keys (as in Practice), picking one saves its index, and the
    options' own **Save answer** takes Enter; the row does not draw a second one."""
    bank = load_bank()
    choice = bank.get("decode-latency-levers")
    session = start(
        Store(db), config=MockConfig.from_minutes(duration_min=15, n_problems=1),
        problems=[ProblemRef(choice.id, 5)], now=T0,
    )  # fmt: skip
    [problem] = problems_of(bank, session)
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.session_state[keys.DB_PATH] = str(db)
    at.session_state[keys.CLOCK] = clock
    at.query_params[keys.MOCK_QUERY_PARAM] = str(session.id)
    at.run()
    key = _answer_key(at, 0)
    options = [at.button(key=f"{key}_option_{i}") for i in range(len(problem.choices))]
    assert [b.label for b in options] == [c.text for c in problem.choices]
    assert "Press 1–" in " ".join(c.value for c in at.caption) and "then Enter to save" in " ".join(
        c.value for c in at.caption
    )
    assert [b.label for b in at.button if b.key == keys.MOCK_SAVE] == ["Save answer"]  # one, not two
    options[1].click().run()
    assert not at.exception
    assert mock_answers(Store(db), session.id)[0].response == "1"
    assert at.button(key=f"{key}_option_1").icon == ":material/radio_button_checked:"
    at.button(key=f"{key}_option_0").click().run()
    at.button(key=keys.MOCK_SAVE).click().run()
    assert mock_answers(Store(db), session.id)[0].response == "0"
    assert "Answer to problem 1 saved." in [s.value for s in at.success]
