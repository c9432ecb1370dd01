"""Speculative decoding: tokens per target step and the wall-clock speed-up once the draft is paid for.

Part of the estimator (:mod:`grader.estimator`): pure, keyword-only, SI units, each step recorded.
Leviathan, Kalman and Matias (2023), "Fast Inference from Transformers via Speculative Decoding":
a draft model proposes k tokens, the target checks them all in one step (as cheap as one decode
step while decode is bandwidth-bound), and each draft token is accepted with probability α.
"""

from __future__ import annotations

from grader.estimator.derivation import num, step


def speculative_tokens_per_step(*, acceptance_rate: float, n_draft: int) -> float:
    """Expected tokens per target step: (1 − α^(k+1)) / (1 − α), k + 1 at α = 1.

    The accepted prefix of the k draft tokens plus the one token the target always contributes
    (the correction at the first rejection, or a bonus token when all k pass). Leviathan et al.,
    equation (1). Assumes a constant, independent acceptance rate per token.
    """
    if acceptance_rate >= 1:
        return step(
            "Tokens per target step", "k + 1 (every draft accepted)", f"{num(n_draft)} + 1", n_draft + 1, ""
        )
    return step(
        "Tokens per target step",
        "(1 − α^(k+1)) / (1 − α)",
        f"(1 − {num(acceptance_rate)}^{num(n_draft + 1)}) / (1 − {num(acceptance_rate)})",
        (1 - acceptance_rate ** (n_draft + 1)) / (1 - acceptance_rate),
        "",
    )


def speculative_tokens_without_chain(*, acceptance_rate: float, n_draft: int) -> float:
    """The slip variant of :func:`speculative_tokens_per_step`: 1 + k · α, as if a rejection ended nothing."""
    return step(
        "Tokens per target step, each draft judged alone",
        "1 + k · α",
        f"1 + {num(n_draft)} · {num(acceptance_rate)}",
        1 + n_draft * acceptance_rate,
        "",
    )


def speculative_speedup(*, acceptance_rate: float, n_draft: int, draft_cost_ratio: float) -> float:
    """Wall-clock speed-up over plain decoding: tokens per step / (k · c + 1).

    ``draft_cost_ratio`` c is one draft step's time over one target step's. A speculative step runs
    the draft k times and the target once, k·c + 1 target-step times, for
    (1 − α^(k+1)) / (1 − α) tokens (Leviathan et al., Theorem 3.8). Below 1 when the draft is too
    slow or too often wrong. Assumes the target's check of k + 1 tokens costs one decode step, true
    while decode is bandwidth-bound (batch well under the critical batch).
    """
    tokens = speculative_tokens_per_step(acceptance_rate=acceptance_rate, n_draft=n_draft)
    return speculative_speedup_from_tokens(
        tokens_per_step=tokens, n_draft=n_draft, draft_cost_ratio=draft_cost_ratio
    )


def speculative_speedup_from_tokens(
    *, tokens_per_step: float, n_draft: int, draft_cost_ratio: float
) -> float:
    """:func:`speculative_speedup` from the tokens per target step already worked out: tokens / (k · c + 1).

    What a scenario step that builds on an earlier "tokens per step" calls, so the earlier answer is
    carried forward.
    """
    tokens = tokens_per_step
    cost = step(
        "Cost of a speculative step (in target steps)",
        "k · c + 1",
        f"{num(n_draft)} · {num(draft_cost_ratio)} + 1",
        n_draft * draft_cost_ratio + 1,
        "",
    )
    return step("Speed-up", "tokens per step / cost", f"{tokens:.4g} / {cost:.4g}", tokens / cost, "")
