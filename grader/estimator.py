"""Napkin math for LLM inference: every number the app teaches comes from here.

Pure functions, keyword-only arguments, SI units throughout: bytes, seconds, FLOP, FLOP/s,
bytes/s. A multiply-add counts as 2 FLOP. Peak FLOP/s means dense tensor-core throughput.

Each function records its worked steps through :func:`grader.derivation.step`, so the
derivation shown to a user is produced by the very lines that compute the answer.

The formulas follow the three readings of the topic: kipply's "Transformer Inference
Arithmetic" (KV cache, 2P FLOPs, latency floorlines), Horace He's "Making Deep Learning Go
Brrrr" (compute, bandwidth and overhead; fusion) and the JAX scaling book's "All About
Transformer Inference" (rooflines, the critical decode batch size).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from grader.derivation import num, step

#: Bytes per element of the number formats the drills use.
DTYPE_BYTES: dict[str, float] = {
    "fp32": 4.0,
    "tf32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": 0.5,
}


def dtype_bytes(*, dtype: str) -> float:
    """Bytes per element of ``dtype`` (one of :data:`DTYPE_BYTES`); raises ``ValueError`` otherwise."""
    try:
        return DTYPE_BYTES[dtype]
    except KeyError:
        known = ", ".join(DTYPE_BYTES)
        raise ValueError(f"unknown dtype {dtype!r}: use one of {known}") from None


# --- memory: KV cache and weights -------------------------------------------------------------


def kv_cache_bytes_per_token(
    *, n_layers: int, n_kv_heads: int, head_dim: int, bytes_per_element: float
) -> float:
    """KV-cache bytes one token adds: 2 · L · kv_heads · head_dim · bytes.

    The 2 is one K and one V vector per layer and KV head. Uses KV heads, not query heads, so
    grouped-query and multi-query attention shrink it. Ignores paging slack and any
    sliding-window cap on how many tokens are kept.
    """
    value = 2 * n_layers * n_kv_heads * head_dim * bytes_per_element
    return step(
        "KV-cache bytes per token",
        "2 (K and V) · layers · KV heads · head dim · bytes per element",
        f"2 · {num(n_layers)} · {num(n_kv_heads)} · {num(head_dim)} · {num(bytes_per_element)} B",
        value,
        "B",
    )


def kv_cache_bytes(
    *,
    n_layers: int,
    n_kv_heads: int,
    head_dim: int,
    bytes_per_element: float,
    seq_len: int,
    batch_size: int = 1,
) -> float:
    """KV-cache bytes for ``batch_size`` sequences of ``seq_len`` tokens: per-token bytes · seq_len · batch.

    Ignores paging slack, sliding windows and the cache's own metadata.
    """
    per_token = kv_cache_bytes_per_token(
        n_layers=n_layers,
        n_kv_heads=n_kv_heads,
        head_dim=head_dim,
        bytes_per_element=bytes_per_element,
    )
    value = per_token * seq_len * batch_size
    return step(
        "KV-cache bytes",
        "bytes per token · sequence length · batch size",
        f"{num(per_token)} B · {num(seq_len)} · {num(batch_size)}",
        value,
        "B",
    )


def weight_bytes(*, n_params: float, bytes_per_param: float) -> float:
    """Bytes of weights: P · bytes per parameter. Ignores quantisation scales and zero points."""
    value = n_params * bytes_per_param
    return step(
        "Weight bytes",
        "parameters · bytes per parameter",
        f"{num(n_params)} · {num(bytes_per_param)} B",
        value,
        "B",
    )


def _attention_params_per_layer(*, d_model: int, n_heads: int, n_kv_heads: int, head_dim: int) -> int:
    q_and_o = 2 * d_model * n_heads * head_dim
    k_and_v = 2 * d_model * n_kv_heads * head_dim
    return q_and_o + k_and_v


def _mlp_params_per_expert(*, d_model: int, d_ff: int, gated_mlp: bool) -> int:
    return (3 if gated_mlp else 2) * d_model * d_ff


def _count_params(
    *,
    n_layers: int,
    d_model: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    d_ff: int,
    vocab_size: int,
    gated_mlp: bool,
    tied_embeddings: bool,
    n_experts: int,
    experts_counted: int,
    norms_per_layer: int,
    label: str,
) -> float:
    embeddings = vocab_size * d_model * (1 if tied_embeddings else 2)
    attention = _attention_params_per_layer(
        d_model=d_model, n_heads=n_heads, n_kv_heads=n_kv_heads, head_dim=head_dim
    )
    mlp = experts_counted * _mlp_params_per_expert(d_model=d_model, d_ff=d_ff, gated_mlp=gated_mlp)
    # A mixture-of-experts layer also has a router: one d_model vector per expert.
    router = d_model * n_experts if n_experts > 1 else 0
    # RMSNorm weights: norms_per_layer per block plus the final norm.
    norms = d_model * (norms_per_layer * n_layers + 1)
    value = embeddings + n_layers * (attention + mlp + router) + norms
    mlp_formula = "3 · d · d_ff" if gated_mlp else "2 · d · d_ff"
    return step(
        label,
        f"vocab · d · ({'1' if tied_embeddings else '2'}) + layers · (attention + "
        f"{experts_counted} · {mlp_formula} + router) + norms",
        f"{num(vocab_size)} · {num(d_model)} · {1 if tied_embeddings else 2} + {num(n_layers)} · "
        f"({num(attention)} + {num(mlp)} + {num(router)}) + {num(norms)}",
        value,
        "",
    )


def transformer_params(
    *,
    n_layers: int,
    d_model: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    d_ff: int,
    vocab_size: int,
    gated_mlp: bool = True,
    tied_embeddings: bool = False,
    n_experts: int = 1,
    norms_per_layer: int = 2,
) -> float:
    """Total parameters of a decoder-only transformer.

    embeddings (vocab · d, doubled for an untied LM head)
    + layers · (q and o: 2 · d · heads · head_dim; k and v: 2 · d · kv_heads · head_dim;
    MLP per expert: 3 · d · d_ff gated or 2 · d · d_ff plain; router: d · experts when MoE)
    + RMSNorm weights (norms_per_layer · d per layer + d final).
    Ignores biases (qkv bias, LayerNorm bias) and positional tables: well under 1 % for the presets.
    """
    return _count_params(
        n_layers=n_layers,
        d_model=d_model,
        n_heads=n_heads,
        n_kv_heads=n_kv_heads,
        head_dim=head_dim,
        d_ff=d_ff,
        vocab_size=vocab_size,
        gated_mlp=gated_mlp,
        tied_embeddings=tied_embeddings,
        n_experts=n_experts,
        experts_counted=n_experts,
        norms_per_layer=norms_per_layer,
        label="Parameters",
    )


def active_params(
    *,
    n_layers: int,
    d_model: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    d_ff: int,
    vocab_size: int,
    gated_mlp: bool = True,
    tied_embeddings: bool = False,
    n_experts: int = 1,
    n_experts_active: int = 1,
    norms_per_layer: int = 2,
) -> float:
    """Parameters used per token: as :func:`transformer_params` with only ``n_experts_active`` experts' MLPs.

    For a dense model (``n_experts == 1``) this equals :func:`transformer_params`.
    """
    if n_experts_active > n_experts:
        raise ValueError(f"n_experts_active ({n_experts_active}) cannot exceed n_experts ({n_experts})")
    return _count_params(
        n_layers=n_layers,
        d_model=d_model,
        n_heads=n_heads,
        n_kv_heads=n_kv_heads,
        head_dim=head_dim,
        d_ff=d_ff,
        vocab_size=vocab_size,
        gated_mlp=gated_mlp,
        tied_embeddings=tied_embeddings,
        n_experts=n_experts,
        experts_counted=n_experts_active,
        norms_per_layer=norms_per_layer,
        label="Active parameters",
    )


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


# --- rooflines -----------------------------------------------------------------------------


def ridge_point(*, peak_flops: float, mem_bandwidth: float) -> float:
    """The ops:byte ratio (FLOP per byte) where the roofline bends: peak FLOP/s / bandwidth.

    Below it an operation is bandwidth-bound, above it compute-bound. Ignores overhead and
    cache effects.
    """
    value = peak_flops / mem_bandwidth
    return step(
        "Ops:byte ratio (ridge point)",
        "peak FLOP/s / memory bandwidth",
        f"{num(peak_flops)} FLOP/s / {num(mem_bandwidth)} B/s",
        value,
        "FLOP/B",
    )


def arithmetic_intensity_matmul(*, m: int, k: int, n: int, bytes_per_element: float) -> float:
    """FLOP per byte of an (m×k)·(k×n) matmul: 2mkn / (bytes · (mk + kn + mn)).

    Counts reading both inputs and writing the output once each: perfect on-chip reuse.
    """
    flops = 2 * m * k * n
    moved = bytes_per_element * (m * k + k * n + m * n)
    step(
        "Matmul FLOPs",
        "2 · m · k · n",
        f"2 · {num(m)} · {num(k)} · {num(n)}",
        flops,
        "FLOP",
    )
    step(
        "Matmul bytes moved",
        "bytes · (m·k + k·n + m·n)",
        f"{num(bytes_per_element)} · ({num(m * k)} + {num(k * n)} + {num(m * n)})",
        moved,
        "B",
    )
    return step(
        "Arithmetic intensity",
        "FLOPs / bytes",
        f"{num(flops)} / {num(moved)}",
        flops / moved,
        "FLOP/B",
    )


def arithmetic_intensity_elementwise(
    *, flops_per_element: float, bytes_per_element: float, n_inputs: int, n_outputs: int = 1
) -> float:
    """FLOP per byte of an element-wise op: flops / (bytes · (inputs + outputs)).

    Every input is read once and every output written once from main memory.
    """
    value = flops_per_element / (bytes_per_element * (n_inputs + n_outputs))
    return step(
        "Arithmetic intensity",
        "FLOPs per element / (bytes · (inputs + outputs))",
        f"{num(flops_per_element)} / ({num(bytes_per_element)} · ({num(n_inputs)} + {num(n_outputs)}))",
        value,
        "FLOP/B",
    )


def attainable_flops(*, arithmetic_intensity: float, peak_flops: float, mem_bandwidth: float) -> float:
    """The roofline: min(peak FLOP/s, intensity · bandwidth), in FLOP/s. Ignores overhead."""
    value = min(peak_flops, arithmetic_intensity * mem_bandwidth)
    return step(
        "Attainable FLOP/s",
        "min(peak, intensity · bandwidth)",
        f"min({num(peak_flops)}, {num(arithmetic_intensity)} · {num(mem_bandwidth)})",
        value,
        "FLOP/s",
    )


def memory_time(*, n_bytes: float, mem_bandwidth: float) -> float:
    """Seconds to move ``n_bytes`` at full bandwidth: bytes / bandwidth."""
    return step(
        "Memory time",
        "bytes / bandwidth",
        f"{num(n_bytes)} B / {num(mem_bandwidth)} B/s",
        n_bytes / mem_bandwidth,
        "s",
    )


def compute_time(*, flops: float, peak_flops: float) -> float:
    """Seconds to do ``flops`` at peak: FLOPs / peak FLOP/s."""
    return step(
        "Compute time",
        "FLOPs / peak FLOP/s",
        f"{num(flops)} FLOP / {num(peak_flops)} FLOP/s",
        flops / peak_flops,
        "s",
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
) -> tuple[float, float, float]:
    """(weight read time, KV read time, compute time) of one decode step, each recorded."""
    chip_bandwidth = n_chips * mem_bandwidth
    t_weights = memory_time(
        n_bytes=weight_bytes(n_params=n_params, bytes_per_param=bytes_per_param),
        mem_bandwidth=chip_bandwidth,
    )
    # Recorded only when there is a cache to read, so the batch-1 weight-read story stays short.
    t_kv = memory_time(n_bytes=kv_cache_bytes, mem_bandwidth=chip_bandwidth) if kv_cache_bytes else 0.0
    flops = flops_per_token(n_params=n_params) * batch_size
    step("FLOPs per step", "2 · P · batch", f"{num(2 * n_params)} · {num(batch_size)}", flops, "FLOP")
    t_compute = compute_time(flops=flops, peak_flops=n_chips * peak_flops)
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
    return step(
        "Decode step time",
        "max(memory time, compute time)",
        f"max({t_memory:.4g} s, {t_compute:.4g} s)",
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
) -> float:
    """One decode step with the KV read kept apart, in seconds (the scaling book's general step time).

    KV bytes / (chips · bandwidth) + max(P · bytes per param / (chips · bandwidth), 2 · P · batch /
    (chips · peak)). The weight matmuls overlap their reads with their FLOPs; attention reads the
    KV cache with next to no FLOPs, so that read is bandwidth-bound at any batch and adds on top.
    Equals :func:`decode_step_time` without a KV cache; never below it. Same assumptions otherwise.
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
    matmuls = f"max({t_weights:.4g} s, {t_compute:.4g} s)"
    return step(
        "Decode step time",
        "KV read time + max(weight read time, compute time)",
        f"{t_kv:.4g} s + {matmuls}",
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
        f"{num(flops)} / ({num(n_chips)} · {num(peak_flops)} · {num(mfu)})",
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
        f"{num(peak_flops)} · {num(bytes_per_param)} / (2 · {num(mem_bandwidth)})",
        peak_flops * bytes_per_param / (2 * mem_bandwidth),
        "",
    )


def tokens_per_second(*, step_time: float, batch_size: int = 1) -> float:
    """Generated tokens per second across the batch: batch / step time."""
    return step(
        "Throughput",
        "batch / step time",
        f"{num(batch_size)} / {step_time:.4g} s",
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
        f"{step_time:.4g} s · {num(n_tokens)}",
        step_time * n_tokens,
        "s",
    )


# --- capacity ------------------------------------------------------------------------------


def _whole_units_beside_weights(
    *, memory_bytes: float, weight_bytes: float, bytes_per_unit: float, label: str, per: str, unit: str
) -> float:
    """⌊(memory − weights) / bytes per unit⌋, at least 0, with both steps recorded."""
    free = step(
        "Memory left for KV cache",
        "memory − weights",
        f"{num(memory_bytes)} B − {num(weight_bytes)} B",
        max(0.0, memory_bytes - weight_bytes),
        "B",
    )
    return step(
        label,
        f"⌊free bytes / KV bytes per {per}⌋",
        f"⌊{num(free)} / {num(bytes_per_unit)}⌋",
        math.floor(free / bytes_per_unit),
        unit,
    )


def kv_capacity_tokens(*, memory_bytes: float, weight_bytes: float, kv_bytes_per_token: float) -> float:
    """Whole tokens of KV cache that fit beside the weights: ⌊(memory − weights) / KV bytes per token⌋.

    At least 0. Ignores activations, the framework's reserve and fragmentation.
    """
    return _whole_units_beside_weights(
        memory_bytes=memory_bytes,
        weight_bytes=weight_bytes,
        bytes_per_unit=kv_bytes_per_token,
        label="KV-cache capacity",
        per="token",
        unit="tokens",
    )


def max_batch_size(*, memory_bytes: float, weight_bytes: float, kv_bytes_per_sequence: float) -> float:
    """Whole sequences whose KV cache fits beside the weights: ⌊(memory − weights) / KV bytes per sequence⌋.

    At least 0. Ignores activations, the framework's reserve and fragmentation.
    """
    return _whole_units_beside_weights(
        memory_bytes=memory_bytes,
        weight_bytes=weight_bytes,
        bytes_per_unit=kv_bytes_per_sequence,
        label="Max batch size",
        per="sequence",
        unit="",
    )


# --- bandwidth, overhead and fusion --------------------------------------------------------


def elementwise_chain_bytes(
    *, n_elements: int, bytes_per_element: float, n_ops: int, fused: bool = False
) -> float:
    """Bytes moved by a chain of ``n_ops`` unary element-wise ops over ``n_elements``.

    Unfused, each op reads its input and writes its output: 2 · n_ops · N · bytes. Fused, the
    chain reads once and writes once: 2 · N · bytes, whatever n_ops is. That is why fusing two
    element-wise ops costs about the same as one.
    """
    passes = 1 if fused else n_ops
    value = 2 * passes * n_elements * bytes_per_element
    return step(
        "Bytes moved (fused)" if fused else "Bytes moved (unfused)",
        "2 (read + write) · passes · elements · bytes",
        f"2 · {num(passes)} · {num(n_elements)} · {num(bytes_per_element)} B",
        value,
        "B",
    )


def overhead_knee_bytes(*, overhead_s: float, mem_bandwidth: float) -> float:
    """Bytes an op must move before bandwidth, not per-op overhead, dominates: overhead · bandwidth.

    Below it time stays flat as the tensor grows (overhead-bound); above it time grows with bytes.
    """
    return step(
        "Overhead knee",
        "overhead per op · bandwidth",
        f"{overhead_s:.4g} s · {num(mem_bandwidth)} B/s",
        overhead_s * mem_bandwidth,
        "B",
    )


# --- rooflines with overhead; parity points ------------------------------------------------


def roofline_time(
    *, flops: float, n_bytes: float, peak_flops: float, mem_bandwidth: float, overhead_s: float = 0.0
) -> float:
    """Lower bound on one op's time, in seconds: max(overhead, FLOPs / peak, bytes / bandwidth).

    Whichever term is largest names the regime (overhead-, compute- or bandwidth-bound). Assumes
    compute and memory traffic overlap perfectly and that launches are asynchronous, so in a
    long stream of ops the per-op host overhead hides behind kernels longer than it. Ignores
    caches, tail effects and the first launch's latency.
    """
    t_compute = compute_time(flops=flops, peak_flops=peak_flops)
    t_memory = memory_time(n_bytes=n_bytes, mem_bandwidth=mem_bandwidth)
    return step(
        "Op time (roofline with overhead)",
        "max(overhead, compute time, memory time)",
        f"max({overhead_s:.4g} s, {t_compute:.4g} s, {t_memory:.4g} s)",
        max(overhead_s, t_compute, t_memory),
        "s",
    )


def flops_in_duration(*, duration_s: float, peak_flops: float) -> float:
    """FLOPs the chip could do at peak in ``duration_s`` seconds: duration · peak FLOP/s.

    What one per-op overhead costs in forgone work. Ignores that small ops never reach peak.
    """
    return step(
        "FLOPs forgone",
        "duration · peak FLOP/s",
        f"{duration_s:.4g} s · {num(peak_flops)} FLOP/s",
        duration_s * peak_flops,
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


def matmul_min_square_dim(*, peak_flops: float, mem_bandwidth: float, bytes_per_element: float) -> float:
    """Side n of the smallest square matmul that is compute-bound: 1.5 · bytes · peak / bandwidth.

    An n×n by n×n matmul does 2n³ FLOPs and moves bytes · 3n² (two inputs, one output), so its
    intensity is 2n / (3 · bytes); setting that equal to the ridge point gives n. Assumes perfect
    on-chip reuse; ignores tiling and wave-quantisation effects.
    """
    value = 1.5 * bytes_per_element * peak_flops / mem_bandwidth
    return step(
        "Smallest compute-bound square matmul",
        "1.5 · bytes per element · peak FLOP/s / bandwidth",
        f"1.5 · {num(bytes_per_element)} · {num(peak_flops)} FLOP/s / {num(mem_bandwidth)} B/s",
        value,
        "",
    )


def arithmetic_intensity(*, flops: float, n_bytes: float) -> float:
    """FLOP per byte of any kernel: FLOPs / bytes moved to and from main memory.

    Ignores caches: bytes are main-memory traffic, so reuse inside on-chip memory raises the intensity.
    """
    return step(
        "Arithmetic intensity",
        "FLOPs / bytes moved",
        f"{num(flops)} FLOP / {num(n_bytes)} B",
        flops / n_bytes,
        "FLOP/B",
    )


#: The functions a question template may name, by name. Only these can be called from YAML.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    fn.__name__: fn
    for fn in (
        dtype_bytes,
        kv_cache_bytes_per_token,
        kv_cache_bytes,
        weight_bytes,
        transformer_params,
        active_params,
        flops_per_token,
        attention_flops_per_token,
        ridge_point,
        arithmetic_intensity_matmul,
        arithmetic_intensity_elementwise,
        attainable_flops,
        memory_time,
        compute_time,
        decode_step_time,
        decode_step_time_general,
        prefill_time,
        decode_arithmetic_intensity,
        prefill_arithmetic_intensity,
        decode_critical_batch_size,
        tokens_per_second,
        generation_time,
        kv_capacity_tokens,
        max_batch_size,
        elementwise_chain_bytes,
        overhead_knee_bytes,
        roofline_time,
        flops_in_duration,
        attention_parity_context,
        matmul_min_square_dim,
        arithmetic_intensity,
    )
}
