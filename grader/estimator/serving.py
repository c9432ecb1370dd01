"""Serving at scale: cost per token, Little's law, the batch a latency target allows, chunked prefill.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
Continuous batching (Orca, Yu et al. 2022; vLLM, Kwon et al. 2023) lets a server run whatever batch
its latency target allows, so the questions an interviewer asks next are how big that batch is,
what a token costs at it, how many requests it keeps in flight, and what a long prompt does to the
decodes scheduled beside it (Sarathi-Serve, Agrawal et al. 2024).
"""

from __future__ import annotations

import math

from grader.estimator.derivation import num, qty, recording, step
from grader.estimator.latency import decode_step_over_tokens, time_per_output_token

SECONDS_PER_HOUR = 3600.0
TOKENS_PER_MILLION = 1e6


def cost_per_million_tokens(*, price_per_chip_hour: float, n_chips: int, tokens_per_s: float) -> float:
    """Price of 10⁶ generated tokens, in the price's currency: price · chips · 10⁶ / tokens/s / 3600.

    The chips are paid for by the hour whether busy or not, so the cost falls in proportion to the
    throughput: a full continuous batch makes tokens far cheaper than batch 1 on the same hardware.
    Ignores idle capacity, the prefill's share of the time, networking and staff.
    """
    per_hour = step(
        "Price per hour of the chips",
        "price per chip-hour · chips",
        f"{num(price_per_chip_hour)} · {num(n_chips)}",
        price_per_chip_hour * n_chips,
        "",
    )
    hours = step(
        "Hours to make a million tokens",
        "10⁶ / tokens per second / 3600",
        f"10⁶ / {_rate(tokens_per_s)} / 3600",
        TOKENS_PER_MILLION / tokens_per_s / SECONDS_PER_HOUR,
        "",
    )
    return step(
        "Cost per million tokens",
        "price per hour · hours",
        f"{num(per_hour)} · {num(hours)}",
        per_hour * hours,
        "",
    )


def _rate(per_second: float) -> str:
    """A rate as a person writes it: whole above 100 (``19,400``), else 4 significant figures."""
    return f"{per_second:,.0f}" if per_second >= 100 else num(per_second)


def requests_in_flight(*, arrival_rate_per_s: float, latency_s: float) -> float:
    """Little's law: requests in the system on average = arrival rate · time each spends in it.

    Holds for any stable queue whatever the arrival pattern (Little, 1961). A service taking 10
    requests/s that each last 8 s holds 80 at once: the batch the server must sustain.
    """
    return step(
        "Requests in flight (Little's law)",
        "arrival rate · latency",
        f"{num(arrival_rate_per_s)} /s · {qty(latency_s, 's')}",
        arrival_rate_per_s * latency_s,
        "",
    )


