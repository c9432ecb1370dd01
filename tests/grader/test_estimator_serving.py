"""The serving follow-ups against the published arithmetic they come from: kipply's "Transformer
Inference Arithmetic", the JAX scaling book's "All About Transformer Inference", the FlashAttention,
PagedAttention (vLLM) and speculative-decoding papers, NCCL's bus-bandwidth rule and Databricks'
MBU example; a hand derivation where no source works the number."""

from __future__ import annotations

import inspect
import math

import pytest

from grader import estimator as est
from grader.estimator.derivation import recording

A100_KIPPLY_BW = 1.5e12  # kipply rounds the A100's 1.555 TB/s
A100_PEAK = 312e12
KIPPLY_52B = 12 * 64 * 8192**2  # kipply's 52B: 12 · layers · d_model², "about 51.5B"
LLAMA2_13B_KV = 819_200  # bytes per token in bf16 (40 layers · 40 KV heads · 128 · 2 · 2)
V5E_PEAK, V5E_BW = 1.97e14, 8.2e11


# --- time to first token, time per output token, request latency --------------------------------


def ttft_52b(prompt_tokens: int) -> float:
    return est.time_to_first_token(
        n_params=KIPPLY_52B,
        prompt_tokens=prompt_tokens,
        peak_flops=A100_PEAK,
        mem_bandwidth=A100_KIPPLY_BW,
        bytes_per_param=2,
    )


def test_kipply_52b_prefill_is_69_ms_for_any_prompt_up_to_208_tokens() -> None:
    # "12 · 2 · n_layers · d_model² / 1.5e12 ≈ 69 milliseconds for up to 208 tokens ... If we had 416
    # (double) tokens in the context, then it would take twice as long, and 312 tokens would take 1.5
    # times as long."
    assert ttft_52b(1) == pytest.approx(68.7e-3, abs=0.1e-3)
    assert ttft_52b(208) == pytest.approx(ttft_52b(1), rel=0.002)
    assert ttft_52b(416) == pytest.approx(2 * ttft_52b(208), rel=0.002)
    assert ttft_52b(312) == pytest.approx(1.5 * ttft_52b(208), rel=0.002)


def test_ttft_scales_with_mfu_and_chips_once_compute_bound() -> None:
    # Hand derivation: 2 · 13e9 · 2000 tokens / (312e12 · 0.5 · 2) = 0.1667 s.
    ttft = est.time_to_first_token(
        n_params=13e9,
        prompt_tokens=2000,
        peak_flops=A100_PEAK,
        mem_bandwidth=1.555e12,
        bytes_per_param=2,
        n_chips=2,
        mfu=0.5,
    )
    assert ttft == pytest.approx(2 * 13e9 * 2000 / (312e12 * 0.5 * 2))


@pytest.mark.parametrize(("batch", "expected_ms"), [(1, 21.7), (512, 53.3)])
def test_kipply_gopher_260b_on_16_a100s(batch: int, expected_ms: float) -> None:
    # "2 · 260e9 / (16 · 1.5e12) ≈ 0.0217 ≈ 22ms" at batch 1; "512 · 2 · 260e9 / (16 · 312e12) ≈ 0.053".
    tpot = est.time_per_output_token(
        n_params=260e9,
        bytes_per_param=2,
        mem_bandwidth=A100_KIPPLY_BW,
        peak_flops=A100_PEAK,
        batch_size=batch,
        n_chips=16,
    )
    assert tpot * 1e3 == pytest.approx(expected_ms, abs=0.05)


@pytest.mark.parametrize(("batch", "step_ms"), [(1, 4.98), (16, 20.30)])
def test_tpot_reproduces_the_scaling_book_llama2_13b_table_while_bandwidth_bound(
    batch: int, step_ms: float
) -> None:
    # The book's LLaMA 2-13B table on 8 TPU v5e at 8192 tokens of context: the steps are bandwidth-bound
    # (weights plus KV read), which is where TPOT's max(...) and the book's sum agree. The book rounds
    # the KV per sequence to 6.7e9 bytes (exactly 6.711e9), so the per-token figure here does too.
    tpot = est.time_per_output_token(
        n_params=13e9,
        bytes_per_param=2,
        mem_bandwidth=V5E_BW,
        peak_flops=V5E_PEAK,
        batch_size=batch,
        context_len=8192,
        kv_bytes_per_token=6.7e9 / 8192,
        n_chips=8,
    )
    assert tpot * 1e3 == pytest.approx(step_ms, abs=0.006)


