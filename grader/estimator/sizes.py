"""Sizes in bytes and counts: number formats, KV cache, weights, parameters, what fits in memory.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
"""

from __future__ import annotations

import math

from grader.estimator.derivation import num, qty, step
from grader.estimator.numbers import format_number

#: Bytes per element of the number formats the drills use.
DTYPE_BYTES: dict[str, float] = {
    "fp32": 4.0,
    "tf32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": 0.5,
}


def dtype_bytes(*, dtype: str) -> float:
    """Bytes per element of ``dtype`` (one of :data:`DTYPE_BYTES`); raises ``ValueError`` otherwise."""
    try:
        return DTYPE_BYTES[dtype]
    except KeyError:
        known = ", ".join(DTYPE_BYTES)
        raise ValueError(f"unknown dtype {dtype!r}: use one of {known}") from None


# --- memory: KV cache and weights -------------------------------------------------------------


def kv_cache_bytes_per_token(
    *, n_layers: int, n_kv_heads: int, head_dim: int, bytes_per_element: float
) -> float:
    """KV-cache bytes one token adds: 2 · L · kv_heads · head_dim · bytes.

    The 2 is one K and one V vector per layer and KV head. Uses KV heads, not query heads, so
    grouped-query and multi-query attention shrink it. Ignores paging slack and any
    sliding-window cap on how many tokens are kept.
    """
    value = 2 * n_layers * n_kv_heads * head_dim * bytes_per_element
    return step(
        "KV-cache bytes per token",
        "2 (K and V) · layers · KV heads · head dim · bytes per element",
        f"2 · {num(n_layers)} · {num(n_kv_heads)} · {num(head_dim)} · {qty(bytes_per_element, 'B')}",
        value,
        "B",
    )


def kv_cache_bytes(
    *,
    n_layers: int,
    n_kv_heads: int,
    head_dim: int,
    bytes_per_element: float,
    seq_len: int,
    batch_size: int = 1,
) -> float:
    """KV-cache bytes for ``batch_size`` sequences of ``seq_len`` tokens: per-token bytes · seq_len · batch.

    Ignores paging slack, sliding windows and the cache's own metadata.
    """
    per_token = kv_cache_bytes_per_token(
        n_layers=n_layers,
        n_kv_heads=n_kv_heads,
        head_dim=head_dim,
        bytes_per_element=bytes_per_element,
    )
    value = per_token * seq_len * batch_size
    return step(
        "KV-cache bytes",
        "bytes per token · sequence length · batch size",
        f"{qty(per_token, 'B')} · {num(seq_len)} · {num(batch_size)}",
        value,
        "B",
    )


def weight_bytes(*, n_params: float, bytes_per_param: float) -> float:
    """Bytes of weights: P · bytes per parameter. Ignores quantisation scales and zero points."""
    value = n_params * bytes_per_param
    return step(
        "Weight bytes",
        "parameters · bytes per parameter",
        f"{num(n_params)} · {qty(bytes_per_param, 'B')}",
        value,
        "B",
    )


def _attention_params_per_layer(*, d_model: int, n_heads: int, n_kv_heads: int, head_dim: int) -> int:
    q_and_o = 2 * d_model * n_heads * head_dim
    k_and_v = 2 * d_model * n_kv_heads * head_dim
    return q_and_o + k_and_v


def _latent_attention_params_per_layer(
    *,
    d_model: int,
    n_heads: int,
    head_dim: int,
    q_lora_rank: int,
    kv_lora_rank: int,
    qk_rope_head_dim: int,
    v_head_dim: int,
) -> int:
    """Multi-head latent attention (DeepSeek-V2/V3, as in their ``modeling_deepseek.py``).

    Queries: d · q_rank down, an RMSNorm of q_rank, q_rank · heads · (head_dim + rope) up (or one
    d · heads · (head_dim + rope) matrix without a query rank). Keys and values: d · (kv_rank + rope)
    down to the latent and the shared RoPE key, an RMSNorm of kv_rank, kv_rank · heads · (head_dim +
    v_head_dim) up. Output: heads · v_head_dim · d. ``head_dim`` is the non-RoPE query/key dimension.
    """
    qk_dim = head_dim + qk_rope_head_dim
    if q_lora_rank:
        queries = d_model * q_lora_rank + q_lora_rank + q_lora_rank * n_heads * qk_dim
    else:
        queries = d_model * n_heads * qk_dim
    latent = d_model * (kv_lora_rank + qk_rope_head_dim) + kv_lora_rank
    up = kv_lora_rank * n_heads * (head_dim + v_head_dim)
    return queries + latent + up + n_heads * v_head_dim * d_model


def _mlp_params_per_expert(*, d_model: int, d_ff: int, gated_mlp: bool) -> int:
    return (3 if gated_mlp else 2) * d_model * d_ff


