"""Seeded generation on the fixture bank: draws, derived values, slips, choices, recall, rendering."""

from __future__ import annotations

import json
import statistics

import pytest
from bank_kit import CATALOG, GOOD

from grader import Kind, Problem
from grader.estimator import compute_time, decode_step_time, kv_cache_bytes_per_token, ridge_point
from grader.units import format_quantity
from question_bank import GenerationError, generate, load_bank
from question_bank.schema import NumericTemplate, Template

BANK = load_bank([GOOD], include_shipped=False, catalog=CATALOG)
SEEDS = range(300)


def _make(template: Template, seed: int) -> Problem:
    return generate(template, seed, catalog=CATALOG)


def _all(template_id: str) -> list[Problem]:
    template = BANK.get(template_id)
    return [_make(template, seed) for seed in SEEDS]


DECODE = _all("decode-time")


def test_same_seed_same_problem_and_params_are_json() -> None:
    for template in BANK.templates:
        first, again = _make(template, 7), _make(template, 7)
        assert first == again
        assert json.loads(json.dumps(first.params)) == first.params


def test_templates_draw_independently_for_the_same_seed() -> None:
    twin = BANK.get("kv-per-token").model_copy(update={"id": "kv-per-token-twin"})
    original = [_make(BANK.get("kv-per-token"), seed).params for seed in range(40)]
    copied = [_make(twin, seed).params for seed in range(40)]
    assert sum(a != b for a, b in zip(original, copied, strict=True)) > 20


def test_params_hold_preset_ids_dtype_names_and_numbers() -> None:
    params = DECODE[0].params
    assert params["gpu"] in CATALOG.lists["hardware"]
    assert params["dtype"] in {"bf16", "int8"}
    assert isinstance(params["n_params"], int) and isinstance(params["util"], float)


def test_preset_filters_where_present_min_and_exclude() -> None:
    # nosparse has no sparse figure, big is excluded, and every kept GPU has at least 30 GB.
    assert {p.params["gpu"] for p in DECODE} == {"fast", "slow"}
    assert {p.params["model"] for p in _all("why-2p")} == {"small", "large"}


def test_integer_ranges_stay_on_their_grid() -> None:
    contexts = [p.params["ctx"] for p in DECODE]
    assert set(contexts) == set(range(256, 2049, 256))


def test_log_uniform_draws_favour_small_values() -> None:
    sizes = [p.params["n_params"] for p in DECODE]
    assert all(1e9 <= s <= 2e10 and s % 1_000_000_000 == 0 for s in sizes)
    # Log-uniform over 1e9..2e10 has its median near 4.5e9, far below the midpoint 1.05e10.
    assert statistics.median(sizes) < 7e9


def test_float_steps_are_exact_decimals() -> None:
    assert {p.params["util"] for p in DECODE} == {0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6}


def test_require_holds_for_every_draw() -> None:
    gpus = CATALOG.lists["hardware"]
    for problem in DECODE:
        assert problem.params["weights"] < gpus[problem.params["gpu"]].memory_bytes


def test_an_impossible_require_raises() -> None:
    template = BANK.get("decode-time")
    impossible = template.model_copy(
        update={"require": [*template.require, type(template.require[0])(lhs=1, rhs=0)]}
    )
    with pytest.raises(GenerationError, match="require"):
        _make(impossible, 0)


def test_answer_and_derivation_come_from_the_estimator() -> None:
    problem = DECODE[3]
    gpu = CATALOG.lists["hardware"][problem.params["gpu"]]
    bytes_per_param = {"bf16": 2.0, "int8": 1.0}[problem.params["dtype"]]
    expected = decode_step_time(
        n_params=problem.params["n_params"],
        bytes_per_param=bytes_per_param,
        mem_bandwidth=gpu.mem_bandwidth,
        peak_flops=gpu.peak_flops,
        batch_size=problem.params["batch"],
    )
    assert problem.answer == pytest.approx(expected)
    labels = [step.label for step in problem.derivation]
    assert labels[0] == "Weight bytes"
    assert labels[-1] == "Decode step time"
    # Once, inside the answer: the derived param the answer does not use and the slips stay out.
    assert labels.count("Weight bytes") == 1


def test_slips_rebind_scale_and_call() -> None:
    problem = DECODE[5]
    gpu = CATALOG.lists["hardware"][problem.params["gpu"]]
    slips = {slip.name: slip.value for slip in problem.slips}
    assert slips["sparse-peak"] == pytest.approx(compute_time(flops=1e12, peak_flops=gpu.peak_flops_sparse))
    assert slips["assumed-fp32"] == pytest.approx(
        decode_step_time(
            n_params=problem.params["n_params"],
            bytes_per_param=4,
            mem_bandwidth=gpu.mem_bandwidth,
            peak_flops=gpu.peak_flops,
            batch_size=problem.params["batch"],
        )
    )


