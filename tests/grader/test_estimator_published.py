"""Serving claims against the papers that make them, where the claim is arithmetic: Sarathi-Serve's
chunked prefills, DistServe's case for separate prefill and decode pools, Orca's and vLLM's throughput
from fuller batches, NCCL's α–β ring all-reduce, and DeepSeek-V3's parameter counts. Each expected figure
is the published one, or worked by hand in the comment beside it."""

from __future__ import annotations

import math

import pytest

from grader import estimator as est

A100_PEAK, A100_80_BW, A100_40_BW = 312e12, 2.039e12, 1.555e12
MISTRAL_7B = 7.24e9  # 7,241,732,096 from its config.json, rounded as a reader would


# --- Sarathi-Serve (Agrawal et al., OSDI 2024) and Sarathi (arXiv:2308.16369) ------------------------


def _mixed_step(chunk: int, decodes: int = 32) -> float:
    return est.chunked_prefill_step_time(
        n_params=MISTRAL_7B, bytes_per_param=2, mem_bandwidth=A100_80_BW, peak_flops=A100_PEAK,
        chunk_tokens=chunk, decode_batch=decodes,
    )  # fmt: skip


def test_sarathi_serve_a_hybrid_batch_costs_no_more_than_decodes_until_the_token_threshold() -> None:
    # Sarathi-Serve (its analysis of Mistral-7B on an A100): an iteration's time stays flat as tokens are
    # added until the batch turns compute-bound, then grows linearly with them. By hand: the weight
    # read is 7.24e9 · 2 B / 2.039 TB/s = 7.1015 ms; each token costs 2 · 7.24e9 / 312e12 = 46.41 µs,
    # so the threshold is 7.1015 ms / 46.41 µs = 153 tokens: a 121-token chunk rides with 32 decodes.
    decode_only = _mixed_step(0)
    assert decode_only == pytest.approx(7.1015e-3, rel=1e-4)
    assert _mixed_step(121) == pytest.approx(decode_only)
    # Past the threshold the step grows with every token: 1,024 + 32 tokens at 46.41 µs = 49.01 ms.
    assert _mixed_step(1024) == pytest.approx(49.01e-3, rel=1e-3)


def test_sarathi_serve_chunking_bounds_the_decode_stall() -> None:
    # Sarathi-Serve, stall-free scheduling: without chunking, a 4,096-token prompt joining the batch stalls
    # the 32 running decodes for its whole prefill, 2 · 7.24e9 · (4,096 + 32) / 312e12 = 191.58 ms. In chunks
    # of 512 (one of the token budgets the paper evaluates) each of the 4,096 / 512 = 8 iterations takes 2 ·
    # 7.24e9 · (512 + 32) / 312e12 = 25.25 ms, so no decode waits longer than that between tokens.
    stall = _mixed_step(4096)
    chunk = _mixed_step(512)
    assert stall == pytest.approx(191.58e-3, rel=1e-3)
    assert chunk == pytest.approx(25.25e-3, rel=1e-3)
    # The prompt's first token still comes after all its chunks: 8 · 25.25 = 202.0 ms, 5 % later than
    # unchunked (the decodes' 32 tokens ride along 8 times instead of once): TTFT pays for TBT.
    assert math.ceil(4096 / 512) * chunk == pytest.approx(202.0e-3, rel=1e-3)
    assert math.ceil(4096 / 512) * chunk > stall


def test_sarathi_decodes_piggyback_on_a_chunk_for_an_order_of_magnitude_less() -> None:
    # Sarathi (abstract): in a decode-maximal batch "the prefill chunk saturates GPU compute, while the
    # decode requests 'piggyback' and cost up to an order of magnitude less compared to a decode-only
    # batch". Hand case, a 256-token chunk with B − 1 = 17 decodes: 2 · 7.24e9 · 273 / 312e12 = 12.67 ms,
    # of which the decodes add 2 · 7.24e9 · 17 / 312e12 = 0.789 ms, against 7.10 ms for the same 17
    # decodes alone: 9.0 times less.
    hybrid = _mixed_step(256, decodes=17)
    chunk_alone = _mixed_step(256, decodes=0)
    decodes_alone = _mixed_step(0, decodes=17)
    assert hybrid == pytest.approx(12.67e-3, rel=1e-3)
    assert hybrid - chunk_alone == pytest.approx(0.789e-3, rel=1e-3)
    assert decodes_alone / (hybrid - chunk_alone) == pytest.approx(9.0, rel=0.01)


