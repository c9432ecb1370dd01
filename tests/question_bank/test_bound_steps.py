"""A scenario step builds on the earlier answers it needs: validate refuses one that works them out again.

The shipped scenarios bind every earlier answer a later step uses, so a slip is carried forward and
charged once; the long-context choice follows the user's own crossover.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.follow_through import grade_chain
from grader.units import format_quantity
from question_bank import load_bank
from question_bank.binding_checks import unbound_recomputations
from question_bank.generation_checks import sweep_issues
from question_bank.scenarios import generate_scenario, scenario_values

RECOMPUTED = """
templates:
  - id: my-recomputing
    kind: scenario
    checklist: decode-weight-read
    difficulty: 2
    title: Weights, then their read time
    prompt: "{model.name} on one {gpu.name}."
    params:
      model: {preset: models, ids: [llama2_7b, llama2_13b]}
      gpu: {preset: hardware, ids: [a100_80gb_sxm, h100_sxm]}
      all_weights: {call: weight_bytes, with: {n_params: model.n_params, bytes_per_param: 2}}
    references: [kipply]
    steps:
      - id: weights
        kind: numeric
        checklist: decode-weight-read
        title: Weight bytes
        prompt: How many GB of weights?
        answer: {call: weight_bytes, with: {n_params: model.n_params, bytes_per_param: 2}, unit: GB}
        explanation: P times 2 bytes.
        references: [kipply]
      - id: read_time
        kind: numeric
        checklist: decode-weight-read
        title: Reading them
        prompt: How long does reading them take?
        answer:
          call: memory_time
          with: {n_bytes: all_weights, mem_bandwidth: gpu.mem_bandwidth}
          unit: ms
        explanation: Bytes over bandwidth.
        references: [kipply]
      - id: rate
        kind: numeric
        checklist: decode-weight-read
        title: Tokens per second
        prompt: How many tokens per second at batch 1?
        answer: {call: tokens_per_second, with: {step_time: read_time}, unit: tokens/s}
        explanation: One over the step time.
        references: [kipply]
      - id: critical
        kind: numeric
        checklist: decode-batch-threshold
        title: Critical batch
        prompt: At what batch does decode turn compute-bound?
        answer:
          call: decode_critical_batch_size
          with: {peak_flops: gpu.peak_flops, mem_bandwidth: gpu.mem_bandwidth, bytes_per_param: 2}
          unit: ""
        explanation: Peak times bytes over twice the bandwidth.
        references: [kipply]
"""


@pytest.fixture(scope="module")
def bank():  # type: ignore[no-untyped-def]
    return load_bank()


def test_a_step_that_works_an_earlier_answer_out_again_is_refused_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(RECOMPUTED, encoding="utf-8")
    (issue,) = sweep_issues(load_bank([tmp_path], include_shipped=False))
    assert issue.file.endswith("mine.yaml") and issue.field == "steps.1.answer"
    assert "step 2 works out step 1's answer (Weight bytes) again" in issue.message
    assert "'weights'" in issue.hint
    assert RECOMPUTED.splitlines()[issue.line - 1].strip() == "answer:"


def test_the_same_step_bound_to_the_earlier_answer_passes(tmp_path: Path) -> None:
    bound = RECOMPUTED.replace("n_bytes: all_weights", "n_bytes: weights")
    (tmp_path / "mine.yaml").write_text(bound, encoding="utf-8")
    assert sweep_issues(load_bank([tmp_path], include_shipped=False)) == []


def test_no_shipped_scenario_works_an_earlier_answer_out_again_in_every_draw(bank) -> None:  # type: ignore[no-untyped-def]
    found = []
    for scenario in bank.scenarios:
        every: set[tuple[int, int]] | None = None
        for seed in range(4):
            steps = generate_scenario(scenario, seed).steps
            unbound = unbound_recomputations(scenario, steps, scenario_values(scenario, seed))
            every = unbound if every is None else every & unbound
        found += [(scenario.id, index + 1, earlier) for index, earlier in sorted(every or ())]
    assert found == []


def _numbered(steps):  # type: ignore[no-untyped-def]
    return {step.step_id: step for step in steps}


def test_the_long_context_choice_follows_the_users_own_crossover_not_a_wrong_kv_read(bank) -> None:  # type: ignore[no-untyped-def]
    scenario = bank.scenario("scenario-long-context-kv")
    checked = 0
    for seed in range(12):
        steps = generate_scenario(scenario, seed).steps
        numbers = _numbered(steps)
        crossover, kv_read, which = numbers["crossover"], numbers["kv_read"], numbers["which_dominates"]
        assert crossover.answer and kv_read.answer and numbers["weights"].answer
        right = next(i for i, choice in enumerate(which.choices) if choice.correct)
        # A KV read 100 times off puts it on the other side of the weights; the crossover stays right.
        factor = 100.0 if which.choices[right].text == "The weights" else 0.01
        responses = {
            numbers["weights"].step: format_quantity(numbers["weights"].answer, numbers["weights"].unit),
            crossover.step: format_quantity(crossover.answer, crossover.unit),
            kv_read.step: format_quantity(kv_read.answer * factor, kv_read.unit),
            which.step: str(1 - right),  # the option the wrong KV read points at
        }
        report = grade_chain(steps, responses)
        verdicts = {verdict.step: verdict for verdict in report.verdicts}
        assert verdicts[crossover.step].correct and not verdicts[kv_read.step].correct
        assert not verdicts[which.step].correct, verdicts[which.step].verdict.message
        checked += 1
    assert checked == 12


def test_the_long_context_choice_carries_a_wrong_crossover_forward(bank) -> None:  # type: ignore[no-untyped-def]
    steps = generate_scenario(bank.scenario("scenario-long-context-kv"), 0).steps
    numbers = _numbered(steps)
    crossover, which = numbers["crossover"], numbers["which_dominates"]
    assert crossover.answer
    right = next(i for i, choice in enumerate(which.choices) if choice.correct)
    factor = 100.0 if which.choices[right].text == "The KV cache" else 0.01  # flips context vs crossover
    responses = {
        crossover.step: format_quantity(crossover.answer * factor, crossover.unit),
        which.step: str(1 - right),
    }
    report = grade_chain(steps, responses)
    assert [v.correct for v in report.verdicts] == [False, True]
    assert "carried forward" in report.verdicts[-1].verdict.message