def brute_force_latency(**kwargs: float) -> float:
    # The definition, term by term: TTFT + Σ_{i=1}^{output−1} TPOT(context = prompt + i).
    prompt, output = int(kwargs["prompt_tokens"]), int(kwargs["output_tokens"])
    common = {k: kwargs[k] for k in ("n_params", "bytes_per_param", "mem_bandwidth", "peak_flops")}
    ttft = est.time_to_first_token(
        **common,
        prompt_tokens=prompt,
        batch_size=int(kwargs["batch_size"]),
        mfu=kwargs["mfu"],
    )
    return ttft + sum(
        est.time_per_output_token(
            **common,
            batch_size=int(kwargs["batch_size"]),
            context_len=prompt + i,
            kv_bytes_per_token=kwargs["kv_bytes_per_token"],
        )
        for i in range(1, output)
    )


@pytest.mark.parametrize("batch", [1, 64, 400])
def test_request_latency_is_ttft_plus_each_growing_decode_step(batch: int) -> None:
    # Llama-2-13B on an A100: batch 1 is bandwidth-bound throughout, batch 400 compute-bound at
    # first and bandwidth-bound once the KV read passes the FLOPs, 64 in between.
    kwargs = {
        "n_params": 13e9,
        "bytes_per_param": 2,
        "mem_bandwidth": 1.555e12,
        "peak_flops": A100_PEAK,
        "prompt_tokens": 500,
        "output_tokens": 300,
        "kv_bytes_per_token": LLAMA2_13B_KV,
        "batch_size": batch,
        "mfu": 0.6,
    }
    assert est.request_latency(**kwargs) == pytest.approx(brute_force_latency(**kwargs), rel=1e-9)


def test_request_latency_batch_1_by_hand() -> None:
    # 13B bf16, 1.555 TB/s: 16.72 ms per weight read; prefill of 1000 tokens at 312 TFLOP/s is
    # 83.33 ms; 99 decode steps read 819,200 B more per token of context, contexts 1001..1099:
    # 99 · 16.72 ms + 819200 · (1001 + 1099) / 2 · 99 / 1.555e12 = 1655.3 ms + 54.8 ms.
    latency = est.request_latency(
        n_params=13e9,
        bytes_per_param=2,
        mem_bandwidth=1.555e12,
        peak_flops=A100_PEAK,
        prompt_tokens=1000,
        output_tokens=100,
        kv_bytes_per_token=LLAMA2_13B_KV,
    )
    weights = 26e9 / 1.555e12
    kv = 99 * LLAMA2_13B_KV * (1001 + 1099) / 2 / 1.555e12
    assert latency == pytest.approx(2 * 13e9 * 1000 / 312e12 + 99 * weights + kv)
    assert latency == pytest.approx(1.793, abs=0.001)


def test_a_one_token_answer_is_its_prefill() -> None:
    kwargs = {"n_params": 7e9, "bytes_per_param": 2, "mem_bandwidth": 2e12, "peak_flops": 312e12}
    latency = est.request_latency(**kwargs, prompt_tokens=50, output_tokens=1)
    assert latency == est.time_to_first_token(**kwargs, prompt_tokens=50)


def test_scaling_book_llama2_13b_kv_passes_the_weights_at_batch_4_and_8k() -> None:
    # The book's LLaMA 2-13B: 26 GB of bf16 weights, 6.7 GB of KV per 8192-token sequence, and "Just 4
    # of these exceed the memory usage of our parameters!" So at batch 4 the crossover context is
    # below 8192: 26e9 / (4 · 819,200) = 7,935 tokens (31,738 at batch 1).
    weights = est.weight_bytes(n_params=13e9, bytes_per_param=2)
    at_4 = est.kv_weight_crossover_context(
        weight_bytes=weights, kv_bytes_per_token=LLAMA2_13B_KV, batch_size=4
    )
    at_1 = est.kv_weight_crossover_context(weight_bytes=weights, kv_bytes_per_token=LLAMA2_13B_KV)
    assert at_4 == pytest.approx(7934.6, abs=0.1)
    assert at_4 < 8192 < at_1
    assert at_1 == pytest.approx(31_738, abs=1)