# --- DistServe (Zhong et al., OSDI 2024): why prefill and decode get pools of their own ------------------

OPT_13B = 13e9  # DistServe's OPT-13B, on A100 80GB in its section 2


def test_distserve_prefill_is_compute_bound_so_batching_prefills_does_not_help() -> None:
    # DistServe (its analysis of prefill): once a prompt is long enough to saturate compute, batching more
    # prefills adds time in proportion, so TTFT only suffers. By hand, one 512-token prompt: 2 · 13e9 · 512 /
    # 312e12 = 42.67 ms; two of them: 85.33 ms, twice as long for the same per-prompt work.
    one = est.prefill_time(n_params=OPT_13B, n_tokens=512, peak_flops=A100_PEAK)
    two = est.prefill_time(n_params=OPT_13B, n_tokens=2 * 512, peak_flops=A100_PEAK)
    assert one == pytest.approx(42.67e-3, rel=1e-3)
    assert two == pytest.approx(2 * one)


def test_distserve_decode_is_bandwidth_bound_so_batching_decodes_is_free() -> None:
    # DistServe (its analysis of decoding): a decode step reads every weight for one token per request, so
    # batching raises throughput at the same TPOT. By hand: 13e9 · 2 B / 2.039 TB/s = 12.75 ms at batch 1 and
    # at batch 64 (64 · 2 · 13e9 / 312e12 = 5.33 ms of FLOPs hides under the read).
    common = {"n_params": OPT_13B, "bytes_per_param": 2, "mem_bandwidth": A100_80_BW, "peak_flops": A100_PEAK}
    alone = est.decode_step_time(**common, batch_size=1)
    batched = est.decode_step_time(**common, batch_size=64)
    assert alone == pytest.approx(12.75e-3, rel=1e-3)
    assert batched == pytest.approx(alone)


def test_distserve_colocating_a_prefill_with_decodes_multiplies_their_tpot() -> None:
    # DistServe (prefill-decoding interference): a step that carries a 512-token prefill
    # beside 32 decodes takes 2 · 13e9 · 544 / 312e12 = 45.33 ms, 3.56 times the 12.75 ms TPOT of the
    # decodes alone: the TTFT SLO wants prefills run at once, the TPOT SLO wants them elsewhere.
    common = {"n_params": OPT_13B, "bytes_per_param": 2, "mem_bandwidth": A100_80_BW, "peak_flops": A100_PEAK}
    mixed = est.chunked_prefill_step_time(**common, chunk_tokens=512, decode_batch=32)
    alone = est.chunked_prefill_step_time(**common, chunk_tokens=0, decode_batch=32)
    assert mixed == pytest.approx(45.33e-3, rel=1e-3)
    assert mixed / alone == pytest.approx(3.556, rel=1e-3)


# --- Orca (Yu et al., OSDI 2022) and vLLM (Kwon et al., SOSP 2023) -----------------------------------