def max_batch_under_tpot_target(
    *,
    tpot_target_s: float,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    context_len: int = 0,
    kv_bytes_per_token: float = 0.0,
    n_chips: int = 1,
    memory_bytes: float | None = None,
) -> float:
    """The largest whole batch whose TPOT is at most the target (0 if batch 1 misses it).

    TPOT is :func:`grader.estimator.latency.time_per_output_token` with the same arguments; it only grows
    with the batch, so the bound is ⌊min((target · bw · chips − P · bytes) / (context · KV),
    target / (2 · P / (peak · chips) + context · KV / (bw · chips)))⌋: the KV read adds to the weight
    read and to the compute alike. With ``memory_bytes`` (per chip) the batch must also fit:
    :func:`grader.estimator.quantization.max_batch_at_context`'s bound. Same roofline assumptions as TPOT (no
    attention FLOPs); ignores activations and the engine's reserve.
    """
    kv_per_step = context_len * kv_bytes_per_token
    chip_bandwidth = mem_bandwidth * n_chips
    if kv_per_step > 0:
        # Each sequence's KV read adds to its share of the compute: it has no FLOPs to hide under.
        per_sequence_s = 2 * n_params / (peak_flops * n_chips) + kv_per_step / chip_bandwidth
        compute_bound = step(
            "Largest batch the compute allows",
            "target / (2 · P / (peak · chips) + context · KV bytes per token / (bw · chips))",
            f"{qty(tpot_target_s, 's')} / (2 · {num(n_params)} / "
            f"({qty(peak_flops, 'FLOP/s')} · {num(n_chips)}) + {num(context_len)} · "
            f"{qty(kv_bytes_per_token, 'B')} / {qty(chip_bandwidth, 'B/s')})",
            tpot_target_s / per_sequence_s,
            "",
        )
    else:
        compute_bound = step(
            "Largest batch the compute allows",
            "target · peak · chips / (2 · P)",
            f"{qty(tpot_target_s, 's')} · {qty(peak_flops, 'FLOP/s')} · {num(n_chips)} / "
            f"(2 · {num(n_params)})",
            tpot_target_s * peak_flops * n_chips / (2 * n_params),
            "",
        )
    bound = compute_bound
    if kv_per_step > 0:
        bound = min(
            bound,
            step(
                "Largest batch the bandwidth allows",
                "(target · bw · chips − P · bytes) / (context · KV bytes per token)",
                f"({qty(tpot_target_s, 's')} · {qty(chip_bandwidth, 'B/s')} − {num(n_params)} · "
                f"{num(bytes_per_param)} B) / ({num(context_len)} · {qty(kv_bytes_per_token, 'B')})",
                (tpot_target_s * chip_bandwidth - n_params * bytes_per_param) / kv_per_step,
                "",
            ),
        )
    elif n_params * bytes_per_param / chip_bandwidth > tpot_target_s:
        bound = 0.0

    def tpot(b: int) -> float:
        # Worked in a private recording block: the settling below is a check, not part of the derivation.
        with recording():
            return time_per_output_token(
                n_params=n_params,
                bytes_per_param=bytes_per_param,
                mem_bandwidth=mem_bandwidth,
                peak_flops=peak_flops,
                batch_size=b,
                context_len=context_len,
                kv_bytes_per_token=kv_bytes_per_token,
                n_chips=n_chips,
            )

    batch = max(0, math.floor(bound + 1e-9))
    # The closed form can sit one off the line through rounding: settle it against TPOT itself.
    while batch > 0 and tpot(batch) > tpot_target_s * (1 + 1e-12):
        batch -= 1
    if batch < math.floor(bound):
        bound = float(batch)
    bound = max(0.0, bound)
    if memory_bytes is not None and context_len * kv_bytes_per_token > 0:
        free = n_chips * memory_bytes - n_params * bytes_per_param
        per_sequence = context_len * kv_bytes_per_token
        fits = max(0.0, free / per_sequence)
        step(
            "Batch that fits in memory",
            "(chips · memory − P · bytes) / (context · KV bytes per token)",
            f"({num(n_chips)} · {qty(memory_bytes, 'B')} − {num(n_params)} · {num(bytes_per_param)} B) / "
            f"({num(context_len)} · {qty(kv_bytes_per_token, 'B')})",
            fits,
            "",
        )
        bound = min(bound, fits)
    elif memory_bytes is not None and n_params * bytes_per_param > n_chips * memory_bytes:
        bound = 0.0  # the weights alone do not fit
    unrounded = step(
        "Largest batch, before rounding down",
        "min(compute bound, bandwidth bound, memory bound)",
        f"{bound:.6g}",
        bound,
        "",
    )
    return step(
        "Largest batch under the TPOT target",
        "⌊bound⌋",
        f"⌊{unrounded:.6g}⌋",
        float(max(0, math.floor(unrounded + 1e-9))),
        "",
    )


def chunked_prefill_step_time(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    chunk_tokens: int,
    decode_batch: int,
    context_len: int = 0,
    kv_bytes_per_token: float = 0.0,
    n_chips: int = 1,
) -> float:
    """Seconds for one mixed step: a prefill chunk of ``chunk_tokens`` beside ``decode_batch`` decodes.

    decodes · context · KV / (bw · chips) + max(P · bytes / (bw · chips), 2 · P · (chunk + decodes) /
    (peak · chips)): the KV read adds on top (:func:`grader.estimator.latency.time_per_output_token`'s form).

    Sarathi-Serve (Agrawal et al., 2024) splits a long prompt into chunks so every step carries
    the running decodes: their TPOT becomes this step time, bounded by the chunk, instead of
    stalling behind the whole prompt's prefill. The weights are read once for both. Ignores the
    chunk's attention over earlier chunks (its KV re-read) and its attention FLOPs.
    """
    tokens = step(
        "Tokens in the step",
        "chunk tokens + decode batch",
        f"{num(chunk_tokens)} + {num(decode_batch)}",
        chunk_tokens + decode_batch,
        "tokens",
    )
    return decode_step_over_tokens(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        tokens=int(tokens),
        batch_size=decode_batch,
        context_len=context_len,
        kv_bytes_per_token=kv_bytes_per_token,
        n_chips=n_chips,
    )