# --- utilisation --------------------------------------------------------------------------------


def test_databricks_mbu_example_is_50_percent() -> None:
    # Databricks, "LLM Inference Performance Engineering: Best Practices": a 7B model in 16-bit with a
    # 14 ms TPOT moves 14 GB in 14 ms, 1 TB/s, which is 50 % MBU on a 2 TB/s part.
    mbu = est.memory_bandwidth_utilization(
        bytes_per_step=14e9, steps_per_second=1 / 14e-3, mem_bandwidth=2e12
    )
    assert mbu == pytest.approx(0.5)


def test_mfu_from_tokens_per_second_by_hand() -> None:
    # PaLM's MFU counts model FLOPs per token (6N in training, 2N forward): Llama-2-7B (6.74e9) at
    # 2,000 tokens/s on one A100: 2 · 6.74e9 · 2000 / 312e12 = 8.64 %.
    mfu = est.model_flops_utilization(n_params=6.74e9, tokens_per_second=2000, peak_flops=A100_PEAK)
    assert mfu == pytest.approx(0.0864, abs=1e-4)
    assert est.model_flops_utilization(
        n_params=6.74e9, tokens_per_second=2000, peak_flops=A100_PEAK, n_chips=2
    ) == pytest.approx(mfu / 2)


# --- all-reduce and tensor parallelism ----------------------------------------------------------


def test_nccl_bus_bandwidth_of_a_ring_allreduce_is_the_link_bandwidth() -> None:
    # nccl-tests PERFORMANCE.md: for AllReduce, busBw = algBw · 2(n − 1)/n, and busBw is what the
    # links deliver. 1 GB over 8 GPUs at 300 GB/s per direction: t = 1.75 · 1e9 / 300e9 = 5.83 ms.
    t = est.allreduce_time(n_bytes=1e9, n_chips=8, link_bandwidth=300e9)
    assert t == pytest.approx(5.833e-3, abs=0.001e-3)
    algbw = 1e9 / t
    assert algbw * 2 * 7 / 8 == pytest.approx(300e9)


def test_allreduce_latency_term_and_one_chip() -> None:
    # Hand: 2 · (4 − 1) hops of 5 µs on top of 1.5 · 1 MB / 100 GB/s = 15 µs.
    assert est.allreduce_time(
        n_bytes=1e6, n_chips=4, link_bandwidth=100e9, hop_latency=5e-6
    ) == pytest.approx(15e-6 + 30e-6)
    assert est.allreduce_time(n_bytes=1e9, n_chips=1, link_bandwidth=1e9, hop_latency=1.0) == 0.0


def test_kipply_tensor_parallel_comms_260b_batch_512() -> None:
    # "B · 2 · 4 · n_layers · d_model / A_c = 512 · 8 · 80 · 16384 / 300e9 ≈ 18ms", rounding the
    # ring's (N − 1)/N to 1: with it, 16 chips give 15/16 of that.
    comm = est.tensor_parallel_comm_time(
        n_layers=80, d_model=16384, n_chips=16, link_bandwidth=300e9, batch_size=512
    )
    kipply = 512 * 8 * 80 * 16384 / 300e9
    assert kipply == pytest.approx(17.9e-3, abs=0.05e-3)
    assert comm == pytest.approx(kipply * 15 / 16)


def test_kv_heads_replicate_past_the_kv_head_count() -> None:
    # Llama-3-70B has 8 KV heads: on 8 chips each holds 1/8 of the cache, on 16 still 1/8.
    assert est.kv_bytes_per_chip(kv_cache_bytes=80e9, n_chips=8, n_kv_heads=8) == 10e9
    assert est.kv_bytes_per_chip(kv_cache_bytes=80e9, n_chips=16, n_kv_heads=8) == 10e9
    assert est.kv_bytes_per_chip(kv_cache_bytes=80e9, n_chips=4, n_kv_heads=8) == 20e9