def _count_params(
    *,
    n_layers: int,
    d_model: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    d_ff: int,
    vocab_size: int,
    gated_mlp: bool,
    tied_embeddings: bool,
    n_experts: int,
    experts_counted: int,
    norms_per_layer: int,
    label: str,
    n_shared_experts: int = 0,
    n_dense_layers: int = 0,
    dense_d_ff: int = 0,
    q_lora_rank: int = 0,
    kv_lora_rank: int = 0,
    qk_rope_head_dim: int = 0,
    v_head_dim: int = 0,
) -> float:
    embeddings = vocab_size * d_model * (1 if tied_embeddings else 2)
    if kv_lora_rank:
        attention = _latent_attention_params_per_layer(
            d_model=d_model,
            n_heads=n_heads,
            head_dim=head_dim,
            q_lora_rank=q_lora_rank,
            kv_lora_rank=kv_lora_rank,
            qk_rope_head_dim=qk_rope_head_dim,
            v_head_dim=v_head_dim or head_dim,
        )
    else:
        attention = _attention_params_per_layer(
            d_model=d_model, n_heads=n_heads, n_kv_heads=n_kv_heads, head_dim=head_dim
        )
    experts = experts_counted + n_shared_experts
    mlp = experts * _mlp_params_per_expert(d_model=d_model, d_ff=d_ff, gated_mlp=gated_mlp)
    # A mixture-of-experts layer also has a router: one d_model vector per routed expert.
    router = d_model * n_experts if n_experts > 1 else 0
    # The first layers of some mixtures (DeepSeek-V3: 3) keep one dense MLP of their own width.
    dense_mlp = _mlp_params_per_expert(d_model=d_model, d_ff=dense_d_ff or d_ff, gated_mlp=gated_mlp)
    n_sparse = n_layers - n_dense_layers
    # RMSNorm weights: norms_per_layer per block plus the final norm.
    norms = d_model * (norms_per_layer * n_layers + 1)
    value = embeddings + n_layers * attention + n_sparse * (mlp + router) + n_dense_layers * dense_mlp + norms
    mlp_formula = "3 · d · d_ff" if gated_mlp else "2 · d · d_ff"
    shared_text = f" + {n_shared_experts} shared" if n_shared_experts else ""
    experts_text = f"({experts_counted}{shared_text})" if n_shared_experts else str(experts_counted)
    attention_text = "latent attention" if kv_lora_rank else "attention"
    dense_text = f" + {num(n_dense_layers)} dense layers · {num(dense_mlp)}" if n_dense_layers else ""
    return step(
        label,
        f"vocab · d · ({'1' if tied_embeddings else '2'}) + layers · {attention_text} + MoE layers · "
        f"({experts_text} · {mlp_formula} + router){' + dense layers · dense MLP' if n_dense_layers else ''}"
        " + norms",
        f"{num(vocab_size)} · {num(d_model)} · {1 if tied_embeddings else 2} + {num(n_layers)} · "
        f"{num(attention)} + {num(n_sparse)} · ({num(mlp)} + {num(router)}){dense_text} + {num(norms)}",
        value,
        "",
    )


def transformer_params(
    *,
    n_layers: int,
    d_model: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    d_ff: int,
    vocab_size: int,
    gated_mlp: bool = True,
    tied_embeddings: bool = False,
    n_experts: int = 1,
    norms_per_layer: int = 2,
    n_shared_experts: int = 0,
    n_dense_layers: int = 0,
    dense_d_ff: int = 0,
    q_lora_rank: int = 0,
    kv_lora_rank: int = 0,
    qk_rope_head_dim: int = 0,
    v_head_dim: int = 0,
) -> float:
    """Total parameters of a decoder-only transformer.

    embeddings (vocab · d, doubled for an untied LM head)
    + layers · (q and o: 2 · d · heads · head_dim; k and v: 2 · d · kv_heads · head_dim;
    MLP per expert: 3 · d · d_ff gated or 2 · d · d_ff plain; router: d · experts when MoE)
    + RMSNorm weights (norms_per_layer · d per layer + d final).
    Ignores biases (qkv bias, LayerNorm bias) and positional tables: well under 1 % for the presets.

    DeepSeek-style shapes take optional keywords: ``n_shared_experts`` (experts every token uses,
    beside the routed ones), ``n_dense_layers`` (first layers with one dense MLP of width
    ``dense_d_ff``: the config's ``first_k_dense_replace`` and ``intermediate_size``; ``d_ff`` is then
    one expert's width, ``moe_intermediate_size``), and multi-head latent attention when
    ``kv_lora_rank`` is set (with ``q_lora_rank``, ``qk_rope_head_dim``, ``v_head_dim``; ``head_dim``
    is ``qk_nope_head_dim``). DeepSeek-V3's config counts 671.0e9 (its report: 671B).
    """
    return _count_params(
        n_layers=n_layers,
        d_model=d_model,
        n_heads=n_heads,
        n_kv_heads=n_kv_heads,
        head_dim=head_dim,
        d_ff=d_ff,
        vocab_size=vocab_size,
        gated_mlp=gated_mlp,
        tied_embeddings=tied_embeddings,
        n_experts=n_experts,
        experts_counted=n_experts,
        norms_per_layer=norms_per_layer,
        label="Parameters",
        n_shared_experts=n_shared_experts,
        n_dense_layers=n_dense_layers,
        dense_d_ff=dense_d_ff,
        q_lora_rank=q_lora_rank,
        kv_lora_rank=kv_lora_rank,
        qk_rope_head_dim=qk_rope_head_dim,
        v_head_dim=v_head_dim,
    )


