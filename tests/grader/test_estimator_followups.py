"""The interviewers' follow-up formulas against the published figures they come from: DeepSeek-V2/V3's
KV per token, GPipe's bubble, Little's law, Sarathi-Serve's mixed batch, vLLM's memory accounting; a
hand derivation where no source works the number."""

from __future__ import annotations

import inspect

import pytest

from grader import estimator as est
from grader.estimator.derivation import recording

H100_PEAK, H100_BW = 989e12, 3.35e12
LLAMA_8B = 8.03e9
LLAMA_8B_KV = 131_072  # 32 layers · 8 KV heads · 128 · 2 (K, V) · 2 B


def test_deepseek_v3_mla_kv_is_70272_bytes_per_token_in_bf16() -> None:
    # 61 layers · (kv_lora_rank 512 + qk_rope_head_dim 64) · 2 B (DeepSeek-V3 config.json).
    assert (
        est.mla_kv_bytes_per_token(n_layers=61, kv_lora_rank=512, rope_head_dim=64, bytes_per_element=2)
        == 70_272
    )


def test_deepseek_v2_mla_equals_gqa_with_2_25_groups() -> None:
    # DeepSeek-V2, Table 1: (d_c + d_h^R) · l = 9/2 · d_h · l, "equal to GQA with only 2.25 groups".
    mla = est.mla_kv_bytes_per_token(n_layers=60, kv_lora_rank=512, rope_head_dim=64, bytes_per_element=1)
    gqa = est.kv_cache_bytes_per_token(n_layers=60, n_kv_heads=2.25, head_dim=128, bytes_per_element=1)
    assert mla == pytest.approx(gqa)


@pytest.mark.parametrize(
    ("stages", "microbatches", "expected"), [(4, 16, 3 / 19), (4, 1, 3 / 4), (1, 8, 0.0), (8, 32, 7 / 39)]
)
def test_gpipe_bubble(stages: int, microbatches: int, expected: float) -> None:
    # GPipe: bubble O((K − 1)/(M + K − 1)); one stage has none; one microbatch idles all but one stage.
    assert est.pipeline_bubble_fraction(n_stages=stages, n_microbatches=microbatches) == pytest.approx(
        expected
    )


def test_gpipe_rule_of_thumb_m_at_4p_keeps_the_bubble_under_a_fifth() -> None:
    # "the bubble overhead is negligible when M ≥ 4 × K": at M = 4K it is (K − 1)/(5K − 1) < 20 %.
    for stages in (2, 4, 8, 16, 64):
        assert est.pipeline_bubble_fraction(n_stages=stages, n_microbatches=4 * stages) < 0.2


def test_littles_law() -> None:
    # 10 requests/s, each in the system 8 s: 80 in flight.
    assert est.requests_in_flight(arrival_rate_per_s=10, latency_s=8) == pytest.approx(80)


def test_cost_per_million_tokens_hand_case() -> None:
    # 8 chips at 2.50 an hour is 20/h = 0.005556/s; at 2,000 tokens/s, 2.778e-6 per token, 2.78 per million.
    cost = est.cost_per_million_tokens(price_per_chip_hour=2.5, n_chips=8, tokens_per_s=2000)
    assert cost == pytest.approx(20 / 3600 / 2000 * 1e6)
    assert cost == pytest.approx(2.778, abs=1e-3)


def test_a_full_batch_makes_tokens_cheaper_in_proportion_to_throughput() -> None:
    one = est.cost_per_million_tokens(price_per_chip_hour=3, n_chips=1, tokens_per_s=50)
    full = est.cost_per_million_tokens(price_per_chip_hour=3, n_chips=1, tokens_per_s=5000)
    assert one / full == pytest.approx(100)


def tpot(batch: int, context: int = 4096) -> float:
    return est.time_per_output_token(
        n_params=LLAMA_8B, bytes_per_param=2, mem_bandwidth=H100_BW, peak_flops=H100_PEAK,
        batch_size=batch, context_len=context, kv_bytes_per_token=LLAMA_8B_KV,
    )  # fmt: skip


