"""Attention's memory traffic: standard attention against FlashAttention.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
Dao et al. (2022), "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
Algorithm 0 (standard attention): read Q and K, write the N×N scores S; read S, write the
probabilities P; read P and V, write O. FlashAttention keeps S and P in on-chip SRAM, tile by tile.
"""

from __future__ import annotations

from grader.estimator.derivation import num, qty, step


def attention_hbm_bytes(
    *,
    seq_len: int,
    n_heads: int,
    head_dim: int,
    bytes_per_element: float,
    batch_size: int = 1,
    flash: bool = False,
    n_kv_heads: int | None = None,
) -> float:
    """HBM bytes one attention layer's forward pass moves.

    (4·N·d + 4·N²) · heads · bytes · batch; with ``flash=True``, (2 · heads + 2 · KV heads) · N · d ·
    bytes · batch.

    Standard: Q, K, V read and O written (4·N·d elements per head) plus S written, read, P written,
    read (4·N²); an unfused kernel repeats K and V for every query head it serves. ``flash=True``:
    the scores never leave the chip, and FlashAttention-2 reads each KV head's K and V once for all
    the query heads that share it (``n_kv_heads``, default ``n_heads``): Q and O per query head, K
    and V per KV head, the ideal. The paper's own bound for FlashAttention is Θ(N²·d²/M) for SRAM
    size M, because K and V are read again for each block of queries; with d = 64–128 and ~100 KB of
    SRAM that is a few passes over K and V, still far below N². Ignores the softmax statistics (N
    per head) and causal masking.
    """
    n, d = seq_len, head_dim
    kv_heads = n_heads if n_kv_heads is None else n_kv_heads
    if flash:
        elements = step(
            "Elements moved (S and P stay on chip)",
            "2 · N · d · heads (Q, O) + 2 · N · d · KV heads (K, V)",
            f"2 · {num(n)} · {num(d)} · {num(n_heads)} + 2 · {num(n)} · {num(d)} · {num(kv_heads)}",
            2 * n * d * n_heads + 2 * n * d * kv_heads,
            "",
        )
        return step(
            "Attention HBM bytes",
            "elements · bytes per element · batch",
            f"{num(elements)} · {qty(bytes_per_element, 'B')} · {num(batch_size)}",
            elements * bytes_per_element * batch_size,
            "B",
        )
    per_head = step(
        "Elements moved per head",
        "4 · N · d + 4 · N² (Q, K, V, O; S and P twice)",
        f"4 · {num(n)} · {num(d)} + 4 · {num(n)}²",
        4 * n * d + 4 * n * n,
        "",
    )
    return step(
        "Attention HBM bytes",
        "elements per head · heads · bytes per element · batch",
        f"{num(per_head)} · {num(n_heads)} · {qty(bytes_per_element, 'B')} · {num(batch_size)}",
        per_head * n_heads * bytes_per_element * batch_size,
        "B",
    )


def attention_scores_bytes(
    *, seq_len: int, n_heads: int, bytes_per_element: float, batch_size: int = 1
) -> float:
    """Bytes of the N×N score matrix standard attention materialises per layer: N² · heads · bytes · batch.

    What FlashAttention never writes: at 128k tokens one head's scores in bf16 are 34 GB.
    """
    return step(
        "Score matrix bytes",
        "N² · heads · bytes per element · batch",
        f"{num(seq_len)}² · {num(n_heads)} · {qty(bytes_per_element, 'B')} · {num(batch_size)}",
        seq_len * seq_len * n_heads * bytes_per_element * batch_size,
        "B",
    )
