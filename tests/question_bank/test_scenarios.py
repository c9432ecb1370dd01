"""Scenario templates: loading with every mistake reported, one shared draw, dependencies carried."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.units import format_quantity
from question_bank import BankError, load_bank
from question_bank.scenarios import generate_scenario

STEP = """
      - id: {id}
        kind: numeric
        checklist: kv-cache
        title: {title}
        prompt: {prompt}
        {params}
        answer: {{call: {call}, with: {with_}, unit: {unit}}}
        explanation: Why.
        references: ["kipply"]
"""

HEAD = """templates:
  - id: scenario-small
    kind: scenario
    checklist: kv-cache
    difficulty: 2
    title: A small scenario
    prompt: "{model.name} on {gpu.name} at {context} tokens."
    params:
      model: {preset: models, ids: [llama3_8b, mistral_7b]}
      gpu: {preset: hardware, ids: [h100_sxm, a100_80gb_sxm]}
      context: {choice: [1024, 4096]}
    references: ["kipply"]
    steps:
"""

KV = (
    "{n_layers: model.n_layers, n_kv_heads: model.n_kv_heads, head_dim: model.head_dim, bytes_per_element: 2}"
)
WEIGHTS = "{n_params: model.n_params, bytes_per_param: 2}"
SEQUENCE = "{batch_size: 1, context_len: context, kv_bytes_per_token: kv_token}"
BATCH = "{memory_bytes: gpu.memory_bytes, weight_bytes: weights, kv_bytes_per_sequence: per_sequence}"


def _step(**fields: str) -> str:
    values = {"title": "A step", "prompt": "How much?", "params": "", "unit": "GB", **fields}
    return STEP.format(**values)


def _good_steps() -> list[str]:
    return [
        _step(id="weights", call="weight_bytes", with_=WEIGHTS),
        _step(id="kv_token", call="kv_cache_bytes_per_token", with_=KV, unit="KiB"),
        _step(
            id="kv_sequence_bytes",
            call="kv_bytes_read_per_step",
            with_=SEQUENCE,
        ),
        _step(
            id="batch",
            call="max_batch_size",
            with_=BATCH,
            params="params: {per_sequence: {call: kv_bytes_read_per_step, with: " + SEQUENCE + "}}",
            unit='"", whole: true',
        ),
    ]


def _write(tmp_path: Path, steps: list[str]) -> Path:
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "s.yaml").write_text(HEAD + "".join(steps))
    return folder


def test_a_scenario_loads_apart_from_the_templates(tmp_path: Path) -> None:
    bank = load_bank([_write(tmp_path, _good_steps())], include_shipped=False)
    assert bank.templates == [] and bank.scenario_ids == ["scenario-small"]
    assert bank.is_scenario("scenario-small") and not bank.is_scenario("kv-bytes-per-token")


def test_every_step_shares_one_draw_and_carries_its_dependencies(tmp_path: Path) -> None:
    bank = load_bank([_write(tmp_path, _good_steps())], include_shipped=False)
    scenario = generate_scenario(bank.scenario("scenario-small"), 5)
    assert (
        len({tuple(sorted((k, v) for k, v in s.params.items() if k != "step")) for s in scenario.steps}) == 1
    )
    assert scenario.setup in {s.setup for s in scenario.steps}
    weights, kv_token, sequence, batch = scenario.steps
    assert weights.dependency is None and kv_token.dependency is None
    assert sequence.dependency is not None and [c.step for c in sequence.dependency.carries] == [2]
    # The batch step depends on step 1 directly and on step 2 through its own param.
    assert batch.dependency is not None and [c.step for c in batch.dependency.carries] == [1, 2]
    assert [call.name for call in batch.dependency.calls] == ["per_sequence", ""]
    assert kv_token.answer is not None and batch.answer is not None
    assert batch.dependency.evaluate({"weights": weights.answer, "kv_token": kv_token.answer}) == batch.answer


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (_good_steps()[:3], "at least 4 items"),
        (
            [*_good_steps()[:3], _step(id="weights", call="weight_bytes", with_=WEIGHTS)],
            "the step id 'weights' is already",
        ),
        (
            [
                *_good_steps()[:3],
                _step(id="later", call="memory_time", with_="{n_bytes: nothing, mem_bandwidth: 1}"),
            ],
            "'nothing' is not a declared param",
        ),
        (
            [
                *_good_steps()[:3],
                _step(id="late", title="Step {context}", call="weight_bytes", with_=WEIGHTS),
            ],
            "a step title is shown as written",
        ),
        (
            [
                _step(id="early", call="memory_time", with_="{n_bytes: weights, mem_bandwidth: 1}"),
                *_good_steps(),
            ],
            "'weights' is not a declared param",
        ),
    ],
    ids=["too-few-steps", "duplicate-step", "unknown-binding", "placeholder-title", "later-step-used-early"],
)
def test_mistakes_in_a_scenario_are_reported_with_their_step(
    tmp_path: Path, steps: list[str], expected: str
) -> None:
    with pytest.raises(BankError) as caught:
        load_bank([_write(tmp_path, steps)], include_shipped=False)
    messages = [f"{issue.field}: {issue.message}" for issue in caught.value.issues]
    assert any(expected in message for message in messages), messages
    assert all(issue.template_id == "scenario-small" for issue in caught.value.issues)


def test_a_later_step_names_an_earlier_binary_answer_as_it_was_asked() -> None:
    from grader.derivation_text import derivation_lines

    scenario = next(s for s in load_bank().scenarios if s.id == "scenario-chat-latency-budget")
    problem = generate_scenario(scenario, 3)
    kv_step = next(s for s in problem.steps if s.unit == "KiB")
    later = next(s for s in problem.steps if s.step > kv_step.step and s.unit == "ms")
    first = derivation_lines(later.derivation, answer_unit=later.unit).splitlines()[0]
    asked = format_quantity(kv_step.answer or 0, "KiB")
    assert first.startswith(
        f"1. **Step {kv_step.step}: {kv_step.title}** = found in step {kv_step.step} ({asked})"
    )
    # The KV read and the weight read are lines of their own before the step time that adds the one to
    # the max of the other and the compute (the scaling book's step).
    labels = [s.label for s in later.derivation]
    step = labels.index("Decode step time")
    assert labels.index("KV read time") < step and labels.index("Weight read time") < step
    assert later.derivation[step].formula == "KV read time + max(weight read time, compute time)"
