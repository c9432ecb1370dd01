"""The answer help quotes only answers the grader reads the way the help says."""

from __future__ import annotations

import re
from functools import partial

import pytest

from grader import VerdictStatus, check_numeric
from grader.two_part import grade_with_remark
from ui.answer_help_view import EXAMPLES, HELP_MARKDOWN

#: Each answer as the help shows it (spaces made non-breaking), which is what a user copies.
QUOTED = re.findall(r"`([^`]+)`", HELP_MARKDOWN)


def _plain(text: str) -> str:
    return text.replace("\u00a0", " ")


def test_every_answer_the_help_quotes_is_an_example_and_every_example_is_quoted() -> None:
    assert sorted({_plain(text) for text in QUOTED}) == sorted(EXAMPLES)
    assert len(QUOTED) == len(set(QUOTED)), "each example is quoted once"


def test_a_quoted_answer_does_not_break_across_lines() -> None:
    assert not [text for text in QUOTED if " " in text]
    assert "17\u00a0ms" in HELP_MARKDOWN


@pytest.mark.parametrize("text", QUOTED, ids=[_plain(text) for text in QUOTED])
def test_each_quoted_answer_is_graded_as_the_help_says(text: str) -> None:
    example = EXAMPLES[_plain(text)]
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
