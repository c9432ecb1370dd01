"""Scoring a finished mock and writing its scorecard, with a stand-in grader."""

from __future__ import annotations

from datetime import timedelta

import pytest
from mock_kit import KV, PROBLEMS, REGIME, RIDGE, T0, WHY, fake_grade

from grader.problem import Kind
from progress.mock.config import MockConfig
from progress.mock.debrief import Answer, Result, debrief, response_text
from progress.mock.scorecard import MockFacts, scorecard_markdown


def _answers(**by_position: str) -> dict[int, Answer]:
    return {
        int(pos[1:]): Answer(int(pos[1:]), text, T0 + timedelta(seconds=30), time_spent_s=30.0)
        for pos, text in by_position.items()
    }


def test_unanswered_and_unreadable_count_as_incorrect_and_slips_are_named() -> None:
    answers = _answers(p0="800", p1="two hundred", p2="1", p3="400")
    result = debrief([KV, RIDGE, REGIME, KV], answers, grade=fake_grade)
    assert [o.result for o in result.outcomes] == [
        Result.CORRECT, Result.UNPARSABLE, Result.CORRECT, Result.INCORRECT,
    ]  # fmt: skip
    assert result.outcomes[3].slip == "forgot-k-and-v"
    assert result.score == 0.5
    assert result.final


def test_recall_waits_for_its_self_rating_before_the_score_is_final() -> None:
    answers = _answers(p0="800", p3="each weight is used in one multiply-add per token")
    pending = debrief(PROBLEMS, answers, grade=fake_grade)
    assert not pending.final
    assert pending.awaiting_rating == (3,)
    assert pending.outcomes[1].result is Result.UNANSWERED

    rated = {**answers, 3: Answer(3, answers[3].response, answers[3].answered_at, 30.0, self_rating="hard")}
    final = debrief(PROBLEMS, rated, grade=fake_grade)
    assert final.final
    assert final.outcomes[3].score == 0.5
    assert final.score == (1.0 + 0.5) / 5


def test_unanswered_recall_needs_no_rating() -> None:
    result = debrief([WHY], {}, grade=fake_grade)
    assert result.final
    assert result.outcomes[0].result is Result.UNANSWERED


def test_per_item_summary_counts_and_slips() -> None:
    result = debrief(PROBLEMS, _answers(p0="800", p4="400", p2="0"), grade=fake_grade)
    kv = next(item for item in result.items if item.checklist_item == "kv-cache")
    assert (kv.asked, kv.correct, kv.slips) == (2, 1, ("forgot-k-and-v",))
    regimes = next(item for item in result.items if item.checklist_item == "three-regimes")
    assert (regimes.asked, regimes.correct) == (1, 0)


def test_a_choice_answer_is_shown_as_the_option_text() -> None:
    assert response_text(REGIME, "1") == "bandwidth"
    assert response_text(REGIME, None) == "(no answer)"


def test_scorecard_has_the_score_each_item_each_problem_and_the_slip() -> None:
    result = debrief(PROBLEMS, _answers(p0="800", p4="400", p2="1"), grade=fake_grade)
    facts = MockFacts(
        mock_id=3, started_at=T0, finished_at=T0 + timedelta(minutes=12, seconds=5),
        config=MockConfig(duration_s=900, n_problems=5),
    )  # fmt: skip
    text = scorecard_markdown(result, facts=facts, item_titles={"kv-cache": "KV cache"})
    assert "# Roofline Drill mock interview #3" in text
    assert "**Score: 40%** (2 of 5 correct)" in text
    assert "12m 05s used of 15m 00s" in text
    assert "| KV cache | 1/2 | shaky | forgot K and V |" in text  # the slip in words, not its id
    assert "| KV \\| bytes |" in text  # a pipe in a title does not break the table
    # The key points are listed in the problem's own section; the row says how many.
    assert "| 4 | why-2p | (no answer) | 1 key point, listed below | no answer |" in text
    assert "  - one multiply-add is 2 FLOPs" in text
    assert "- **forgot K and V** (problem 5): Each token stores both K and V." in text


def test_a_choice_is_shown_as_the_right_answer_and_a_figure_as_the_exact_one() -> None:
    from progress.mock.debrief import answer_heading

    assert answer_heading(REGIME) == "Right answer"
    assert answer_heading(PROBLEMS[0]) == "Exact answer"


@pytest.mark.parametrize(
    ("answer", "unit", "worded"),
    [
        (272_629_760.0, "", "272.6 M"),  # a rounded count: never "272,600,000"
        (4_763_000.0, "tokens", "4.763 M tokens"),
        (65_880.0, "tokens", "65,880 tokens"),  # below a million every digit is shown, and exact
        (33.64e9, "MB", "33,640 MB (33.64 GB)"),
    ],
)
def test_the_debriefs_exact_answer_is_worded_as_practices_feedback_words_it(
    answer: float, unit: str, worded: str
) -> None:
    from grader import grade
    from grader.problem import Problem, Tolerance
    from progress.mock.debrief import exact_answer_text

    problem = Problem(
        "count", "kv-cache", Kind.NUMERIC, "How many?", 1, answer=answer, unit=unit, tolerance=Tolerance()
    )
    verdict = grade(problem, "1")  # wrong: the feedback names the exact answer
    assert exact_answer_text(problem, verdict) == worded
    assert f"the exact answer is **{worded}**" in verdict.message


HOSTILE_ANSWERS = [
    "![pixel](http://evil.example/p.png) 800",
    "a `![pixel](http://evil.example/p.png)` b",
    "``![pixel](http://evil.example/p.png)``",
    "<img src=http://evil.example/p.png> 800 | 9",
    "![pixel\nline](http://evil.example/p.png)",
]


def _markdown_tokens(text: str) -> list[tuple[str, str]]:
    """Every token of ``text`` as a GFM viewer reads it (tables on), inline ones included."""
    from markdown_it import MarkdownIt

    found: list[tuple[str, str]] = []
    stack = list(MarkdownIt("commonmark").enable("table").parse(text))
    while stack:
        token = stack.pop(0)
        found.append((token.type, token.content))
        stack[:0] = token.children or []
    return found


@pytest.mark.parametrize("typed", HOSTILE_ANSWERS)
def test_a_typed_answer_is_inert_in_the_scorecard(typed: str) -> None:
    result = debrief([KV], _answers(p0=typed), grade=fake_grade)
    facts = MockFacts(
        mock_id=3, started_at=T0, finished_at=T0 + timedelta(minutes=1),
        config=MockConfig(duration_s=900, n_problems=1),
    )  # fmt: skip
    tokens = _markdown_tokens(scorecard_markdown(result, facts=facts, item_titles={}))
    assert not [kind for kind, _ in tokens if kind in ("image", "html_inline", "html_block")]
    # In the table and in the problem's section, the answer reads exactly as typed (on one line).
    one_line = " ".join(typed.split())
    spans = [content.replace("\\|", "|") for kind, content in tokens if kind == "code_inline"]
    assert spans.count(one_line) == 2, spans
