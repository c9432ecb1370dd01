"""One rule for a bare number right only in another unit than the box's: the grade and the stored value."""

from __future__ import annotations

import pytest

from grader import Kind, VerdictStatus, grade
from grader.bare_numbers import asks_in_base_unit, question_sentences
from grader.units import base_units, format_number, si_per_display, unit_symbol
from question_bank import generate, load_bank


@pytest.mark.parametrize(
    ("prompt", "base_unit", "asks"),
    [
        ("With the cache in fp16, how many\nbytes of KV cache does one token add?", "B", True),
        ("How much memory does the KV cache take for a batch of 8?", "B", False),
        ("**GPT-3 175B** has 175e9 parameters. How many FLOPs\ndoes one forward pass spend?", "FLOP", True),
        ("How many FLOP/s does this kernel achieve?", "FLOP", False),
        ("How many FLOP/s does this kernel achieve?", "FLOP/s", True),
        ("Ignoring attention FLOPs, how long does prefill take?", "s", False),
        ("It reads 2 bytes per parameter. How long does one decode step take?", "s", False),
        ("How long, in seconds, does the step take?", "s", True),
        ("What fraction of the KV memory is unused?", "", True),
        ("What share of the KV memory is unused?\n\n*Graded to within 3 % (a fraction of 1).*", "", False),
    ],
)
def test_the_question_sentence_says_whether_it_asks_in_the_base_unit(
    prompt: str, base_unit: str, asks: bool
) -> None:
    assert asks_in_base_unit(prompt, base_unit=base_unit) is asks


def test_the_setup_before_the_question_does_not_count_as_asking() -> None:
    prompt = "Each token adds 800 KiB, that is 819,200 bytes. How much KV cache does a batch of 4 hold?"
    assert question_sentences(prompt) == ["How much KV cache does a batch of 4 hold?"]
    assert not asks_in_base_unit(prompt, base_unit="B")


def _bank_numeric_problems() -> list:
    problems = [generate(t, 1) for t in load_bank().templates]
    return [p for p in problems if p.kind is Kind.NUMERIC and si_per_display(p.unit) != 1]


def test_on_every_time_question_of_the_bank_the_answer_in_seconds_typed_bare_is_the_x1000_slip() -> None:
    timed = [p for p in _bank_numeric_problems() if unit_symbol(base_units(p.unit)) == "s"]
    assert len(timed) >= 10
    for problem in timed:
        assert problem.answer is not None
        bare = format_number(problem.answer)  # the figure in seconds, no unit
        verdict = grade(problem, bare)
        assert verdict.status is VerdictStatus.UNPARSABLE, (problem.template_id, verdict.message)
        assert f"read as {bare} {problem.unit}; if you meant seconds, type `{bare} s`" in verdict.message


def test_where_a_bank_question_asks_how_many_bytes_a_bare_byte_count_counts_and_is_stored_as_bytes() -> None:
    asked = [
        p
        for p in _bank_numeric_problems()
        if unit_symbol(base_units(p.unit)) == "B" and asks_in_base_unit(p.prompt, base_unit="B")
    ]
    assert {"kv-bytes-per-token", "tp-weights-per-gpu"} <= {p.template_id for p in asked}
    for problem in asked:
        assert problem.answer is not None
        verdict = grade(problem, format_number(problem.answer))
        assert verdict.correct, (problem.template_id, verdict.message)
        assert verdict.value == pytest.approx(problem.answer, rel=1e-3), "stored as what it was graded as"