def test_orca_iteration_level_scheduling_keeps_the_batch_full() -> None:
    # Orca (request-level against iteration-level scheduling): with request-level batching, requests that
    # finish early wait for the longest one, so the batch runs max(lengths) steps. Hand case: 8 requests
    # generating 50, 100, ..., 400 tokens (1,800 in all) take 400 steps; refilled every iteration, the 8 slots
    # stay busy. A decode step at batch 8 is bandwidth-bound (12.75 ms for 13B in bf16 on an A100 80GB), so
    # throughput is the mean occupancy: 1,800 / 400 = 4.5 tokens per step, against 8: 8 / 4.5 = 1.78 times
    # more tokens/s.
    step_s = est.decode_step_time(
        n_params=OPT_13B, bytes_per_param=2, mem_bandwidth=A100_80_BW, peak_flops=A100_PEAK, batch_size=8
    )
    lengths = [50 * k for k in range(1, 9)]
    static = est.tokens_per_second(step_time=step_s, batch_size=sum(lengths) / max(lengths))
    continuous = est.tokens_per_second(step_time=step_s, batch_size=8)
    assert static == pytest.approx(4.5 / 12.75e-3, rel=1e-3)
    assert continuous / static == pytest.approx(1.778, rel=1e-3)


def test_vllm_opt_13b_kv_per_token_and_per_request() -> None:
    # vLLM (Kwon et al. 2023), on memory: "the KV cache of a single token demands 800 KB of space, calculated
    # as 2 (key and value vectors) × 5120 (hidden state size) × 40 (number of layers) × 2 (bytes per FP16).
    # Since OPT can generate sequences up to 2048 tokens, the memory required to store the KV cache of one
    # request can be as much as 1.6 GB." 819,200 B is 800 KiB; 2,048 tokens of it 1.68e9 B (1.56 GiB).
    per_token = est.kv_cache_bytes_per_token(n_layers=40, n_kv_heads=40, head_dim=128, bytes_per_element=2)
    per_request = est.kv_cache_bytes(
        n_layers=40, n_kv_heads=40, head_dim=128, bytes_per_element=2, seq_len=2048
    )
    assert per_token == 800 * 1024
    assert per_request == 1_677_721_600
    assert 1.6e9 < per_request < 1.7e9


def test_vllm_13b_on_an_a100_40gb_weights_take_65_percent() -> None:
    # vLLM, Figure 1: serving a 13B model on an A100 40GB, the parameters take 26 GB (65 %) and the KV
    # cache most of the rest. 13e9 · 2 B = 26 GB.
    assert est.weight_bytes(n_params=13e9, bytes_per_param=2) / 40e9 == pytest.approx(0.65)


def test_vllm_paging_fits_as_many_more_requests_as_reservation_wasted() -> None:
    # vLLM: existing systems kept "only 20.4 %–38.2 %" of their KV memory for token states,
    # and paging raised throughput 2–4×. Hand case in that range: requests of 512 tokens in slots of 2,048
    # use 25 % (75 % wasted). In 12 GB left beside OPT-13B's weights: ⌊12e9 / (2,048 · 819,200)⌋ = 7
    # contiguous slots against ⌊12e9 / (512 · 819,200)⌋ = 28 paged requests (512 is 32 blocks of 16): 4×.
    kv = 819_200
    waste = est.contiguous_kv_waste_fraction(request_lengths=[512] * 4, max_seq_len=2048)
    contiguous = est.contiguous_kv_requests_fit(free_bytes=12e9, max_seq_len=2048, kv_bytes_per_token=kv)
    paged = est.paged_kv_requests_fit(
        free_bytes=12e9, request_lengths=[512], block_size=16, kv_bytes_per_token=kv
    )
    assert waste == pytest.approx(0.75)
    assert (contiguous, paged) == (7, 28)
    assert paged / contiguous == 4


# --- NCCL's α–β model of a ring all-reduce --------------------------------------------------------------


def test_nccl_alpha_beta_ring_allreduce() -> None:
    # NCCL's ring all-reduce (nccl-tests PERFORMANCE.md; Thakur et al. 2005 for the α–β cost):
    # t = 2 (n − 1)/n · bytes / bw + 2 (n − 1) · α. Hand case, 8 GPUs at 300 GB/s per direction, α = 2 µs:
    # 14 hops cost 28 µs; the bandwidth term equals them at n · α · bw = 8 · 2e-6 · 300e9 = 4.8 MB, where
    # 2 · 7/8 · 4.8e6 / 300e9 = 28 µs, so the all-reduce takes 56 µs.
    t = est.allreduce_time(n_bytes=4.8e6, n_chips=8, link_bandwidth=300e9, hop_latency=2e-6)
    assert t == pytest.approx(56e-6)


