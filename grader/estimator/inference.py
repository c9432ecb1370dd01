"""Inference: FLOPs per token, prefill and decode time, their intensities, the critical batch size.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
kipply's latency floorlines and the scaling book's decode rooflines.
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step
from grader.estimator.rooflines import compute_time, memory_time
from grader.estimator.sizes import weight_bytes

# --- FLOPs ---------------------------------------------------------------------------------


def flops_per_token(*, n_params: float) -> float:
    """Forward FLOPs per token: 2 · P (one multiply and one add per weight).

    Ignores attention over the context (see :func:`attention_flops_per_token`), softmax,
    norms and activations; the embedding lookup is counted though it is a gather.
    """
    value = 2 * n_params
    return step("FLOPs per token", "2 · P", f"2 · {num(n_params)}", value, "FLOP")


def attention_flops_per_token(*, n_layers: int, n_heads: int, head_dim: int, context_len: int) -> float:
    """Attention FLOPs per token that 2P ignores: 4 · L · context · heads · head_dim.

    Q·Kᵀ and the weighted sum over V are each 2 · context · heads · head_dim per layer.
    Kaplan et al. (2020) write 2 · L · n_ctx · d_attn, counting only one of the two products.
    """
    value = 4 * n_layers * context_len * n_heads * head_dim
    return step(
        "Attention FLOPs per token",
        "4 · layers · context · heads · head dim (Q·Kᵀ and A·V)",
        f"4 · {num(n_layers)} · {num(context_len)} · {num(n_heads)} · {num(head_dim)}",
        value,
        "FLOP",
    )


def attention_parity_context(*, n_params: float, n_layers: int, n_heads: int, head_dim: int) -> float:
    """Context length (tokens) where attention FLOPs per token equal 2P: 2 · P / (4 · L · heads · head_dim).

    Solves :func:`attention_flops_per_token` = :func:`flops_per_token` for the context. Uses
    query heads (grouped-query attention shares K and V, not the score computation). Ignores
    softmax, causal masking savings and sliding windows.
    """
    value = 2 * n_params / (4 * n_layers * n_heads * head_dim)
    return step(
        "Context where attention FLOPs equal 2P",
        "2 · P / (4 · layers · heads · head dim)",
        f"2 · {num(n_params)} / (4 · {num(n_layers)} · {num(n_heads)} · {num(head_dim)})",
        value,
        "tokens",
    )


# --- prefill and decode --------------------------------------------------------------------


def _decode_parts(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    batch_size: int,
    kv_cache_bytes: float,
    n_chips: int,
    weights: float | None = None,
) -> tuple[float, float, float]:
    """(weight read time, KV read time, compute time) of one decode step, each recorded.

    ``weights``: the weight bytes when an earlier answer gives them, else P · bytes per param.
    """
    if weights is None:
        weights = weight_bytes(n_params=n_params, bytes_per_param=bytes_per_param)
    t_weights = memory_time(
        n_bytes=weights,
        mem_bandwidth=mem_bandwidth,
        n_chips=n_chips,
        label="Weight read time",
    )
    # Recorded only when there is a cache to read, so the batch-1 weight-read story stays short.
    t_kv = (
        memory_time(
            n_bytes=kv_cache_bytes, mem_bandwidth=mem_bandwidth, n_chips=n_chips, label="KV read time"
        )
        if kv_cache_bytes
        else 0.0
    )
    flops = flops_per_token(n_params=n_params) * batch_size
    step("FLOPs per step", "2 · P · batch", f"{qty(2 * n_params, 'FLOP')} · {num(batch_size)}", flops, "FLOP")
    t_compute = compute_time(flops=flops, peak_flops=peak_flops, n_chips=n_chips)
    return t_weights, t_kv, t_compute


def decode_step_time(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    batch_size: int = 1,
    kv_cache_bytes: float = 0.0,
    n_chips: int = 1,
) -> float:
    """Roofline lower bound on one decode step, in seconds.

    max((P · bytes per param + KV bytes) / (chips · bandwidth), 2 · P · batch / (chips · peak)):
    the step cannot be faster than reading everything once, nor than doing its FLOPs at peak.
    ``kv_cache_bytes`` is the whole cache read in the step (all sequences of the batch). Assumes
    perfect sharding over ``n_chips`` and perfect overlap of memory traffic with compute; ignores
    communication, attention FLOPs and kernel-launch overhead. The overlap is optimistic for the
    KV read, which has next to no FLOPs to hide behind: :func:`decode_step_time_general` adds it.
    """
    t_weights, t_kv, t_compute = _decode_parts(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        batch_size=batch_size,
        kv_cache_bytes=kv_cache_bytes,
        n_chips=n_chips,
    )
    t_memory = t_weights + t_kv
    if t_kv:
        # The sum is a line of its own, so the max below compares figures the reader has seen.
        step(
            "Memory time",
            "weight read time + KV read time",
            f"{qty(t_weights, 's')} + {qty(t_kv, 's')}",
            t_memory,
            "s",
        )
    return step(
        "Decode step time",
        "max(memory time, compute time)" if t_kv else "max(weight read time, compute time)",
        f"max({qty(t_memory, 's')}, {qty(t_compute, 's')})",
        max(t_memory, t_compute),
        "s",
    )


def decode_step_time_general(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    batch_size: int = 1,
    kv_cache_bytes: float = 0.0,
    n_chips: int = 1,
    weight_bytes: float | None = None,
) -> float:
    """One decode step with the KV read kept apart, in seconds (the scaling book's general step time).

    KV bytes / (chips · bandwidth) + max(P · bytes per param / (chips · bandwidth), 2 · P · batch /
    (chips · peak)). The weight matmuls overlap their reads with their FLOPs; attention reads the
    KV cache with next to no FLOPs, so that read is bandwidth-bound at any batch and adds on top.
    Equals :func:`decode_step_time` without a KV cache; never below it. Same assumptions otherwise.
    ``weight_bytes``, when given, replaces P · bytes per param (a question that found it in an earlier
    step builds on that answer).
    """
    t_weights, t_kv, t_compute = _decode_parts(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        batch_size=batch_size,
        kv_cache_bytes=kv_cache_bytes,
        n_chips=n_chips,
        weights=weight_bytes,
    )
    matmuls = f"max({qty(t_weights, 's')}, {qty(t_compute, 's')})"
    return step(
        "Decode step time",
        "KV read time + max(weight read time, compute time)",
        f"{qty(t_kv, 's')} + {matmuls}",
        t_kv + max(t_weights, t_compute),
        "s",
    )


def prefill_time(
    *, n_params: float, n_tokens: int, peak_flops: float, n_chips: int = 1, mfu: float = 1.0
) -> float:
    """Seconds to prefill ``n_tokens``: 2 · P · T / (chips · peak · MFU).

    Compute-bound by assumption (true once T is well above the ridge point); ignores attention
    FLOPs, which grow with T² and matter for long prompts.
    """
    flops = 2 * n_params * n_tokens
    step("Prefill FLOPs", "2 · P · tokens", f"2 · {num(n_params)} · {num(n_tokens)}", flops, "FLOP")
    return step(
        "Prefill time",
        "FLOPs / (chips · peak · MFU)",
        f"{qty(flops, 'FLOP')} / ({num(n_chips)} · {qty(peak_flops, 'FLOP/s')} · {num(mfu)})",
        flops / (n_chips * peak_flops * mfu),
        "s",
    )


def decode_arithmetic_intensity(*, batch_size: int, bytes_per_param: float) -> float:
    """FLOP per weight byte of a decode step: 2 · batch / bytes per param.

    Each weight (bytes_per_param bytes) is read once and used for one multiply-add per
    sequence in the batch. Ignores KV-cache reads, which lower it further.
    """
    return step(
        "Decode arithmetic intensity",
        "2 · batch / bytes per param",
        f"2 · {num(batch_size)} / {num(bytes_per_param)}",
        2 * batch_size / bytes_per_param,
        "FLOP/B",
    )


def prefill_arithmetic_intensity(*, n_tokens: int, bytes_per_param: float) -> float:
    """FLOP per weight byte of a prefill over ``n_tokens``: 2 · T / bytes per param.

    The same as decode with batch = T: every weight read serves T tokens.
    """
    return step(
        "Prefill arithmetic intensity",
        "2 · tokens / bytes per param",
        f"2 · {num(n_tokens)} / {num(bytes_per_param)}",
        2 * n_tokens / bytes_per_param,
        "FLOP/B",
    )


def decode_critical_batch_size(*, peak_flops: float, mem_bandwidth: float, bytes_per_param: float) -> float:
    """Batch size where decode turns compute-bound: peak · bytes per param / (2 · bandwidth).

    Setting 2 · P · B / peak = P · bytes / bandwidth. 240 for a TPU v5e in bf16; int8 weights
    with bf16 compute halve it to 120. KV-cache reads add bandwidth-bound time at every batch
    size (see :func:`decode_step_time_general`) but do not move this threshold of the weight matmuls.
    """
    return step(
        "Critical decode batch size",
        "peak FLOP/s · bytes per param / (2 · bandwidth)",
        f"{qty(peak_flops, 'FLOP/s')} · {num(bytes_per_param)} / (2 · {qty(mem_bandwidth, 'B/s')})",
        peak_flops * bytes_per_param / (2 * mem_bandwidth),
        "",
    )


def tokens_per_second(*, step_time: float, batch_size: int = 1) -> float:
    """Generated tokens per second across the batch: batch / step time."""
    return step(
        "Throughput",
        "batch / step time",
        f"{num(batch_size)} / {qty(step_time, 's')}",
        batch_size / step_time,
        "tokens/s",
    )


def generation_time(*, step_time: float, n_tokens: int) -> float:
    """Seconds to generate ``n_tokens`` one decode step after another: step time · tokens.

    Ignores the prefill before the first token and the KV cache growing as tokens are added (each
    step then reads a little more than the last), so it is a lower bound for a short context.
    """
    return step(
        "Generation time",
        "step time · tokens",
        f"{qty(step_time, 's')} · {num(n_tokens)}",
        step_time * n_tokens,
        "s",
    )
