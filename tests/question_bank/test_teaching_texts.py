"""What the shipped bank teaches is rendered from each draw: tolerance classes, explanations, wording."""

from __future__ import annotations

import re

import pytest

from grader import grade
from grader.hints import box_label
from grader.problem import ToleranceClass
from grader.units import format_quantity
from question_bank import generate, load_bank, load_hardware
from question_bank.generation import draw_values

BANK = load_bank(include_shipped=True)
SEEDS = range(60)
NUMERIC = [t for t in BANK.templates if t.kind == "numeric"]


@pytest.mark.parametrize("template", NUMERIC, ids=lambda t: t.id)
def test_every_numeric_prompt_states_how_it_is_graded(template) -> None:
    problem = generate(template, 0)
    note = {
        ToleranceClass.EXACT: "Graded to within",
        ToleranceClass.ROUGH: "estimate",
        ToleranceClass.WHOLE: "whole number",
    }[problem.tolerance_class]
    assert note in problem.prompt.splitlines()[-1]


def test_rough_questions_accept_ten_percent_and_say_so() -> None:
    problem = generate(BANK.get("overhead-knee-bytes"), 3)
    assert problem.tolerance_class is ToleranceClass.ROUGH
    assert "within 10 %" in problem.prompt
    assert grade(problem, format_quantity(problem.answer * 1.09, problem.unit)).correct


@pytest.mark.parametrize(
    "text",
    [
        "tensor(s)",
        "bytes per param bytes",
        "plain numbers",
        "TPU v5e, 240",
        "17 ms for 13B",
        "int8 tensor-core peak although",
    ],
)
def test_no_rendered_text_carries_wording_that_ignores_the_draw(text: str) -> None:
    for template in BANK.templates:
        for seed in range(5):
            problem = generate(template, seed)
            shown = [problem.prompt, problem.explanation, *(s.diagnosis for s in problem.slips)]
            if problem.kind.value == "numeric":
                shown.append(box_label(problem))
            assert not any(text in part for part in shown), (template.id, seed, text)


def test_the_decode_explanation_quotes_the_drawn_case() -> None:
    for seed in range(10):
        problem = generate(BANK.get("decode-13b-a100"), seed)
        assert format_quantity(problem.answer, "ms") in problem.explanation
        assert problem.params["dtype"] in problem.explanation


def test_element_wise_ops_are_judged_against_the_vector_peak() -> None:
    vector_peaks = {p.peak_flops_vector for p in load_hardware().values() if p.peak_flops_vector}
    for seed in SEEDS:
        problem = generate(BANK.get("ai-elementwise-attainable"), seed)
        attainable = problem.derivation[-1]
        peak = float(re.search(r"min\(([\d.]+) (\w?)FLOP/s", attainable.substituted).group(1))
        scale = {"T": 1e12, "G": 1e9, "P": 1e15}[
            re.search(r"min\([\d.]+ (\w)", attainable.substituted).group(1)
        ]
        assert any(abs(peak * scale - v) / v < 1e-3 for v in vector_peaks), attainable.substituted
        assert "vector units" in problem.prompt


def test_decode_throughput_at_a_batch_never_draws_batch_one() -> None:
    assert all(draw_values(BANK.get("decode-throughput-at-batch"), s)["batch"] > 1 for s in range(200))


def test_kv_versus_weights_never_draws_a_near_tie() -> None:
    for seed in range(200):
        values = draw_values(BANK.get("kv-vs-weights"), seed)
        ratio = values["kv"] / values["weights"]
        assert not 1 / 1.15 < ratio < 1.15, (seed, ratio)


def test_a_sibling_gpus_memorised_bandwidth_is_named() -> None:
    template = BANK.get("decode-13b-a100")
    seed = next(
        s
        for s in range(200)
        if generate(template, s).params["gpu"] == "a100_80gb_sxm"
        and generate(template, s).params["dtype"] == "fp16"
    )
    verdict = grade(generate(template, seed), "16.7 ms")  # 26 GB over the A100 40GB's 1.555 TB/s
    assert verdict.diagnosis == "used-other-gpu-mem-bandwidth"
    assert "A100 40GB" in verdict.diagnosis_text and "2.039 TB/s" in verdict.diagnosis_text
