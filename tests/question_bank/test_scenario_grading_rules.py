"""Grading rules that hold inside a scenario as in a single problem, and slips named for what they are."""

from __future__ import annotations

import math

import pytest

from grader import grade
from grader.diagnosis import SUMMED, diagnose
from grader.estimator.derivation import Step
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


def test_a_wrong_kv_split_is_charged_once_in_the_tensor_parallel_scenario(bank) -> None:  # type: ignore[no-untyped-def]
    from grader.follow_through import grade_chain

    steps = generate_scenario(bank.scenario("scenario-tp-serving"), 0).steps
    weights, kv_token, _, batch = steps[0], steps[1], steps[2], steps[3]
    assert weights.answer and kv_token.answer and batch.answer
    wrong_kv = kv_token.answer * 2  # the per-GPU share taken twice too big
    per_sequence = wrong_kv * float(batch.params["context"])
    carried = math.floor(
        (float(batch.dependency.calls[-1].arguments["memory_bytes"]) - weights.answer) / per_sequence
    )  # type: ignore[union-attr]
    responses = {
        1: format_quantity(weights.answer, weights.unit),
        2: format_quantity(wrong_kv, kv_token.unit),
        4: str(carried),
    }
    report = grade_chain(steps, responses)
    assert [v.correct for v in report.verdicts] == [True, False, True]
    assert "carried forward" in report.verdicts[-1].verdict.message


def test_the_speculative_speed_up_builds_on_the_users_tokens_per_step(bank) -> None:  # type: ignore[no-untyped-def]
    from grader.follow_through import grade_chain

    steps = generate_scenario(bank.scenario("scenario-speculative-decoding"), 0).steps
    numbers = {step.step_id: step for step in steps}
    tokens, speedup = numbers["tokens_per_step"], numbers["speedup"]
    assert tokens.answer and speedup.answer and speedup.dependency is not None
    wrong_tokens = tokens.answer * 1.3
    cost = tokens.answer / speedup.answer  # k · c + 1 of this draw
    responses = {
        tokens.step: format_quantity(wrong_tokens, ""),
        speedup.step: format_quantity(wrong_tokens / cost, ""),
    }
    report = grade_chain(steps, responses)
    assert [v.correct for v in report.verdicts] == [False, True]
    assert "carried forward" in report.verdicts[-1].verdict.message
