"""Napkin math for LLM inference: every number the app teaches comes from here.

Pure functions, keyword-only arguments, SI units throughout: bytes, seconds, FLOP, FLOP/s,
bytes/s. A multiply-add counts as 2 FLOP. Peak FLOP/s means dense tensor-core throughput.

Each function records its worked steps through :func:`grader.estimator.derivation.step`, so the
derivation shown to a user is produced by the very lines that compute the answer.

The formulas follow the three readings of the topic: kipply's "Transformer Inference
Arithmetic" (KV cache, 2P FLOPs, latency floorlines), Horace He's "Making Deep Learning Go
Brrrr" (compute, bandwidth and overhead; fusion) and the JAX scaling book's "All About
Transformer Inference" (rooflines, the critical decode batch size).

The functions live in modules by subject in this package: :mod:`.sizes` (bytes and counts),
:mod:`.rooflines` (intensity, times, overhead, fusion), :mod:`.inference` (FLOPs per token, prefill
and decode), :mod:`.latency` (TTFT, TPOT, request latency, MBU and MFU), :mod:`.parallelism`
(all-reduce, tensor parallelism), :mod:`.moe`, :mod:`.speculative`, :mod:`.attention` (standard vs
FlashAttention traffic), :mod:`.paging` (paged KV cache), :mod:`.quantization`, the serving
follow-ups (:mod:`.serving`, :mod:`.long_prompt`, :mod:`.kv_layouts`, :mod:`.parallel_choices`,
:mod:`.speculative_batch`, :mod:`.memory_budget`), one layer's operations (:mod:`.layer_ops`) and the
conventions a question accepts beside its own (:mod:`.conventions`). :mod:`.derivation` records the
worked steps and :mod:`.numbers` prints figures. This module is their one
public face and holds the registry of names a question template may call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grader.estimator.attention import (
    attention_hbm_bytes,
    attention_scores_bytes,
)
from grader.estimator.conventions import binary_capacity_bytes, params_read_per_decode_step
from grader.estimator.inference import (
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
from grader.estimator.kv_layouts import (
    mla_kv_bytes_per_token,
    prefix_cache_bytes_saved,
    sliding_window_kv_bytes,
)
from grader.estimator.latency import (
    kv_bytes_read_per_step,
    kv_weight_crossover_context,
    memory_bandwidth_utilization,
    model_flops_utilization,
    relative_margin,
    request_latency,
    time_per_output_token,
    time_to_first_token,
)
from grader.estimator.long_prompt import (
    prefill_attention_flops,
    prefill_attention_parity_tokens,
    prefill_flops_with_attention,
)
from grader.estimator.memory_budget import kv_cache_budget_bytes
from grader.estimator.moe import (
    experts_touched,
    experts_touched_without_overlap,
    moe_decode_step_time,
    moe_decode_weight_bytes,
)
from grader.estimator.paging import (
    contiguous_kv_requests_fit,
    contiguous_kv_reserved_bytes,
    contiguous_kv_waste_fraction,
    paged_kv_extra_requests,
    paged_kv_requests_fit,
    paged_kv_reserved_bytes,
    paged_kv_waste_fraction,
)
from grader.estimator.parallel_choices import expert_parallel_alltoall_bytes, pipeline_bubble_fraction
from grader.estimator.parallelism import (
    activation_bytes_per_layer,
    allreduce_time,
    kv_bytes_per_chip,
    tensor_parallel_comm_time,
    tensor_parallel_decode_step_time,
    tensor_parallel_kv_capacity_tokens,
    weight_bytes_per_chip,
)
from grader.estimator.quantization import (
    max_batch_at_context,
    quantization_decode_speedup,
)
from grader.estimator.rooflines import (
    arithmetic_intensity,
    arithmetic_intensity_elementwise,
    arithmetic_intensity_matmul,
    attainable_flops,
    attainable_flops_other_roof,
    compute_time,
    elementwise_chain_bytes,
    flops_in_duration,
    matmul_min_square_dim,
    memory_time,
    overhead_knee_bytes,
    ridge_point,
    roofline_time,
    roofline_time_other_regime,
)
from grader.estimator.serving import (
    chunked_prefill_step_time,
    cost_per_million_tokens,
    max_batch_under_tpot_target,
    requests_in_flight,
)
from grader.estimator.sizes import (
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
from grader.estimator.speculative import (
    speculative_speedup,
    speculative_speedup_from_tokens,
    speculative_tokens_per_step,
    speculative_tokens_without_chain,
)
from grader.estimator.speculative_batch import speculative_speedup_at_batch, speculative_verify_step_time

__all__ = [
    "DTYPE_BYTES",
    "FUNCTIONS",
    "KV_READ_OVERLAPPED",
    "WHOLE_COUNTS",
    "activation_bytes_per_layer",
    "active_params",
    "allreduce_time",
    "arithmetic_intensity",
    "arithmetic_intensity_elementwise",
    "arithmetic_intensity_matmul",
    "attainable_flops",
    "attainable_flops_other_roof",
    "attention_flops_per_token",
    "attention_hbm_bytes",
    "attention_parity_context",
    "attention_scores_bytes",
    "binary_capacity_bytes",
    "chunked_prefill_step_time",
    "compute_time",
    "contiguous_kv_requests_fit",
    "contiguous_kv_reserved_bytes",
    "contiguous_kv_waste_fraction",
    "cost_per_million_tokens",
    "decode_arithmetic_intensity",
    "decode_critical_batch_size",
    "decode_step_time",
    "decode_step_time_general",
    "dtype_bytes",
    "elementwise_chain_bytes",
    "expert_parallel_alltoall_bytes",
    "experts_touched",
    "experts_touched_without_overlap",
    "flops_in_duration",
    "flops_per_token",
    "generation_time",
    "kv_bytes_per_chip",
    "kv_bytes_read_per_step",
    "kv_cache_budget_bytes",
    "kv_cache_bytes",
    "kv_cache_bytes_per_token",
    "kv_capacity_tokens",
    "kv_weight_crossover_context",
    "matmul_min_square_dim",
    "max_batch_at_context",
    "max_batch_size",
    "max_batch_under_tpot_target",
    "memory_bandwidth_utilization",
    "memory_time",
    "mla_kv_bytes_per_token",
    "model_flops_utilization",
    "moe_decode_step_time",
    "moe_decode_weight_bytes",
    "overhead_knee_bytes",
    "paged_kv_extra_requests",
    "paged_kv_requests_fit",
    "paged_kv_reserved_bytes",
    "paged_kv_waste_fraction",
    "params_read_per_decode_step",
    "pipeline_bubble_fraction",
    "prefill_arithmetic_intensity",
    "prefill_attention_flops",
    "prefill_attention_parity_tokens",
    "prefill_flops_with_attention",
    "prefill_time",
    "prefix_cache_bytes_saved",
    "quantization_decode_speedup",
    "relative_margin",
    "request_latency",
    "requests_in_flight",
    "ridge_point",
    "roofline_time",
    "roofline_time_other_regime",
    "sliding_window_kv_bytes",
    "speculative_speedup",
    "speculative_speedup_at_batch",
    "speculative_speedup_from_tokens",
    "speculative_tokens_per_step",
    "speculative_tokens_without_chain",
    "speculative_verify_step_time",
    "tensor_parallel_comm_time",
    "tensor_parallel_decode_step_time",
    "tensor_parallel_kv_capacity_tokens",
    "time_per_output_token",
    "time_to_first_token",
    "tokens_per_second",
    "transformer_params",
    "weight_bytes",
    "weight_bytes_per_chip",
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
        # Serving follow-ups: latency, utilisation, parallelism, MoE, speculative decoding,
        # attention traffic, paged KV and quantization.
        time_to_first_token,
        time_per_output_token,
        kv_bytes_read_per_step,
        request_latency,
        kv_weight_crossover_context,
        memory_bandwidth_utilization,
        model_flops_utilization,
        relative_margin,
        allreduce_time,
        activation_bytes_per_layer,
        tensor_parallel_comm_time,
        kv_bytes_per_chip,
        weight_bytes_per_chip,
        tensor_parallel_kv_capacity_tokens,
        tensor_parallel_decode_step_time,
        experts_touched,
        moe_decode_weight_bytes,
        moe_decode_step_time,
        speculative_tokens_per_step,
        speculative_speedup,
        speculative_speedup_from_tokens,
        attention_hbm_bytes,
        attention_scores_bytes,
        contiguous_kv_reserved_bytes,
        paged_kv_reserved_bytes,
        contiguous_kv_waste_fraction,
        paged_kv_waste_fraction,
        contiguous_kv_requests_fit,
        paged_kv_requests_fit,
        paged_kv_extra_requests,
        max_batch_at_context,
        quantization_decode_speedup,
        # Interviewers' next questions: serving cost and batch, long prompts, KV layouts, parallelism.
        chunked_prefill_step_time,
        cost_per_million_tokens,
        expert_parallel_alltoall_bytes,
        kv_cache_budget_bytes,
        max_batch_under_tpot_target,
        mla_kv_bytes_per_token,
        pipeline_bubble_fraction,
        prefill_attention_flops,
        prefill_attention_parity_tokens,
        prefill_flops_with_attention,
        prefix_cache_bytes_saved,
        requests_in_flight,
        sliding_window_kv_bytes,
        speculative_speedup_at_batch,
        speculative_verify_step_time,
        # Slip variants: what a candidate who makes the slip a question tests computes.
        experts_touched_without_overlap,
        speculative_tokens_without_chain,
        roofline_time_other_regime,
        attainable_flops_other_roof,
        # Conventions a question accepts beside its own (see grader.estimator.conventions).
        params_read_per_decode_step,
        binary_capacity_bytes,
    )
}

#: The functions whose result is a count of whole things (they round down): a question asking one takes
#: the whole-count rule (``whole: true``), in a scenario step as in a single problem.
WHOLE_COUNTS = frozenset(
    fn.__name__
    for fn in (
        kv_capacity_tokens,
        max_batch_size,
        max_batch_at_context,
        tensor_parallel_kv_capacity_tokens,
        contiguous_kv_requests_fit,
        paged_kv_requests_fit,
        max_batch_under_tpot_target,
    )
)

#: The decode-step functions whose formula hides the KV read under the matmuls' FLOPs (max((W + KV) / BW,
#: compute)), each with the keyword that carries the KV bytes. The scaling book's step adds the KV read on
#: top (KV / BW + max(W / BW, compute)): attention's read has no matmul FLOPs to overlap, so a question may
#: use these with a KV cache only where its prompt says the KV read overlaps the FLOPs.
KV_READ_OVERLAPPED = {decode_step_time.__name__: "kv_cache_bytes"}