@pytest.mark.parametrize("target", [6e-3, 8e-3, 15e-3, 30e-3])
def test_max_batch_under_tpot_target_is_the_last_batch_that_meets_it(target: float) -> None:
    batch = est.max_batch_under_tpot_target(
        tpot_target_s=target, n_params=LLAMA_8B, bytes_per_param=2, mem_bandwidth=H100_BW,
        peak_flops=H100_PEAK, context_len=4096, kv_bytes_per_token=LLAMA_8B_KV,
    )  # fmt: skip
    assert batch >= 1
    assert tpot(int(batch)) <= target < tpot(int(batch) + 1)


def test_max_batch_hand_case_and_memory_cap() -> None:
    # Hand: (10 ms · 3.35 TB/s − 16.06 GB) / (4096 · 131,072 B) = (33.5 − 16.06) GB / 536.9 MB = 32.48 → 32.
    kwargs = {
        "tpot_target_s": 10e-3, "n_params": LLAMA_8B, "bytes_per_param": 2, "mem_bandwidth": H100_BW,
        "peak_flops": H100_PEAK, "context_len": 4096, "kv_bytes_per_token": LLAMA_8B_KV,
    }  # fmt: skip
    assert est.max_batch_under_tpot_target(**kwargs) == 32
    # 30 GB leaves (30 − 16.06) GB / 536.9 MB = 25.96 sequences: memory binds first.
    assert est.max_batch_under_tpot_target(**kwargs, memory_bytes=30e9) == 25


def test_no_batch_meets_a_target_below_the_weight_read() -> None:
    # 16 GB of weights at 3.35 TB/s take 4.8 ms: a 4 ms target admits no batch at all.
    batch = est.max_batch_under_tpot_target(
        tpot_target_s=4e-3, n_params=LLAMA_8B, bytes_per_param=2, mem_bandwidth=H100_BW, peak_flops=H100_PEAK
    )
    assert batch == 0


def test_compute_bounds_the_batch_without_a_kv_cache() -> None:
    # Hand: 20 ms · 989 TFLOP/s / (2 · 8.03 G) = 1,231.6 → 1,231.
    batch = est.max_batch_under_tpot_target(
        tpot_target_s=20e-3, n_params=LLAMA_8B, bytes_per_param=2, mem_bandwidth=H100_BW, peak_flops=H100_PEAK
    )
    assert batch == 1231


def test_chunked_prefill_step_carries_the_decodes_in_one_weight_read() -> None:
    # Sarathi-Serve: a decode-only batch is bandwidth-bound; adding a chunk costs nothing until the
    # step's tokens reach the critical batch (here 989e12 · 2 / (2 · 3.35e12) = 295 tokens).
    common = {
        "n_params": LLAMA_8B, "bytes_per_param": 2, "mem_bandwidth": H100_BW, "peak_flops": H100_PEAK,
        "decode_batch": 32,
    }  # fmt: skip
    decode_only = est.chunked_prefill_step_time(**common, chunk_tokens=0)
    small_chunk = est.chunked_prefill_step_time(**common, chunk_tokens=256)
    big_chunk = est.chunked_prefill_step_time(**common, chunk_tokens=2048)
    assert small_chunk == pytest.approx(decode_only)
    assert big_chunk == pytest.approx(2 * LLAMA_8B * (2048 + 32) / H100_PEAK)
    assert big_chunk > 5 * decode_only


def test_prefill_flops_with_attention_and_its_parity_prompt() -> None:
    # Llama-3.1-8B: 32 layers, 32 query heads of 128.
    # Parity at P / (L · h · d) = 8.03e9 / 131,072 = 61,264 tokens.
    parity = est.prefill_attention_parity_tokens(n_params=LLAMA_8B, n_layers=32, n_heads=32, head_dim=128)
    assert parity == pytest.approx(61_264, abs=1)
    total = est.prefill_flops_with_attention(
        n_params=LLAMA_8B, n_layers=32, n_heads=32, head_dim=128, prompt_tokens=round(parity)
    )
    assert total == pytest.approx(2 * (2 * LLAMA_8B * parity), rel=1e-4)
    # Twice the per-token parity context: a prompt's tokens see half the prompt on average.
    per_token = est.attention_parity_context(n_params=LLAMA_8B, n_layers=32, n_heads=32, head_dim=128)
    assert parity == pytest.approx(2 * per_token)


