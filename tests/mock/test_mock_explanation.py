"""A mock's typed recall explanation: its confirmed key-point checks set the score and fill the scorecard."""

from __future__ import annotations

from datetime import timedelta

from mock_kit import KV, T0, fake_grade

from grader.problem import Kind, Problem
from progress.mock.config import MockConfig, ProblemRef
from progress.mock.debrief import Answer, Result, debrief
from progress.mock.scorecard import MockFacts, scorecard_markdown
from progress.mock.session import answers, finish, load, rate_recall, start, submit
from tests.progress.store_kit import new_store

WHY = Problem(
    "why-2p", "two-p-flops", Kind.RECALL, "Why 2P?", 4,
    key_points=("one multiply-add per weight", "a multiply-add is 2 FLOPs", "attention is left out"),
)  # fmt: skip
CHECKED = {"text": "each weight does a multiply-add", "made": [True, False, True], "score": 2 / 3,
           "standing_misconceptions": ["2P counts attention"]}  # fmt: skip


def _answer(position: int, text: str, **extra: object) -> Answer:
    return Answer(position, text, T0 + timedelta(seconds=40), 40.0, **extra)  # type: ignore[arg-type]


def test_checked_explanation_scores_the_points_made() -> None:
    rated = {1: _answer(1, CHECKED["text"], self_rating="hard", explanation=CHECKED)}
    result = debrief([KV, WHY], rated, grade=fake_grade)
    assert result.final and result.outcomes[1].result is Result.CORRECT
    assert result.outcomes[1].score == 2 / 3
    assert result.score == (0 + 2 / 3) / 2


def test_without_a_check_the_self_rating_scores_as_before() -> None:
    rated = {1: _answer(1, "because", self_rating="hard")}
    assert debrief([KV, WHY], rated, grade=fake_grade).outcomes[1].score == 0.5


def test_scorecard_lists_points_made_and_missed() -> None:
    rated = {1: _answer(1, CHECKED["text"], self_rating="hard", explanation=CHECKED)}
    result = debrief([KV, WHY], rated, grade=fake_grade)
    config = MockConfig(duration_s=600, n_problems=2)
    text = scorecard_markdown(result, facts=MockFacts(7, T0, T0 + timedelta(minutes=5), config))
    assert "**Key points:** 2 of 3 made" in text
    assert "  - made: one multiply-add per weight" in text
    assert "  - missed: a multiply-add is 2 FLOPs" in text
    assert "**Misconceptions:** 2P counts attention" in text


def test_rating_at_the_debrief_stores_the_confirmed_checks(tmp_path) -> None:
    store = new_store(tmp_path)
    config = MockConfig(duration_s=600, n_problems=1)
    session = start(store, config=config, problems=[ProblemRef("why-2p", 3)], now=T0)
    submit(store, mock_id=session.id, position=0, response=CHECKED["text"], now=T0 + timedelta(seconds=30),
           time_spent_s=30.0)  # fmt: skip
    finish(store, mock_id=session.id, now=T0 + timedelta(minutes=1))
    finished = load(store, session.id)
    assert finished is not None
    assert rate_recall(store, session=finished, position=0, self_rating="hard", explanation=CHECKED)
    assert answers(store, session.id)[0].explanation == CHECKED


def test_the_scorecard_lays_out_a_written_answer_in_its_section_not_in_one_table_row() -> None:
    written = "Each weight does one multiply-add per token.\n\nThat is 2 FLOPs, so 2P in all."
    rated = {1: _answer(1, written, self_rating="hard", explanation={**CHECKED, "text": written})}
    result = debrief([KV, WHY], rated, grade=fake_grade)
    config = MockConfig(duration_s=600, n_problems=2)
    text = scorecard_markdown(result, facts=MockFacts(7, T0, T0 + timedelta(minutes=5), config))
    [row] = [line for line in text.splitlines() if line.startswith("| 2 |")]
    assert "multiply-add" not in row and "written answer, in full below" in row and "3 key points" in row
    assert "  > `Each weight does one multiply-add per token.`" in text
    assert "  > `That is 2 FLOPs, so 2P in all.`" in text
    assert max(len(line) for line in text.splitlines() if line.startswith("|")) < 200