def test_llama3_70b_on_8_h100_decode_step_by_hand() -> None:
    # Hand derivation: 70.55e9 bf16 params / 8 = 17.64 GB per chip; 32 sequences at 4096 tokens,
    # 327,680 B per token: 42.95 GB of KV, 5.37 GB per chip; (17.64 + 5.37) GB / 3.35 TB/s = 6.87 ms;
    # compute 2 · 70.55e9 · 32 / 8 / 989e12 = 0.57 ms; comms 2 · 80 all-reduces of 32 · 8192 · 2 B
    # = 524,288 B at 450 GB/s: 160 · 1.75 · 524288 / 450e9 = 0.326 ms. Step 7.194 ms.
    step = est.tensor_parallel_decode_step_time(
        n_params=70.55e9,
        bytes_per_param=2,
        mem_bandwidth=3.35e12,
        peak_flops=989e12,
        n_layers=80,
        d_model=8192,
        n_kv_heads=8,
        n_chips=8,
        link_bandwidth=450e9,
        batch_size=32,
        context_len=4096,
        kv_bytes_per_token=327_680,
    )
    memory = (70.55e9 * 2 / 8 + 32 * 4096 * 327_680 / 8) / 3.35e12
    comm = 160 * 1.75 * 32 * 8192 * 2 / 450e9
    assert step == pytest.approx(memory + comm)
    assert step == pytest.approx(7.194e-3, abs=0.001e-3)


def test_tensor_parallel_memory_per_gpu_and_kv_capacity() -> None:
    # kipply's 52B on 4 A100 40GB: 104 GB of weights, 26 GB per GPU, 14 GB left on each, 56 GB in all,
    # at 2,097,152 B per token (64 KV heads split 4 ways). The post writes "56/0.002 ≈ 23000"; 56 /
    # 0.002 is 28,000, and with the exact bytes per token 26,702.
    assert est.weight_bytes_per_chip(n_params=52e9, bytes_per_param=2, n_chips=4) == 26e9
    tokens = est.tensor_parallel_kv_capacity_tokens(
        memory_bytes=40e9,
        n_params=52e9,
        bytes_per_param=2,
        kv_bytes_per_token=2_097_152,
        n_kv_heads=64,
        n_chips=4,
    )
    assert tokens == math.floor(56e9 / 2_097_152) == 26_702


# --- mixture of experts -------------------------------------------------------------------------

MIXTRAL = {
    "n_params": 46_702_792_704,
    "n_active_params": 12_879_925_248,
    "n_experts": 8,
    "n_experts_active": 2,
}


def test_moe_batch_1_reads_the_active_parameters_and_large_batches_nearly_all() -> None:
    # Mixtral 8x7B (Jiang et al. 2024: "47B parameters, 13B active"): top-2 of 8 experts.
    assert est.experts_touched(n_experts=8, n_experts_active=2, batch_size=1) == pytest.approx(2)
    at_1 = est.moe_decode_weight_bytes(**MIXTRAL, batch_size=1, bytes_per_param=2)
    at_64 = est.moe_decode_weight_bytes(**MIXTRAL, batch_size=64, bytes_per_param=2)
    assert at_1 == pytest.approx(2 * 12_879_925_248)
    assert at_64 == pytest.approx(2 * 46_702_792_704, rel=1e-6)


def test_experts_touched_at_batch_4_by_hand() -> None:
    # 8 · (1 − 0.75⁴) = 8 · 0.68359 = 5.469.
    assert est.experts_touched(n_experts=8, n_experts_active=2, batch_size=4) == pytest.approx(5.46875)


def test_moe_step_time_on_an_h100_by_hand() -> None:
    # Batch 1: 25.76 GB / 3.35 TB/s = 7.69 ms; the FLOPs (2 · 12.88e9) take 0.026 ms.
    step = est.moe_decode_step_time(
        **MIXTRAL, batch_size=1, bytes_per_param=2, mem_bandwidth=3.35e12, peak_flops=989e12
    )
    assert step == pytest.approx(2 * 12_879_925_248 / 3.35e12)


# --- speculative decoding -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("alpha", "k", "tokens"),
    [(0.8, 5, (1 - 0.8**6) / 0.2), (0.6, 3, 1 + 0.6 + 0.36 + 0.216), (1.0, 4, 5.0), (0.0, 7, 1.0)],
)
def test_leviathan_expected_tokens_per_step(alpha: float, k: int, tokens: float) -> None:
    # Leviathan et al. (2023), eq. (1): E[# tokens] = (1 − α^(γ+1)) / (1 − α), the geometric series
    # 1 + α + … + α^γ; γ + 1 when every guess is accepted.
    assert est.speculative_tokens_per_step(acceptance_rate=alpha, n_draft=k) == pytest.approx(tokens)


