"""Serving latency: time to first token, time per output token, a whole request, and utilisation.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
kipply's latency floorlines (prefill is compute-bound above the ridge, each decode step reads the
weights once) with the KV-cache read added to decode, as the scaling book does, and the two
utilisation figures serving teams report: MBU (bytes moved per second over the memory bandwidth)
and MFU (FLOPs done per second over the peak).
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step
from grader.estimator.inference import decode_step_time_general
from grader.estimator.rooflines import compute_time, memory_time
from grader.estimator.sizes import weight_bytes


def time_to_first_token(
    *,
    n_params: float,
    prompt_tokens: int,
    peak_flops: float,
    mem_bandwidth: float,
    bytes_per_param: float,
    batch_size: int = 1,
    n_chips: int = 1,
    mfu: float = 1.0,
) -> float:
    """Seconds until the first token (the prefill).

    max(2·P·prompt·batch / (peak·MFU·chips), P·bytes / (bw·chips)).

    A prefill does 2·P FLOPs per prompt token and reads the weights once; it is compute-bound once
    prompt · batch is past the ridge point and bandwidth-bound below it (kipply: a 52B model takes
    the same 69 ms on an A100 for any prompt up to 208 tokens). Ignores attention FLOPs (they grow
    with the prompt squared), queueing and the KV-cache write.
    """
    flops = 2 * n_params * prompt_tokens * batch_size
    step(
        "Prefill FLOPs",
        "2 · P · prompt tokens · batch",
        f"2 · {num(n_params)} · {num(prompt_tokens)} · {num(batch_size)}",
        flops,
        "FLOP",
    )
    t_compute = compute_time(flops=flops, peak_flops=peak_flops, n_chips=n_chips, mfu=mfu)
    t_weights = memory_time(
        n_bytes=weight_bytes(n_params=n_params, bytes_per_param=bytes_per_param),
        mem_bandwidth=mem_bandwidth,
        n_chips=n_chips,
        label="Weight read time",
    )
    return step(
        "Time to first token",
        "max(compute time, weight read time)",
        f"max({qty(t_compute, 's')}, {qty(t_weights, 's')})",
        max(t_compute, t_weights),
        "s",
    )


def kv_bytes_read_per_step(*, batch_size: int, context_len: int, kv_bytes_per_token: float) -> float:
    """KV-cache bytes one decode step reads: batch · context · KV bytes per token (every sequence's cache)."""
    return step(
        "KV bytes read per step",
        "batch · context · KV bytes per token",
        f"{num(batch_size)} · {num(context_len)} · {qty(kv_bytes_per_token, 'B')}",
        batch_size * context_len * kv_bytes_per_token,
        "B",
    )


def time_per_output_token(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    batch_size: int = 1,
    context_len: int = 0,
    kv_bytes_per_token: float = 0.0,
    n_chips: int = 1,
) -> float:
    """Seconds per decode step (time per output token), the scaling book's step time.

    batch·context·KV bytes per token / (bw·chips) + max(P·bytes / (bw·chips), 2·P·batch / (peak·chips)).

    Every step reads all the weights and every sequence's KV cache once and does 2·P FLOPs per
    sequence. The weight matmuls overlap their read with their FLOPs; attention's KV read has next to
    no FLOPs to hide under, so it adds on top at any batch. More context or a bigger batch never
    makes it shorter. Same assumptions as :func:`grader.estimator.inference.decode_step_time_general` (perfect
    sharding; no communication, attention FLOPs or launch overhead).
    """
    return decode_step_over_tokens(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        tokens=batch_size,
        batch_size=batch_size,
        context_len=context_len,
        kv_bytes_per_token=kv_bytes_per_token,
        n_chips=n_chips,
    )


def decode_step_over_tokens(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    tokens: int,
    batch_size: int,
    context_len: int,
    kv_bytes_per_token: float,
    n_chips: int = 1,
) -> float:
    """Seconds of one step that reads the weights and ``batch_size`` sequences' KV cache once and
    pushes ``tokens`` tokens through the weights (a decode step: tokens = batch; a mixed chunked-prefill
    step or a speculative verify: more). Same assumptions as :func:`time_per_output_token`.
    """
    kv_bytes = kv_bytes_read_per_step(
        batch_size=batch_size, context_len=context_len, kv_bytes_per_token=kv_bytes_per_token
    )
    return decode_step_time_general(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        batch_size=tokens,
        kv_cache_bytes=kv_bytes,
        n_chips=n_chips,
    )


def _decode_steps_total(
    *, weights_s: float, kv_s_per_token: float, compute_s: float, first_context: int, n_steps: int
) -> float:
    """Σ over c = first … first + n − 1 of kv · c + max(weights, compute), in closed form.

    The KV read grows with the context c and adds to the matmuls' time, which does not.
    """
    if n_steps <= 0:
        return 0.0
    last_context = first_context + n_steps - 1
    contexts_sum = n_steps * (first_context + last_context) / 2
    return n_steps * max(weights_s, compute_s) + kv_s_per_token * contexts_sum


def request_latency(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    prompt_tokens: int,
    output_tokens: int,
    kv_bytes_per_token: float = 0.0,
    batch_size: int = 1,
    n_chips: int = 1,
    mfu: float = 1.0,
    ttft_s: float | None = None,
) -> float:
    """Seconds from request to last token: TTFT + Σ over i = 1 … output − 1 of TPOT at context prompt + i.

    The prefill makes the first token; each later token is one decode step whose KV read grows by
    one token per sequence (:func:`time_per_output_token`'s form). Summed in closed form (the KV term
    is linear in the context). The MFU applies to the prefill only: decode at small batch is
    bandwidth-bound. ``ttft_s``, when given, is the time to first token an earlier answer found. Ignores
    queueing, sampling, detokenisation and network time.
    """
    ttft = (
        ttft_s
        if ttft_s is not None
        else time_to_first_token(
            n_params=n_params,
            prompt_tokens=prompt_tokens,
            peak_flops=peak_flops,
            mem_bandwidth=mem_bandwidth,
            bytes_per_param=bytes_per_param,
            batch_size=batch_size,
            n_chips=n_chips,
            mfu=mfu,
        )
    )
    n_steps = max(0, output_tokens - 1)
    chip_bandwidth = mem_bandwidth * n_chips
    weights_s = n_params * bytes_per_param / chip_bandwidth
    kv_s_per_token = batch_size * kv_bytes_per_token / chip_bandwidth
    compute_s = 2 * n_params * batch_size / (peak_flops * n_chips)
    first, last = prompt_tokens + 1, prompt_tokens + n_steps
    tpot = (
        "batch · c · KV bytes / (bw · chips) + max(P · bytes / (bw · chips), 2 · P · batch / (peak · chips))"
    )
    step(
        "First decode step (context prompt + 1)",
        tpot,
        f"{qty(kv_s_per_token, 's')} · {num(first)} + max({qty(weights_s, 's')}, {qty(compute_s, 's')})",
        kv_s_per_token * first + max(weights_s, compute_s),
        "s",
    )
    step(
        "Last decode step (context prompt + output − 1)",
        tpot,
        f"{qty(kv_s_per_token, 's')} · {num(last)} + max({qty(weights_s, 's')}, {qty(compute_s, 's')})",
        kv_s_per_token * last + max(weights_s, compute_s) if n_steps else 0.0,
        "s",
    )
    decode = step(
        "Decode time",
        "Σ TPOT over the output − 1 steps after the first token",
        f"{num(n_steps)} steps from context {num(first)} to {num(last)}",
        _decode_steps_total(
            weights_s=weights_s,
            kv_s_per_token=kv_s_per_token,
            compute_s=compute_s,
            first_context=first,
            n_steps=n_steps,
        ),
        "s",
    )
    return step(
        "Request latency", "TTFT + decode time", f"{qty(ttft, 's')} + {qty(decode, 's')}", ttft + decode, "s"
    )


def kv_weight_crossover_context(
    *, weight_bytes: float, kv_bytes_per_token: float, batch_size: int = 1
) -> float:
    """Context (tokens) at which a decode step reads as many KV bytes as weight bytes.

    weight bytes / (batch · KV bytes per token).

    Past it, the KV read dominates the step and a smaller KV cache (GQA, MQA, fp8 KV) pays more
    than smaller weights. The scaling book's example: LLaMA-2-13B (26 GB of bf16 weights, 800 kB
    of KV per token) crosses at about 8k tokens for batch 4.
    """
    return step(
        "KV–weight crossover context",
        "weight bytes / (batch · KV bytes per token)",
        f"{qty(weight_bytes, 'B')} / ({num(batch_size)} · {qty(kv_bytes_per_token, 'B')})",
        weight_bytes / (batch_size * kv_bytes_per_token),
        "tokens",
    )


def memory_bandwidth_utilization(
    *, bytes_per_step: float, steps_per_second: float, mem_bandwidth: float
) -> float:
    """MBU from a measurement: bytes read per step · steps per second / peak bandwidth (a fraction).

    ``bytes_per_step`` is what a decode step must read (weights plus the KV cache). A well-tuned
    batch-1 decode reaches 0.6–0.8; far below that points at overhead (launches, Python, sync).
    """
    achieved = step(
        "Achieved bandwidth",
        "bytes per step · steps per second",
        f"{qty(bytes_per_step, 'B')} · {num(steps_per_second)} /s",
        bytes_per_step * steps_per_second,
        "B/s",
    )
    return step(
        "Memory bandwidth utilization (MBU)",
        "achieved bandwidth / peak bandwidth",
        f"{qty(achieved, 'B/s')} / {qty(mem_bandwidth, 'B/s')}",
        achieved / mem_bandwidth,
        "%",  # a fraction, shown as the percentage serving teams quote
    )


def model_flops_utilization(
    *, n_params: float, tokens_per_second: float, peak_flops: float, n_chips: int = 1
) -> float:
    """MFU from observed throughput: 2 · P · tokens/s / (peak · chips) (a fraction).

    Counts 2·P FLOPs per token (forward only; training would count 6·P) and ignores attention
    FLOPs. Decode at small batch has a low MFU by nature: it is bandwidth-bound, so MBU is the
    figure to judge it by.
    """
    achieved = step(
        "Achieved FLOP/s",
        "2 · P · tokens per second",
        f"2 · {num(n_params)} · {num(tokens_per_second)} /s",
        2 * n_params * tokens_per_second,
        "FLOP/s",
    )
    return step(
        "Model FLOPs utilization (MFU)",
        "achieved FLOP/s / (peak · chips)",
        f"{qty(achieved, 'FLOP/s')} / ({qty(peak_flops, 'FLOP/s')} · {num(n_chips)})",
        achieved / (peak_flops * n_chips),
        "%",  # a fraction, shown as a percentage
    )


def relative_margin(*, value: float, threshold: float) -> float:
    """How far ``value`` sits from ``threshold``, as a fraction of it: |value − threshold| / threshold.

    For a question that asks which side of a threshold something falls on (a latency target, a
    utilisation cut-off), a template requires a margin so that rounding cannot flip the answer.
    """
    return step(
        "Distance from the threshold",
        "|value − threshold| / threshold",
        f"|{num(value)} − {num(threshold)}| / {num(threshold)}",
        abs(value - threshold) / threshold,
        "%",  # a fraction of the threshold, shown as a percentage
    )
