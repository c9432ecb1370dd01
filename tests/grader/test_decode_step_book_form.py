"""A decode step's KV read adds on top of the weight matmuls (the scaling book's KV/BW + max(W/BW, 2PB/peak)).

Below the critical batch both forms agree; past it the max((W + KV)/BW, compute) form hides the KV read
under FLOPs that attention does not have.
"""

from __future__ import annotations

import pytest

import grader.estimator as est

H100 = {"mem_bandwidth": 3.35e12, "peak_flops": 989e12}
MODEL = {"n_params": 8e9, "bytes_per_param": 2}


def _parts(*, batch: int, kv_bytes: float, chips: int = 1) -> tuple[float, float, float]:
    weights = MODEL["n_params"] * MODEL["bytes_per_param"] / (chips * H100["mem_bandwidth"])
    kv = kv_bytes / (chips * H100["mem_bandwidth"])
    compute = 2 * MODEL["n_params"] * batch / (chips * H100["peak_flops"])
    return weights, kv, compute


def test_tpot_past_the_critical_batch_adds_the_kv_read_to_the_compute() -> None:
    batch, context, per_token = 512, 4096, 131072.0
    weights, kv, compute = _parts(batch=batch, kv_bytes=batch * context * per_token)
    assert compute > weights  # the matmuls are compute-bound here
    tpot = est.time_per_output_token(
        **MODEL, **H100, batch_size=batch, context_len=context, kv_bytes_per_token=per_token
    )
    assert tpot == pytest.approx(kv + compute, rel=1e-12)
    assert tpot > max(weights + kv, compute)


def test_tpot_below_the_critical_batch_is_the_whole_read() -> None:
    weights, kv, _ = _parts(batch=4, kv_bytes=4 * 8192 * 131072.0)
    tpot = est.time_per_output_token(
        **MODEL, **H100, batch_size=4, context_len=8192, kv_bytes_per_token=131072.0
    )
    assert tpot == pytest.approx(weights + kv, rel=1e-12)


def test_the_tensor_parallel_step_adds_its_kv_share_on_top() -> None:
    chips, batch, context, per_token = 8, 2048, 4096, 163840.0
    weights, kv, compute = _parts(batch=batch, kv_bytes=batch * context * per_token, chips=chips)
    common = {"n_layers": 32, "d_model": 4096, "n_kv_heads": 8, "n_chips": chips, "link_bandwidth": 450e9}
    comm = est.tensor_parallel_comm_time(
        n_layers=32, d_model=4096, n_chips=chips, link_bandwidth=450e9, batch_size=batch
    )
    step = est.tensor_parallel_decode_step_time(
        **MODEL, **H100, **common, batch_size=batch, context_len=context, kv_bytes_per_token=per_token
    )
    assert compute > weights
    assert step == pytest.approx(kv + compute + comm, rel=1e-12)


def test_the_tensor_parallel_step_builds_on_shares_found_before() -> None:
    common = {"n_layers": 32, "d_model": 4096, "n_kv_heads": 8, "n_chips": 4, "link_bandwidth": 450e9}
    worked = est.tensor_parallel_decode_step_time(
        **MODEL, **H100, **common, batch_size=16, context_len=4096, kv_bytes_per_token=131072.0
    )
    given = est.tensor_parallel_decode_step_time(
        **MODEL, **H100, **common, batch_size=16, context_len=4096, kv_bytes_per_token=131072.0,
        weight_bytes_per_chip=16e9 / 4, kv_bytes_per_token_per_chip=131072.0 / 4,
    )  # fmt: skip
    assert given == pytest.approx(worked, rel=1e-12)
    wrong = est.tensor_parallel_decode_step_time(
        **MODEL, **H100, **common, batch_size=16, context_len=4096, kv_bytes_per_token=131072.0,
        weight_bytes_per_chip=16e9,
    )  # fmt: skip
    assert wrong > worked  # a user's own (wrong) share is what the step is worked on


def test_the_batch_under_a_tpot_target_meets_it_in_the_book_form() -> None:
    kwargs = {**MODEL, **H100, "context_len": 1024, "kv_bytes_per_token": 131072.0}
    target = 0.05
    batch = est.max_batch_under_tpot_target(tpot_target_s=target, **kwargs)
    assert est.time_per_output_token(**kwargs, batch_size=int(batch)) <= target
    assert est.time_per_output_token(**kwargs, batch_size=int(batch) + 1) > target


def test_request_latency_builds_on_a_ttft_found_before() -> None:
    kwargs = {**MODEL, **H100, "prompt_tokens": 2000, "output_tokens": 100, "kv_bytes_per_token": 131072.0}
    worked = est.request_latency(**kwargs)
    ttft = est.time_to_first_token(
        n_params=8e9, prompt_tokens=2000, peak_flops=989e12, mem_bandwidth=3.35e12, bytes_per_param=2
    )
    assert est.request_latency(**kwargs, ttft_s=ttft) == pytest.approx(worked, rel=1e-12)
    assert est.request_latency(**kwargs, ttft_s=ttft + 1.0) == pytest.approx(worked + 1.0, rel=1e-12)


def test_the_overlapping_form_is_named_for_the_check_that_refuses_it() -> None:
    assert est.KV_READ_OVERLAPPED == {"decode_step_time": "kv_cache_bytes"}
    hidden = est.decode_step_time(**MODEL, **H100, batch_size=512, kv_cache_bytes=2e11)
    book = est.decode_step_time_general(**MODEL, **H100, batch_size=512, kv_cache_bytes=2e11)
    assert book > hidden
