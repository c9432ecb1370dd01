"""The cheat sheet's worked examples: which estimator formula, on which presets, for which checklist item.

Only the choice of setup lives here; the numbers are the presets' and every step and result is the
estimator's own, recorded as it computes (see :mod:`question_bank.cheat_sheet`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from grader import estimator as est
from question_bank.presets import Accelerator, ModelConfig

#: Presets the worked examples use: the topic's canonical setup (kipply's 13B on an A100).
EXAMPLE_MODEL = "llama2_13b"
EXAMPLE_GPU = "a100_40gb_sxm"
EXAMPLE_GPU_80GB = "a100_80gb_sxm"


@dataclass(frozen=True)
class Setups:
    """The presets the worked examples draw on."""

    model: ModelConfig
    gpu: Accelerator
    gpu80: Accelerator
    big: ModelConfig
    h100: Accelerator
    moe: ModelConfig

    @staticmethod
    def of(models: Mapping[str, ModelConfig], hardware: Mapping[str, Accelerator]) -> Setups:
        return Setups(
            model=models[EXAMPLE_MODEL],
            gpu=hardware[EXAMPLE_GPU],
            gpu80=hardware[EXAMPLE_GPU_80GB],
            big=models["llama3_70b"],
            h100=hardware["h100_sxm"],
            moe=models["mixtral_8x7b"],
        )

    def names(self) -> dict[str, str]:
        return {
            "model": self.model.name,
            "gpu": self.gpu.name,
            "gpu80": self.gpu80.name,
            "big": self.big.name,
            "h100": self.h100.name,
            "moe": self.moe.name,
        }


@dataclass(frozen=True)
class Example:
    name: str
    checklist: str
    setup: str
    kwargs: Callable[[Setups], dict[str, Any]]


def _kv_per_token(m: ModelConfig) -> float:
    return est.kv_cache_bytes_per_token(
        n_layers=m.n_layers, n_kv_heads=m.n_kv_heads, head_dim=m.head_dim, bytes_per_element=2
    )


# The worked examples: which formula, on which setup, for which checklist item. The numbers are
# the presets'; the steps and the result are the estimator's own.
EXAMPLES: tuple[Example, ...] = (
    Example(
        "roofline_time",
        "three-regimes",
        "copying a 1 GB tensor (1 GB read + 1 GB written, 0 FLOP) on an {gpu}, 10 µs launch overhead",
        lambda s: dict(
            flops=0.0,
            n_bytes=2e9,
            peak_flops=s.gpu.peak_flops,
            mem_bandwidth=s.gpu.mem_bandwidth,
            overhead_s=10e-6,
        ),
    ),
    Example(
        "arithmetic_intensity_elementwise",
        "arithmetic-intensity",
        "an fp32 add of two tensors (1 FLOP per element)",
        lambda s: dict(flops_per_element=1, bytes_per_element=4, n_inputs=2),
    ),
    Example(
        "arithmetic_intensity_matmul",
        "arithmetic-intensity",
        "a 4096³ bf16 matmul",
        lambda s: dict(m=4096, k=4096, n=4096, bytes_per_element=2),
    ),
    Example(
        "elementwise_chain_bytes",
        "fusion",
        "two unary ops over 2²⁸ bf16 elements, fused",
        lambda s: dict(n_elements=2**28, bytes_per_element=2, n_ops=2, fused=True),
    ),
    Example(
        "overhead_knee_bytes",
        "overhead-vs-bandwidth",
        "10 µs of per-op overhead on an {gpu}",
        lambda s: dict(overhead_s=10e-6, mem_bandwidth=s.gpu.mem_bandwidth),
    ),
    Example(
        "kv_cache_bytes_per_token",
        "kv-cache",
        "{model}, bf16",
        lambda s: dict(
            n_layers=s.model.n_layers,
            n_kv_heads=s.model.n_kv_heads,
            head_dim=s.model.head_dim,
            bytes_per_element=2,
        ),
    ),
    Example(
        "kv_capacity_tokens",
        "kv-cache",
        "{model} in bf16 on an {gpu80}",
        lambda s: dict(
            memory_bytes=s.gpu80.memory_bytes,
            weight_bytes=est.weight_bytes(n_params=s.model.n_params, bytes_per_param=2),
            kv_bytes_per_token=_kv_per_token(s.model),
        ),
    ),
    Example(
        "decode_step_time",
        "decode-weight-read",
        "{model} in bf16 on an {gpu}, batch 1",
        lambda s: dict(
            n_params=s.model.n_params,
            bytes_per_param=2,
            mem_bandwidth=s.gpu.mem_bandwidth,
            peak_flops=s.gpu.peak_flops,
        ),
    ),
    Example(
        "ridge_point",
        "ops-byte-threshold",
        "{gpu}, dense bf16",
        lambda s: dict(peak_flops=s.gpu.peak_flops, mem_bandwidth=s.gpu.mem_bandwidth),
    ),
    Example(
        "flops_per_token",
        "two-p-flops",
        "{model}",
        lambda s: dict(n_params=s.model.n_params),
    ),
    Example(
        "attention_flops_per_token",
        "two-p-flops",
        "{model} at 4,096 tokens of context (what 2P leaves out)",
        lambda s: dict(
            n_layers=s.model.n_layers, n_heads=s.model.n_heads, head_dim=s.model.head_dim, context_len=4096
        ),
    ),
    Example(
        "prefill_time",
        "prefill-vs-decode",
        "{model}, a 2,048-token prompt on an {gpu}",
        lambda s: dict(n_params=s.model.n_params, n_tokens=2048, peak_flops=s.gpu.peak_flops),
    ),
    Example(
        "decode_arithmetic_intensity",
        "prefill-vs-decode",
        "decode at batch 1, bf16 weights",
        lambda s: dict(batch_size=1, bytes_per_param=2),
    ),
    Example(
        "decode_critical_batch_size",
        "decode-batch-threshold",
        "{gpu}, bf16 weights",
        lambda s: dict(peak_flops=s.gpu.peak_flops, mem_bandwidth=s.gpu.mem_bandwidth, bytes_per_param=2),
    ),
    Example(
        "decode_critical_batch_size",
        "decode-batch-threshold",
        "{gpu}, int8 weights computed in bf16 (half the bytes, same peak)",
        lambda s: dict(peak_flops=s.gpu.peak_flops, mem_bandwidth=s.gpu.mem_bandwidth, bytes_per_param=1),
    ),
    Example(
        "time_to_first_token",
        "prefill-vs-decode",
        "{model} in bf16 on an {gpu}, a 2,048-token prompt",
        lambda s: dict(
            n_params=s.model.n_params,
            prompt_tokens=2048,
            peak_flops=s.gpu.peak_flops,
            mem_bandwidth=s.gpu.mem_bandwidth,
            bytes_per_param=2,
        ),
    ),
    Example(
        "time_per_output_token",
        "decode-weight-read",
        "{model} in bf16 on an {gpu80}, batch 8 at 4,096 tokens of context",
        lambda s: dict(
            n_params=s.model.n_params,
            bytes_per_param=2,
            mem_bandwidth=s.gpu80.mem_bandwidth,
            peak_flops=s.gpu80.peak_flops,
            batch_size=8,
            context_len=4096,
            kv_bytes_per_token=_kv_per_token(s.model),
        ),
    ),
    Example(
        "kv_weight_crossover_context",
        "kv-cache",
        "{model} in bf16, batch 1: the context where the KV read equals the weight read",
        lambda s: dict(
            weight_bytes=est.weight_bytes(n_params=s.model.n_params, bytes_per_param=2),
            kv_bytes_per_token=_kv_per_token(s.model),
        ),
    ),
    Example(
        "memory_bandwidth_utilization",
        "decode-weight-read",
        "{model} in bf16 measured at 45 tokens/s (batch 1) on an {gpu}",
        lambda s: dict(
            bytes_per_step=est.weight_bytes(n_params=s.model.n_params, bytes_per_param=2),
            steps_per_second=45,
            mem_bandwidth=s.gpu.mem_bandwidth,
        ),
    ),
    Example(
        "tensor_parallel_decode_step_time",
        "decode-weight-read",
        "{big} in bf16 on 8 × {h100} with tensor parallelism, batch 1",
        lambda s: dict(
            n_params=s.big.n_params,
            bytes_per_param=2,
            mem_bandwidth=s.h100.mem_bandwidth,
            peak_flops=s.h100.peak_flops,
            n_layers=s.big.n_layers,
            d_model=s.big.d_model,
            n_kv_heads=s.big.n_kv_heads,
            n_chips=8,
            link_bandwidth=s.h100.interconnect_bandwidth,
        ),
    ),
    Example(
        "experts_touched",
        "decode-weight-read",
        "{moe} (8 experts, 2 active) at batch 16",
        lambda s: dict(n_experts=s.moe.n_experts, n_experts_active=s.moe.n_experts_active, batch_size=16),
    ),
    Example(
        "speculative_tokens_per_step",
        "decode-weight-read",
        "4 draft tokens accepted with probability 0.8 each",
        lambda s: dict(acceptance_rate=0.8, n_draft=4),
    ),
    Example(
        "attention_hbm_bytes",
        "fusion",
        "standard attention, one {model} layer at 8,192 tokens, bf16",
        lambda s: dict(seq_len=8192, n_heads=s.model.n_heads, head_dim=s.model.head_dim, bytes_per_element=2),
    ),
    Example(
        "attention_hbm_bytes",
        "fusion",
        "FlashAttention (fused: the scores stay on chip), the same layer",
        lambda s: dict(
            seq_len=8192, n_heads=s.model.n_heads, head_dim=s.model.head_dim, bytes_per_element=2, flash=True
        ),
    ),
    Example(
        "paged_kv_waste_fraction",
        "kv-cache",
        "requests of 300, 1,200, 2,500 and 700 tokens in 16-token blocks",
        lambda s: dict(request_lengths=[300, 1200, 2500, 700], block_size=16),
    ),
    Example(
        "contiguous_kv_waste_fraction",
        "kv-cache",
        "the same requests each given a contiguous 4,096-token slot",
        lambda s: dict(request_lengths=[300, 1200, 2500, 700], max_seq_len=4096),
    ),
    Example(
        "quantization_decode_speedup",
        "decode-batch-threshold",
        "{model} on an {gpu}, batch 1: bf16 weights to int8",
        lambda s: dict(
            n_params=s.model.n_params,
            mem_bandwidth=s.gpu.mem_bandwidth,
            peak_flops=s.gpu.peak_flops,
            bytes_per_param=2,
            quantized_bytes_per_param=1,
        ),
    ),
)
