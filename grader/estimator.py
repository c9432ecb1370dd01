"""Napkin math for LLM inference: every number the app teaches comes from here.

Pure functions, keyword-only arguments, SI units throughout: bytes, seconds, FLOP, FLOP/s,
bytes/s. A multiply-add counts as 2 FLOP. Peak FLOP/s means dense tensor-core throughput.

Each function records its worked steps through :func:`grader.derivation.step`, so the
derivation shown to a user is produced by the very lines that compute the answer.

The formulas follow the three readings of the topic: kipply's "Transformer Inference
Arithmetic" (KV cache, 2P FLOPs, latency floorlines), Horace He's "Making Deep Learning Go
Brrrr" (compute, bandwidth and overhead; fusion) and the JAX scaling book's "All About
Transformer Inference" (rooflines, the critical decode batch size).

The functions live in three modules by subject, :mod:`grader.sizes` (bytes and counts),
:mod:`grader.rooflines` (intensity, times, overhead, fusion) and :mod:`grader.inference`
(FLOPs per token, prefill and decode); this module is their one public face and holds the
registry of names a question template may call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grader.inference import (
    attention_flops_per_token,
    attention_parity_context,
    decode_arithmetic_intensity,
    decode_critical_batch_size,
    decode_step_time,
    decode_step_time_general,
    flops_per_token,
    generation_time,
    prefill_arithmetic_intensity,
    prefill_time,
    tokens_per_second,
)
from grader.rooflines import (
    arithmetic_intensity,
    arithmetic_intensity_elementwise,
    arithmetic_intensity_matmul,
    attainable_flops,
    compute_time,
    elementwise_chain_bytes,
    flops_in_duration,
    matmul_min_square_dim,
    memory_time,
    overhead_knee_bytes,
    ridge_point,
    roofline_time,
)
from grader.sharding import bytes_per_chip
from grader.sizes import (
    DTYPE_BYTES,
    active_params,
    dtype_bytes,
    kv_cache_bytes,
    kv_cache_bytes_per_token,
    kv_capacity_tokens,
    max_batch_size,
    transformer_params,
    weight_bytes,
)

__all__ = [
    "DTYPE_BYTES",
    "FUNCTIONS",
    "active_params",
    "arithmetic_intensity",
    "arithmetic_intensity_elementwise",
    "arithmetic_intensity_matmul",
    "attainable_flops",
    "attention_flops_per_token",
    "attention_parity_context",
    "bytes_per_chip",
    "compute_time",
    "decode_arithmetic_intensity",
    "decode_critical_batch_size",
    "decode_step_time",
    "decode_step_time_general",
    "dtype_bytes",
    "elementwise_chain_bytes",
    "flops_in_duration",
    "flops_per_token",
    "generation_time",
    "kv_cache_bytes",
    "kv_cache_bytes_per_token",
    "kv_capacity_tokens",
    "matmul_min_square_dim",
    "max_batch_size",
    "memory_time",
    "overhead_knee_bytes",
    "prefill_arithmetic_intensity",
    "prefill_time",
    "ridge_point",
    "roofline_time",
    "tokens_per_second",
    "transformer_params",
    "weight_bytes",
]

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
        bytes_per_chip,
    )
}
