"""grader.grade on the answers an interviewer accepts: option words, rate spellings, long and odd input."""

from __future__ import annotations

import pytest

from grader import Choice, Kind, Problem, Tolerance, ToleranceKind, VerdictStatus, grade
from grader.grading import MAX_RESPONSE_CHARS


def problem(kind: Kind, **fields: object) -> Problem:
    return Problem(template_id="t", checklist_item="three-regimes", kind=kind, prompt="?", seed=1, **fields)  # type: ignore[arg-type]


DECODE = problem(
    Kind.CHOICE,
    choices=(
        Choice("Compute-bound; each extra sequence adds time", False, "Past the ridge."),
        Choice("Bandwidth-bound; a bigger batch is nearly free", True, "Weights dominate."),
    ),
)
REGIMES = problem(
    Kind.CHOICE,
    choices=(
        Choice("Memory-bandwidth-bound", True, "Bytes dominate."),
        Choice("Compute-bound", False, "FLOPs dominate."),
        Choice("Overhead-bound", False, "Launches dominate."),
    ),
)
FIX = problem(
    Kind.CHOICE,
    choices=(
        Choice("Compute-bound; fewer FLOPs or faster math units help, more bandwidth would not", False, "."),
        Choice("Bandwidth-bound; cutting bytes (fusion, lower precision, more reuse) helps", True, "."),
    ),
)


@pytest.mark.parametrize(
    ("choice", "response"),
    [
        (DECODE, "bandwidth-bound"),
        (DECODE, "Bandwidth bound"),
        (DECODE, "memory-bound"),
        (DECODE, "bandwidth-bound; a bigger batch is nearly free"),
        (REGIMES, "bandwidth-bound"),
        (REGIMES, "memory bound"),
        (REGIMES, "memory-bandwidth-bound"),
        (FIX, "bandwidth"),
        (FIX, "bandwidth-bound"),
    ],
)
def test_a_choice_answered_by_the_words_of_its_option(choice: Problem, response: str) -> None:
    assert grade(choice, response).status is VerdictStatus.CORRECT


@pytest.mark.parametrize(("choice", "response"), [(DECODE, "compute-bound"), (REGIMES, "overhead")])
def test_the_words_of_a_wrong_option_grade_it_wrong(choice: Problem, response: str) -> None:
    assert grade(choice, response).status is VerdictStatus.INCORRECT


@pytest.mark.parametrize("response", ["bound", "free", "latency-bound", "b"])
def test_words_that_fit_several_options_or_none_name_none(response: str) -> None:
    verdict = grade(REGIMES, response)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert "words only it holds" in verdict.message


NUMERIC = problem(Kind.NUMERIC, answer=0.0167, unit="ms", tolerance=Tolerance(ToleranceKind.RELATIVE, 0.05))
RECALL = problem(Kind.RECALL, key_points=("a", "b", "c"))


@pytest.mark.parametrize("graded", [NUMERIC, DECODE, RECALL], ids=["numeric", "choice", "recall"])
def test_an_overlong_answer_of_any_kind_is_refused_unread(graded: Problem) -> None:
    limit = MAX_RESPONSE_CHARS[graded.kind]
    verdict = grade(graded, "bandwidth-bound " + "x" * limit)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert f"over {limit:,} characters" in verdict.message


def test_length_is_counted_after_unicode_normalisation() -> None:
    # Each U+FDFA normalises to 18 characters: short as typed, far over the limit once read.
    verdict = grade(DECODE, "\ufdfa" * 40)
    assert "over 500 characters" in verdict.message
    # A letter and its combining accent become one character: long as typed, short once read.
    assert grade(DECODE, "1" + " " + "e\u0301" * 260).status is VerdictStatus.UNPARSABLE
    assert "characters" not in grade(DECODE, "1" + " " + "e\u0301" * 260).message


@pytest.mark.parametrize(
    ("response", "says"), [("5!", "factorial"), ("100!", "factorial"), ("0x10 ms", "decimal: `16`")]
)
def test_notation_the_parser_does_not_read_is_refused(response: str, says: str) -> None:
    verdict = grade(NUMERIC, response)
    assert verdict.status is VerdictStatus.UNPARSABLE
    assert says in verdict.message
