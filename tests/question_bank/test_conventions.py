"""One convention rule: memory read as GiB and the input embedding not read, accepted wherever they count.

The typed answers below are the ones an independent re-solve of the bank gave for these draws.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import grade
from grader.conventions import EMBEDDING_NOT_READ, MEMORY_AS_GIB
from grader.units import format_quantity
from question_bank import load_bank
from question_bank.convention_checks import reading_issue
from question_bank.convention_readings import convention_readings
from question_bank.generation import generate, generate_drawn
from question_bank.generation_checks import sweep_issues
from question_bank.scenarios import generate_scenario, scenario_values, step_view
from question_bank.templates import NumericTemplate


@pytest.fixture(scope="module")
def bank():  # type: ignore[no-untyped-def]
    return load_bank()


@pytest.mark.parametrize(
    ("template_id", "seed", "typed", "convention"),
    [
        ("max-batch-fp8-kv", 0, "181", MEMORY_AS_GIB),
        # Seeds of the same draws as before Llama-3.1-8B joined the presets (Llama-3-8B on 8 × A100 80GB;
        # Qwen2.5-7B on 2 × MI300X at batch 4 and 4,096 tokens), so the re-solved answers still hold.
        ("tp-kv-capacity-replicated-heads", 360, "5.12 M tokens", MEMORY_AS_GIB),
        ("mbu-from-measured-tokens", 1, "35.0 %", EMBEDDING_NOT_READ),
        ("tpot-with-kv-read", 706, "1.423 ms", EMBEDDING_NOT_READ),
    ],
)
def test_the_other_reading_counts_and_is_named(bank, template_id, seed, typed, convention) -> None:  # type: ignore[no-untyped-def]
    problem = generate(bank.get(template_id), seed)
    verdict = grade(problem, typed)
    assert verdict.correct and verdict.accepted_as == convention.name
    assert convention.note in verdict.message


def test_a_capacity_answer_takes_the_gib_reading_but_not_the_embedding_one(bank) -> None:  # type: ignore[no-untyped-def]
    template = bank.get("kv-max-batch")
    for seed in range(10):
        problem, values = generate_drawn(template, seed)
        assert problem.answer is not None
        names = [convention.name for convention, _ in convention_readings(template, values, problem.answer)]
        # The table still takes memory: leaving it out of a capacity would be a slip, not a convention.
        assert names == [MEMORY_AS_GIB.name]


def test_a_scenario_capacity_step_accepts_the_gib_reading(bank) -> None:  # type: ignore[no-untyped-def]
    scenario = bank.scenario("scenario-gqa-mha-mqa")
    index = next(i for i, step in enumerate(scenario.steps) if step.id == "batch_gqa")
    view = step_view(scenario, index)
    assert isinstance(view, NumericTemplate)
    for seed in range(5):
        step = generate_scenario(scenario, seed).steps[index]
        values = scenario_values(scenario, seed)
        assert step.answer is not None
        ((convention, value),) = convention_readings(view, values, step.answer)
        verdict = grade(step, format_quantity(value, step.unit))
        assert convention is MEMORY_AS_GIB and verdict.correct and verdict.accepted_as, verdict.message


def test_every_shipped_numeric_template_and_step_accepts_both_readings(bank) -> None:  # type: ignore[no-untyped-def]
    for template in bank.templates:
        if isinstance(template, NumericTemplate):
            for seed in range(3):
                problem, values = generate_drawn(template, seed)
                assert reading_issue(template, values, problem) is None, template.id
    for scenario in bank.scenarios:
        for seed in range(3):
            steps, values = generate_scenario(scenario, seed).steps, scenario_values(scenario, seed)
            for index, step in enumerate(steps):
                assert reading_issue(step_view(scenario, index), values, step) is None, (scenario.id, index)


CAPACITY = """templates:
  - id: my-kv-capacity
    checklist: kv-cache
    kind: numeric
    difficulty: 1
    title: Tokens that fit
    prompt: "How many tokens of KV cache fit on one {gpu.name} beside {weights} bytes of weights?"
    params:
      gpu: {preset: hardware, ids: [a100_80gb_sxm, h100_sxm]}
      weights: {float: {low: 1.0e+10, high: 2.0e+10}}
    answer:
      call: kv_capacity_tokens
      with: {memory_bytes: gpu.memory_bytes, weight_bytes: weights, kv_bytes_per_token: 131072}
      unit: tokens
      whole: true
    explanation: Free memory over bytes per token.
    references: [kipply]
"""


def test_the_proof_refuses_a_template_whose_reading_is_not_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from question_bank import generation, generation_checks

    path = tmp_path / "mine.yaml"
    path.write_text(CAPACITY, encoding="utf-8")
    mine = load_bank([tmp_path], include_shipped=False)
    assert sweep_issues(mine) == []  # with the mechanism on, the GiB reading counts
    monkeypatch.setattr(generation, "convention_accepted", lambda *_: ())
    monkeypatch.setattr(generation_checks, "_SWEPT", {})  # the same definition is swept again
    (issue,) = sweep_issues(load_bank([tmp_path], include_shipped=False))
    answer_line = CAPACITY.splitlines().index("    answer:") + 1
    assert issue.file.endswith("mine.yaml") and issue.line == answer_line
    assert MEMORY_AS_GIB.name in issue.message and "graded incorrect" in issue.message
