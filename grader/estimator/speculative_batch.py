"""Speculative decoding at batch > 1: the verify step's cost once the batch nears the critical batch.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
Leviathan et al. (2023) assume verifying k + 1 tokens costs one decode step, true while decode is
bandwidth-bound. At batch B the verify does 2 · P · B · (k + 1) FLOPs; once that passes the weight
read time, every draft token costs compute and the gain shrinks or turns into a loss (Liu et al.,
"Optimizing Speculative Decoding for Serving Large Language Models Using Goodput", 2024).
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step
from grader.estimator.latency import decode_step_over_tokens, time_per_output_token
from grader.estimator.speculative import speculative_tokens_per_step


def speculative_verify_step_time(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    batch_size: int,
    n_draft: int,
    context_len: int = 0,
    kv_bytes_per_token: float = 0.0,
    n_chips: int = 1,
) -> float:
    """Seconds for the target to verify k draft tokens for each of B sequences.

    B · context · KV / (bw · chips) + max(P · bytes / (bw · chips), 2 · P · B · (k + 1) / (peak · chips)): the
    weights and KV are read once, the FLOPs are those of B · (k + 1) tokens. Ignores the draft
    tokens' own KV reads and attention FLOPs.
    """
    tokens = step(
        "Tokens verified",
        "batch · (draft tokens + 1)",
        f"{num(batch_size)} · ({num(n_draft)} + 1)",
        batch_size * (n_draft + 1),
        "tokens",
    )
    return decode_step_over_tokens(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        tokens=int(tokens),
        batch_size=batch_size,
        context_len=context_len,
        kv_bytes_per_token=kv_bytes_per_token,
        n_chips=n_chips,
    )


def speculative_speedup_at_batch(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    batch_size: int,
    acceptance_rate: float,
    n_draft: int,
    draft_cost_ratio: float,
    context_len: int = 0,
    kv_bytes_per_token: float = 0.0,
    n_chips: int = 1,
) -> float:
    """Speed-up over plain decoding at batch B: tokens per step · TPOT / (verify time + k · c · TPOT).

    TPOT is the plain decode step at B (:func:`grader.estimator.latency.time_per_output_token`); the draft's
    k steps cost c · TPOT each (c, ``draft_cost_ratio``, as in
    :func:`grader.estimator.speculative.speculative_speedup`,
    to which this reduces while the verify costs one step). Near and past the critical batch the
    verify costs up to k + 1 steps and the speed-up falls below 1.
    """
    plain = time_per_output_token(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        batch_size=batch_size,
        context_len=context_len,
        kv_bytes_per_token=kv_bytes_per_token,
        n_chips=n_chips,
    )
    verify = speculative_verify_step_time(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        batch_size=batch_size,
        n_draft=n_draft,
        context_len=context_len,
        kv_bytes_per_token=kv_bytes_per_token,
        n_chips=n_chips,
    )
    tokens = speculative_tokens_per_step(acceptance_rate=acceptance_rate, n_draft=n_draft)
    cost = step(
        "Time of a speculative step",
        "verify time + k · c · TPOT",
        f"{qty(verify, 's')} + {num(n_draft)} · {num(draft_cost_ratio)} · {qty(plain, 's')}",
        verify + n_draft * draft_cost_ratio * plain,
        "s",
    )
    return step(
        "Speed-up at this batch",
        "tokens per step · TPOT / speculative step time",
        f"{tokens:.4g} · {qty(plain, 's')} / {qty(cost, 's')}",
        tokens * plain / cost,
        "",
    )
