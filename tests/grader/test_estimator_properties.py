"""Invariants of the estimator, checked on random inputs: linear where the formula is linear,
monotonic in batch size, never below either roofline bound, whole non-negative capacities."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader import estimator as est

# Shared CPUs: no per-example deadline; enough examples to find an edge, few enough to stay fast.
fast = settings(max_examples=60, deadline=None)

layers = st.integers(min_value=1, max_value=200)
heads = st.integers(min_value=1, max_value=128)
head_dims = st.sampled_from([32, 64, 80, 96, 128, 256])
element_bytes = st.sampled_from([0.5, 1.0, 2.0, 4.0])
seq_lens = st.integers(min_value=1, max_value=131_072)
batches = st.integers(min_value=1, max_value=1024)
factors = st.integers(min_value=2, max_value=16)
params = st.floats(min_value=1e6, max_value=2e12)
bandwidths = st.floats(min_value=1e10, max_value=1e14)
peaks = st.floats(min_value=1e12, max_value=1e17)
byte_counts = st.floats(min_value=0.0, max_value=1e13)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9)


@fast
@given(
    n_layers=layers,
    n_kv_heads=heads,
    head_dim=head_dims,
    bytes_per_element=element_bytes,
    seq_len=seq_lens,
    batch_size=batches,
    factor=factors,
    which=st.sampled_from(
        ["n_layers", "n_kv_heads", "head_dim", "bytes_per_element", "seq_len", "batch_size"]
    ),
)
def test_kv_cache_bytes_linear_in_each_factor(factor: int, which: str, **kwargs: float) -> None:
    scaled = {**kwargs, which: kwargs[which] * factor}
    assert close(est.kv_cache_bytes(**scaled), factor * est.kv_cache_bytes(**kwargs))


@fast
@given(
    n_layers=layers, n_kv_heads=heads, head_dim=head_dims, bytes_per_element=element_bytes, seq_len=seq_lens
)
def test_kv_cache_bytes_is_per_token_times_tokens(seq_len: int, **kwargs: float) -> None:
    per_token = est.kv_cache_bytes_per_token(**kwargs)
    assert close(est.kv_cache_bytes(**kwargs, seq_len=seq_len), per_token * seq_len)


@fast
@given(n_params=params, bytes_per_param=element_bytes, factor=factors)
def test_weight_bytes_linear(n_params: float, bytes_per_param: float, factor: int) -> None:
    base = est.weight_bytes(n_params=n_params, bytes_per_param=bytes_per_param)
    assert close(est.weight_bytes(n_params=factor * n_params, bytes_per_param=bytes_per_param), factor * base)
    assert close(est.weight_bytes(n_params=n_params, bytes_per_param=factor * bytes_per_param), factor * base)


# A model on a machine: the decode-step arguments that stay fixed while batch and cache vary.
setups = st.fixed_dictionaries(
    {"n_params": params, "bytes_per_param": element_bytes, "mem_bandwidth": bandwidths, "peak_flops": peaks}
)


@fast
@given(
    setup=setups,
    batch_size=batches,
    kv_cache_bytes=byte_counts,
    n_chips=st.integers(min_value=1, max_value=64),
)
def test_decode_step_never_below_either_bound(
    setup: dict[str, float], batch_size: int, kv_cache_bytes: float, n_chips: int
) -> None:
    step = est.decode_step_time(
        **setup, batch_size=batch_size, kv_cache_bytes=kv_cache_bytes, n_chips=n_chips
    )
    read = setup["n_params"] * setup["bytes_per_param"] + kv_cache_bytes
    memory_bound = est.memory_time(n_bytes=read, mem_bandwidth=n_chips * setup["mem_bandwidth"])
    flops = 2 * setup["n_params"] * batch_size
    compute_bound = est.compute_time(flops=flops, peak_flops=n_chips * setup["peak_flops"])
    slack = 1 + 1e-12
    assert step * slack >= memory_bound
    assert step * slack >= compute_bound
    # ... and no worse than doing the two one after the other.
    assert step <= (memory_bound + compute_bound) * slack


@fast
@given(
    setup=setups,
    small=batches,
    extra=st.integers(min_value=0, max_value=1024),
    kv_per_sequence=st.floats(min_value=0.0, max_value=1e10),
)
def test_decode_step_non_decreasing_in_batch(
    setup: dict[str, float], small: int, extra: int, kv_per_sequence: float
) -> None:
    def step(batch: int, kv: float) -> float:
        return est.decode_step_time(**setup, batch_size=batch, kv_cache_bytes=kv)

    large = small + extra
    # A fixed cache, and a cache that grows with the batch (one per sequence).
    assert step(large, kv_per_sequence) >= step(small, kv_per_sequence)
    assert step(large, large * kv_per_sequence) >= step(small, small * kv_per_sequence)


@fast
@given(
    n_params=params,
    n_tokens=st.integers(min_value=1, max_value=1_000_000),
    peak_flops=peaks,
    n_chips=st.integers(min_value=1, max_value=64),
    mfu=st.floats(min_value=0.05, max_value=1.0),
    factor=factors,
)
def test_prefill_time_linear_in_tokens(
    n_params: float, n_tokens: int, peak_flops: float, n_chips: int, mfu: float, factor: int
) -> None:
    def prefill(tokens: int) -> float:
        return est.prefill_time(
            n_params=n_params, n_tokens=tokens, peak_flops=peak_flops, n_chips=n_chips, mfu=mfu
        )

    assert close(prefill(factor * n_tokens), factor * prefill(n_tokens))


@fast
@given(peak_flops=peaks, mem_bandwidth=bandwidths, bytes_per_param=element_bytes, factor=factors)
def test_critical_batch_scales_with_bytes_per_param(
    peak_flops: float, mem_bandwidth: float, bytes_per_param: float, factor: int
) -> None:
    def critical(per_param: float) -> float:
        return est.decode_critical_batch_size(
            peak_flops=peak_flops, mem_bandwidth=mem_bandwidth, bytes_per_param=per_param
        )

    assert close(critical(factor * bytes_per_param), factor * critical(bytes_per_param))
    # At the critical batch the weight read and the 2P·B FLOPs take the same time.
    batch = critical(bytes_per_param)
    read = est.memory_time(n_bytes=bytes_per_param, mem_bandwidth=mem_bandwidth)
    assert close(est.compute_time(flops=2 * batch, peak_flops=peak_flops), read)


@fast
@given(
    memory_bytes=st.floats(min_value=1e9, max_value=2e12),
    weight_bytes=st.floats(min_value=0.0, max_value=2e12),
    per_unit=st.floats(min_value=1.0, max_value=1e11),
)
def test_capacities_are_whole_non_negative_and_tight(
    memory_bytes: float, weight_bytes: float, per_unit: float
) -> None:
    free = max(0.0, memory_bytes - weight_bytes)
    tokens = est.kv_capacity_tokens(
        memory_bytes=memory_bytes, weight_bytes=weight_bytes, kv_bytes_per_token=per_unit
    )
    batch = est.max_batch_size(
        memory_bytes=memory_bytes, weight_bytes=weight_bytes, kv_bytes_per_sequence=per_unit
    )
    for count in (tokens, batch):
        assert isinstance(count, int)
        assert count >= 0
        assert count * per_unit <= free * (1 + 1e-12)
        assert (count + 1) * per_unit > free * (1 - 1e-12)


@fast
@given(setup=setups, batch_size=batches, kv_cache_bytes=byte_counts)
def test_general_step_time_adds_the_kv_read_on_top(
    setup: dict[str, float], batch_size: int, kv_cache_bytes: float
) -> None:
    overlapped = est.decode_step_time(**setup, batch_size=batch_size, kv_cache_bytes=kv_cache_bytes)
    general = est.decode_step_time_general(**setup, batch_size=batch_size, kv_cache_bytes=kv_cache_bytes)
    assert general >= overlapped * (1 - 1e-12)
    without_kv = est.decode_step_time_general(**setup, batch_size=batch_size)
    assert without_kv == pytest.approx(est.decode_step_time(**setup, batch_size=batch_size))
