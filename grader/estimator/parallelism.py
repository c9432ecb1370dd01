"""Tensor parallelism: ring all-reduce time, the KV cache per chip, and a decode step with its communication.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
Megatron-style tensor parallelism splits each layer's matmuls across n chips and joins the partial
results with two all-reduces per layer (after attention and after the MLP), each of the batch's
d_model activations (kipply's "model parallelism"; the scaling book's inference chapter). A ring
all-reduce sends and receives 2·(n − 1)/n of the buffer per chip (NCCL's "bus bandwidth" factor).
"""

from __future__ import annotations

import math

from grader.estimator.derivation import num, qty, step
from grader.estimator.inference import flops_per_token
from grader.estimator.latency import kv_bytes_read_per_step
from grader.estimator.rooflines import compute_time, memory_time
from grader.estimator.sizes import weight_bytes


def allreduce_time(*, n_bytes: float, n_chips: int, link_bandwidth: float, hop_latency: float = 0.0) -> float:
    """Seconds for a ring all-reduce of ``n_bytes``.

    2·(n − 1)/n · bytes / link bandwidth + 2·(n − 1) · hop latency.

    A reduce-scatter then an all-gather, each n − 1 hops moving 1/n of the buffer. ``link_bandwidth``
    is what a chip sends per second while receiving as much (one direction: half NVIDIA's
    bidirectional NVLink figure, the presets' ``interconnect_bandwidth``). 0 on one chip. Grows
    with n toward 2 · bytes / bandwidth. Ignores the reduction's own FLOPs and tree algorithms.
    """
    if n_chips <= 1:
        return step("All-reduce time", "0 on one chip", f"{num(n_chips)} chip", 0.0, "s")
    factor = 2 * (n_chips - 1) / n_chips
    moved = step(
        "Bytes each chip sends",
        "2 · (n − 1) / n · bytes",
        f"2 · {num(n_chips - 1)} / {num(n_chips)} · {qty(n_bytes, 'B')}",
        factor * n_bytes,
        "B",
    )
    return step(
        "All-reduce time",
        "bytes sent / link bandwidth + 2 · (n − 1) · hop latency",
        f"{qty(moved, 'B')} / {qty(link_bandwidth, 'B/s')} + 2 · {num(n_chips - 1)} · "
        f"{qty(hop_latency, 's')}",
        moved / link_bandwidth + 2 * (n_chips - 1) * hop_latency,
        "s",
    )


def activation_bytes_per_layer(*, batch_size: int, d_model: int, bytes_per_element: float = 2.0) -> float:
    """Bytes of one layer's output activations for a decode step: batch · d_model · bytes per element.

    What each tensor-parallel all-reduce carries: one d_model vector per sequence in the batch.
    """
    return step(
        "Activations per all-reduce",
        "batch · d_model · bytes per activation",
        f"{num(batch_size)} · {num(d_model)} · {qty(bytes_per_element, 'B')}",
        batch_size * d_model * bytes_per_element,
        "B",
    )


def tensor_parallel_comm_time(
    *,
    n_layers: int,
    d_model: int,
    n_chips: int,
    link_bandwidth: float,
    batch_size: int = 1,
    activation_bytes: float = 2.0,
    hop_latency: float = 0.0,
) -> float:
    """Seconds of communication per tensor-parallel decode step.

    2 · layers · all-reduce time of batch · d_model activations.

    One all-reduce after attention's output projection and one after the MLP, in every layer. kipply
    counts the same traffic as 8 · layers · d_model · batch bytes over the link (rounding
    (n − 1)/n to 1): 18 ms for a 260B model at batch 512 on 16 A100s.
    """
    activations = activation_bytes_per_layer(
        batch_size=batch_size, d_model=d_model, bytes_per_element=activation_bytes
    )
    one = allreduce_time(
        n_bytes=activations, n_chips=n_chips, link_bandwidth=link_bandwidth, hop_latency=hop_latency
    )
    return step(
        "Communication per step",
        "2 all-reduces · layers · all-reduce time",
        f"2 · {num(n_layers)} · {qty(one, 's')}",
        2 * n_layers * one,
        "s",
    )


def kv_bytes_per_chip(*, kv_cache_bytes: float, n_chips: int, n_kv_heads: int) -> float:
    """KV-cache bytes each chip holds under tensor parallelism: total / min(chips, KV heads).

    The cache is split by KV head. With more chips than KV heads (8 chips, GQA with 8 heads is the
    limit; MQA's 1 head is the extreme) each chip must keep a full copy of the heads its query heads
    use, so the split stops at the KV-head count and the rest is replication.
    """
    shards = min(n_chips, n_kv_heads)
    return step(
        "KV bytes per chip",
        "KV bytes / min(chips, KV heads)",
        f"{qty(kv_cache_bytes, 'B')} / min({num(n_chips)}, {num(n_kv_heads)})",
        kv_cache_bytes / shards,
        "B",
    )