def test_prefix_cache_saves_all_but_one_copy() -> None:
    # 2,000-token system prompt, 131,072 B/token, 100 requests: 99 · 262.1 MB = 25.95 GB.
    saved = est.prefix_cache_bytes_saved(prefix_tokens=2000, kv_bytes_per_token=LLAMA_8B_KV, n_requests=100)
    assert saved == pytest.approx(99 * 2000 * LLAMA_8B_KV)
    assert est.prefix_cache_bytes_saved(prefix_tokens=2000, kv_bytes_per_token=LLAMA_8B_KV, n_requests=1) == 0


def test_sliding_window_caps_the_cache() -> None:
    # Mistral-7B-v0.1: 32 layers, 8 KV heads of 128, window 4,096. At 16k tokens the cache is that of 4,096.
    mistral = {"n_layers": 32, "n_local_layers": 32, "n_kv_heads": 8, "head_dim": 128, "bytes_per_element": 2}
    capped = est.sliding_window_kv_bytes(**mistral, context_tokens=16_384, window_tokens=4096)
    full = est.kv_cache_bytes(n_layers=32, n_kv_heads=8, head_dim=128, bytes_per_element=2, seq_len=4096)
    assert capped == pytest.approx(full)
    # Gemma-2 style, half local: at 4·W the cache is (4 + 1)/8 of a full one.
    half = est.sliding_window_kv_bytes(
        **{**mistral, "n_local_layers": 16}, context_tokens=16_384, window_tokens=4096
    )
    assert half == pytest.approx(full * 4 * 5 / 8)


def test_expert_parallel_alltoall_hand_case() -> None:
    # DeepSeek-V3: d 7,168, 8 routed experts per token, bf16, EP over 8 chips, 256 tokens:
    # 2 · 256 · 8 · 7,168 · 2 · 7/8 = 51.38 MB per layer.
    sent = est.expert_parallel_alltoall_bytes(
        n_tokens=256, d_model=7168, n_experts_active=8, bytes_per_element=2, n_chips=8
    )
    assert sent == pytest.approx(2 * 256 * 8 * 7168 * 2 * 7 / 8)
    assert (
        est.expert_parallel_alltoall_bytes(
            n_tokens=256, d_model=7168, n_experts_active=8, bytes_per_element=2, n_chips=1
        )
        == 0
    )


def test_vllm_style_kv_budget() -> None:
    # 80 GB at 0.9 utilization, 16.06 GB weights, 2 GB activations, 1 GB graphs: 72 − 19.06 = 52.94 GB.
    budget = est.kv_cache_budget_bytes(
        memory_bytes=80e9,
        memory_utilization=0.9,
        weight_bytes=16.06e9,
        activation_bytes=2e9,
        cuda_graph_bytes=1e9,
    )
    assert budget == pytest.approx(52.94e9)
    assert est.kv_cache_budget_bytes(memory_bytes=16e9, memory_utilization=0.9, weight_bytes=16.06e9) == 0


def spec(batch: int) -> float:
    return est.speculative_speedup_at_batch(
        n_params=LLAMA_8B, bytes_per_param=2, mem_bandwidth=H100_BW, peak_flops=H100_PEAK,
        batch_size=batch, acceptance_rate=0.8, n_draft=4, draft_cost_ratio=0.05,
    )  # fmt: skip


def test_speculative_speedup_at_batch_1_matches_leviathan() -> None:
    assert spec(1) == pytest.approx(
        est.speculative_speedup(acceptance_rate=0.8, n_draft=4, draft_cost_ratio=0.05)
    )


def test_speculation_loses_past_the_critical_batch() -> None:
    # Past B* = 295 the verify of 5 tokens per sequence costs 5 decode steps: 3.36 tokens / 5.2 steps < 1.
    assert spec(512) < 1 < spec(16)
    verify = est.speculative_verify_step_time(
        n_params=LLAMA_8B,
        bytes_per_param=2,
        mem_bandwidth=H100_BW,
        peak_flops=H100_PEAK,
        batch_size=512,
        n_draft=4,
    )
    assert verify == pytest.approx(2 * LLAMA_8B * 512 * 5 / H100_PEAK)


