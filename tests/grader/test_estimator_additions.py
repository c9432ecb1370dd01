"""The estimator functions added for the roofline-with-overhead and parity questions."""

from __future__ import annotations

import pytest

from grader import estimator
from grader.estimator.derivation import recording

A100_PEAK_FLOP_S = 312e12
A100_BANDWIDTH_B_S = 1.555e12


def test_roofline_time_takes_the_largest_term() -> None:
    # 1 GFLOP and 1 GB on an A100: memory (0.643 ms) beats compute (3.2 us) and 10 us overhead.
    seconds = estimator.roofline_time(
        flops=1e9,
        n_bytes=1e9,
        peak_flops=A100_PEAK_FLOP_S,
        mem_bandwidth=A100_BANDWIDTH_B_S,
        overhead_s=10e-6,
    )
    assert seconds == pytest.approx(1e9 / 1.555e12)


def test_roofline_time_is_the_overhead_for_a_tiny_op() -> None:
    seconds = estimator.roofline_time(
        flops=1e3, n_bytes=8e3, peak_flops=A100_PEAK_FLOP_S, mem_bandwidth=A100_BANDWIDTH_B_S, overhead_s=5e-6
    )
    assert seconds == 5e-6


def test_roofline_time_is_the_compute_time_for_a_big_square_matmul() -> None:
    n = 8192
    seconds = estimator.roofline_time(
        flops=2 * n**3, n_bytes=2 * 3 * n * n, peak_flops=A100_PEAK_FLOP_S, mem_bandwidth=A100_BANDWIDTH_B_S
    )
    assert seconds == pytest.approx(2 * n**3 / 312e12)


def test_roofline_time_records_both_terms_and_the_result() -> None:
    with recording() as steps:
        estimator.roofline_time(flops=1.0, n_bytes=1.0, peak_flops=1.0, mem_bandwidth=1.0)
    assert [s.label for s in steps] == ["Compute time", "Memory time", "Op time (roofline with overhead)"]


def test_flops_in_duration_matches_horace_hes_python_comparison() -> None:
    # Horace He: in the time Python does one FLOP (1/32e6 s), an A100 could do 9.75 million.
    assert estimator.flops_in_duration(duration_s=1 / 32e6, peak_flops=A100_PEAK_FLOP_S) == pytest.approx(
        9.75e6
    )


def test_attention_parity_context_equates_attention_and_weight_flops() -> None:
    # Llama 2 7B: 32 layers, 32 heads of 128.
    context = estimator.attention_parity_context(n_params=6.738e9, n_layers=32, n_heads=32, head_dim=128)
    weight_flops = estimator.flops_per_token(n_params=6.738e9)
    attention = estimator.attention_flops_per_token(
        n_layers=32, n_heads=32, head_dim=128, context_len=context
    )
    assert attention == pytest.approx(weight_flops)
    assert 25_000 < context < 26_000


def test_matmul_min_square_dim_sits_on_the_ridge_point() -> None:
    n = estimator.matmul_min_square_dim(
        peak_flops=A100_PEAK_FLOP_S, mem_bandwidth=A100_BANDWIDTH_B_S, bytes_per_element=2.0
    )
    intensity = estimator.arithmetic_intensity_matmul(m=n, k=n, n=n, bytes_per_element=2.0)
    assert intensity == pytest.approx(A100_PEAK_FLOP_S / A100_BANDWIDTH_B_S)
    assert n == pytest.approx(602, abs=1)


@pytest.mark.parametrize(
    "name",
    [
        "roofline_time",
        "flops_in_duration",
        "attention_parity_context",
        "matmul_min_square_dim",
        "arithmetic_intensity",
    ],
)
def test_additions_are_callable_from_templates(name: str) -> None:
    assert name in estimator.FUNCTIONS


def test_arithmetic_intensity_is_flops_over_bytes() -> None:
    # An fp32 add moves 12 bytes per FLOP.
    assert estimator.arithmetic_intensity(flops=1e6, n_bytes=12e6) == pytest.approx(1 / 12)


def test_arithmetic_intensity_agrees_with_the_matmul_form() -> None:
    n = 4096
    general = estimator.arithmetic_intensity(flops=2 * n**3, n_bytes=2 * 3 * n * n)
    assert general == pytest.approx(estimator.arithmetic_intensity_matmul(m=n, k=n, n=n, bytes_per_element=2))


def test_generation_time_is_steps_times_tokens() -> None:
    # kipply's 13B example: 2 · 13e9 / 1.5e12 s per token, so 500 tokens take 500 times as long.
    per_token = estimator.decode_step_time(
        n_params=13e9, bytes_per_param=2, mem_bandwidth=1.5e12, peak_flops=312e12
    )
    total = estimator.generation_time(step_time=per_token, n_tokens=500)
    assert total == pytest.approx(500 * 26e9 / 1.5e12)
    with recording() as steps:
        estimator.generation_time(step_time=0.02, n_tokens=100)
    assert [s.label for s in steps] == ["Generation time"]
    assert steps[0].value == pytest.approx(2.0)