def active_params(
    *,
    n_layers: int,
    d_model: int,
    n_heads: int,
    n_kv_heads: int,
    head_dim: int,
    d_ff: int,
    vocab_size: int,
    gated_mlp: bool = True,
    tied_embeddings: bool = False,
    n_experts: int = 1,
    n_experts_active: int = 1,
    norms_per_layer: int = 2,
    n_shared_experts: int = 0,
    n_dense_layers: int = 0,
    dense_d_ff: int = 0,
    q_lora_rank: int = 0,
    kv_lora_rank: int = 0,
    qk_rope_head_dim: int = 0,
    v_head_dim: int = 0,
) -> float:
    """Parameters used per token: as :func:`transformer_params` with only ``n_experts_active`` experts' MLPs.

    For a dense model (``n_experts == 1``) this equals :func:`transformer_params`. Shared experts
    count for every token, as do the embeddings: DeepSeek-V3's config gives 37.6e9 (its report:
    37B; its weights' README: 36.6B, leaving out the 0.9B input embedding, which is a lookup).
    """
    if n_experts_active > n_experts:
        raise ValueError(f"n_experts_active ({n_experts_active}) cannot exceed n_experts ({n_experts})")
    return _count_params(
        n_layers=n_layers,
        d_model=d_model,
        n_heads=n_heads,
        n_kv_heads=n_kv_heads,
        head_dim=head_dim,
        d_ff=d_ff,
        vocab_size=vocab_size,
        gated_mlp=gated_mlp,
        tied_embeddings=tied_embeddings,
        n_experts=n_experts,
        experts_counted=n_experts_active,
        norms_per_layer=norms_per_layer,
        label="Active parameters",
        n_shared_experts=n_shared_experts,
        n_dense_layers=n_dense_layers,
        dense_d_ff=dense_d_ff,
        q_lora_rank=q_lora_rank,
        kv_lora_rank=kv_lora_rank,
        qk_rope_head_dim=qk_rope_head_dim,
        v_head_dim=v_head_dim,
    )


# --- capacity ------------------------------------------------------------------------------


def _whole_units_beside_weights(
    *, memory_bytes: float, weight_bytes: float, bytes_per_unit: float, label: str, per: str, unit: str
) -> float:
    """⌊(memory − weights) / bytes per unit⌋, at least 0, with both steps recorded."""
    free = step(
        "Memory left for KV cache",
        "memory − weights",
        f"{qty(memory_bytes, 'B')} − {qty(weight_bytes, 'B')}",
        max(0.0, memory_bytes - weight_bytes),
        "B",
    )
    # The unrounded quotient is a step of its own: the last step but one of a whole-unit answer is
    # what a template's ``whole: true`` accepts beside the floor.
    unrounded = step(
        f"{label}, unrounded",
        f"free bytes / KV bytes per {per}",
        f"{qty(free, 'B')} / {qty(bytes_per_unit, 'B')}",
        free / bytes_per_unit,
        unit,
    )
    shown = format_number(unrounded) if unrounded < 1e4 else qty(unrounded, "")
    formula = f"⌊(memory − weights) / KV bytes per {per}⌋ (only whole ones fit)"
    return step(label, formula, f"⌊{shown}⌋", math.floor(unrounded), unit)


def kv_capacity_tokens(*, memory_bytes: float, weight_bytes: float, kv_bytes_per_token: float) -> float:
    """Whole tokens of KV cache that fit beside the weights: ⌊(memory − weights) / KV bytes per token⌋.

    At least 0. Ignores activations, the framework's reserve and fragmentation.
    """
    return _whole_units_beside_weights(
        memory_bytes=memory_bytes,
        weight_bytes=weight_bytes,
        bytes_per_unit=kv_bytes_per_token,
        label="KV-cache capacity",
        per="token",
        unit="tokens",
    )


def max_batch_size(*, memory_bytes: float, weight_bytes: float, kv_bytes_per_sequence: float) -> float:
    """Whole sequences whose KV cache fits beside the weights: ⌊(memory − weights) / KV bytes per sequence⌋.

    At least 0. Ignores activations, the framework's reserve and fragmentation.
    """
    return _whole_units_beside_weights(
        memory_bytes=memory_bytes,
        weight_bytes=weight_bytes,
        bytes_per_unit=kv_bytes_per_sequence,
        label="Max batch size",
        per="sequence",
        unit="",
    )
