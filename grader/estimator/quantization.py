"""Quantization beyond the weights: what int8/int4 weights and an fp8/int8 KV cache do to decode.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
Decode reads every weight byte and every KV byte once per step, so fewer bytes per element make a
bandwidth-bound step faster in proportion, leave room for a bigger batch, and (weights only, with
bf16 compute) lower the critical batch: peak · bytes per param / (2 · bandwidth) is ridge/2 in
bf16, ridge/4 in int4 (:func:`grader.estimator.inference.decode_critical_batch_size`).
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step
from grader.estimator.latency import time_per_output_token
from grader.estimator.sizes import max_batch_size, weight_bytes


def max_batch_at_context(
    *,
    memory_bytes: float,
    n_params: float,
    bytes_per_param: float,
    kv_bytes_per_token: float,
    context_len: int,
    n_chips: int = 1,
) -> float:
    """Whole sequences of ``context_len`` tokens whose KV cache fits beside the weights.

    ⌊(chips · memory − P · bytes) / (context · KV bytes per token)⌋, via
    :func:`grader.estimator.sizes.max_batch_size` with all the chips' memory.

    At least 0. Halving the KV bytes (fp8 KV) doubles the room per sequence; quantizing the
    weights frees memory for more sequences. Assumes the KV cache shards evenly over the chips
    (no replication past the KV-head count; see
    :func:`grader.estimator.parallelism.tensor_parallel_kv_capacity_tokens`); ignores activations and the
    framework's reserve.
    """
    per_sequence = step(
        "KV bytes per sequence",
        "context · KV bytes per token",
        f"{num(context_len)} · {qty(kv_bytes_per_token, 'B')}",
        context_len * kv_bytes_per_token,
        "B",
    )
    return max_batch_size(
        memory_bytes=n_chips * memory_bytes,
        weight_bytes=weight_bytes(n_params=n_params, bytes_per_param=bytes_per_param),
        kv_bytes_per_sequence=per_sequence,
    )


def quantization_decode_speedup(
    *,
    n_params: float,
    mem_bandwidth: float,
    peak_flops: float,
    bytes_per_param: float,
    quantized_bytes_per_param: float,
    kv_bytes_per_token: float = 0.0,
    quantized_kv_bytes_per_token: float = 0.0,
    batch_size: int = 1,
    context_len: int = 0,
    n_chips: int = 1,
) -> float:
    """Time per output token before quantizing over after.

    TPOT(bytes, KV bytes) / TPOT(quantized bytes, quantized KV bytes).

    Both from :func:`grader.estimator.latency.time_per_output_token` at the same batch and context. At
    batch 1 and short context it approaches the weight-byte ratio (bf16 → int4: 4×); with long
    context only the KV cache's share moves with the KV format. Compute stays bf16, so once the
    quantized step is compute-bound the gain stops. Ignores dequantization cost.
    """
    before = time_per_output_token(
        n_params=n_params,
        bytes_per_param=bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        batch_size=batch_size,
        context_len=context_len,
        kv_bytes_per_token=kv_bytes_per_token,
        n_chips=n_chips,
    )
    after = time_per_output_token(
        n_params=n_params,
        bytes_per_param=quantized_bytes_per_param,
        mem_bandwidth=mem_bandwidth,
        peak_flops=peak_flops,
        batch_size=batch_size,
        context_len=context_len,
        kv_bytes_per_token=quantized_kv_bytes_per_token,
        n_chips=n_chips,
    )
    return step(
        "Speed-up", "TPOT before / TPOT after", f"{qty(before, 's')} / {qty(after, 's')}", before / after, ""
    )
