"""Derivations read as a person writes them: SI or binary prefixes, in the units the question uses."""

from __future__ import annotations

import re

import pytest

from grader import estimator as est
from grader.derivation_text import derivation_lines, derivation_markdown
from grader.estimator.derivation import Step, qty, recording
from question_bank import generate, load_bank
from question_bank.rendering import format_value

# A run of seven or more digits (thousands separators allowed) or scientific notation: unreadable at a glance.
_LONG_NUMBER = re.compile(r"\d(?:,?\d){6,}|\de[+-]?\d")


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (312e12, "FLOP/s", "312 TFLOP/s"),
        (1.307e15, "FLOP", "1.307 PFLOP"),
        (0.008370, "s", "8.37 ms"),
        (8.344e-5, "s", "83.44 µs"),
        (26_031_728_640, "B", "26.03 GB"),
        (1.555e12, "B/s", "1.555 TB/s"),
        (999.99e9, "FLOP", "1 TFLOP"),
        (120.0, "s", "120 s"),
    ],
)
def test_a_quantity_takes_the_largest_prefix_that_keeps_it_at_or_above_one(
    value: float, unit: str, text: str
) -> None:
    assert qty(value, unit) == text


def test_the_decode_floor_reads_in_prefixed_units() -> None:
    with recording() as steps:
        est.decode_step_time(n_params=13e9, bytes_per_param=2, mem_bandwidth=1.555e12, peak_flops=312e12)
    table = derivation_markdown(steps, answer_unit="ms")
    assert "26 GB / 1.555 TB/s" in table
    assert "26 GFLOP / 312 TFLOP/s" in table
    assert "max(16.72 ms, 83.33 µs)" in table
    assert not _LONG_NUMBER.search(table)


def test_a_question_in_kib_gets_its_sizes_in_binary_units() -> None:
    with recording() as steps:
        est.kv_cache_bytes(n_layers=40, n_kv_heads=40, head_dim=128, bytes_per_element=2, seq_len=2048)
    table = derivation_markdown(steps, answer_unit="MiB")
    assert "800 KiB" in table
    # The answer in the question's MiB, and said with the prefix a person would use: 1,600 MiB is awkward.
    assert table.rstrip().endswith("| 1,600 MiB (1.562 GiB) |")
    assert "KB" not in table and "MB" not in table


def test_no_derivation_of_the_bank_shows_a_long_or_scientific_number() -> None:
    bank = load_bank()
    for template in bank.templates:
        for seed in range(3):
            problem = generate(template, seed)
            table = derivation_markdown(problem.derivation, answer_unit=problem.unit)
            for row in table.splitlines()[2:]:
                substituted, result = (cell.strip(" |") for cell in row.split(" | ")[2:4])
                assert not _LONG_NUMBER.search(substituted), (template.id, seed, row)
                count = result.endswith("tokens") or result.replace(",", "").isdigit()
                # a count (tokens, a batch size) stays exact, like the answer it is
                assert count or not _LONG_NUMBER.search(result), (template.id, seed, row)


def test_a_prompt_still_states_its_numbers_exactly() -> None:
    assert format_value(174_600_000_000, None) == "174,600,000,000"


def test_on_screen_each_step_is_one_line_that_can_wrap() -> None:
    with recording() as steps:
        est.decode_step_time(n_params=13e9, bytes_per_param=2, mem_bandwidth=1.555e12, peak_flops=312e12)
    lines = derivation_lines(steps, answer_unit="ms").splitlines()
    assert len(lines) == len(steps)
    assert lines[-1] == (
        f"{len(steps)}. **Decode step time** = max(weight read time, compute time) = "
        "max(16.72 ms, 83.33 µs) = **16.72 ms**"
    )


def test_a_line_that_only_recalls_an_earlier_result_shows_no_empty_parts() -> None:
    recalled = Step("Step 4: Largest batch", "found in step 4", "", 368.0, "")
    assert (
        derivation_lines([recalled, recalled]).splitlines()[0]
        == "1. **Step 4: Largest batch** = found in step 4 = **368**"
    )


def test_a_count_of_a_million_or_more_is_written_with_a_prefix_not_as_exact_digits() -> None:
    steps = [Step("Attention HBM elements", "4 · N · d", "4 · 8,192 · 8,320", 272_629_760.0, "")]
    assert derivation_lines(steps).endswith("**272.6 M**")
    tokens = [Step("KV-cache capacity", "⌊free / per token⌋", "⌊77.99 G / 16,384⌋", 4_760_009.0, "tokens")]
    assert derivation_lines(tokens, answer_unit="tokens").endswith("**4.76 M tokens**")


def test_a_product_with_a_zero_factor_is_not_shown() -> None:
    with recording() as steps:
        est.kv_bytes_read_per_step(batch_size=1, context_len=0, kv_bytes_per_token=0.0)
        est.weight_bytes(n_params=7e9, bytes_per_param=2)
    text = derivation_lines(steps, answer_unit="GB")
    assert "KV bytes" not in text and text.startswith("1. **Weight bytes**")


def test_a_fraction_reads_as_a_percentage() -> None:
    with recording() as steps:
        est.memory_bandwidth_utilization(bytes_per_step=8.03e9, steps_per_second=21, mem_bandwidth=600e9)
    assert derivation_lines(steps).endswith("**28.11%**")


def test_a_result_in_words_replaces_the_value_and_is_said_once() -> None:
    steps = [Step("Decided on your values", "your step 2 < your step 1", "16 GB < 16.06 GB", 1.0, "", "yes")]
    assert derivation_lines(steps) == (
        "1. **Decided on your values** = your step 2 < your step 1 = 16 GB < 16.06 GB = **yes**"
    )
    echoed = [Step("Weight read time", "bytes / bandwidth", "16.7 ms", 16.7e-3, "s")]
    assert derivation_lines(echoed, answer_unit="ms") == (
        "1. **Weight read time** = bytes / bandwidth = **16.7 ms**"
    )
