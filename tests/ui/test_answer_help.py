"""The answer help quotes only answers the grader reads the way the help says."""

from __future__ import annotations

import re
from functools import partial

import pytest

from grader import VerdictStatus, check_numeric
from grader.two_part import grade_with_remark
from ui.answer_help import EXAMPLES, HELP_MARKDOWN, Example


def _quoted(markdown: str) -> list[str]:
    return re.findall(r"`([^`]+)`", markdown)


def test_every_answer_the_help_quotes_is_an_example_and_every_example_is_quoted() -> None:
    quoted = _quoted(HELP_MARKDOWN)
    assert sorted(set(quoted)) == sorted(EXAMPLES)
    assert len(quoted) == len(set(quoted)), "each example is quoted once"


@pytest.mark.parametrize(("text", "example"), EXAMPLES.items(), ids=list(EXAMPLES))
def test_each_example_is_graded_as_the_help_says(text: str, example: Example) -> None:
    grade_figure = partial(check_numeric, expected=example.expected, unit=example.unit, rel_tol=0.03)
    if example.remark:
        verdict = grade_with_remark(text, grade_figure=grade_figure, echo=lambda s: f"`{s}`")
        assert "was not checked" in verdict.message
    else:
        verdict = grade_figure(text)
    wanted = VerdictStatus.CORRECT if example.right else VerdictStatus.UNPARSABLE
    assert verdict.status is wanted, verdict.message


def test_a_remark_is_not_read_without_the_figure_only_rule() -> None:
    # The remark example passes because of the figure-only rule, not because the figure reader takes it.
    example = EXAMPLES["17 ms, bandwidth-bound"]
    verdict = check_numeric(
        "17 ms, bandwidth-bound", expected=example.expected, unit=example.unit, rel_tol=0.03
    )
    assert verdict.status is VerdictStatus.UNPARSABLE