def test_leviathan_speedup_counts_the_draft() -> None:
    # Theorem 3.8: improvement (1 − α^(γ+1)) / ((1 − α)(γc + 1)). α = 0.8, γ = 5, c = 0.05:
    # 3.6893 / 1.25 = 2.951; a draft as slow as the target (c = 1) loses: 3.6893 / 6 = 0.615.
    fast = est.speculative_speedup(acceptance_rate=0.8, n_draft=5, draft_cost_ratio=0.05)
    slow = est.speculative_speedup(acceptance_rate=0.8, n_draft=5, draft_cost_ratio=1.0)
    assert fast == pytest.approx(2.9514, abs=1e-4)
    assert slow == pytest.approx(0.6149, abs=1e-4)


# --- attention traffic --------------------------------------------------------------------------


def test_flashattention_algorithm_0_count() -> None:
    # Dao et al. (2022), Algorithm 0, element by element for one head: load Q, K (2Nd), write S
    # (N²); read S, write P (2N²); load P (N²) and V (Nd), write O (Nd): 4Nd + 4N². GPT-2 medium
    # shapes (N = 1024, d = 64, 16 heads, batch 64, fp16): 9.13 GB standard, 0.54 GB with flash.
    n, d = 1024, 64
    standard = est.attention_hbm_bytes(seq_len=n, n_heads=16, head_dim=d, bytes_per_element=2, batch_size=64)
    flash = est.attention_hbm_bytes(
        seq_len=n, n_heads=16, head_dim=d, bytes_per_element=2, batch_size=64, flash=True
    )
    per_head = (2 * n * d + n * n) + (2 * n * n) + (n * n + n * d) + n * d
    assert standard == per_head * 16 * 2 * 64 == pytest.approx(9.127e9, rel=1e-3)
    assert flash == 4 * n * d * 16 * 2 * 64 == pytest.approx(0.537e9, rel=1e-3)


def test_scores_at_128k_are_34_gb_per_head() -> None:
    assert est.attention_scores_bytes(seq_len=131_072, n_heads=1, bytes_per_element=2) == pytest.approx(
        34.36e9, rel=1e-3
    )


# --- paged KV cache -----------------------------------------------------------------------------

LENGTHS = (100, 500, 1900)  # hand example: max length 2048, blocks of 16


def test_paged_and_contiguous_reservations_by_hand() -> None:
    # Contiguous: 3 · 2048 = 6144 tokens for 2500 used: 59.3 % wasted. Paged: ⌈100/16⌉ + ⌈500/16⌉ +
    # ⌈1900/16⌉ = 7 + 32 + 119 = 158 blocks = 2528 tokens: 1.1 % wasted (vLLM: "under 4 %").
    kv = 131_072
    assert (
        est.contiguous_kv_reserved_bytes(request_lengths=LENGTHS, max_seq_len=2048, kv_bytes_per_token=kv)
        == 6144 * kv
    )
    assert (
        est.paged_kv_reserved_bytes(request_lengths=LENGTHS, block_size=16, kv_bytes_per_token=kv)
        == 2528 * kv
    )
    assert est.contiguous_kv_waste_fraction(request_lengths=LENGTHS, max_seq_len=2048) == pytest.approx(
        1 - 2500 / 6144
    )
    assert est.paged_kv_waste_fraction(request_lengths=LENGTHS, block_size=16) == pytest.approx(
        1 - 2500 / 2528
    )


def test_paging_fits_more_requests_by_hand() -> None:
    # 10 GB free at 131,072 B per token: contiguous 2048-token slots take 268.4 MB each, 37 fit;
    # paged, the mean request reserves 2528 / 3 tokens = 110.4 MB, 90 fit: 53 more.
    extra = est.paged_kv_extra_requests(
        free_bytes=10e9, request_lengths=LENGTHS, max_seq_len=2048, block_size=16, kv_bytes_per_token=131_072
    )
    assert math.floor(10e9 / (2048 * 131_072)) == 37
    assert math.floor(10e9 / (2528 / 3 * 131_072)) == 90
    assert extra == 53