def tensor_parallel_decode_step_time(
    *,
    n_params: float,
    bytes_per_param: float,
    mem_bandwidth: float,
    peak_flops: float,
    n_layers: int,
    d_model: int,
    n_kv_heads: int,
    n_chips: int,
    link_bandwidth: float,
    batch_size: int = 1,
    context_len: int = 0,
    kv_bytes_per_token: float = 0.0,
    activation_bytes: float = 2.0,
    hop_latency: float = 0.0,
    weight_bytes_per_chip: float | None = None,
    kv_bytes_per_token_per_chip: float | None = None,
) -> float:
    """Seconds per tensor-parallel decode step on n chips.

    KV per chip / bw + max(W/n / bw, 2·P·batch / (n · peak)) + communication.

    Each chip reads its 1/n of the weights and its share of the KV cache (replicated past the
    KV-head count, see :func:`kv_bytes_per_chip`), does 1/n of the FLOPs, then waits for two
    all-reduces per layer (:func:`tensor_parallel_comm_time`). The weight matmuls overlap their read
    with their FLOPs; the KV read has no matmul FLOPs to hide under and adds on top (the scaling
    book's step time). Communication is added, not overlapped: a decode step's all-reduces sit
    between dependent matmuls. ``kv_bytes_per_token`` is the whole model's, per token.
    ``weight_bytes_per_chip`` and ``kv_bytes_per_token_per_chip``, when given, are the shares earlier
    answers found (a question builds on them rather than working them out again).
    """
    if weight_bytes_per_chip is None:
        weight_bytes_per_chip = step(
            "Weight bytes per chip",
            "P · bytes per param / chips",
            f"{qty(weight_bytes(n_params=n_params, bytes_per_param=bytes_per_param), 'B')} / {num(n_chips)}",
            n_params * bytes_per_param / n_chips,
            "B",
        )
    weights_per_chip = weight_bytes_per_chip
    if kv_bytes_per_token_per_chip is None:
        kv_total = kv_bytes_read_per_step(
            batch_size=batch_size, context_len=context_len, kv_bytes_per_token=kv_bytes_per_token
        )
        kv_chip = kv_bytes_per_chip(kv_cache_bytes=kv_total, n_chips=n_chips, n_kv_heads=n_kv_heads)
    else:
        kv_chip = step(
            "KV bytes per chip",
            "batch · context · KV bytes per token per chip",
            f"{num(batch_size)} · {num(context_len)} · {qty(kv_bytes_per_token_per_chip, 'B')}",
            batch_size * context_len * kv_bytes_per_token_per_chip,
            "B",
        )
    t_weights = memory_time(n_bytes=weights_per_chip, mem_bandwidth=mem_bandwidth, label="Weight read time")
    t_kv = memory_time(n_bytes=kv_chip, mem_bandwidth=mem_bandwidth, label="KV read time") if kv_chip else 0.0
    flops = flops_per_token(n_params=n_params) * batch_size / n_chips
    step(
        "FLOPs per chip per step",
        "2 · P · batch / chips",
        f"{num(2 * n_params)} · {num(batch_size)} / {num(n_chips)}",
        flops,
        "FLOP",
    )
    t_compute = compute_time(flops=flops, peak_flops=peak_flops)
    t_comm = tensor_parallel_comm_time(
        n_layers=n_layers,
        d_model=d_model,
        n_chips=n_chips,
        link_bandwidth=link_bandwidth,
        batch_size=batch_size,
        activation_bytes=activation_bytes,
        hop_latency=hop_latency,
    )
    return step(
        "Tensor-parallel decode step time",
        "KV read time + max(weight read time, compute time) + communication",
        f"{qty(t_kv, 's')} + max({qty(t_weights, 's')}, {qty(t_compute, 's')}) + {qty(t_comm, 's')}",
        t_kv + max(t_weights, t_compute) + t_comm,
        "s",
    )


def weight_bytes_per_chip(*, n_params: float, bytes_per_param: float, n_chips: int = 1) -> float:
    """Weight bytes each chip holds under tensor parallelism: P · bytes per param / chips.

    Assumes every matrix splits evenly; the embedding and norms are in fact often replicated,
    a few percent more for a large model.
    """
    total = weight_bytes(n_params=n_params, bytes_per_param=bytes_per_param)
    return step(
        "Weight bytes per chip",
        "weight bytes / chips",
        f"{qty(total, 'B')} / {num(n_chips)}",
        total / n_chips,
        "B",
    )


def tensor_parallel_kv_capacity_tokens(
    *,
    memory_bytes: float,
    n_params: float,
    bytes_per_param: float,
    kv_bytes_per_token: float,
    n_kv_heads: int,
    n_chips: int = 1,
) -> float:
    """Whole tokens of KV cache a tensor-parallel group holds.

    ⌊(memory − W/n) / (KV bytes per token / min(n, KV heads))⌋.

    Each chip keeps its share of the weights and, per token, its share of the KV heads (a full
    head once n passes the KV-head count), so a token costs each chip KV bytes / min(n, KV heads).
    ``memory_bytes`` is one chip's memory and ``kv_bytes_per_token`` the whole model's. At least 0;
    ignores activations, the framework's reserve and fragmentation.
    """
    per_chip_weights = weight_bytes_per_chip(
        n_params=n_params, bytes_per_param=bytes_per_param, n_chips=n_chips
    )
    free = step(
        "Memory left for KV cache per chip",
        "memory − weight bytes per chip",
        f"{qty(memory_bytes, 'B')} − {qty(per_chip_weights, 'B')}",
        max(0.0, memory_bytes - per_chip_weights),
        "B",
    )
    per_token = step(
        "KV bytes per token per chip",
        "KV bytes per token / min(chips, KV heads)",
        f"{qty(kv_bytes_per_token, 'B')} / min({num(n_chips)}, {num(n_kv_heads)})",
        kv_bytes_per_token / min(n_chips, n_kv_heads),
        "B",
    )
    # The unrounded quotient is the step before the floor: what a question's whole-count rule accepts too.
    unrounded = step(
        "KV-cache capacity, unrounded",
        "free bytes per chip / KV bytes per token per chip",
        f"{num(free)} / {num(per_token)}",
        free / per_token,
        "tokens",
    )
    return step(
        "KV-cache capacity",
        "⌊free bytes per chip / KV bytes per token per chip⌋",
        f"⌊{qty(unrounded, '')}⌋",
        math.floor(unrounded),
        "tokens",
    )
