"""Explanations are judged on meaning: an answer in other words than the model answer makes every point.

Each text below says everything a recall question asks for, in words an engineer might use at a
whiteboard rather than the model answer's; the rubrics must find every key point and no misconception.
"""

from __future__ import annotations

import pytest

from grader import check_explanation
from question_bank import generate, load_bank

BANK = load_bank(include_shipped=True)
PARAPHRASES = {
    "ai-elementwise-vs-matmul": (
        "Arithmetic intensity means FLOPs per byte of memory traffic; the A100's ridge is about 200. "
        "The fp32 add reads two 4-byte values and writes one for a single FLOP: 1/12, roughly 0.08 FLOP/B, "
        "way under the ridge, so it is memory-bound. The 4096 cubed bf16 matmul does 2·4096³ FLOPs over "
        "3·4096²·2 bytes, about 1365 FLOP/B, so it is compute-bound. The element-wise ratio is fixed "
        "whatever the size, while the matmul's grows with n because every loaded value is reused n times."
    ),
    "critical-batch-recall": (
        "Per decode step the weights are read once, P·bytes over the bandwidth, while compute time is "
        "2·P·B over peak. Setting them equal gives B* = peak·bytes / (2·bandwidth), which in bf16 is just "
        "the ridge point. That is about 240 on a TPU v5e and about 200 on an A100. Int8 weights with bf16 "
        "math halve the bytes, so B* halves to around 120; with int8 math as well the peak doubles too and "
        "B* stays put. The KV cache is per sequence, not shared, so "
        "the step stays bandwidth-bound to a larger batch."
    ),
    "bigger-batch-almost-free": (
        "Every decode step streams all the weights once per step regardless of batch size. Adding "
        "sequences shares that read; the extra math hides under the memory time, so throughput grows "
        "nearly linearly. This stops near the critical batch, peak / bandwidth ≈ 200 on an A100, where the "
        "step turns compute-bound. Each sequence's KV cache is its own, so memory capacity caps the batch."
    ),
    "decode-weight-read-why": (
        "At batch 1 every weight is loaded from HBM once for a single multiply-add: matrix-vector work. "
        "That's about 1 FLOP per byte in fp16, far below the A100 ridge of ~200, so it is memory-bound. "
        "13B in fp16 is 26 GB; at 1.5 TB/s that is about 17 ms per token, while the math is 0.08 ms. "
        "Faster math does not help; quantization, more bandwidth or batching do."
    ),
    "tensor-parallel-fixes": (
        "Tensor parallelism shards every layer's weight matrices across N GPUs. A model that does not fit "
        "on one GPU fits, and since decode is bound by reading the weights, N GPUs reading their shards in "
        "parallel give N times the bandwidth, so latency drops. The price is an all-reduce after each "
        "layer every step, which needs NVLink."
    ),
    "quantization-kv-compression-decode": (
        "Decode is memory-bound: the step time is the bytes read over bandwidth, the weights plus the KV "
        "cache. Int8 weights halve the bytes (int4 quarters them); they are dequantized on chip and the "
        "FLOPs stay. KV-cache compression with an fp8 cache or GQA shrinks the cache, so fewer bytes per "
        "step and more sequences fit. The tensor cores were idle anyway, far below the ridge."
    ),
    "fusion-why": (
        "Cos is memory-bound: trivial math per element but a load and a store, so time = bytes / "
        "bandwidth. As two separate kernels the intermediate makes a round trip through HBM, double the "
        "traffic. A fused kernel keeps it in registers: one load and one store, same as a single cos. It "
        "stops being free once there is enough math per element to become compute-bound, or when a "
        "reduction across the tensor means the intermediate cannot stay on chip."
    ),
    "flash-attention-fixes": (
        "Plain attention materializes the N² score matrix in HBM and reads it back for softmax, so it is "
        "memory-bound and quadratic in memory. FlashAttention tiles Q, K and V into blocks held in SRAM "
        "and fuses everything into one kernel. It uses an online softmax with a running max and sum so "
        "the result is exact. Same FLOPs (it even recomputes a bit), far less memory traffic, and memory "
        "that grows only linearly with N."
    ),
    "kv-cache-formula-recall": (
        "Per token each layer stores a key and a value vector for every KV head: 2 x layers x kv_heads x "
        "head_dim x bytes. For Llama 2 13B in fp16 that is 819,200 bytes, roughly 0.8 MB per token. GQA "
        "keeps fewer KV heads so the cache shrinks by that ratio. An fp8 cache is half of bf16. Total is "
        "that times context length times batch size."
    ),
    "ridge-point-recall": (
        "The ridge point is peak FLOP/s over memory bandwidth: 989e12 / 3.35e12 ≈ 295 FLOP per byte on an "
        "H100 SXM. Below it a kernel is memory-bound and takes bytes / bandwidth. Above it the kernel is "
        "compute-bound and takes FLOPs / peak. Use the dense peak for your precision. Below the ridge cut "
        "bytes with fusion or quantization; above it cut FLOPs."
    ),
    "overhead-tell-without-profiler": (
        "Double the batch size and time it, synchronizing first. If the time barely changes you are "
        "overhead-bound: Python and kernel launch costs dominate. If it scales in proportion to the bytes "
        "and bytes / time is near the HBM bandwidth, it is bandwidth-bound. Another tell: low GPU "
        "utilization with one CPU core pegged. Fix overhead with CUDA graphs or bigger batches; fix "
        "bandwidth with fusion or lower precision."
    ),
    "decode-one-flop-per-byte": (
        "At batch 1 each weight matmul is a matrix-vector product: 2 FLOPs per 2-byte weight, so 1 FLOP/B. "
        "The KV-cache read stays low too, about heads / KV heads, and batching doesn't raise it. The H100 "
        "ridge is 295 FLOP/B, about 300x above. Batching shares each weight read, about B FLOP/B. Int8 "
        "weights give 2 FLOP per byte by halving the bytes."
    ),
    "prefill-vs-decode-why": (
        "Each bf16 weight is 2 bytes, read once per forward pass, and every token that goes through it "
        "costs 2 FLOPs. In prefill all T prompt tokens share that read, about T FLOP/B, thousands. In "
        "decode one token per sequence goes through, about 1 FLOP per byte at batch 1. The H100 ridge is "
        "295 FLOP/B, so prefill is compute-bound and decode is memory-bound. Decode also reads the KV "
        "cache each step: extra bytes with no weight FLOPs."
    ),
    "three-regimes-define": (
        "Compute-bound: the tensor cores are the limit, achieved FLOP/s near peak, e.g. big matmuls. "
        "Memory-bound: time goes into moving bytes from HBM, achieved bandwidth near peak, e.g. "
        "element-wise ops and decode. Overhead-bound: time goes into Python, dispatch and kernel launches; "
        "the GPU sits idle with gaps between kernels. Fixes: faster math, fewer bytes via fusion, and "
        "CUDA graphs or batching."
    ),
    "three-regimes-measure": (
        "Compute achieved FLOP/s as FLOPs / time and compare with the dense peak. Compute achieved "
        "bandwidth as bytes / time and compare with the HBM bandwidth. Whichever is near its peak is the "
        "limit; if neither is, it is overhead. The roofline says time is at least max(FLOPs / peak, "
        "bytes / bandwidth); intensity against the ridge tells which term wins."
    ),
    "two-p-justify": (
        "Every parameter takes part in one multiply-add per token (a multiply and an add, 2 FLOPs), so a "
        "forward pass is about 2P FLOPs. It ignores attention over the context, which grows with context "
        "length, and small stuff like softmax, layernorm and rotary embeddings. For Mixtral use the active "
        "parameters, about 12.9B, since each token goes to 2 of 8 experts. Training is about 6P."
    ),
    "continuous-batching-why": (
        "A static batch runs until its longest request is done, so the slots of sequences that finished "
        "early sit idle and new requests wait in the queue. With continuous batching the scheduler works "
        "every iteration: a request that finishes leaves at once and a queued one joins at the next step. "
        "Since decode is memory-bound, one weight read serves the whole batch, so a fuller batch gives more "
        "tokens per second."
    ),
    "chunked-prefill-disaggregation-why": (
        "When a long prompt's prefill lands in a step, every running decode waits for it, hundreds of ms. "
        "Chunked prefill splits the prompt into pieces, one chunk per step next to the decodes, so the step "
        "time stays bounded and TPOT holds, while TTFT gets a bit longer. Disaggregation runs prefill and "
        "decode on separate GPUs, each pool sized for its own SLO, and the KV cache is shipped between them."
    ),
    "prefix-caching-why": (
        "The KV cache of the shared system prompt is stored once and reused by every request, so memory "
        "keeps a single copy and the batch can grow. A hit also avoids recomputing the prefix, so the time "
        "to first token drops. It needs an exact token prefix: if a token differs or the blocks were "
        "evicted, it is a miss."
    ),
    "pipeline-vs-tensor-parallel-why": (
        "Tensor parallelism splits every matmul across the GPUs, so each reads a slice and the per-token "
        "latency at batch 1 drops about n times, whereas a pipeline runs its stages one after another and a "
        "single user's latency stays one full weight read. Tensor parallelism does an all-reduce twice per "
        "layer and needs NVLink inside a node; pipeline stages only pass activations to neighbouring stages, "
        "fine between nodes. A pipeline only stays busy with many microbatches in flight, bubble "
        "(p − 1)/(m + p − 1), so it buys throughput."
    ),
    "fp8-vs-int4-critical-batch-why": (
        "W8A8 in FP8 halves the bytes and the FP8 tensor cores double the peak, so the critical batch stays "
        "the same as bf16, about 295 on an H100. W4A16 reads a quarter of the bytes but still multiplies at "
        "the bf16 rate, so B* drops to a quarter, about 74. Both make small-batch decode faster with fewer "
        "bytes read, but only FP8 compute also helps the compute-bound large batches and prefill."
    ),
}


def test_every_recall_template_has_a_paraphrase() -> None:
    assert {t.id for t in BANK.templates if t.kind == "recall"} == set(PARAPHRASES)


@pytest.mark.parametrize("template_id", sorted(PARAPHRASES))
def test_a_paraphrase_makes_every_point_and_no_misconception(template_id: str) -> None:
    problem = generate(BANK.get(template_id), 0)
    check = check_explanation(problem, PARAPHRASES[template_id])
    missed = [point for point, hit in zip(problem.key_points, check.hits, strict=True) if not hit]
    assert missed == [] and check.misconceptions == ()


def test_a_step_time_that_barely_grows_makes_the_reuse_point() -> None:
    problem = generate(BANK.get("bigger-batch-almost-free"), 1)
    text = "Adding more sequences to the batch reuses the same weight read, so step time barely grows."
    assert check_explanation(problem, text).hits[1]
    # Said the other way round, it is not made.
    assert not check_explanation(problem, "More sequences do not reuse the weight read.").hits[1]