def test_a_slip_inside_the_band_is_drawn_again_or_dropped_where_draws_are_shared() -> None:
    template = BANK.get("decode-time")
    assert isinstance(template, NumericTemplate)
    changes = {"name": "almost-right", "call": None, "with_": None, "scale": 1.01}
    almost = template.slips[0].model_copy(update=changes)
    always_inside = template.model_copy(update={"slips": [*template.slips, almost]})
    # A scenario step shares its draw: the slip is only left out of that draw.
    problem = generate(always_inside, 5, catalog=CATALOG, slips_apart=False)
    assert "almost-right" not in {slip.name for slip in problem.slips}
    # A template alone draws again, and one whose slip no draw keeps apart is refused by name.
    with pytest.raises(GenerationError, match="the slip 'almost-right' inside the answer's band"):
        generate(always_inside, 5, catalog=CATALOG)


def test_slip_equal_to_an_earlier_slip_is_dropped() -> None:
    # With 8 query heads per KV head, "query heads" is 8× the answer, exactly like "bits for bytes".
    for problem in _all("kv-per-token"):
        names = [slip.name for slip in problem.slips]
        ratio = CATALOG.lists["models"][problem.params["model"]]
        if ratio.n_heads == 8 * ratio.n_kv_heads:
            assert names == ["heads-not-kv-heads", "forgot-k-and-v"]
        elif ratio.n_heads == ratio.n_kv_heads:
            assert names == [
                "forgot-k-and-v",
                "bits-for-bytes",
            ]  # query heads = KV heads: that slip is the answer


def test_kv_answer_matches_the_estimator() -> None:
    problem = _make(BANK.get("kv-per-token"), 11)
    model = CATALOG.lists["models"][problem.params["model"]]
    bytes_per_element = {"bf16": 2, "fp8": 1, "int8": 1, "fp32": 4}[problem.params["dtype"]]
    assert problem.answer == kv_cache_bytes_per_token(
        n_layers=model.n_layers,
        n_kv_heads=model.n_kv_heads,
        head_dim=model.head_dim,
        bytes_per_element=bytes_per_element,
    )
    assert problem.unit == "KiB" and problem.tolerance.value == 0.03


def test_prompt_rendering_units_numbers_and_literal_braces() -> None:
    problem = DECODE[0]
    gpu = CATALOG.lists["hardware"][problem.params["gpu"]]
    assert format_quantity(gpu.mem_bandwidth, "TB/s") in problem.prompt
    assert f"{problem.params['n_params']:,} parameters" in problem.prompt
    assert "Literal braces: {not a placeholder}." in problem.prompt
    kv = _make(BANK.get("kv-per-token"), 0)
    model = CATALOG.lists["models"][kv.params["model"]]
    assert kv.prompt.startswith(f"**{model.name}** has {model.n_layers} layers")
    assert f"In {kv.params['dtype']} (" in kv.prompt


def test_choice_from_a_pool_has_one_correct_option_and_shuffles() -> None:
    problems = _all("regime-of-symptom")
    orders = {tuple(choice.text for choice in p.choices) for p in problems}
    assert len(orders) == 6  # all orders of three options appear
    pool = BANK.pools["signs"]
    for problem in problems:
        assert problem.kind is Kind.CHOICE and problem.answer is None
        [right] = [choice for choice in problem.choices if choice.correct]
        [scenario] = [s for s in pool if s.text in problem.prompt]
        assert right.text.lower().startswith(scenario.answer)
        assert problem.explanation.startswith(scenario.why)


def test_decide_compares_two_params() -> None:
    for problem in _all("above-or-below-ridge"):
        gpu = CATALOG.lists["hardware"][problem.params["gpu"]]
        ridge = ridge_point(peak_flops=gpu.peak_flops, mem_bandwidth=gpu.mem_bandwidth)
        [right] = [choice.text for choice in problem.choices if choice.correct]
        assert right == ("Bandwidth-bound" if problem.params["intensity"] < ridge else "Compute-bound")
        assert [step.label for step in problem.derivation] == ["Ops:byte ratio (ridge point)"]


def test_recall_carries_key_points_and_model_answer() -> None:
    problem = _make(BANK.get("why-2p"), 2)
    assert problem.kind is Kind.RECALL and len(problem.key_points) == 3
    assert problem.explanation.startswith("Every parameter takes part")
    assert problem.references == ("kipply, Transformer Inference Arithmetic: flops counting",)


def test_numeric_template_fields_reach_the_problem() -> None:
    template = BANK.get("kv-per-token")
    assert isinstance(template, NumericTemplate)
    problem = _make(template, 1)
    assert (problem.title, problem.difficulty, problem.checklist_item) == (
        "KV bytes per token",
        1,
        "kv-cache",
    )


def test_the_derivation_holds_only_what_the_answer_rests_on() -> None:
    from question_bank.generation import derivation_params

    template = load_bank().get("decode-generation-time")
    needed = derivation_params(template)
    assert "step" in needed and "step_one_chip" not in needed
    problem = generate(template, 4)
    # The one-chip step time exists only for a slip: its 1-chip memory time is not shown.
    memory_steps = [s for s in problem.derivation if s.label == "Weight read time"]
    assert len(memory_steps) == 1
    assert problem.derivation[-1].value == pytest.approx(problem.answer)
