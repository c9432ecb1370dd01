"""KV bytes for modern layouts: DeepSeek's latent attention, sliding windows, a shared prefix.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
Multi-head latent attention (DeepSeek-V2, arXiv:2405.04434, section 2.1) caches one compressed
latent of ``kv_lora_rank`` elements and one decoupled RoPE key of ``rope_head_dim`` per layer,
shared by all heads. A sliding window (Mistral-7B-v0.1, Gemma-2) keeps only the last W tokens in
its layers. A prefix cache (vLLM's automatic prefix caching, SGLang's RadixAttention) keeps one
copy of a shared prompt prefix's KV instead of one per request.
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step


def mla_kv_bytes_per_token(
    *, n_layers: int, kv_lora_rank: int, rope_head_dim: int, bytes_per_element: float
) -> float:
    """MLA KV-cache bytes per token: layers · (latent rank + RoPE key dim) · bytes per element.

    DeepSeek-V3 in bf16: 61 · (512 + 64) · 2 = 70,272 B, against 2 · 61 · 128 heads · 128 · 2 B
    ≈ 4 MB for plain multi-head attention. DeepSeek-V2's paper writes it (d_c + d_h^R) · l, "equal
    to GQA with only 2.25 groups". Ignores any cache of up-projected keys an engine might keep.
    """
    return step(
        "MLA KV bytes per token",
        "layers · (KV latent rank + RoPE key dim) · bytes per element",
        f"{num(n_layers)} · ({num(kv_lora_rank)} + {num(rope_head_dim)}) · {num(bytes_per_element)} B",
        n_layers * (kv_lora_rank + rope_head_dim) * bytes_per_element,
        "B/token",
    )


def sliding_window_kv_bytes(
    *,
    n_layers: int,
    n_local_layers: int,
    n_kv_heads: int,
    head_dim: int,
    bytes_per_element: float,
    context_tokens: int,
    window_tokens: int,
    batch_size: int = 1,
) -> float:
    """KV bytes with sliding-window layers.

    2 · heads · head_dim · bytes · batch · (global layers · T + local layers · min(T, W)).

    Mistral-7B-v0.1 windows every layer (4,096 tokens); Gemma-2 alternates local (4,096) and
    global layers, half each. Past the window a local layer's cache stops growing. Assumes a
    rolling buffer frees what leaves the window (vLLM and Mistral's reference code do).
    ``context_tokens`` is the tokens the sequence has seen, past the window as the window allows.
    """
    per_layer_token = step(
        "KV bytes per token per layer",
        "2 · KV heads · head dim · bytes per element",
        f"2 · {num(n_kv_heads)} · {num(head_dim)} · {num(bytes_per_element)} B",
        2 * n_kv_heads * head_dim * bytes_per_element,
        "B/token",
    )
    kept = step(
        "Tokens a local layer keeps",
        "min(sequence, window)",
        f"min({num(context_tokens)}, {num(window_tokens)})",
        min(context_tokens, window_tokens),
        "tokens",
    )
    n_global = n_layers - n_local_layers
    return step(
        "KV cache bytes with sliding windows",
        "per layer-token · batch · (global layers · sequence + local layers · kept)",
        f"{qty(per_layer_token, 'B')} · {num(batch_size)} · ({num(n_global)} · {num(context_tokens)} + "
        f"{num(n_local_layers)} · {num(kept)})",
        per_layer_token * batch_size * (n_global * context_tokens + n_local_layers * kept),
        "B",
    )


def prefix_cache_bytes_saved(*, prefix_tokens: int, kv_bytes_per_token: float, n_requests: int) -> float:
    """KV bytes a shared prefix's cache saves: (requests − 1) · prefix tokens · KV bytes per token.

    One copy is kept instead of ``n_requests``. The prefill of the prefix is saved as often: a
    cached prefix costs no FLOPs after the first request. Assumes the prefix matches to the token
    and stays resident (no eviction).
    """
    per_copy = step(
        "KV bytes of one prefix copy",
        "prefix tokens · KV bytes per token",
        f"{num(prefix_tokens)} · {qty(kv_bytes_per_token, 'B')}",
        prefix_tokens * kv_bytes_per_token,
        "B",
    )
    return step(
        "KV bytes saved by the prefix cache",
        "(requests − 1) · one copy",
        f"({num(n_requests)} − 1) · {qty(per_copy, 'B')}",
        max(0, n_requests - 1) * per_copy,
        "B",
    )