CONTRACTS = {
    "cost_per_million_tokens": "price_per_chip_hour n_chips tokens_per_s",
    "requests_in_flight": "arrival_rate_per_s latency_s",
    "pipeline_bubble_fraction": "n_stages n_microbatches",
    "prefix_cache_bytes_saved": "prefix_tokens kv_bytes_per_token n_requests",
    "mla_kv_bytes_per_token": "n_layers kv_lora_rank rope_head_dim bytes_per_element",
    "expert_parallel_alltoall_bytes": "n_tokens d_model n_experts_active bytes_per_element n_chips",
}


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_the_published_names_and_keywords_hold(name: str) -> None:
    parameters = inspect.signature(est.FUNCTIONS[name]).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters)
    assert " ".join(p.name for p in parameters) == CONTRACTS[name]


def test_max_batch_under_tpot_target_takes_tpot_arguments_and_memory() -> None:
    own = set(inspect.signature(est.max_batch_under_tpot_target).parameters)
    tpot_args = set(inspect.signature(est.time_per_output_token).parameters) - {"batch_size"}
    assert own == tpot_args | {"tpot_target_s", "memory_bytes"}
    assert "max_batch_under_tpot_target" in est.WHOLE_COUNTS


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("cost_per_million_tokens", {"price_per_chip_hour": 2.0, "n_chips": 8, "tokens_per_s": 1000}),
        ("mla_kv_bytes_per_token", {"n_layers": 61, "kv_lora_rank": 512, "rope_head_dim": 64,
                                    "bytes_per_element": 2}),
        ("pipeline_bubble_fraction", {"n_stages": 4, "n_microbatches": 8}),
        ("prefix_cache_bytes_saved", {"prefix_tokens": 100, "kv_bytes_per_token": 1000, "n_requests": 5}),
        ("requests_in_flight", {"arrival_rate_per_s": 3, "latency_s": 2}),
        ("prefill_flops_with_attention", {"n_params": 8e9, "n_layers": 32, "n_heads": 32, "head_dim": 128,
                                          "prompt_tokens": 1000}),
        ("expert_parallel_alltoall_bytes", {"n_tokens": 64, "d_model": 7168, "n_experts_active": 8,
                                            "bytes_per_element": 2, "n_chips": 8}),
        ("kv_cache_budget_bytes", {"memory_bytes": 80e9, "memory_utilization": 0.9, "weight_bytes": 16e9}),
        ("max_batch_under_tpot_target", {"tpot_target_s": 0.01, "n_params": 8e9, "bytes_per_param": 2,
                                         "mem_bandwidth": 3.35e12, "peak_flops": 989e12}),
    ],
)  # fmt: skip
def test_each_derivation_is_recorded_and_ends_on_the_answer(name: str, kwargs: dict[str, float]) -> None:
    with recording() as steps:
        value = est.FUNCTIONS[name](**kwargs)
    assert steps and steps[-1].value == pytest.approx(value)
    assert all(s.label and s.formula and s.substituted for s in steps)


def test_no_batch_when_the_weights_do_not_fit() -> None:
    # 16.06 GB of weights on a 10 GB part: nothing fits, whatever the target.
    batch = est.max_batch_under_tpot_target(
        tpot_target_s=1.0, n_params=LLAMA_8B, bytes_per_param=2, mem_bandwidth=H100_BW, peak_flops=H100_PEAK,
        context_len=1024, kv_bytes_per_token=LLAMA_8B_KV, memory_bytes=10e9,
    )  # fmt: skip
    assert batch == 0


def test_max_batch_derivation_ends_on_the_unrounded_bound_then_the_floor() -> None:
    with recording() as steps:
        batch = est.max_batch_under_tpot_target(
            tpot_target_s=10e-3, n_params=LLAMA_8B, bytes_per_param=2, mem_bandwidth=H100_BW,
            peak_flops=H100_PEAK, context_len=4096, kv_bytes_per_token=LLAMA_8B_KV, memory_bytes=30e9,
        )  # fmt: skip
    assert steps[-1].value == batch == 25
    assert steps[-2].value == pytest.approx((30e9 - 2 * LLAMA_8B) / (4096 * LLAMA_8B_KV))
