"""grader.grade on two-part answers, whole-unit answers and answers another convention gives."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grader import Kind, Problem, Tolerance, ToleranceKind, VerdictStatus, grade
from grader.problem import AcceptedValue, ChoicePart, ToleranceClass
from grader.two_part import split_answer

FIVE_PERCENT = Tolerance(ToleranceKind.RELATIVE, 0.05)
REGIMES = ("overhead-bound", "compute-bound", "bandwidth-bound")
OP_TIME = Problem(
    template_id="roofline-op-time",
    checklist_item="three-regimes",
    kind=Kind.NUMERIC,
    prompt="?",
    seed=1,
    answer=2e-3,
    unit="ms",
    tolerance=FIVE_PERCENT,
    choice_part=ChoicePart("regime", REGIMES, (2,), "The largest term names the regime."),
)


@pytest.mark.parametrize(
    "response",
    [
        "2 ms, bandwidth-bound",
        "2 ms (bandwidth)",
        "2 ms bandwidth-bound",
        "2 ms; memory-bound",
        "bandwidth-bound: 2 ms",
        "2 ms - bandwidth bound",
        "2 ms, so it's bandwidth-bound",
        "2,000 µs, bandwidth-bound",
    ],
)
def test_both_parts_typed_together_grade_correct(response: str) -> None:
    verdict = grade(OP_TIME, response)
    assert verdict.status is VerdictStatus.CORRECT, verdict.message
    assert verdict.score == 1
    assert [part.correct for part in verdict.parts] == [True, True]


def test_right_number_wrong_verdict_is_half_right_and_shown_as_such() -> None:
    verdict = grade(OP_TIME, "2 ms, compute-bound")
    assert verdict.status is VerdictStatus.INCORRECT
    assert verdict.score == 0.5
    assert [(part.name, part.correct) for part in verdict.parts] == [("time", True), ("regime", False)]
    assert "the time is right, the regime is not" in verdict.message
    assert "You said “compute-bound”; it is “bandwidth-bound”" in verdict.message


def test_wrong_number_right_verdict_is_half_right_and_shown_as_such() -> None:
    verdict = grade(OP_TIME, "10 µs, bandwidth-bound")
    assert verdict.status is VerdictStatus.INCORRECT
    assert verdict.score == 0.5
    assert [(part.name, part.correct) for part in verdict.parts] == [("time", False), ("regime", True)]
    assert "the regime is right, the time is not" in verdict.message
    assert "the exact answer is **2 ms**" in verdict.message


def test_a_missing_verdict_is_not_counted_and_says_what_to_add() -> None:
    verdict = grade(OP_TIME, "2 ms")
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert "asks two things" in verdict.message
    assert "`2 ms, overhead-bound`" in verdict.message


def test_a_verdict_that_names_no_option_is_not_counted() -> None:
    verdict = grade(OP_TIME, "2 ms, slow")
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert "`slow` names none of" in verdict.message


def test_a_near_tie_accepts_either_regime() -> None:
    tie = Problem(**{**OP_TIME.__dict__, "choice_part": ChoicePart("regime", REGIMES, (1, 2), "Tie.")})
    assert grade(tie, "2 ms, compute-bound").correct
    assert grade(tie, "2 ms, bandwidth-bound").correct


def test_split_keeps_thousands_separators_and_arithmetic() -> None:
    assert split_answer("1,555 ms, bandwidth-bound", REGIMES) == ("1,555 ms", 2, "bandwidth-bound")
    assert split_answer("(26e9 B)/(1.5e12 B/s) (compute)", REGIMES)[1:] == (1, "compute")


# --- whole-unit answers and conventions --------------------------------------------------------------

BATCH = Problem(
    template_id="kv-max-batch",
    checklist_item="kv-cache",
    kind=Kind.NUMERIC,
    prompt="?",
    seed=1,
    answer=19,
    unit="",
    tolerance=FIVE_PERCENT,
    tolerance_class=ToleranceClass.WHOLE,
    accepted=(
        AcceptedValue(
            "nearest-whole-number", 20, "That is the nearest whole number; the strict answer is 19.", True
        ),
        AcceptedValue("unrounded", 19.96, "That is the unrounded quotient; the strict answer is 19."),
    ),
)


@pytest.mark.parametrize(
    ("response", "accepted_as"),
    [
        ("19", ""),
        ("20", "nearest-whole-number"),
        ("about 20", "nearest-whole-number"),
        ("19.96", "unrounded"),
    ],
)
def test_a_whole_unit_answer_accepts_floor_nearest_and_unrounded(response: str, accepted_as: str) -> None:
    verdict = grade(BATCH, response)
    assert verdict.status is VerdictStatus.CORRECT
    assert verdict.accepted_as == accepted_as
    if accepted_as:
        assert "the strict answer is 19" in verdict.message


@pytest.mark.parametrize("response", ["18", "21", "17"])
def test_other_counts_are_wrong_and_the_message_lists_what_is_accepted(response: str) -> None:
    verdict = grade(BATCH, response)
    assert verdict.status is VerdictStatus.INCORRECT
    assert "or 20, 19.96" in verdict.message


def test_a_convention_answer_is_accepted_and_named() -> None:
    note = "Leaving the embedding table out gives **15.6 ms**; the derivation's convention gives **16.7 ms**."
    decode = Problem(
        template_id="t",
        checklist_item="decode-weight-read",
        kind=Kind.NUMERIC,
        prompt="?",
        seed=1,
        answer=16.7e-3,
        unit="ms",
        tolerance=Tolerance(ToleranceKind.RELATIVE, 0.03),
        accepted=(AcceptedValue("embedding-row-gathered", 15.6e-3, note),),
    )
    verdict = grade(decode, "15.6 ms")
    assert verdict.correct and verdict.accepted_as == "embedding-row-gathered"
    assert note in verdict.message
    assert grade(decode, "16.7 ms").accepted_as == ""


# The same kind of question asking only for the figure.
ONE_PART = replace(OP_TIME, template_id="op-time", answer=17e-3, choice_part=None)


@pytest.mark.parametrize(
    ("response", "remark"),
    [
        ("about 17 ms, bandwidth-bound", "bandwidth-bound"),
        ("17 ms (bandwidth-bound)", "bandwidth-bound"),
        ("17 ms; the weights dominate", "the weights dominate"),
        ("17,000 µs - memory-bound", "memory-bound"),
    ],
)
def test_a_remark_the_question_does_not_ask_for_is_let_pass_and_named(response: str, remark: str) -> None:
    verdict = grade(ONE_PART, response)
    assert verdict.status is VerdictStatus.CORRECT, verdict.message
    assert f"Only the figure is graded on this question; `{remark}` was not checked." in verdict.message


def test_a_remark_does_not_rescue_a_wrong_figure_or_an_unreadable_one() -> None:
    wrong = grade(ONE_PART, "1.7 ms, bandwidth-bound")
    assert wrong.status is VerdictStatus.INCORRECT
    assert "`bandwidth-bound` was not checked" in wrong.message
    # No figure before the words: still unreadable, with the parser's own advice.
    assert grade(ONE_PART, "fast, bandwidth-bound").status is VerdictStatus.UNPARSABLE
    # A figure of the wrong kind is told so, not that the comma after it cannot be read.
    wrong_kind = grade(ONE_PART, "17 GB, bandwidth-bound")
    assert wrong_kind.status is VerdictStatus.UNPARSABLE
    assert "the question asks for a time" in wrong_kind.message and "`,`" not in wrong_kind.message
    # A figure alone is graded as before, with no note.
    assert "not checked" not in grade(ONE_PART, "17 ms").message
