"""Grading rules that hold inside a scenario as in a single problem, and slips named for what they are."""

from __future__ import annotations

import math

import pytest

from grader import grade
from grader.derivation import Step
from grader.diagnosis import SUMMED, diagnose
from grader.factor_causes import BYTES_PER_8_BIT, factor_two_causes
from grader.problem import Tolerance
from grader.units import format_quantity
from question_bank import generate, load_bank
from question_bank.scenarios import generate_scenario


@pytest.fixture(scope="module")
def bank():  # type: ignore[no-untyped-def]
    return load_bank()


def test_a_scenario_count_takes_the_whole_count_rule(bank) -> None:  # type: ignore[no-untyped-def]
    scenario = bank.scenario("scenario-tp-serving")
    index = next(i for i, step in enumerate(scenario.steps) if step.id == "max_batch")
    tried = 0
    for seed in range(40):
        step = generate_scenario(scenario, seed).steps[index]
        unrounded = step.derivation[-2].value if len(step.derivation) >= 2 else math.nan
        if step.answer is None or round(unrounded) == step.answer:
            continue
        tried += 1
        verdict = grade(step, str(round(unrounded)))  # 15 for 14.89: the nearest whole number
        assert verdict.correct and verdict.accepted_as in ("", "nearest-whole-number"), verdict.message
    assert tried


def test_adding_overlapping_times_is_named_as_such_not_a_factor_of_two() -> None:
    derivation = (
        Step("Memory time", "bytes / bandwidth", "", 0.010, "s"),
        Step("Compute time", "FLOPs / peak", "", 0.009, "s"),
        Step("Decode step time", "max(memory time, compute time)", "", 0.010, "s"),
    )
    slip = diagnose(0.019, answer_si=0.010, unit="ms", tolerance=Tolerance(), derivation=derivation)
    assert slip is not None and slip.name == SUMMED


def test_an_fp8_cache_counted_at_two_bytes_names_the_byte() -> None:
    step = Step(
        "KV bytes per token",
        "2 (K and V) · layers · KV heads · head dim · bytes per element",
        "2 · 32 · 8 · 128 · 1 B",
        65536,
        "B",
    )
    assert BYTES_PER_8_BIT in factor_two_causes([step])


@pytest.mark.parametrize(
    ("template_id", "slip"),
    [("moe-experts-touched", "batch-times-k"), ("speculative-expected-tokens", "one-plus-k-alpha")],
)
def test_the_slip_the_question_is_about_is_named(bank, template_id: str, slip: str) -> None:  # type: ignore[no-untyped-def]
    named = 0
    for seed in range(30):
        problem = generate(bank.get(template_id), seed)
        found = next((s for s in problem.slips if s.name == slip), None)
        if found is None:
            continue
        named += 1
        verdict = grade(problem, format_quantity(found.value, problem.unit))
        assert not verdict.correct and verdict.diagnosis == slip
    assert named
