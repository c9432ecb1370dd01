"""What each Explore figure should be: the estimator called directly, formula by formula, on a setup."""

from __future__ import annotations

from grader import estimator as est
from question_bank import load_hardware, load_models
from ui.explore.figures import Setup

MODELS, HARDWARE = load_models(), load_hardware()


def direct_figures(setup: Setup) -> dict[str, float]:
    m, g = MODELS[setup.model], HARDWARE[setup.gpu]
    w, kv = est.dtype_bytes(dtype=setup.weights), est.dtype_bytes(dtype=setup.kv)
    ctx = setup.prompt + setup.output
    per_token = 2 * m.n_layers * m.n_kv_heads * m.head_dim * kv
    tpot = est.time_per_output_token(
        n_params=m.n_params, bytes_per_param=w, mem_bandwidth=g.mem_bandwidth, peak_flops=g.peak_flops,
        batch_size=setup.batch, context_len=ctx, kv_bytes_per_token=per_token, n_chips=setup.chips,
    )  # fmt: skip
    tps = setup.batch / tpot
    out = {
        "weights_per_chip": m.n_params * w / setup.chips,
        "kv_per_token": per_token,
        "kv_per_sequence": per_token * ctx,
        "kv_capacity_tokens": est.tensor_parallel_kv_capacity_tokens(
            memory_bytes=g.memory_bytes, n_params=m.n_params, bytes_per_param=w,
            kv_bytes_per_token=per_token, n_kv_heads=m.n_kv_heads, n_chips=setup.chips,
        ),
        "kv_capacity_sequences": est.max_batch_at_context(
            memory_bytes=g.memory_bytes, n_params=m.n_params, bytes_per_param=w,
            kv_bytes_per_token=per_token, context_len=ctx, n_chips=setup.chips,
        ),
        "ttft": est.time_to_first_token(
            n_params=m.n_params, prompt_tokens=setup.prompt, peak_flops=g.peak_flops,
            mem_bandwidth=g.mem_bandwidth, bytes_per_param=w, batch_size=setup.batch,
            n_chips=setup.chips, mfu=setup.mfu,
        ),
        "tpot": tpot,
        "request_latency": est.request_latency(
            n_params=m.n_params, bytes_per_param=w, mem_bandwidth=g.mem_bandwidth, peak_flops=g.peak_flops,
            prompt_tokens=setup.prompt, output_tokens=setup.output, kv_bytes_per_token=per_token,
            batch_size=setup.batch, n_chips=setup.chips, mfu=setup.mfu,
        ),
        "tokens_per_s": tps,
        "tokens_per_s_per_chip": tps / setup.chips,
        "mbu": (m.n_params * w + setup.batch * ctx * per_token) / tpot / (g.mem_bandwidth * setup.chips),
        "mfu": 2 * m.n_params * tps / (g.peak_flops * setup.chips),
        "critical_batch": g.peak_flops * w / (2 * g.mem_bandwidth),
        "ridge": g.peak_flops / g.mem_bandwidth,
        "decode_intensity": 2 * setup.batch / w,
        "prefill_intensity": 2 * setup.prompt * setup.batch / w,
        "crossover_context": m.n_params * w / (setup.batch * per_token),
    }  # fmt: skip
    if setup.price_per_chip_hour is not None:
        out["cost_per_million"] = setup.price_per_chip_hour * setup.chips / 3600 / tps * 1e6
    return out
