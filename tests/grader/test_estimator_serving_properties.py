"""Invariants of the serving follow-ups on random inputs: more context never lowers TPOT, experts
touched rise with batch toward E, all-reduce time grows with n toward 2·bytes/bw, the closed-form
request latency is the step-by-step sum, paging wastes under a block per request."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from grader import estimator as est

# Shared CPUs: no per-example deadline; enough examples to find an edge, few enough to stay fast.
fast = settings(max_examples=60, deadline=None)

params = st.floats(min_value=1e8, max_value=1e12)
bandwidths = st.floats(min_value=1e11, max_value=1e13)
peaks = st.floats(min_value=1e13, max_value=5e15)
element_bytes = st.sampled_from([0.5, 1.0, 2.0])
batches = st.integers(min_value=1, max_value=1024)
contexts = st.integers(min_value=0, max_value=131_072)
kv_per_token = st.floats(min_value=1e3, max_value=5e6)
chips = st.integers(min_value=1, max_value=64)


@fast
@given(
    n_params=params,
    bytes_per_param=element_bytes,
    mem_bandwidth=bandwidths,
    peak_flops=peaks,
    batch_size=batches,
    context=contexts,
    more=st.integers(min_value=1, max_value=65_536),
    kv=kv_per_token,
    n_chips=chips,
)
def test_more_context_never_lowers_tpot(
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    batch_size: int,
    context: int,
    more: int,
    kv: float,
    n_chips: int,
) -> None:
    def tpot(context_len: int) -> float:
        return est.time_per_output_token(
            n_params=n_params,
            bytes_per_param=bytes_per_param,
            mem_bandwidth=mem_bandwidth,
            peak_flops=peak_flops,
            batch_size=batch_size,
            context_len=context_len,
            kv_bytes_per_token=kv,
            n_chips=n_chips,
        )

    assert tpot(context + more) >= tpot(context)
    # Never below either roofline bound.
    assert tpot(context) >= 2 * n_params * batch_size / (peak_flops * n_chips) * (1 - 1e-12)
    assert tpot(context) >= n_params * bytes_per_param / (mem_bandwidth * n_chips) * (1 - 1e-12)


@fast
@given(
    n_experts=st.integers(min_value=2, max_value=256),
    data=st.data(),
    batch=st.integers(min_value=1, max_value=4096),
)
def test_experts_touched_rise_with_batch_toward_e(n_experts: int, data: st.DataObject, batch: int) -> None:
    k = data.draw(st.integers(min_value=1, max_value=n_experts))
    at = est.experts_touched(n_experts=n_experts, n_experts_active=k, batch_size=batch)
    after = est.experts_touched(n_experts=n_experts, n_experts_active=k, batch_size=batch + 1)
    assert k - 1e-9 <= at <= after <= n_experts + 1e-9
    assert math.isclose(est.experts_touched(n_experts=n_experts, n_experts_active=k, batch_size=1), k)
    # Far past E / k tokens, nearly every expert is read.
    assert (
        est.experts_touched(n_experts=n_experts, n_experts_active=k, batch_size=100 * n_experts)
        > 0.99 * n_experts
    )


@fast
@given(
    n_bytes=st.floats(min_value=1e3, max_value=1e11),
    link=st.floats(min_value=1e9, max_value=1e12),
    n_chips=st.integers(min_value=1, max_value=1024),
)
def test_allreduce_grows_with_n_toward_twice_bytes_over_bandwidth(
    n_bytes: float, link: float, n_chips: int
) -> None:
    t = est.allreduce_time(n_bytes=n_bytes, n_chips=n_chips, link_bandwidth=link)
    t_more = est.allreduce_time(n_bytes=n_bytes, n_chips=n_chips + 1, link_bandwidth=link)
    limit = 2 * n_bytes / link
    assert t < t_more < limit
    # Within (2/n) of the limit: 2(n − 1)/n = 2 − 2/n.
    assert math.isclose(t_more, limit * n_chips / (n_chips + 1), rel_tol=1e-9)


@fast
@given(
    n_params=params,
    bytes_per_param=element_bytes,
    mem_bandwidth=bandwidths,
    peak_flops=peaks,
    prompt=st.integers(min_value=1, max_value=8192),
    output=st.integers(min_value=1, max_value=120),
    kv=kv_per_token,
    batch=batches,
)
def test_request_latency_closed_form_is_the_step_by_step_sum(
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    prompt: int,
    output: int,
    kv: float,
    batch: int,
) -> None:
    common = {
        "n_params": n_params,
        "bytes_per_param": bytes_per_param,
        "mem_bandwidth": mem_bandwidth,
        "peak_flops": peak_flops,
    }
    total = est.request_latency(
        **common, prompt_tokens=prompt, output_tokens=output, kv_bytes_per_token=kv, batch_size=batch
    )
    steps = [
        est.time_per_output_token(**common, batch_size=batch, context_len=prompt + i, kv_bytes_per_token=kv)
        for i in range(1, output)
    ]
    ttft = est.time_to_first_token(**common, prompt_tokens=prompt, batch_size=batch)
    assert math.isclose(total, ttft + math.fsum(steps), rel_tol=1e-9)


@fast
@given(alpha=st.floats(min_value=0.0, max_value=1.0), k=st.integers(min_value=0, max_value=16))
def test_speculative_tokens_lie_between_1_and_k_plus_1(alpha: float, k: int) -> None:
    tokens = est.speculative_tokens_per_step(acceptance_rate=alpha, n_draft=k)
    assert 1 - 1e-9 <= tokens <= k + 1 + 1e-9
    # A free draft gives the whole of it as speed-up; any cost takes some away.
    assert math.isclose(
        est.speculative_speedup(acceptance_rate=alpha, n_draft=k, draft_cost_ratio=0.0), tokens
    )


@fast
@given(
    lengths=st.lists(st.integers(min_value=1, max_value=4096), min_size=1, max_size=40),
    block=st.sampled_from([1, 8, 16, 32, 128]),
)
def test_paging_wastes_less_than_a_block_per_request(lengths: list[int], block: int) -> None:
    reserved = est.paged_kv_reserved_bytes(request_lengths=lengths, block_size=block, kv_bytes_per_token=1.0)
    assert sum(lengths) <= reserved < sum(lengths) + len(lengths) * block
    contiguous = est.contiguous_kv_reserved_bytes(
        request_lengths=lengths, max_seq_len=4096, kv_bytes_per_token=1.0
    )
    assert reserved <= contiguous
    extra = est.paged_kv_extra_requests(
        free_bytes=1e9, request_lengths=lengths, max_seq_len=4096, block_size=block, kv_bytes_per_token=1e3
    )
    assert extra >= 0


@fast
@given(
    seq_len=st.integers(min_value=1, max_value=262_144),
    head_dim=st.sampled_from([64, 128, 256]),
    heads=st.integers(min_value=1, max_value=128),
)
def test_flash_moves_less_by_the_scores_share(seq_len: int, head_dim: int, heads: int) -> None:
    kwargs = {"seq_len": seq_len, "n_heads": heads, "head_dim": head_dim, "bytes_per_element": 2}
    standard = est.attention_hbm_bytes(**kwargs)
    flash = est.attention_hbm_bytes(**kwargs, flash=True)
    assert flash < standard
    assert math.isclose(standard / flash, (head_dim + seq_len) / head_dim, rel_tol=1e-9)


@fast
@given(
    kv_bytes=st.floats(min_value=1e6, max_value=1e12),
    n_chips=chips,
    kv_heads=st.sampled_from([1, 2, 4, 8, 16, 64]),
)
def test_kv_per_chip_never_splits_finer_than_the_kv_heads(
    kv_bytes: float, n_chips: int, kv_heads: int
) -> None:
    per_chip = est.kv_bytes_per_chip(kv_cache_bytes=kv_bytes, n_chips=n_chips, n_kv_heads=kv_heads)
    assert per_chip >= kv_bytes / n_chips * (1 - 1e-12)
    assert per_chip >= kv_bytes / kv_heads * (1 - 1e-12)
