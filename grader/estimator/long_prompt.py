"""Long prompts: prefill FLOPs with causal attention counted, and the prompt where attention matches 2P.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
2 · P FLOPs per token ignores attention; over a prompt of T tokens, causal attention adds
Q·Kᵀ and A·V for every earlier position: 4 · L · heads · head_dim per pair, T²/2 pairs, the
count the FlashAttention papers use for a causal forward pass (Dao, 2023).
"""

from __future__ import annotations

from grader.estimator.derivation import num, step


def prefill_attention_flops(*, n_layers: int, n_heads: int, head_dim: int, prompt_tokens: int) -> float:
    """Causal attention FLOPs of a whole prefill: 2 · L · T² · heads · head_dim.

    Each of the T queries scores the positions up to it (T²/2 pairs in all) and sums their values,
    2 FLOPs per multiply-add, 4 · heads · head_dim per pair and layer. Counts query heads (GQA
    shares K and V, not the scores); ignores softmax and sliding windows.
    """
    return step(
        "Causal attention FLOPs of the prefill",
        "2 · layers · T² · heads · head dim",
        f"2 · {num(n_layers)} · {num(prompt_tokens)}² · {num(n_heads)} · {num(head_dim)}",
        2 * n_layers * prompt_tokens**2 * n_heads * head_dim,
        "FLOP",
    )


def prefill_flops_with_attention(
    *, n_params: float, n_layers: int, n_heads: int, head_dim: int, prompt_tokens: int
) -> float:
    """Prefill FLOPs with attention counted: 2 · P · T + 2 · L · T² · heads · head_dim.

    The linear term is the weight matmuls (kipply's 2P per token); the quadratic one is causal
    attention (:func:`prefill_attention_flops`), which a long prompt makes dominant.
    """
    linear = step(
        "Weight FLOPs of the prefill",
        "2 · P · T",
        f"2 · {num(n_params)} · {num(prompt_tokens)}",
        2 * n_params * prompt_tokens,
        "FLOP",
    )
    quadratic = prefill_attention_flops(
        n_layers=n_layers, n_heads=n_heads, head_dim=head_dim, prompt_tokens=prompt_tokens
    )
    return step(
        "Prefill FLOPs with attention",
        "weight FLOPs + attention FLOPs",
        f"{num(linear)} + {num(quadratic)}",
        linear + quadratic,
        "FLOP",
    )


def prefill_attention_parity_tokens(*, n_params: float, n_layers: int, n_heads: int, head_dim: int) -> float:
    """Prompt length where a causal prefill's attention FLOPs equal its 2 · P · T: P / (L · heads · head_dim).

    Solves 2 · L · T² · heads · head_dim = 2 · P · T. Twice
    :func:`grader.estimator.inference.attention_parity_context`, which asks when one token's attention over
    its context matches 2P: a prompt's tokens see half the prompt on average.
    """
    return step(
        "Prompt where attention FLOPs equal 2 · P · T",
        "P / (layers · heads · head dim)",
        f"{num(n_params)} / ({num(n_layers)} · {num(n_heads)} · {num(head_dim)})",
        n_params / (n_layers * n_heads * head_dim),
        "tokens",
    )
