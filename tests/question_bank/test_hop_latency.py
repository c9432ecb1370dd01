"""Tensor-parallel decode steps pay a per-hop latency on every all-reduce (the α of the α–β model).

At small batch an all-reduce moves a few KB, so the hops are most of the communication: a step timed with
no hop latency would make tensor-parallel communication look free.
"""

from __future__ import annotations

import pytest

from grader import grade
from grader.units import format_quantity
from question_bank import generate, load_bank
from question_bank.scenarios import generate_scenario


@pytest.fixture(scope="module")
def bank():  # type: ignore[no-untyped-def]
    return load_bank()


def test_the_tensor_parallel_step_pays_its_hops_so_small_batches_are_posed(bank) -> None:  # type: ignore[no-untyped-def]
    template = bank.get("tp-decode-step-with-allreduce")
    batches = set()
    for seed in range(80):
        problem = generate(template, seed)
        hop = problem.params["hop"]
        assert 1e-6 <= hop <= 1e-5  # a few µs, the bank's cited α range
        assert f"{hop * 1e6:g} µs" in problem.prompt
        comm = next(s.value for s in problem.derivation if s.label == "Communication per step")
        one = next(s.value for s in problem.derivation if s.label == "All-reduce time")
        hops = comm / one * 2 * (problem.params["chips"] - 1) * hop  # 2 · layers all-reduces, 2(n − 1) hops
        assert 0 < hops < comm
        # Counting only the bytes is graded wrong (named where no other slip lies as close).
        verdict = grade(problem, format_quantity(problem.answer - hops, problem.unit))
        assert not verdict.correct, verdict.message
        batches.add(problem.params["batch"])
    # With the hops counted, leaving out the all-reduces is a real slip at batch 8 too, so it is drawn.
    assert {8, 32, 64} <= batches


def test_the_serving_scenario_step_states_and_uses_its_hop_latency(bank) -> None:  # type: ignore[no-untyped-def]
    scenario = bank.scenario("scenario-tp-serving")
    for seed in range(6):
        whole = generate_scenario(scenario, seed)
        step = next(s for s in whole.steps if s.step_id == "step_time")
        hop = whole.params["hop"]
        assert f"{hop * 1e6:g} µs" in step.prompt
        line = next(s for s in step.derivation if s.label == "All-reduce time")
        assert f"{hop * 1e6:g} µs" in line.substituted