def test_nccl_alpha_dominates_at_batch_1_and_fades_at_batch_512() -> None:
    # Llama-3-70B's bf16 activations (d_model 8,192) over 8 GPUs at 300 GB/s, α = 2 µs. Batch 1: 16,384 B,
    # so 2 · 7/8 · 16,384 / 300e9 = 95.6 ns beside 28 µs of hops: 99.7 % latency. Batch 512: 8.39 MB,
    # 48.93 µs of bandwidth beside the same 28 µs: 36 % latency.
    def share_of_latency(batch: int) -> float:
        n_bytes = est.activation_bytes_per_layer(batch_size=batch, d_model=8192)
        total = est.allreduce_time(n_bytes=n_bytes, n_chips=8, link_bandwidth=300e9, hop_latency=2e-6)
        return 28e-6 / total

    assert share_of_latency(1) == pytest.approx(0.9966, abs=1e-4)
    assert share_of_latency(512) == pytest.approx(28 / (28 + 48.93), rel=1e-3)


# --- DeepSeek-V3's parameter counts (config.json; the report, arXiv:2412.19437, section 4.2) ---------------

DEEPSEEK_V3 = {
    "n_layers": 61, "d_model": 7168, "n_heads": 128, "n_kv_heads": 128, "head_dim": 128, "d_ff": 2048,
    "vocab_size": 129280, "n_experts": 256, "n_shared_experts": 1, "n_dense_layers": 3, "dense_d_ff": 18432,
    "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "v_head_dim": 128,
}  # fmt: skip


def test_deepseek_v3_counts_671b_in_all() -> None:
    # By hand: embeddings and head 2 · 129,280 · 7,168 = 1,853,358,080; latent attention per layer
    # 7,168 · 1,536 + 1,536 + 1,536 · 128 · 192 + 7,168 · 576 + 512 + 512 · 128 · 256 + 128 · 128 · 7,168
    # = 187,107,328, times 61; 3 dense MLPs of 3 · 7,168 · 18,432; 58 MoE layers of 257 experts of
    # 3 · 7,168 · 2,048 plus a 256 · 7,168 router; norms 7,168 · 123. Total 671,026,404,352: the report's
    # 671B.
    assert est.transformer_params(**DEEPSEEK_V3) == 671_026_404_352


def test_deepseek_v3_activates_37b_per_token() -> None:
    # As above with 8 routed + 1 shared expert per MoE layer: 37,552,282,624, the report's 37B;
    # README_WEIGHTS.md's 36.6B leaves out the input embedding (129,280 · 7,168 = 0.93e9).
    active = est.active_params(**DEEPSEEK_V3, n_experts_active=8)
    assert active == 37_552_282_624
    assert round((active - 129_280 * 7_168) / 1e8) == 366


def test_deepseek_v3_without_latent_attention_or_shared_expert_counts_differ() -> None:
    # Standard attention over 128 K and V heads of 128 would add 61 · (4 · 7,168 · 16,384 − 187,107,328)
    # = 17.24e9; dropping the shared expert removes 58 · 44,040,192 = 2.55e9 of active parameters.
    latent = {"q_lora_rank", "kv_lora_rank", "qk_rope_head_dim"}
    plain = {k: v for k, v in DEEPSEEK_V3.items() if k not in latent}
    assert est.transformer_params(**plain) - 671_026_404_352 == 61 * (4 * 7168 * 16384 - 187_107_328)
    no_shared = {**DEEPSEEK_V3, "n_shared_experts": 0}
    assert 37_552_282_624 - est.active_params(**no_shared, n_experts_active=8) == 58 * 3 * 7168 * 2048
