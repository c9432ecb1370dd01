"""One decoder layer's operations in a decode step, and what serving costs per token.

Part of the estimator's formula modules: pure, keyword-only, SI units, each step recorded. Not in
:data:`grader.estimator.FUNCTIONS` (no template asks for them); the Explore page's per-operation
table reads them, as LLM-Viewer's does, with the input embedding counted elsewhere and the scores
of FlashAttention never written to memory at decode (one query row per sequence is kept on chip).

Each matmul reads its weights once per step (``weight_bytes`` per element) and reads and writes
its activations (``activation_bytes``); attention reads every sequence's K or V cache once
(``kv_bytes``). Under tensor parallelism each chip holds ``1/chips`` of the heads and of the MLP.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.estimator.derivation import num, step

#: RMSNorm per element: square, sum, scale by the inverse root, multiply by the weight (about 4 FLOP).
NORM_FLOPS_PER_ELEMENT = 4


@dataclass(frozen=True)
class LayerOp:
    """One operation of a layer: FLOPs and bytes moved to and from main memory, per chip."""

    name: str
    flops: float
    n_bytes: float
    #: Whether it runs on the tensor cores (a matmul) or the vector units (a norm).
    tensor: bool = True


def _matmul(
    name: str, *, tokens: int, k: float, n: float, weight_bytes: float, activation_bytes: float
) -> LayerOp:
    flops = step(
        f"{name} FLOPs",
        "2 · tokens · k · n",
        f"2 · {num(tokens)} · {num(k)} · {num(n)}",
        2 * tokens * k * n,
        "FLOP",
    )
    n_bytes = step(
        f"{name} bytes",
        "k · n · weight bytes + tokens · (k + n) · activation bytes",
        f"{num(k)} · {num(n)} · {num(weight_bytes)} + {num(tokens)} · ({num(k)} + {num(n)}) · "
        f"{num(activation_bytes)}",
        k * n * weight_bytes + tokens * (k + n) * activation_bytes,
        "B",
    )
    return LayerOp(name, flops, n_bytes)


def decode_layer_ops(
    *,
    batch_size: int,
    context_len: int,
    d_model: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    d_ff: int,
    weight_bytes: float,
    activation_bytes: float,
    kv_bytes: float,
    gated_mlp: bool = True,
    n_chips: int = 1,
) -> tuple[LayerOp, ...]:
    """The operations of one layer in a decode step (one new token per sequence), per chip.

    QKV projection, attention scores (q · Kᵀ over the context), attention over the values, output
    projection, MLP up, gate (gated MLPs only) and down, and the two RMSNorms. Ignores the rotary
    embedding, softmax and residual adds (element-wise, a few FLOP per score or element).
    """
    heads = n_heads / n_chips
    # A KV head is split over the chips until there are more chips than KV heads; then it is replicated.
    kv_heads = n_kv_heads / min(n_chips, n_kv_heads)
    ff = d_ff / n_chips
    b, c, hd = batch_size, context_len, head_dim
    ops = [
        _matmul(
            "QKV projection",
            tokens=b, k=d_model, n=(heads + 2 * kv_heads) * hd,
            weight_bytes=weight_bytes, activation_bytes=activation_bytes,
        ),
    ]  # fmt: skip
    scores_flops = step(
        "Attention scores FLOPs", "2 · batch · heads · head dim · context",
        f"2 · {num(b)} · {num(heads)} · {num(hd)} · {num(c)}", 2 * b * heads * hd * c, "FLOP",
    )  # fmt: skip
    scores_bytes = step(
        "Attention scores bytes",
        "batch · context · KV heads · head dim · KV bytes (the K cache) "
        "+ batch · heads · head dim · activation bytes",
        f"{num(b)} · {num(c)} · {num(kv_heads)} · {num(hd)} · {num(kv_bytes)} + "
        f"{num(b)} · {num(heads)} · {num(hd)} · {num(activation_bytes)}",
        b * c * kv_heads * hd * kv_bytes + b * heads * hd * activation_bytes,
        "B",
    )
    ops.append(LayerOp("Attention scores", scores_flops, scores_bytes))
    values_flops = step(
        "Attention over values FLOPs", "2 · batch · heads · context · head dim",
        f"2 · {num(b)} · {num(heads)} · {num(c)} · {num(hd)}", 2 * b * heads * c * hd, "FLOP",
    )  # fmt: skip
    values_bytes = step(
        "Attention over values bytes",
        "batch · context · KV heads · head dim · KV bytes (the V cache) "
        "+ batch · heads · head dim · activation bytes",
        f"{num(b)} · {num(c)} · {num(kv_heads)} · {num(hd)} · {num(kv_bytes)} + "
        f"{num(b)} · {num(heads)} · {num(hd)} · {num(activation_bytes)}",
        b * c * kv_heads * hd * kv_bytes + b * heads * hd * activation_bytes,
        "B",
    )
    ops.append(LayerOp("Attention over values", values_flops, values_bytes))
    sizes = {"weight_bytes": weight_bytes, "activation_bytes": activation_bytes}
    ops.append(_matmul("Output projection", tokens=b, k=heads * hd, n=d_model, **sizes))
    ops.append(_matmul("MLP up", tokens=b, k=d_model, n=ff, **sizes))
    if gated_mlp:
        ops.append(_matmul("MLP gate", tokens=b, k=d_model, n=ff, **sizes))
    ops.append(_matmul("MLP down", tokens=b, k=ff, n=d_model, **sizes))
    norm_flops = step(
        "Norms FLOPs", f"2 norms · batch · d · {NORM_FLOPS_PER_ELEMENT}",
        f"2 · {num(b)} · {num(d_model)} · {NORM_FLOPS_PER_ELEMENT}",
        2 * b * d_model * NORM_FLOPS_PER_ELEMENT, "FLOP",
    )  # fmt: skip
    norm_bytes = step(
        "Norms bytes",
        "2 norms · (2 · batch · d · activation bytes + d · weight bytes)",
        f"2 · (2 · {num(b)} · {num(d_model)} · {num(activation_bytes)} + "
        f"{num(d_model)} · {num(weight_bytes)})",
        2 * (2 * b * d_model * activation_bytes + d_model * weight_bytes),
        "B",
    )
    ops.append(LayerOp("Norms", norm_flops, norm_bytes, tensor=False))
    return tuple(ops)


def cost_per_million_tokens(*, price_per_chip_hour: float, n_chips: int, tokens_per_second: float) -> float:
    """Dollars per million generated tokens: price per chip-hour · chips / (3,600 · tokens/s) · 10⁶.

    Counts only the chips' rental while they generate at ``tokens_per_second`` (all sequences, all
    chips); ignores idle time, the prefill's share and everything around the chips.
    """
    return step(
        "Cost per million tokens",
        "price per chip-hour · chips / (3,600 s · tokens per second) · 10⁶",
        f"{num(price_per_chip_hour)} · {num(n_chips)} / (3,600 · {num(tokens_per_second)}) · 10⁶",
        price_per_chip_hour * n_chips / (3600 * tokens_per_second) * 1e6,
        "",
    )