def test_a_request_longer_than_the_slot_is_refused() -> None:
    with pytest.raises(ValueError, match="exceeds max_seq_len"):
        est.contiguous_kv_waste_fraction(request_lengths=(100, 5000), max_seq_len=4096)
    with pytest.raises(ValueError, match="at least one request"):
        est.paged_kv_waste_fraction(request_lengths=(), block_size=16)


# --- quantization -------------------------------------------------------------------------------


def test_int4_weights_put_the_critical_batch_at_a_quarter_of_the_ridge() -> None:
    # The scaling book: 240 on a v5e in bf16, 120 with int8 weights (bf16 compute); int4: 60, ridge/4.
    ridge = est.ridge_point(peak_flops=V5E_PEAK, mem_bandwidth=V5E_BW)

    def critical(bytes_per_param: float) -> float:
        return est.decode_critical_batch_size(
            peak_flops=V5E_PEAK, mem_bandwidth=V5E_BW, bytes_per_param=bytes_per_param
        )

    assert critical(2) == pytest.approx(240, abs=0.5)
    assert critical(1) == pytest.approx(120, abs=0.5)
    assert critical(0.5) == pytest.approx(ridge / 4)


def test_scaling_book_13b_batch_at_8k_doubles_with_fp8_kv() -> None:
    # "We OOM beyond batch size 16" on 8 v5e (128e9 decimal bytes fit 15, see test_estimator);
    # with the KV cache in fp8 the room per sequence halves: ⌊102e9 / 3.355e9⌋ = 30.
    kwargs = {"memory_bytes": 16e9, "n_params": 13e9, "bytes_per_param": 2, "context_len": 8192, "n_chips": 8}
    assert est.max_batch_at_context(**kwargs, kv_bytes_per_token=LLAMA2_13B_KV) == 15
    assert est.max_batch_at_context(**kwargs, kv_bytes_per_token=LLAMA2_13B_KV / 2) == 30


def test_int4_weights_speed_batch_1_decode_4x_and_long_context_less() -> None:
    # Hand: batch 1, no context: the step is the weight read, 2 → 0.5 bytes is 4×. At batch 8 and
    # 8192 tokens of bf16 KV (53.7 GB against 26 GB of weights) int4 weights give only
    # (26 + 53.69) / (6.5 + 53.69) = 1.324×; an fp8 KV cache on top: (26 + 53.69) / (6.5 + 26.84) = 2.39×.
    base = {"n_params": 13e9, "mem_bandwidth": 1.555e12, "peak_flops": A100_PEAK, "bytes_per_param": 2}
    assert est.quantization_decode_speedup(**base, quantized_bytes_per_param=0.5) == pytest.approx(4)
    long = {**base, "batch_size": 8, "context_len": 8192, "kv_bytes_per_token": LLAMA2_13B_KV}
    kv = 8 * 8192 * LLAMA2_13B_KV
    weights_only = est.quantization_decode_speedup(
        **long, quantized_bytes_per_param=0.5, quantized_kv_bytes_per_token=LLAMA2_13B_KV
    )
    both = est.quantization_decode_speedup(
        **long, quantized_bytes_per_param=0.5, quantized_kv_bytes_per_token=LLAMA2_13B_KV / 2
    )
    assert weights_only == pytest.approx((26e9 + kv) / (6.5e9 + kv))
    assert both == pytest.approx((26e9 + kv) / (6.5e9 + kv / 2))


# --- derivations --------------------------------------------------------------------------------

