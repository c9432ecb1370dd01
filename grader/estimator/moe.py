"""Mixture of experts at decode: how many experts a batch touches, the bytes read and the step time.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
A token uses k of E experts per layer, so batch-1 decode reads only the active parameters; a batch
of B tokens routed independently and uniformly touches E·(1 − (1 − k/E)^B) distinct experts per
layer, so at large batch a step reads nearly every expert while its FLOPs still follow the active
count.
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step
from grader.estimator.rooflines import compute_time, memory_time


def experts_touched(*, n_experts: int, n_experts_active: int, batch_size: int) -> float:
    """Expected distinct experts a decode step reads per layer: E · (1 − (1 − k/E)^B).

    Each of the B tokens picks k of E experts; an expert is missed by one token with probability
    1 − k/E (exact for k = 1, close for small k) and by all of them with (1 − k/E)^B. k at B = 1,
    rising toward E. Assumes uniform, independent routing; real routers are skewed, which touches
    fewer experts.
    """
    miss = (1 - n_experts_active / n_experts) ** batch_size
    return step(
        "Experts touched per layer",
        "E · (1 − (1 − k/E)^batch)",
        f"{num(n_experts)} · (1 − (1 − {num(n_experts_active)}/{num(n_experts)})^{num(batch_size)})",
        n_experts * (1 - miss),
        "",
    )


def experts_touched_without_overlap(*, n_experts: int, n_experts_active: int, batch_size: int) -> float:
    """The slip variant of :func:`experts_touched`: B · k, as if no two tokens shared an expert.

    Uncapped, as the slip is made: past B · k = E it names more experts than the layer has.
    """
    return step(
        "Experts touched per layer, no two tokens sharing one",
        "batch · k",
        f"{num(batch_size)} · {num(n_experts_active)}",
        float(batch_size * n_experts_active),
        "",
    )


def moe_decode_weight_bytes(
    *,
    n_params: float,
    n_active_params: float,
    n_experts: int,
    n_experts_active: int,
    batch_size: int,
    bytes_per_param: float,
    experts_touched_per_layer: float | None = None,
) -> float:
    """Weight bytes one MoE decode step reads: (shared params + experts touched · params per expert) · bytes.

    Params per expert (all layers) = (P − P_active) / (E − k); shared params (attention, embeddings,
    norms, router, and any shared experts or dense layers) = P − E · params per expert. At batch 1
    this is the active parameters' bytes; at large batch, nearly all of them.
    ``experts_touched_per_layer``, when given, is the count an earlier answer found (else
    :func:`experts_touched`).
    """
    per_expert = step(
        "Parameters per expert (all layers)",
        "(P − P_active) / (E − k)",
        f"({num(n_params)} − {num(n_active_params)}) / ({num(n_experts)} − {num(n_experts_active)})",
        (n_params - n_active_params) / (n_experts - n_experts_active),
        "",
    )
    shared = step(
        "Shared parameters",
        "P − E · parameters per expert",
        f"{num(n_params)} − {num(n_experts)} · {num(per_expert)}",
        n_params - n_experts * per_expert,
        "",
    )
    touched = (
        experts_touched(n_experts=n_experts, n_experts_active=n_experts_active, batch_size=batch_size)
        if experts_touched_per_layer is None
        else experts_touched_per_layer
    )
    return step(
        "Weight bytes read per step",
        "(shared + experts touched · per expert) · bytes per param",
        f"({num(shared)} + {touched:.4g} · {num(per_expert)}) · {qty(bytes_per_param, 'B')}",
        (shared + touched * per_expert) * bytes_per_param,
        "B",
    )


def moe_decode_step_time(
    *,
    n_params: float,
    n_active_params: float,
    n_experts: int,
    n_experts_active: int,
    batch_size: int,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    n_chips: int = 1,
    weight_bytes: float | None = None,
) -> float:
    """Seconds per MoE decode step: max(bytes read / (bw · chips), 2 · P_active · batch / (peak · chips)).

    Bytes from :func:`moe_decode_weight_bytes`; every token still does 2 FLOPs per active parameter.
    Ignores the KV-cache read, the all-to-all of expert parallelism and load imbalance. ``weight_bytes``,
    when given, is the bytes read that an earlier answer found.
    """
    n_bytes = (
        weight_bytes
        if weight_bytes is not None
        else moe_decode_weight_bytes(
            n_params=n_params,
            n_active_params=n_active_params,
            n_experts=n_experts,
            n_experts_active=n_experts_active,
            batch_size=batch_size,
            bytes_per_param=bytes_per_param,
        )
    )
    t_memory = memory_time(n_bytes=n_bytes, mem_bandwidth=mem_bandwidth, n_chips=n_chips)
    flops = step(
        "FLOPs per step",
        "2 · P_active · batch",
        f"2 · {num(n_active_params)} · {num(batch_size)}",
        2 * n_active_params * batch_size,
        "FLOP",
    )
    t_compute = compute_time(flops=flops, peak_flops=peak_flops, n_chips=n_chips)
    return step(
        "MoE decode step time",
        "max(memory time, compute time)",
        f"max({qty(t_memory, 's')}, {qty(t_compute, 's')})",
        max(t_memory, t_compute),
        "s",
    )