SAMPLES = {
    "time_to_first_token": {
        "n_params": 7e9, "prompt_tokens": 512, "peak_flops": 312e12, "mem_bandwidth": 2e12,
        "bytes_per_param": 2,
    },
    "request_latency": {
        "n_params": 7e9, "bytes_per_param": 2, "mem_bandwidth": 2e12, "peak_flops": 312e12,
        "prompt_tokens": 512, "output_tokens": 64, "kv_bytes_per_token": 131072.0,
    },
    "tensor_parallel_decode_step_time": {
        "n_params": 70e9, "bytes_per_param": 2, "mem_bandwidth": 3.35e12, "peak_flops": 989e12,
        "n_layers": 80, "d_model": 8192, "n_kv_heads": 8, "n_chips": 8, "link_bandwidth": 450e9,
    },
    "moe_decode_step_time": {
        **MIXTRAL, "batch_size": 8, "bytes_per_param": 2, "mem_bandwidth": 3.35e12, "peak_flops": 989e12,
    },
    "speculative_speedup": {"acceptance_rate": 0.7, "n_draft": 4, "draft_cost_ratio": 0.1},
    "paged_kv_extra_requests": {
        "free_bytes": 1e10, "request_lengths": LENGTHS, "max_seq_len": 2048, "block_size": 16,
        "kv_bytes_per_token": 131072.0,
    },
    "quantization_decode_speedup": {
        "n_params": 7e9, "mem_bandwidth": 2e12, "peak_flops": 312e12, "bytes_per_param": 2,
        "quantized_bytes_per_param": 1,
    },
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_derivation_ends_on_the_answer(name: str) -> None:
    with recording() as steps:
        value = est.FUNCTIONS[name](**SAMPLES[name])
    assert len(steps) >= 3
    assert steps[-1].value == pytest.approx(value)
    assert all(s.label and s.formula and s.substituted for s in steps)


def test_the_new_names_are_registered_for_templates() -> None:
    names = {
        "time_to_first_token", "time_per_output_token", "request_latency", "kv_weight_crossover_context",
        "experts_touched", "allreduce_time", "speculative_tokens_per_step", "attention_hbm_bytes",
        "memory_bandwidth_utilization", "model_flops_utilization", "tensor_parallel_decode_step_time",
        "speculative_speedup", "paged_kv_extra_requests", "max_batch_at_context",
        "quantization_decode_speedup",
    }  # fmt: skip
    assert names <= set(est.FUNCTIONS)
    assert names <= set(est.__all__)


CONTRACTS = {
    "time_to_first_token": "n_params prompt_tokens peak_flops mem_bandwidth bytes_per_param batch_size=1 "
    "n_chips=1 mfu=1.0",
    "time_per_output_token": "n_params bytes_per_param mem_bandwidth peak_flops batch_size=1 context_len=0 "
    "kv_bytes_per_token=0.0 n_chips=1",
    "request_latency": "n_params bytes_per_param mem_bandwidth peak_flops prompt_tokens output_tokens "
    "kv_bytes_per_token=0.0 batch_size=1 n_chips=1 mfu=1.0 ttft_s=None",
    "kv_weight_crossover_context": "weight_bytes kv_bytes_per_token batch_size=1",
    "experts_touched": "n_experts n_experts_active batch_size",
    "allreduce_time": "n_bytes n_chips link_bandwidth hop_latency=0.0",
    "speculative_tokens_per_step": "acceptance_rate n_draft",
    "attention_hbm_bytes": (
        "seq_len n_heads head_dim bytes_per_element batch_size=1 flash=False n_kv_heads=None"
    ),
    "memory_bandwidth_utilization": "bytes_per_step steps_per_second mem_bandwidth",
}


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_the_published_names_and_keywords_hold(name: str) -> None:
    # Templates and scenarios call these by name and keyword: they are a contract.
    parameters = inspect.signature(est.FUNCTIONS[name]).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters)
    written = " ".join(
        p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}" for p in parameters
    )
    assert written == CONTRACTS[name]


def test_relative_margin_is_symmetric_around_the_threshold() -> None:
    # Hand: 12 ms against a 10 ms target is 20 % away; 8 ms too.
    assert est.relative_margin(value=12e-3, threshold=10e-3) == pytest.approx(0.2)
    assert est.relative_margin(value=8e-3, threshold=10e-3) == pytest.approx(0.2)


def test_flash_attention_reads_k_and_v_once_per_kv_head() -> None:
    # Llama-3-70B at 8k in bf16 (64 query heads, 8 KV heads of 128): FlashAttention-2 reads each KV
    # head's K and V once for its 8 query heads, 302 MB; counted per query head it would be 537 MB.
    gqa = est.attention_hbm_bytes(
        seq_len=8192, n_heads=64, head_dim=128, bytes_per_element=2, flash=True, n_kv_heads=8
    )
    per_query_head = est.attention_hbm_bytes(
        seq_len=8192, n_heads=64, head_dim=128, bytes_per_element=2, flash=True
    )
    assert gqa == pytest.approx(301_989_888)
    assert per_query_head == pytest.approx(536_870_912)
